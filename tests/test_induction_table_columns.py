"""Every body cell under a table's header row is data, even a column that
shows the same value on every seed (:func:`scrapy_wrapx.induction._tables.open_cells`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import normalized_form
from scrapy_wrapx.unsupervised.items import build_item

TITLES = ["Dune", "Emma", "Ubik", "Solaris", "Kindred", "Beloved"]
COLORS = ["Red", "Blue", "Green", "Black", "White", "Amber"]
SIZES = ["XS", "S", "M", "L", "XL", "XXL"]


def _page(title: str, header: list[str], rows: list[list[str]], thead: bool) -> str:
    head = "<tr>" + "".join(f"<th>{cell}</th>" for cell in header) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    table = f"<thead>{head}</thead><tbody>{body}</tbody>" if thead else head + body
    return f"<body><h1>{title}</h1><table>{table}</table><p>Footer</p></body>"


def _rows(
    rng: random.Random, count: int, columns: int, constant: int, value: str
) -> list[list[str]]:
    """``count`` rows of ``columns`` cells, column ``constant`` always
    ``value``, the others varying."""
    return [
        [
            value if c == constant else rng.choice(COLORS) + str(rng.randrange(99))
            for c in range(columns)
        ]
        for _ in range(count)
    ]


@pytest.mark.parametrize("seed", range(16))
def test_a_column_the_seeds_agree_on_is_data(seed: int) -> None:
    rng = random.Random(seed)
    columns = rng.choice([2, 3, 4])
    constant = rng.randrange(columns)
    header = ["Size", "Color", "Stock", "Ships"][:columns]
    value = rng.choice(SIZES)
    thead = rng.random() < 0.5
    counts = [rng.choice([0, 1, 1, 3]) for _ in range(3)]
    if not any(counts):
        counts[rng.randrange(3)] = 1
    pages = [
        _page(TITLES[i], header, _rows(rng, counts[i], columns, constant, value), thead)
        for i in range(3)
    ]
    template = induce_template(pages)
    for html in pages:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)

    other = next(size for size in SIZES if size != value)
    rows = _rows(rng, rng.choice([1, 2, 4]), columns, constant, other)
    extraction = extract(template, _page("Beloved", header, rows, thead))
    assert extraction.matched
    item = build_item(None, "", "", 0, extraction, template)
    records = next(v for v in item.values() if isinstance(v, list))
    key = header[constant].lower()
    assert [record[key] for record in records] == [other] * len(rows)


@pytest.mark.parametrize("rows", [1, 2, 3])
def test_identical_rows_on_every_seed_are_still_records(rows: int) -> None:
    """Seeds whose whole table agrees (one row "XL", "Red" on all) still
    give a column per header cell."""
    pages = [_page(title, ["Size", "Color"], [["XL", "Red"]] * rows, False) for title in TITLES[:3]]
    template = induce_template(pages)
    extraction = extract(template, _page("Beloved", ["Size", "Color"], [["M", "Blue"]], False))
    item = build_item(None, "", "", 0, extraction, template)
    assert [v for v in item.values() if isinstance(v, list)] == [[{"size": "M", "color": "Blue"}]]


#: Which style each body row takes: alternating stripes, some rows
#: highlighted, or one style for the whole page (page number ``n``).
STYLES = {
    "stripes": lambda n, row: ("cell", "cell-hi")[row % 2],
    "highlights": lambda n, row: "cell-hi" if row in (1, 2) else "cell",
    "per page": lambda n, row: ("cell", "cell-hi")[n % 2],
}


def _styled_page(
    n: int, header: list[str], rows: list[list[str]], head_tag: str, styles: str
) -> str:
    """A table whose body rows come in two styles (their cells' classes
    differ), under a header row of ``th`` or of styled ``td`` cells."""
    head = "<tr>" + "".join(f"<{head_tag} class='head'>{c}</{head_tag}>" for c in header) + "</tr>"
    style = STYLES[styles]
    body = "".join(
        "<tr>" + "".join(f"<td class='{style(n, r)}'>{c}</td>" for c in row) + "</tr>"
        for r, row in enumerate(rows)
    )
    return f"<body><h1>{TITLES[n]}</h1><table>{head}{body}</table><p>Footer</p></body>"


@pytest.mark.parametrize("styles", sorted(STYLES))
@pytest.mark.parametrize("head_tag", ["th", "td"])
@pytest.mark.parametrize("seed", range(6))
def test_rows_in_two_styles_are_records_keyed_by_the_header(
    seed: int, head_tag: str, styles: str
) -> None:
    """Rows of one table in two styles (stripes, highlighted rows, a page
    that shows one style only) are one kind of row: the header names the
    columns, and a column every seed agrees on ("No injury listed") is
    still data."""
    rng = random.Random(seed)
    header = ["Date", "Opponent", "Points", "Injury"]
    pages = [
        _styled_page(
            i,
            header,
            _rows(rng, rng.choice([2, 3, 5]), 4, 3, "No injury listed"),
            head_tag,
            styles,
        )
        for i in range(5)
    ]
    template = induce_template(pages)
    for html in pages:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)
    rows = _rows(rng, rng.choice([1, 2, 4]), 4, 3, "Out - Knee")
    extraction = extract(template, _styled_page(5, header, rows, head_tag, styles))
    assert extraction.matched
    item = build_item(None, "", "", 0, extraction, template)
    records = next(v for v in item.values() if isinstance(v, list))
    names = ["date", "opponent", "points", "injury"]
    assert records == [dict(zip(names, row, strict=True)) for row in rows]
