"""A page with one row of a list whose rows carry a style is still a list.

Rows of a table and items of a list are often styled by their place or
state: ``class="odd"``/``"even"``, the first one ``class="first"``, a
``featured`` one. A seed with one row shows only the first style, and its
table was no peer of the table a seed with more rows folded into a list
(their rows' classes differ): the template held two optional tables, and
a page with one row put that row's values at the top of its item, a list
collapsed to one value, while pages with more rows gave a list. Lists are
compared without their rows' classes when their rows are alike but for
them (:func:`scrapy_wrapx.induction._peers._rows`).

The family varies: the style idiom, the list's markup (table rows, list
items), the seeds' lengths (each 1 or 2, or up to 4), and the page's
length (0, 1, 2, 5).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

PRODUCTS = ["Lamp", "Chair", "Desk", "Shelf", "Stool", "Sofa", "Rug", "Bed"]

#: A row's class by its place in the list ("" for none).
STYLES: dict[str, Callable[[int], str]] = {
    "plain": lambda n: "",
    "odd/even": lambda n: "odd" if n % 2 == 0 else "even",
    "first": lambda n: "first" if n == 0 else "",
    "first and item": lambda n: "item first" if n == 0 else "item",
    "featured": lambda n: "featured" if n == 1 else "",
}
#: The list's markup: (list, row with a name and a quantity).
MARKUPS = {
    "table": ("<table class='lines'>{}</table>", "<tr{cls}><td>{name}</td><td>{qty}</td></tr>"),
    "ul": ("<ul class='lines'>{}</ul>", "<li{cls}><b>{name}</b> <i>{qty}</i></li>"),
}


def _page(index: int, count: int, style: str, markup: str) -> tuple[str, list[str]]:
    rng = random.Random(index)
    names = [f"{rng.choice(PRODUCTS)} {index}-{n}" for n in range(count)]
    block, row = MARKUPS[markup]
    rows = "".join(
        row.format(
            cls=f" class='{STYLES[style](n)}'" if STYLES[style](n) else "",
            name=name,
            qty=rng.randint(1, 9),
        )
        for n, name in enumerate(names)
    )
    lines = block.format(rows) if rows else "<p class='empty'>Nothing ordered yet.</p>"
    html = (
        "<html><body><div class='nav'><a href='/'>Home</a> <a href='/help'>Help</a></div>"
        f"<h1>Order {index}</h1>{lines}<p class='foot'>Thank you</p></body></html>"
    )
    return html, names


def _induced(pages: list[str]) -> Template:
    trees = [dom.parse(page, f"http://shop.test/o/{i}") for i, page in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


def _lists(item: dict) -> list[list[str]]:
    """The texts of each list of records in an item, record by record."""
    found = []
    for value in item.values():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            texts = []
            for record in value:
                for entry in record.values():
                    texts.extend(entry if isinstance(entry, list) else [entry])
            found.append(texts)
    return found


@pytest.mark.parametrize("markup", sorted(MARKUPS))
@pytest.mark.parametrize("style", sorted(STYLES))
@pytest.mark.parametrize("lengths", ["12121", "11211", "13241", "22222"])
def test_a_page_with_one_row_gives_a_list_of_one(markup: str, style: str, lengths: str) -> None:
    template = _induced([_page(i, int(n), style, markup)[0] for i, n in enumerate(lengths)])
    for index, count in ((60, 1), (61, 2), (62, 5)):
        html, names = _page(index, count, style, markup)
        item = item_data(extract(template, html), template)
        lists = _lists(item)
        # Every row is in one list, none at the top of the item.
        assert any(set(names) <= set(texts) for texts in lists), (count, item)
        assert not any(
            name in str(value)
            for name in names
            for key, value in item.items()
            if not _lists({key: value})
        ), item


@pytest.mark.parametrize("markup", sorted(MARKUPS))
@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_page_without_rows_has_no_list(markup: str, style: str) -> None:
    template = _induced([_page(i, int(n), style, markup)[0] for i, n in enumerate("12021")])
    html, _ = _page(70, 0, style, markup)
    extraction = extract(template, html)
    assert extraction.matched
    assert _lists(item_data(extraction, template)) == []
