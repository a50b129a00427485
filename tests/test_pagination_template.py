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


#: A window of pages around the current one, which is not a link, with
#: links to the previous and next pages (the bars of most shop themes).
WINDOWS = {
    "list items": (
        "<ul class='pagination'>{}</ul>",
        "<li><a href='/kitchen?page={n}'>{text}</a></li>",
        "<li class='active'><span>{n}</span></li>",
    ),
    "links": (
        "<div class='pages'>{}</div>",
        "<a class='page' href='/kitchen/p/{n}/'>{text}</a>",
        "<strong>{n}</strong>",
    ),
}


def _window_page(rng: random.Random, idiom: str, current: int, pages: int) -> tuple[str, list[str]]:
    box, link, here = WINDOWS[idiom]
    parts = [link.format(n=current - 1, text="« Prev")] if current > 1 else []
    for n in range(max(1, current - 2), min(pages, current + 2) + 1):
        parts.append(here.format(n=n) if n == current else link.format(n=n, text=n))
    if current < pages:
        parts.append(link.format(n=current + 1, text="Next »"))
    names = [f"{rng.choice(NAMES)} {rng.randrange(1000)}" for _ in range(rng.randrange(2, 6))]
    first = rng.randrange(100, 900)
    # Products numbered one after the other, each linked twice (its
    # image and its name): no pagination, however alike their addresses.
    cards = "".join(
        f"<div class='card'><a href='/item/{first + i}'><img src='/img/{first + i}.jpg'></a>"
        f"<a href='/item/{first + i}'>{name}</a></div>"
        for i, name in enumerate(names)
    )
    html = (
        f"<html><body><h1>Kitchen</h1><div class='grid'>{cards}</div>"
        f"{box.format(''.join(parts))}<p>Copyright</p></body></html>"
    )
    return html, names


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("idiom", sorted(WINDOWS))
def test_a_window_of_pages_with_prev_and_next_is_no_data(idiom: str, seed: int) -> None:
    """Links to the pages around the current one repeat the previous and
    next ones ("« Prev", "Next »"), so their numbers do not run 1, 2, 3
    in page order; they are the list's own pages all the same (its
    address but for the number)."""
    rng = random.Random(f"{idiom}{seed}")
    url = (
        "http://shop.example/kitchen?page={}"
        if idiom == "list items"
        else ("http://shop.example/kitchen/p/{}/")
    )
    seeds = []
    for current in (1, 2, 5, 8, 9):
        seeds.append(dom.parse(_window_page(rng, idiom, current, 9)[0], url.format(current)))
    template = induce_template(seeds)
    name_template(template, seeds)
    for current in (3, 4, 9):
        html, names = _window_page(rng, idiom, current, 9)
        data = item_data(extract(template, html, url.format(current)), template)
        shown = str(data)
        assert "page=" not in shown and "/p/" not in shown and "Prev" not in shown, data
        assert all(name in shown for name in names), data
        assert "/item/" in shown, data


def test_a_number_of_thousands_of_digits_is_no_page_number() -> None:
    """Page numbers are read as numbers: one of thousands of digits is
    more than ``int`` reads (``ValueError``), and induction must not fail
    on it (a checksum, a serial number printed in full)."""
    rng = random.Random(5)
    pages = []
    for n in range(4):
        cells = "".join(
            f"<li>{value}</li>" for value in (str(n) + "9" * 5000, str(n + 1), str(n + 2))
        )
        pages.append(
            dom.parse(
                f"<html><body><h1>{rng.choice(NAMES)}</h1><ul class='codes'>{cells}</ul>"
                "</body></html>",
                f"http://shop.example/codes?page={n + 1}",
            )
        )
    template = induce_template(pages)
    name_template(template, pages)
    assert item_data(extract(template, pages[0]), template) is not None
