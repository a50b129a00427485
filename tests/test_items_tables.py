"""A table with a header row is a list of records keyed by its header
cells, for pages with no, one or many body rows; the header in a
``<thead>`` or in the table's first ``<tr>``, of ``<th>`` or of ``<td>``
(bold or not), also where every seed shows one body row."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Template, normalized_form
from scrapy_wrapx.unsupervised.items import build_item

SIZES = ["XS", "S", "M", "L", "XL", "XXL", "3XL"]
COLORS = ["Red", "Blue", "Green", "Black", "White", "Teal", "Plum"]
HEADER = "<tr><th>Size</th><th>Color</th><th>In stock</th></tr>"
#: Header rows of other cells.
HEADERS = {
    "th": HEADER,
    "td": "<tr><td>Size</td><td>Color</td><td>In stock</td></tr>",
    "bold td": "<tr><td><b>Size</b></td><td><b>Color</b></td><td><b>In stock</b></td></tr>",
}


def variant_rows(rng: random.Random, rows: int) -> list[dict[str, str]]:
    return [
        {
            "size": rng.choice(SIZES),
            "color": rng.choice(COLORS),
            "in_stock": rng.choice(["yes", "no"]),
        }
        for _ in range(rows)
    ]


def table_page(
    rng: random.Random, rows: list[dict[str, str]], *, thead: bool, header: str = HEADER
) -> str:
    body = "".join(
        f"<tr><td>{row['size']}</td><td>{row['color']}</td><td>{row['in_stock']}</td></tr>"
        for row in rows
    )
    table = (
        f"<table class='variants'><thead>{header}</thead><tbody>{body}</tbody></table>"
        if thead
        else f"<table class='variants'>{header}{body}</table>"
    )
    return (
        f"<html><body><h1>Shirt {rng.randint(1, 9999)}</h1>{table}<p>Free returns</p></body></html>"
    )


def _item(template: Template, html: str) -> dict[str, object]:
    item = build_item(None, "http://x/1", "x/k", 1, extract(template, html), template)
    assert isinstance(item, dict)
    return item


SEED_ROWS = {
    "one": [1, 1, 1, 1, 1],
    "many": [2, 3, 1, 4, 2],
    "some_none": [0, 3, 0, 1, 2],
}


@pytest.mark.parametrize("header", sorted(HEADERS))
@pytest.mark.parametrize("thead", [True, False])
@pytest.mark.parametrize("seed_rows", sorted(SEED_ROWS))
@pytest.mark.parametrize("seed", range(3))
def test_header_cells_key_the_records(seed: int, seed_rows: str, thead: bool, header: str) -> None:
    rng = random.Random(seed)
    seeds = [
        table_page(
            rng,
            variant_rows(rng, n) if n != 1 else [_one(rng, i)],
            thead=thead,
            header=HEADERS[header],
        )
        for i, n in enumerate(SEED_ROWS[seed_rows])
    ]
    template = induce_template(seeds)
    assert {"size", "color", "in_stock"} <= set(template.field_names), template.field_names
    for html in seeds:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)
    for count in (0, 1, 5):
        rows = variant_rows(rng, count)
        item = _item(template, table_page(rng, rows, thead=thead, header=HEADERS[header]))
        assert item["partial"] is False
        lists = [value for value in item.values() if isinstance(value, list)]
        assert lists == ([rows] if rows else []), item


def _one(rng: random.Random, i: int) -> dict[str, str]:
    """One row per seed, every column varying across the seeds."""
    return {"size": SIZES[i], "color": COLORS[-1 - i], "in_stock": ["yes", "no"][i % 2]}


def test_a_table_without_header_row_keeps_its_cell_list() -> None:
    """Cells of a table without a header are no columns to name: alike
    cells in a row stay one list."""
    rng = random.Random(5)
    pages = [
        "<html><body><table><tr>"
        + "".join(f"<td>{rng.choice(COLORS)} {rng.randint(1, 99)}</td>" for _ in range(n))
        + "</tr></table></body></html>"
        for n in (2, 4, 3, 5)
    ]
    template = induce_template(pages)
    assert len(template.set_names) == 1


def stats_page(rng: random.Random, rows: int) -> str:
    """A player's game log: a header row of ``<td>`` (no ``<th>``), then one
    row per game of 8 cells, most of them numbers alike in markup."""
    head = "".join(
        f"<td class='head'>{h}</td>"
        for h in ("Date", "Opp", "W/L", "MIN", "PTS", "REB", "AST", "BLK")
    )
    body = "".join(
        "<tr>"
        + f"<td class='cell'>{rng.randint(1, 12)}/{rng.randint(1, 28)}/10</td>"
        + f"<td class='cell'><a href='/team/{rng.randint(1, 30)}'>{rng.choice(['NJ', 'LA', 'NY'])}</a></td>"
        + f"<td class='cell'>{rng.choice(['W', 'L'])}</td>"
        + "".join(f"<td class='cell'>{rng.randint(0, 40)}</td>" for _ in range(5))
        + "</tr>"
        for _ in range(rows)
    )
    return (
        f"<html><body><h1>Player {rng.randint(1, 999)}</h1>"
        f"<table><tr>{head}</tr>{body}</table><p>Footer</p></body></html>"
    )


@pytest.mark.parametrize("seed", range(4))
def test_a_grid_of_cells_is_rows_of_columns(seed: int) -> None:
    """Cells of a grid (rows of 6 cells or more, all of one width) are
    columns, never a list inside a row: every game is one record with all
    its columns, and a page with more or fewer games still fits."""
    rng = random.Random(seed)
    template = induce_template([stats_page(rng, rng.randint(3, 8)) for _ in range(5)])
    for rows in (2, 5, 11):
        html = stats_page(rng, rows)
        extraction = extract(template, html)
        assert extraction.coverage == 1.0
        records = max(extraction.records.values(), key=len)
        assert len(records) == rows
        assert all(len([v for v in r.values() if v]) >= 8 for r in records), records[:2]
