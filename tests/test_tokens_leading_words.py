"""A capitalized word before a number is the number's own ("Title 1095");
only a leading label with its colon ("Title: 1095") is template
(:func:`scrapy_wrapx.induction._tokens.derive_parts`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._tokens import derive_parts

WORDS = ["Title", "Room", "Vol", "ISBN", "Model", "Track", "Gate"]


def _numbers(rng: random.Random, count: int) -> list[str]:
    return [str(n) for n in rng.sample(range(1, 99999), count)]


@pytest.mark.parametrize("seed", range(20))
def test_a_capitalized_word_before_a_number_stays(seed: int) -> None:
    rng = random.Random(seed)
    word = rng.choice(WORDS)
    numbers = _numbers(rng, rng.choice([3, 4, 6]))
    tail = rng.choice(["", " (new)", " pages"])
    assert derive_parts([f"{word} {n}{tail}" for n in numbers]) == [None]
    assert derive_parts([f"{word}: {n}{tail}" for n in numbers])[0] == f"{word}: "


@pytest.mark.parametrize("seed", range(8))
def test_items_keep_the_word(seed: int) -> None:
    rng = random.Random(seed)
    word = rng.choice(WORDS)
    numbers = _numbers(rng, 5)
    colon = rng.random() < 0.5
    lead = f"{word}: " if colon else f"{word} "
    where = rng.choice(["h1", "p", "span"])

    def page(number: str) -> str:
        return f"<body><div><{where}>{lead}{number}</{where}></div><p>Shop</p></body>"

    template = induce_template([page(n) for n in numbers[:4]])
    values = [v for vs in extract(template, page(numbers[4])).fields.values() for v in vs]
    assert values == ([numbers[4]] if colon else [f"{word} {numbers[4]}"])


def test_a_lowercase_lead_word_is_still_cut() -> None:
    assert derive_parts(["by 1095", "by 22", "by 407"]) == ["by ", None]
