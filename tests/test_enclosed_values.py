"""A value every page encloses in the same quotes or brackets, after the
same fixed text (``Read all reviews for "Dune"``, ``Edition (2010)``), is the
text inside them: the pair is template, as the words before it are. A value
that only some pages quote keeps what it shows."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

TITLES = ["Dune", "Emma", "Ubik", "The Left Hand of Darkness", "Kindred", "Beloved", "It's Late"]
PAIRS = [('"', '"'), ("\u201c", "\u201d"), ("(", ")"), ("[", "]"), ("\u00ab", "\u00bb")]
LEADS = ["Read all reviews for ", "Questions about ", "Also available: "]


def _page(rng: random.Random, lead: str, pair: tuple[str, str], title: str) -> str:
    other = rng.randrange(1000)
    return (
        f"<body><h1>{title}</h1><p>Item {other}</p>"
        f"<div class='more'><a href='/r/{other}'>{lead}{pair[0]}{title}{pair[1]}</a></div>"
        "<p>Footer</p></body>"
    )


@pytest.mark.parametrize("seed", range(12))
def test_the_enclosing_pair_is_template(seed: int) -> None:
    rng = random.Random(seed)
    lead, pair = rng.choice(LEADS), rng.choice(PAIRS)
    seeds = [_page(rng, lead, pair, title) for title in rng.sample(TITLES, 4)]
    template = induce_template(seeds)
    title = rng.choice(TITLES)
    extraction = extract(template, _page(rng, lead, pair, title))
    values = [v.strip() for vs in extraction.fields.values() for v in vs]
    assert title in values
    assert not any(pair[0] in v or v.endswith(pair[1]) for v in values if title in v), values


def test_a_value_only_some_pages_quote_keeps_its_quotes() -> None:
    rng = random.Random(7)
    seeds = [
        _page(rng, "For ", ('"', '"'), "Dune"),
        _page(rng, "For ", ("", ""), "Emma"),
        _page(rng, "For ", ('"', '"'), "Ubik"),
        _page(rng, "For ", ("", ""), "Kindred"),
    ]
    template = induce_template(seeds)
    extraction = extract(template, _page(rng, "For ", ('"', '"'), "Beloved"))
    values = [v.strip() for vs in extraction.fields.values() for v in vs]
    assert any('"Beloved"' in v for v in values), values
