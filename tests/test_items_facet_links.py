"""A menu of links whose words are template ("Paperback", "Under $10")
and whose addresses carry the page's category is navigation, even in a
block only some seeds show: two seeds agreeing on it, the page's own
tokens normalised, are enough. A link whose words vary is data."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.unsupervised.items import build_item

FACETS = ["Paperback", "Hardcover", "Under $10", "In Stock", "Large Print"]
TITLES = ["Dune", "Emma", "Ubik", "Solaris", "Kindred", "Beloved"]


def _page(rng: random.Random, title: str, facets: bool) -> str:
    category = rng.randrange(10**9, 10**10)  # a per-page token (see _pagetokens)
    author = rng.choice(["Frank Herbert", "Jane Austen", "Philip K. Dick", "Octavia Butler"])
    menu = "".join(
        f"<li><a href='/find?N={category}+{5200 + n}&Ne=20'>{facet}</a></li>"
        for n, facet in enumerate(FACETS)
    )
    return (
        f"<html><body><a href='/cat/{category}'>Back to category</a>"
        + (f"<ul class='refine'>{menu}</ul>" if facets else "")
        + f"<h1>{title}</h1><p class='by'>by <a href='/author/{author.replace(' ', '-')}'>"
        f"{author}</a></p><span class='price'>${rng.randrange(5, 40)}.99</span>"
        "</body></html>"
    )


@pytest.mark.parametrize("seed", range(8))
def test_a_facet_menu_is_no_data(seed: int) -> None:
    rng = random.Random(seed)
    shown = rng.sample(range(5), 2)
    seeds = [_page(rng, TITLES[i], i in shown) for i in range(5)]
    template = induce_template(seeds)
    extraction = extract(template, _page(rng, TITLES[5], True))
    item = build_item(None, "", "", 1, extraction, template)
    text = str(item)
    assert "/find?" not in text, item
    assert "/author/" in text and TITLES[5] in text
