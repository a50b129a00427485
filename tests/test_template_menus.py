"""A site's menu laid out in a table (a grid of links, the same on every
page) is template, though table cells are otherwise data even where every
seed agrees; a game log every seed of one team shares (links beside dates
and results), a spec table whose values the seeds share, and a grid of
links that differs between pages stay data."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

PLACES = [
    "Asia", "Paris", "Europe", "Rome", "Miami", "London", "Hong Kong", "Las Vegas",
    "Caribbean", "Los Angeles", "Africa", "Sydney", "Tokyo", "Berlin", "Madrid",
]  # fmt: skip


def _menu(rng: random.Random, rows: int, columns: int, wrap: str) -> str:
    """A grid of links, the same on every page: ``columns`` columns of
    ``rows`` rows, the first one shorter (its last cells blank), and a
    wider link to everything below, as real menus are."""
    names = iter(PLACES * 2)
    short = max(1, rows - 2) if columns > 1 else rows
    cells = []
    for row in range(rows):
        tds = []
        for column in range(columns):
            if column == 0 and row >= short:
                tds.append("<td>&nbsp;</td>")
                continue
            name = next(names)
            tds.append(
                f'<td><a href="/destinations/{name.lower().replace(" ", "")}/">{name}</a></td>'
            )
        cells.append(f"<tr>{''.join(tds)}</tr>")
    last = (
        f'<tr><td colspan="{columns}"><a href="/destinations/">'
        '<font color="#fff">All places &raquo;</font></a></td></tr>'
    )
    table = f"<table>{''.join(cells)}{last}</table>"
    if wrap == "dropdown":
        return f'<ul id="menubar"><li><a href="/">Home</a></li><li><a href="/d/">Places</a><ul>{table}</ul></li></ul>'
    return f'<div class="topnav">{table}</div>'


def _page(rng: random.Random, menu: str, body: str) -> str:
    name = f"Cafe {rng.randrange(10_000)}"
    return f"<body>{menu}<h1>{name}</h1><p>{rng.randrange(100, 999)} Main St</p>{body}<p>Footer</p></body>"


def _values(html_page: str, template: object) -> list[str]:
    extraction = extract(template, html_page)  # type: ignore[arg-type]
    return [value for values in extraction.fields.values() for value in values]


@pytest.mark.parametrize(
    "shapes", [[(4, 2), (5, 1)], [(6, 2), (5, 1), (3, 2)], [(5, 2), (5, 2)], [(3, 3), (4, 1)]]
)
@pytest.mark.parametrize("wrap", ["dropdown", "div"])
def test_a_menu_laid_out_in_tables_is_template(shapes: list[tuple[int, int]], wrap: str) -> None:
    """Dropdowns of a top menu, each a table of ``(rows, columns)``."""
    rng = random.Random(f"{shapes}{wrap}")
    menu = "".join(_menu(rng, rows, columns, wrap) for rows, columns in shapes)
    template = induce_template([_page(rng, menu, "") for _ in range(5)])
    values = _values(_page(rng, menu, ""), template)
    assert not set(values) & set(PLACES), values
    assert any(value.startswith("Cafe ") for value in values), values


def _game_log(games: list[tuple[str, str, str]]) -> str:
    rows = "".join(
        f'<tr><td>{date}</td><td><a href="/teams/{team}">{team}</a></td>'
        f'<td><a href="/box/{date}">{score}</a></td></tr>'
        for date, team, score in games
    )
    return f"<table><tr><th>Date</th><th>Vs</th><th>Score</th></tr>{rows}</table>"


@pytest.mark.parametrize("seed", range(4))
def test_a_game_log_every_seed_shares_stays_data(seed: int) -> None:
    """Five players of one team show one team's games: data all the same."""
    rng = random.Random(seed)
    games = [
        (f"1/{day}", rng.choice(["NJ", "CHI", "POR", "TOR"]), f"{rng.randrange(80, 120)}-{rng.randrange(80, 120)}")
        for day in range(1, rng.randrange(4, 8))
    ]  # fmt: skip
    menu = _menu(rng, 3, 2, "div")
    template = induce_template([_page(rng, menu, _game_log(games)) for _ in range(5)])
    values = _values(_page(rng, menu, _game_log(games)), template)
    assert {score for _, _, score in games} <= set(values), values
    assert {team for _, team, _ in games} <= set(values), values


@pytest.mark.parametrize("seed", range(4))
def test_links_that_differ_between_pages_stay_data(seed: int) -> None:
    rng = random.Random(seed)

    def related() -> str:
        names = rng.sample(PLACES, 6)
        cells = "".join(f'<tr><td><a href="/r/{i}">{n}</a></td></tr>' for i, n in enumerate(names))
        return f"<table>{cells}</table>"

    template = induce_template([_page(rng, "", related()) for _ in range(5)])
    page = related()
    values = _values(_page(rng, "", page), template)
    assert sum(value in PLACES for value in values) == 6, values
