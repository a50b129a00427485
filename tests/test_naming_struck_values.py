"""A value struck through is the old one (issue 11: names a person would
pick, names that stay). A shop shows the price before a sale struck
through beside the price now: ``<div class="price"><s>$107.00</s>
$47.99</div>``. Both texts took their name from the element's class, and
the first one in the page got the plain name: ``price`` held the old price
and ``price_2`` the price now on a site whose seeds showed a sale, while on
a site whose seeds did not, ``price`` held the price now.

A text in ``<s>``, ``<strike>`` or ``<del>`` is named ``old_`` and what its
element's words say; the price beside it keeps the plain name. A label of
its own ("Was:") still names it. Pages come from a generator."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

WORDS = ["Alpha", "Bravo", "Delta", "Echo", "Golf", "Hotel", "India", "Kilo"]


def _page(rng: random.Random, tag: str, sale: bool) -> tuple[str, str, str | None]:
    now = f"${rng.randint(5, 99)}.99"
    was = f"${rng.randint(100, 199)}.00" if sale else None
    struck = f"<{tag}>{was}</{tag}> " if was else ""
    name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randint(1, 999)}"
    html = (
        f"<html><body><h1>{name}</h1><div class='price'>{struck}{now}</div>"
        f"<p class='desc'>{' '.join(rng.choice(WORDS) for _ in range(8))}</p></body></html>"
    )
    return html, now, was


@pytest.mark.parametrize("tag", ["s", "strike", "del"])
@pytest.mark.parametrize("seed", range(3))
def test_the_price_now_is_price_and_the_struck_one_old_price(tag: str, seed: int) -> None:
    rng = random.Random(seed)
    # Seeds with and without a sale, the one with a sale first.
    pages = [_page(rng, tag, sale)[0] for sale in (True, False, True, False, False)]
    trees = [dom.parse(html) for html in pages]
    template = induce_template(trees)
    name_template(template, trees)
    for sale in (True, False):
        html, now, was = _page(rng, tag, sale)
        item = item_data(extract(template, html), template)
        assert item["price"] == now, item
        assert item.get("old_price") == was, item


@pytest.mark.parametrize("seed", range(3))
def test_seeds_without_a_sale_name_the_price_now_the_same(seed: int) -> None:
    """The name of the price now does not depend on whether the seeds
    happened to show a sale."""
    rng = random.Random(seed)
    pages = [_page(rng, "s", False)[0] for _ in range(5)]
    trees = [dom.parse(html) for html in pages]
    template = induce_template(trees)
    name_template(template, trees)
    html, now, _ = _page(rng, "s", False)
    assert item_data(extract(template, html), template)["price"] == now
