"""The cards of a grid are one list (issue 11: records nest once). List
pages lay their cards out in rows: ``<tr>`` of ``<td>`` cards, ``<div
class=row>`` of ``<div class=col>``, three or four to a row, the last row
partly filled. Each row folded into a record whose only content was the
list of its cards, so an item held ``row_list: [{"cards": [...]}, {"cards":
[...]}]``: a list per row, cut where the layout wraps, which a user had to
join back. The same with keywords laid out in columns, news in two lists.

A set whose records hold one set and no field of their own is read like
sections (:mod:`scrapy_wrapx.induction._sections`): its records' lists are
one list. Pages come from a generator: rows of 2 to 4 cards, 1 to 13 cards
a page."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

WORDS = ["Alpha", "Bravo", "Delta", "Echo", "Golf", "Hotel", "India", "Kilo", "Lima", "Mike"]


def _card(rng: random.Random) -> tuple[str, str, str]:
    name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randint(1, 999)}"
    price = f"${rng.randint(5, 99)}.99"
    html = (
        f"<a class='t' href='/p/{rng.randint(1, 99999)}'>{name}</a><br>"
        f"<span class='pr'>{price}</span>"
    )
    return name, price, html


def _page(rng: random.Random, per_row: int, layout: str, cards: int) -> tuple[str, list[str]]:
    made = [_card(rng) for _ in range(cards)]
    rows = [made[i : i + per_row] for i in range(0, cards, per_row)]
    if layout == "table":
        body = "<table class='grid'>" + "".join(
            "<tr>" + "".join(f"<td class='cell'>{card[2]}</td>" for card in row) + "</tr>"
            for row in rows
        )
        body += "</table>"
    else:
        body = "<div class='grid'>" + "".join(
            "<div class='row'>"
            + "".join(f"<div class='col'>{card[2]}</div>" for card in row)
            + "</div>"
            for row in rows
        )
        body += "</div>"
    html = f"<html><body><h1>Search results</h1>{body}<p>Footer</p></body></html>"
    return html, [card[0] for card in made]


@pytest.mark.parametrize("layout", ["table", "div"])
@pytest.mark.parametrize("per_row", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_the_cards_of_all_rows_are_one_list(layout: str, per_row: int, seed: int) -> None:
    rng = random.Random(seed * 10 + per_row)
    pages = [
        _page(rng, per_row, layout, rng.randint(per_row + 1, 3 * per_row + 1))[0] for _ in range(5)
    ]
    trees = [dom.parse(html) for html in pages]
    template = induce_template(trees)
    name_template(template, trees)
    for cards in (1, per_row, per_row + 1, 3 * per_row + 1):
        html, names = _page(rng, per_row, layout, cards)
        item = item_data(extract(template, html), template)
        (records,) = [value for value in item.values() if isinstance(value, list)]
        assert [record.get("t") for record in records] == names, item
        assert all(isinstance(record, dict) and "pr_price" in record for record in records), item
