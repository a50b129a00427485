"""Items of one list marked by a class of their own (issue 11: all cards
are one record set): the first and last item of a list (``class="item
first"``, ``"item last"``), a featured card, the current entry. The marked
item was a record of its own, its fields scalars beside the list of the
others, and a page of one card had no list at all. A class in common and
the other classes words of place or state only
(:data:`scrapy_wrapx.induction._styles.MARK_WORDS`) make one list. Table
rows and list items need only those words, whatever optional parts each
shows: rows striped "odd"/"even" with a rating on some folded into a list
of row pairs, the odd row out in fields of its own.
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
#: Which classes the items of a list of ``n`` take, by position.
MARKS = {
    "first and last": lambda k, n: (
        "item" + (" first" if k == 0 else "") + (" last" if k == n - 1 else "")
    ),
    "featured": lambda k, n: "item featured" if k == 0 else "item",
    "active": lambda k, n: "item is-active" if k == 1 else "item",
    "odd": lambda k, n: "item odd" if k % 2 else "item",
}


def _page(rng: random.Random, count: int, marks: str) -> tuple[str, list[str]]:
    names = [f"{rng.choice(NAMES)} {rng.randrange(1000)}" for _ in range(count)]
    items = "".join(
        f"<li class='{MARKS[marks](k, count)}'><a href='/p/{rng.randrange(10**6)}'>{name}</a>"
        f" <span class='price'>${rng.randrange(5, 99)}.99</span></li>"
        for k, name in enumerate(names)
    )
    html = f"<html><body><h1>Kitchen</h1><ul class='products'>{items}</ul><p>Copyright</p></body></html>"
    return html, names


@pytest.mark.parametrize("marks", sorted(MARKS))
def test_marked_items_are_items_of_the_list(marks: str) -> None:
    rng = random.Random(marks)
    seeds = [dom.parse(_page(rng, count, marks)[0]) for count in (3, 5, 2, 6, 4)]
    template = induce_template(seeds)
    name_template(template, seeds)
    for count in (1, 2, 7):
        html, names = _page(rng, count, marks)
        data = item_data(extract(template, html), template)
        lists = [value for value in data.values() if isinstance(value, list)]
        assert len(lists) == 1, data
        assert [name for name in names if name in str(lists[0])] == names, data
        assert not [key for key, value in data.items() if not isinstance(value, list)], data


#: Rows of a list in two styles, by position, and how a row is written.
STRIPES = {
    "odd and even rows": (
        "table",
        lambda k: "odd" if k % 2 else "even",
        "<tr class='{mark}'><td><a href='/p/{id}'>{name}</a>{badge}</td><td>{price}</td>"
        "{stars}</tr>",
    ),
    "alt items": (
        "ul",
        lambda k: "alt" if k % 2 else "",
        "<li class='{mark}'>{badge}<a href='/p/{id}'>{name}</a> <b>{price}</b>{stars}</li>",
    ),
    "featured first item": (
        "ul",
        lambda k: "card featured" if k == 0 else "card",
        "<li class='{mark}'><a href='/p/{id}'>{name}</a>{badge}<b>{price}</b>{stars}</li>",
    ),
}


def _striped_page(rng: random.Random, count: int, stripes: str) -> tuple[str, list[str]]:
    """Rows with optional parts (a badge, a rating) on some only."""
    box, mark, row = STRIPES[stripes]
    rating = "<td class='stars'>{} stars</td>" if box == "table" else "<i>{} stars</i>"
    names = [f"{rng.choice(NAMES)} {rng.randrange(1000)}" for _ in range(count)]
    rows = "".join(
        row.format(
            mark=mark(k),
            id=rng.randrange(10**6),
            name=name,
            price=f"${rng.randrange(5, 99)}.99",
            badge="<span class='badge'>Sale</span>" if rng.random() < 0.3 else "",
            stars=rating.format(rng.randrange(1, 6)) if rng.random() < 0.6 else "",
        )
        for k, name in enumerate(names)
    )
    html = f"<html><body><h1>Kitchen</h1><{box} class='list'>{rows}</{box}><p>Copyright</p></body></html>"
    return html, names


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("stripes", sorted(STRIPES))
def test_rows_in_two_styles_with_optional_parts_are_one_list(stripes: str, seed: int) -> None:
    """Rows striped in two styles, or an item featured, whose optional
    parts differ from row to row: one list, not a list of row pairs and
    the odd one out in fields of its own, on a page of one row too."""
    rng = random.Random(f"{stripes}{seed}")
    seeds = [dom.parse(_striped_page(rng, rng.randint(3, 8), stripes)[0]) for _ in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)
    for count in (1, 4, 7):
        html, names = _striped_page(rng, count, stripes)
        data = item_data(extract(template, html), template)
        lists = [value for value in data.values() if isinstance(value, list)]
        assert len(lists) == 1, data
        assert [name for name in names if name in str(lists[0])] == names, data
