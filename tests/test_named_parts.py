"""Blocks a page names with ids of their own are parts, not records.

A restaurant page shows its address block (``id="entity-address"``) and
then its details block (``id="entity-details"``): two blocks alike in
markup (a list of labelled rows each), one after the other on every page.
Folding reads them as two records of one list, and where the blocks hold
optional rows of their own (a website on some pages), no other rule tells
them apart; the item then held ``entity: [{address, phone}, {cuisine,
price_range}]``. An ``id`` names one element, the same in its place on
every page: the blocks are the page's parts, their rows its fields
(:func:`scrapy_wrapx.induction._sets._named_parts`). Records numbered by
their ids (``row1``, ``row2``) stay records.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

#: How a block lists its labelled rows: rows (label, value) -> markup.
ROWS = {
    "ul": lambda rows: (
        "<ul>"
        + "".join(f"<li><span>{label}:</span> {value}</li>" for label, value in rows)
        + "</ul>"
    ),
    "dl": lambda rows: (
        "<dl>" + "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows) + "</dl>"
    ),
    "table": lambda rows: (
        "<table>"
        + "".join(f"<tr><th>{label}:</th><td>{value}</td></tr>" for label, value in rows)
        + "</table>"
    ),
}
#: The ids of the two blocks.
IDS = [("entity-address", "entity-details"), ("contact", "facts"), ("box-where", "box-what")]
STREETS = ["Main St.", "Oak Ave.", "Elm Rd.", "Pine Blvd.", "Lake Dr."]
CUISINES = ["American", "Indian", "Thai", "Italian", "Mexican", "Greek"]


def _page(rng: random.Random, index: int, rows: str, ids: tuple[str, str]) -> tuple[str, dict]:
    values = {
        "address": f"{rng.randrange(10, 9999)} {rng.choice(STREETS)}, Town {index}",
        "phone": f"907/{rng.randrange(200, 999)}-{rng.randrange(1000, 9999)}",
        "cuisine": rng.choice(CUISINES),
        "price_range": "$" * rng.randrange(1, 5),
    }
    where = [("Address", values["address"]), ("Phone", values["phone"])]
    if rng.random() < 0.5:  # a row some pages have
        values["website"] = f"www.place{index}.com"
        where.append(("Website", values["website"]))
    what = [("Cuisine", values["cuisine"]), ("Price range", values["price_range"])]
    html = (
        f"<html><body><h1>Restaurant {index}</h1>"
        f"<div id='{ids[0]}'>{ROWS[rows](where)}</div>"
        f"<div id='{ids[1]}'>{ROWS[rows](what)}</div>"
        "<p>All rights reserved.</p></body></html>"
    )
    return html, values


@pytest.mark.parametrize("ids", IDS)
@pytest.mark.parametrize("rows", sorted(ROWS))
@pytest.mark.parametrize("seed", range(3))
def test_blocks_with_ids_of_their_own_are_fields_not_records(
    seed: int, rows: str, ids: tuple[str, str]
) -> None:
    rng = random.Random(seed)
    pages = [_page(rng, index, rows, ids) for index in range(8)]
    trees = [dom.parse(html) for html, _ in pages[:5]]
    template = induce_template(trees)
    name_template(template, trees)
    for html, values in pages[5:]:
        item = item_data(extract(template, html), template)
        shown = {key: value for key, value in item.items() if key in values}
        assert shown == values, item


def test_records_numbered_by_their_ids_stay_records() -> None:
    """Two cards on every page, ``card1`` and ``card2``: a list of two."""
    rng = random.Random(3)

    def page(index: int) -> str:
        cards = "".join(
            f"<div id='card{n}'><ul><li><span>Cuisine:</span> {rng.choice(CUISINES)}</li>"
            f"<li><span>Phone:</span> 555-{rng.randrange(1000, 9999)}</li></ul></div>"
            for n in (1, 2)
        )
        return f"<html><body><h1>Restaurant {index}</h1>{cards}<p>Footer</p></body></html>"

    pages = [page(index) for index in range(6)]
    template = induce_template(pages[:5])
    assert template.set_names, template.field_names
    records = max(extract(template, pages[5]).records.values(), key=len)
    assert len(records) == 2
