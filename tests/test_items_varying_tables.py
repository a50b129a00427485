"""A table whose columns vary from page to page is read by its header
(issue 11: a table with a header row becomes records keyed by its header
cells). A variants table shows Size, Color, Price and Stock on one page and
Size, Price, Stock on the next: the template's cells by position held the
sizes under ``price`` and the header's first cell as a field. Its records
are keyed by the page's own header cells now, a heading row across the
table names the rows below it, and a cell's link goes under ``<key>_url``.

Pages come from a generator: column subsets, 0, 1 or many rows, the header
in a ``<thead>`` or in the first row, section rows, links in cells."""

from __future__ import annotations

import random
import re

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.extraction._tables import header_records
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

#: The columns a table may show: header, key, a value maker, its pattern.
COLUMNS = [
    ("Size", "size", lambda r: r.choice(["S", "M", "L", "XL"]), r"^(S|M|L|XL)$"),
    ("Color", "color", lambda r: r.choice(["Red", "Blue", "Teal"]), r"^(Red|Blue|Teal)$"),
    ("Price", "price", lambda r: f"${r.randint(5, 60)}.{r.randint(10, 99)}", r"^\$\d+\.\d\d$"),
    ("In stock", "in_stock", lambda r: f"{r.randint(0, 40)} left", r"^\d+ left$"),
]
#: Each seed's columns and rows.
SEEDS = [([0, 1, 2, 3], 3), ([0, 2, 3], 2), ([0, 1, 2, 3], 4), ([1, 2, 3], 2), ([0, 1, 2], 3)]


def _page(
    rng: random.Random, name: str, columns: list[int], rows: int, thead: bool, section: bool
) -> str:
    head = "<tr>" + "".join(f"<th>{COLUMNS[c][0]}</th>" for c in columns) + "</tr>"
    body = "".join(
        "<tr>" + "".join(f"<td>{COLUMNS[c][2](rng)}</td>" for c in columns) + "</tr>"
        for _ in range(rows)
    )
    if section and rows:
        body = f"<tr><td colspan='{len(columns)}'>Summer sale</td></tr>" + body
    table = f"<thead>{head}</thead><tbody>{body}</tbody>" if thead else head + body
    return (
        f"<html><head><title>{name}</title></head><body><h1>{name}</h1>"
        f"<table class='variants'>{table}</table><p>Copyright Shop</p></body></html>"
    )


def _induced(rng: random.Random, thead: bool) -> Template:
    pages = [
        _page(rng, f"Shirt {n}", columns, rows, thead, section=n == 2)
        for n, (columns, rows) in enumerate(SEEDS)
    ]
    trees = [dom.parse(html, f"http://shop.example/s/{n}") for n, html in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


@pytest.mark.parametrize("thead", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_records_are_keyed_by_the_pages_own_header(thead: bool, seed: int) -> None:
    rng = random.Random(seed)
    template = _induced(rng, thead)
    for columns, rows in (([0, 1, 2, 3], 2), ([0, 2, 3], 1), ([1, 2], 3), ([2], 1), ([3, 0], 5)):
        html = _page(rng, "Shirt X", columns, rows, thead, section=False)
        item = item_data(extract(template, html, "http://shop.example/s/99"), template)
        records = [value for value in item.values() if isinstance(value, list)]
        assert len(records) == 1 and len(records[0]) == rows, item
        keys = {COLUMNS[c][1] for c in columns}
        for record in records[0]:
            assert set(record) == keys, item
            for c in columns:
                assert re.match(COLUMNS[c][3], record[COLUMNS[c][1]]), item
        # The header's cells are no values of the page.
        headers = {COLUMNS[c][0] for c in range(len(COLUMNS))}
        assert not headers & {v for v in item.values() if isinstance(v, str)}, item


def test_show_says_the_table_is_keyed_by_its_header() -> None:
    from scrapy_wrapx.commands._show import template_schema

    schema = template_schema(_induced(random.Random(0), thead=False))
    assert "records keyed by each page's table header" in schema


def test_a_heading_row_names_the_rows_below_and_links_are_kept() -> None:
    html = (
        "<table><tr><th>Degree</th><th>Bachelor</th><th></th></tr>"
        "<tr><td colspan='3'>Engineering</td></tr>"
        "<tr><td><a href='/d/1'>Civil</a></td><td>27</td><td>x</td></tr>"
        "<tr><td><a href='/d/2'>Mining</a></td><td>3</td><td></td></tr>"
        "<tr><td>odd row</td></tr><tr><td colspan='2'>Arts</td><td>!</td></tr>"
        "<tr><td>Music</td><td>9</td><td>y</td></tr></table>"
    )
    table = dom.lxml_document(html).find(".//table")
    assert table is not None
    assert header_records(table) == [
        {
            "degree": "Civil",
            "degree_url": "/d/1",
            "bachelor": "27",
            "column_3": "x",
            "section": "Engineering",
        },
        {"degree": "Mining", "degree_url": "/d/2", "bachelor": "3", "section": "Engineering"},
        {"degree": "Music", "bachelor": "9", "column_3": "y", "section": "Engineering"},
    ]


def test_a_table_without_a_header_of_th_is_not_read() -> None:
    table = dom.lxml_document("<table><tr><td>A</td><td>B</td></tr></table>").find(".//table")
    assert table is not None and header_records(table) is None


@pytest.mark.parametrize("span", ["²", "9" * 5000, "3abc", ""])
def test_a_span_that_is_no_number_of_columns_spans_one(span: str) -> None:
    """A ``colspan`` is the page's: "²" is a digit ``int`` rejects, and a
    number of thousands of digits more than it reads. Either spans one
    column, and the page's records are read all the same."""
    html = (
        "<table><tr><th>Degree</th><th>Bachelor</th></tr>"
        f"<tr><td colspan='{span}'>Engineering</td></tr>"
        "<tr><td>Civil</td><td>27</td></tr></table>"
    )
    table = dom.lxml_document(html).find(".//table")
    assert table is not None
    assert {"degree": "Civil", "bachelor": "27"} in (header_records(table) or [])
