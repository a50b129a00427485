"""Several tables of one page, each under its own header row: a player's
season totals, game log and splits. They share a class and half their
columns, yet each is its own list of records keyed by its header, whether
the header cells are ``<th>`` or ``<td>`` holding template text, with a
title row above the header, with 0, 1 or many rows, and with an optional
table between them on some pages."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import build_item

COLUMNS = {
    "season": ["Season", "G", "MIN", "PTS"],
    "log": ["Date", "Opp", "Result", "MIN", "PTS"],
    "splits": ["Split", "G", "MIN", "FG%", "PTS", "AST"],
}


def _rows(rng: random.Random, table: str, count: int) -> list[list[str]]:
    width = len(COLUMNS[table])
    return [
        [f"{table[0]}{rng.randint(1, 999)}"] + [str(rng.randint(0, 60)) for _ in range(width - 1)]
        for _ in range(count)
    ]


def _table(table: str, rows: list[list[str]], cell: str) -> str:
    columns = COLUMNS[table]
    title = f"<tr class='stathead'><td colspan='{len(columns)}'>{table.title()} stats</td></tr>"
    head = "<tr class='colhead'>" + "".join(f"<{cell}>{c}</{cell}>" for c in columns) + "</tr>"
    body = "".join(
        "<tr class='row'>" + "".join(f"<td>{value}</td>" for value in row) + "</tr>" for row in rows
    )
    return f"<table class='tablehead'>{title}{head}{body}</table>"


def player_page(
    rng: random.Random, counts: dict[str, int], cell: str, news: str
) -> tuple[str, dict[str, list[list[str]]]]:
    """A player page and its tables' rows; ``news`` puts an optional news
    table before the game log, after it, or nowhere."""
    player = f"Player {rng.randint(1, 99999)}"
    rows = {table: _rows(rng, table, counts[table]) for table in COLUMNS}
    note = (
        "<table class='tablehead'><tr class='stathead'><td>News</td></tr>"
        f"<tr><td>{player} scored {rng.randint(1, 50)}</td></tr></table>"
    )
    tables = [
        _table("season", rows["season"], cell),
        note if news == "before" else "",
        _table("log", rows["log"], cell),
        note if news == "after" else "",
        _table("splits", rows["splits"], cell),
    ]
    html = (
        f"<html><body><h1>{player}</h1><div class='stats'>{''.join(tables)}</div>"
        "<p>All rights reserved</p></body></html>"
    )
    return html, rows


def _item(template: Template, html: str) -> dict[str, object]:
    item = build_item(None, "http://x/1", "x/k", 1, extract(template, html), template)
    assert isinstance(item, dict)
    return item


def _record_lists(item: dict[str, object]) -> list[list[dict[str, str]]]:
    return [value for value in item.values() if isinstance(value, list)]


@pytest.mark.parametrize("cell", ["th", "td"])
@pytest.mark.parametrize("seed", range(3))
def test_each_table_is_its_own_list_of_keyed_records(cell: str, seed: int) -> None:
    rng = random.Random(seed)
    seeds = [
        player_page(
            rng,
            {table: rng.choice([1, 2, 3, 5]) for table in COLUMNS},
            cell,
            ["before", "after", "none"][i % 3],
        )[0]
        for i in range(5)
    ]
    template = induce_template(seeds)
    for counts in ({"season": 0, "log": 1, "splits": 4}, {"season": 3, "log": 7, "splits": 1}):
        for news in ("before", "after", "none"):
            html, truth = player_page(rng, counts, cell, news)
            item = _item(template, html)
            assert item["partial"] is False
            lists = _record_lists(item)
            expected = [rows for rows in truth.values() if rows]
            assert [[list(record.values()) for record in records] for records in lists] == (
                expected
            ), item
            log = lists[-2]
            assert {"date", "opp", "result"} <= set(log[0]), log[0]


def layout_page(rng: random.Random) -> str:
    """A page laid out in a table: a first row of menu cells (template
    text on every page), then the content in a cell of divs."""
    menu = "<tr><td>Home</td><td>Books</td><td>Contact</td></tr>"
    content = (
        "<tr><td><div class='nav'>Browse</div></td>"
        f"<td><div class='main'><h1>Book {rng.randint(1, 9999)}</h1>"
        "<p>Free shipping on all orders</p></div></td>"
        "<td><div class='side'>Bestsellers</div></td></tr>"
    )
    return f"<html><body><table>{menu}{content}</table></body></html>"


def test_a_layout_table_has_no_header_row() -> None:
    """A table whose cells hold the page's blocks lays the page out: its
    first row of template texts heads no columns, so the texts the pages
    share stay template and only the title is data."""
    rng = random.Random(3)
    template = induce_template([layout_page(rng) for _ in range(5)])
    item = _item(template, layout_page(rng))
    values = [value for key, value in item.items() if key not in ("url", "kind")]
    assert [value for value in values if isinstance(value, str)] == [
        value for value in values if isinstance(value, str) and value.startswith("Book ")
    ], item
