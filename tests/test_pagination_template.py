"""A list page's pagination is navigation, not data (issue 11: template,
not data): its page numbers and the links to those pages differ in
length from page to page, so they never were the same on every seed, and
every item carried them. A field whose values run 1, 2, 3 (or whose link
targets differ only by such a number) on a seed is template; a gallery's
numbered images stay.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

NAMES = ["Red Kettle", "Blue Mug", "Oak Table", "Tin Lamp", "Wool Rug", "Glass Jar", "Iron Pan"]
#: How a page links to the pages of the list.
PAGERS = {
    "query": "<a href='/kitchen?page={n}'>{n}</a>",
    "path": "<a href='/kitchen/p/{n}/'>{n}</a>",
    "items": "<li><a href='/kitchen?sort=price&amp;page={n}&amp;s=abc'>{n}</a></li>",
}


def _page(rng: random.Random, pager: str, pages: int) -> tuple[str, list[str]]:
    names = [f"{rng.choice(NAMES)} {rng.randrange(1000)}" for _ in range(rng.randrange(2, 6))]
    cards = "".join(
        f"<div class='card'><a href='/p/{rng.randrange(10**6)}'>{name}</a>"
        f"<span class='price'>${rng.randrange(5, 99)}.99</span></div>"
        for name in names
    )
    links = "".join(PAGERS[pager].format(n=n) for n in range(1, pages + 1))
    gallery = "".join(f"<img src='/img/kitchen/{n}.jpg'>" for n in range(1, rng.randrange(2, 5)))
    html = (
        f"<html><body><h1>Kitchen</h1><div class='gallery'>{gallery}</div>"
        f"<div class='grid'>{cards}</div><div class='pager'>{links}</div>"
        "<p>Copyright</p></body></html>"
    )
    return html, names


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("pager", sorted(PAGERS))
def test_page_numbers_are_no_data(pager: str, seed: int) -> None:
    rng = random.Random(f"{pager}{seed}")
    seeds = [dom.parse(_page(rng, pager, pages)[0]) for pages in (3, 5, 2, 6, 4)]
    template = induce_template(seeds)
    name_template(template, seeds)
    for pages in (1, 2, 9):
        html, names = _page(rng, pager, pages)
        data = item_data(extract(template, html), template)
        shown = str(data)
        assert "page=" not in shown and "/p/2/" not in shown, data
        assert all(name in shown for name in names), data
        assert "/img/kitchen/1.jpg" in shown, data
