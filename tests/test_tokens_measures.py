"""A text of numbers with their units, cut by separators, is one value
("26 MPG City / 34 MPG Hwy", "3 beds - 2 baths"): issue 11, units stay.
Parts that differ in words ("Zondervan / 2010 / Paperback") are still
several fields (:func:`scrapy_wrapx.induction._tokens.derive_parts`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._tokens import derive_parts

#: Units of each part of a compound measure.
UNITS = [
    ("MPG City", "MPG Hwy"),
    ("beds", "baths"),
    ("kg net", "kg gross"),
    ("in wide", "in deep", "in high"),
    ("GB RAM", "TB disk"),
]
SEPARATORS = [" / ", " - ", " | ", " \u2022 "]
PUBLISHERS = ["Zondervan", "Value Books", "Barbour", "Tyndale House", "Baker"]


def _measure(rng: random.Random, units: tuple[str, ...], separator: str) -> str:
    numbers = [
        str(rng.randrange(1, 60)) if rng.random() < 0.7 else f"{rng.randrange(1, 9)}.5"
        for _ in units
    ]
    return separator.join(f"{n} {unit}" for n, unit in zip(numbers, units, strict=True))


@pytest.mark.parametrize("seed", range(12))
def test_a_compound_measure_stays_one_value(seed: int) -> None:
    rng = random.Random(seed)
    units, separator = rng.choice(UNITS), rng.choice(SEPARATORS)
    values = list(dict.fromkeys(_measure(rng, units, separator) for _ in range(rng.choice([3, 5]))))
    if len(values) < 3:
        pytest.skip("drew the same measure twice")
    assert derive_parts(values) == [None]
    # Behind a label, the label is still cut off.
    assert derive_parts([f"Size: {v}" for v in values]) == ["Size: ", None]


@pytest.mark.parametrize("seed", range(6))
def test_parts_that_differ_in_words_are_fields(seed: int) -> None:
    rng = random.Random(seed)
    values = [
        f"{publisher} / {rng.randrange(1990, 2012)} / {rng.choice(['Paperback', 'Hardcover'])}"
        for publisher in rng.sample(PUBLISHERS, 4)
    ]
    assert derive_parts(values) == [None, " / ", None, " / ", None]


def test_items_keep_the_measure_whole() -> None:
    rng = random.Random(3)
    pages = [
        f"<html><body><h1>Car {i}</h1><div class='mpg'>{_measure(rng, UNITS[0], ' / ')}</div>"
        "</body></html>"
        for i in range(6)
    ]
    template = induce_template(pages[:5])
    extraction = extract(template, pages[5])
    assert extraction.fields["mpg"] == [pages[5].split("'mpg'>")[1].split("<")[0]]
