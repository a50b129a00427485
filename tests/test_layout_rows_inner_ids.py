"""The rows of a layout table are the page's parts when what each holds has
an id of its own.

A product page stacks its sections in the rows of one table, every row
alike (``<tr><td valign='top'>``), each holding one section named by an
id (``<div id='availability'>``), some sections on some pages only. The
rows looked like a list: every section's fields were lists inside a
record set named after the table, and a section's text that every seed
happened to share was no latent value. Keyed by the ids inside them, the
rows are parts, each shown once and in one order, so their fields are
the page's own.

Look-alikes that stay lists: rows of records whose ids are each record's
own (no two pages share them), and a list of tabs, each with a link of an
id of its own, where one seed shows a tab no other seed does.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

PRODUCTS = ["Lamp", "Chair", "Desk", "Shelf", "Stool", "Sofa"]
CARRIERS = ["UPS", "DHL", "FedEx", "USPS"]

#: Sections, each a function of a random source to (its values, its markup).
SECTIONS = {
    "price-box": lambda rng: _labelled(
        rng, "Price", f"${rng.randint(10, 400)}.{rng.randint(0, 99):02d}"
    ),
    "availability": lambda rng: _sentence(rng, "Ships in", f"{rng.randint(2, 9)} days"),
    "delivery": lambda rng: _labelled(rng, "Carrier", rng.choice(CARRIERS)),
    "promo": lambda rng: _sentence(rng, "Save", f"{rng.randint(5, 40)}% today"),
}


def _labelled(rng: random.Random, label: str, value: str) -> tuple[list[str], str]:
    return [value], f"<table><tr><td class='lbl'>{label}:</td><td><b>{value}</b></td></tr></table>"


def _sentence(rng: random.Random, lead: str, value: str) -> tuple[list[str], str]:
    return [value], f"<span class='note'>{lead} <b>{value}</b></span>"


def _page(index: int, shown: list[str], wrap: str) -> tuple[str, list[str]]:
    """A page whose sections are rows of a layout table, the id on the
    section's element in the cell (``div``) or one level further down."""
    rng = random.Random(index)
    title = f"{rng.choice(PRODUCTS)} {index}"
    wanted: list[str] = []
    rows = ""
    for section, make in SECTIONS.items():
        if section not in shown:
            continue
        values, markup = make(rng)
        wanted.extend(values)
        inner = f"<div id='{section}'>{markup}</div>"
        if wrap == "deeper":
            inner = f"<div id='{section}-outer'><div class='inner'>{markup}</div></div>"
        rows += f"<tr><td valign='top' width='100%'>{inner}</td></tr>"
    html = (
        f"<html><body><h1>{title}</h1><table border='0' class='buy'>{rows}</table>"
        "<p>Footer</p></body></html>"
    )
    return html, wanted


def _induced(pages: list[str]) -> Template:
    urls = [f"http://shop.test/p/{i}" for i in range(len(pages))]
    trees = [dom.parse(html, url) for html, url in zip(pages, urls, strict=True)]
    template = induce_template(trees, urls=urls)
    name_template(template, trees)
    return template


def _item(template: Template, html: str) -> dict:
    return item_data(extract(template, html, "http://shop.test/p/new"), template)


def _top_values(item: dict) -> set[str]:
    return {value for value in item.values() if isinstance(value, str)}


def _list_values(item: dict) -> list[set[str]]:
    """The values of each list of records, and of each list of values."""
    found = []
    for value in item.values():
        if isinstance(value, list):
            values: set[str] = set()
            for entry in value:
                if isinstance(entry, dict):
                    values |= {v for v in entry.values() if isinstance(v, str)}
                else:
                    values.add(entry)
            found.append(values)
    return found


SHOWN = [
    # Every section on two seeds or more; the price box on all.
    ["price-box availability delivery promo", "price-box", "price-box delivery",
     "price-box availability promo", "price-box availability delivery promo"],
    ["price-box availability", "price-box delivery", "price-box availability delivery",
     "price-box promo", "price-box delivery promo"],
    ["price-box availability delivery promo"] * 2 + ["price-box"] * 3,
]  # fmt: skip


@pytest.mark.parametrize("wrap", ["div", "deeper"])
@pytest.mark.parametrize("shown", SHOWN)
def test_layout_rows_named_by_the_ids_inside_them_are_parts(shown: list[str], wrap: str) -> None:
    template = _induced([_page(i, s.split(), wrap)[0] for i, s in enumerate(shown)])
    for index, sections in (
        (40, list(SECTIONS)),
        (41, ["price-box", "delivery"]),
        (42, ["price-box"]),
    ):
        html, wanted = _page(index, sections, wrap)
        item = _item(template, html)
        assert set(wanted) <= _top_values(item), item
        assert not _list_values(item), item


def _records_page(index: int, count: int) -> tuple[str, list[str]]:
    """Offers in the rows of a table, each in a div with the offer's own id."""
    rng = random.Random(index)
    names = [f"{rng.choice(PRODUCTS)} offer {index}-{n}" for n in range(count)]
    rows = "".join(
        f"<tr><td valign='top'><div id='offer-{rng.randrange(10**6)}'>"
        f"<a href='/o/{index}/{n}'>{name}</a></div></td></tr>"
        for n, name in enumerate(names)
    )
    return f"<html><body><h1>Offers {index}</h1><table>{rows}</table></body></html>", names


@pytest.mark.parametrize("counts", [(1, 2, 1, 2, 1), (2, 3, 2, 2, 2), (1, 2, 2, 3, 2)])
def test_rows_of_records_with_ids_of_their_own_stay_a_list(counts: tuple[int, ...]) -> None:
    template = _induced([_records_page(i, count)[0] for i, count in enumerate(counts)])
    for index, count in ((61, 1), (62, 2), (63, 5)):
        html, wanted = _records_page(index, count)
        item = _item(template, html)
        assert any(set(wanted) <= values for values in _list_values(item)), item


TABS = ["also-available", "series", "bundles", "editions"]


def _tabs_page(index: int, tabs: list[str]) -> tuple[str, list[str]]:
    """Tabs of categories of related items, each a link with an id."""
    links = "".join(
        f"<li><a class='tab' id='tab-{tab}' href='/p/{index}?cat={tab}&n={index * 7 + n}'>"
        f"{tab.replace('-', ' ').title()}</a></li>"
        for n, tab in enumerate(tabs)
    )
    urls = [f"/p/{index}?cat={tab}&n={index * 7 + n}" for n, tab in enumerate(tabs)]
    html = (
        f"<html><body><h1>Book {index}</h1><ul class='tabs'>{links}</ul>"
        f"<p>About book {index}</p></body></html>"
    )
    return html, urls


def test_tabs_one_seed_shows_stay_a_list() -> None:
    shown = [["also-available", "series"], ["also-available"], ["also-available", "bundles"],
             ["also-available"], ["also-available", "editions"]]  # fmt: skip
    template = _induced([_tabs_page(i, tabs)[0] for i, tabs in enumerate(shown)])
    html, urls = _tabs_page(70, ["also-available", "series"])
    item = _item(template, html)
    values = set().union(*_list_values(item), _top_values(item))
    assert set(urls) <= values, item
