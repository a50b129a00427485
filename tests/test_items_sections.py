"""Rows that look alike but hold different data are sections of the page,
not a list (issue 11: the shape users expect). A price box whose rows are
the list price, the regular price, our price and the saving, each row a
``<tr id=rN>`` of its position: induction finds a set of alike rows, and
the item held ``msrp_price_list: [{"msrp_price": ...}, {"price": ...}]``,
a page's scalars in a list ordered by its layout. Such a set's data goes
in the item (or record) around it; a list whose records repeat a field
(reviews) stays a list.

Pages come from a generator: three row markups (the table's rows form a
set, the others are aligned row by row: either way the item holds the
prices as scalars), rows a page leaves out, and reviews beside the box."""

from __future__ import annotations

import random
import re

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.induction._sections import SECTIONS
from scrapy_wrapx.induction.item_shape import ItemShape, item_shape
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

#: The kinds of rows a price box may show, in its order: label, value
#: markup, and the pattern the value fits.
KINDS = [
    ("List Price:", "<s><span>${d}{e}.00</span></s>", r"^\$\d\d\.00$"),
    ("Regular Price:", "<del><span>${d}{e}.50</span></del>", r"^\$\d\d\.50$"),
    ("Price:", "<span class='big'>${d}{e}.99</span>", r"^\$\d\d\.99$"),
    ("You Save:", "<span class='red'>{d}{e}%</span>", r"^\d\d%$"),
]
#: How the box and a row are marked up (``n``: the row's position).
IDIOMS = {
    "tr": (
        "<table class='box'>{}</table>",
        "<tr id='r{n}'><td colspan='2'><table><tr><td class='lbl'>{label}</td>"
        "<td>{value}</td></tr></table></td></tr>",
    ),
    "div": (
        "<div class='box'>{}</div>",
        "<div id='row{n}' class='row'><b>{label}</b> {value}</div>",
    ),
    "li": ("<ul class='box'>{}</ul>", "<li id='item{n}'><em>{label}</em><div>{value}</div></li>"),
}
#: The rows of each seed's box.
SEED_ROWS = [[0, 1, 2, 3], [1, 2], [0, 1, 2], [0, 2, 3], [1, 2, 3]]
SYLLABLES = "bcdfgklmnprst"


def _page(rng: random.Random, name: str, idiom: str, rows: list[int], reviews: int) -> str:
    box, row = IDIOMS[idiom]
    shown = "".join(
        row.format(
            n=n,
            label=KINDS[kind][0],
            value=KINDS[kind][1].format(d=rng.randint(1, 9), e=rng.randint(0, 9)),
        )
        for n, kind in enumerate(rows)
    )
    listed = "".join(
        f"<div class='review'><b class='who'>{_word(rng)}</b><p class='said'>"
        f"{_word(rng)} is {rng.choice(['fine', 'great', 'poor', 'ok'])}</p></div>"
        for _ in range(reviews)
    )
    return (
        f"<html><head><title>{name}</title></head><body><h1>{name}</h1>{box.format(shown)}"
        f"<div class='reviews'><h2>Reviews</h2>{listed}</div>"
        "<p class='foot'>Copyright Shop</p></body></html>"
    )


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) + rng.choice("aeiou") for _ in range(3)).title()


def _induced(rng: random.Random, idiom: str) -> Template:
    pages = [
        _page(rng, _word(rng), idiom, rows, reviews=1 + n % 3) for n, rows in enumerate(SEED_ROWS)
    ]
    trees = [dom.parse(html, f"http://shop.example/p/{n}") for n, html in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


def _kind(value: object) -> int | None:
    return next(
        (n for n, kind in enumerate(KINDS) if isinstance(value, str) and re.match(kind[2], value)),
        None,
    )


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(3))
def test_rows_of_different_data_are_the_items_scalars(idiom: str, seed: int) -> None:
    rng = random.Random(seed)
    template = _induced(rng, idiom)
    keys: dict[int, set[str]] = {}
    for rows in ([0, 1, 2, 3], [2], [0, 2], [1, 2, 3], [0, 1, 2]):
        html = _page(rng, "Iron Pan", idiom, rows, reviews=3)
        item = item_data(extract(template, html, "http://shop.example/p/99"), template)
        prices = {key: value for key, value in item.items() if _kind(value) is not None}
        assert sorted(_kind(value) for value in prices.values()) == rows, item  # type: ignore[type-var]
        for key, value in prices.items():
            keys.setdefault(_kind(value), set()).add(key)  # type: ignore[arg-type]
        # The reviews repeat their fields: a list of three records still.
        assert [len(v) for v in item.values() if isinstance(v, list)] == [3], item
    # One key per kind of row, whatever rows a page shows.
    assert all(len(names) == 1 for names in keys.values()), keys


def test_the_rows_of_a_set_are_noted_as_sections_and_shown_as_single_values() -> None:
    from scrapy_wrapx.commands._show import template_schema

    template = _induced(random.Random(0), "tr")
    assert template.meta.get(SECTIONS)
    shape = item_shape(template)
    assert shape.sections and not shape.sections & {"review_list", "reviews"}
    # ``scrapy wrapx show`` says what the items hold: one value each.
    rows = [line.split() for line in template_schema(template).splitlines()[1:]]
    marks = {row[1]: row[2] for row in rows if len(row) > 2}
    prices = [name for name in template.field_names if "price" in name or "save" in name]
    assert prices and all(marks[name] == "1" for name in prices), marks


def test_a_shape_keeps_its_sections_and_reads_older_shapes() -> None:
    template = _induced(random.Random(0), "tr")
    shape = item_shape(template)
    assert ItemShape.from_dict(shape.to_dict()) == shape
    older = shape.to_dict()
    del older["sections"]
    assert ItemShape.from_dict(older).sections == frozenset()
    # A foreign or stale note names no set.
    template.meta[SECTIONS] = ["price", 10**6]
    assert item_shape(Template.from_json(template.to_json())).sections == frozenset()
