"""A specification's value that every seed shares is data all the same
(issue 11: pages that do not fit lose their data). Seeds come from one
listing: five cameras of one brand show "Brand Name | Canon" in a spec
table whose label cells have no colon and no label element. Where other
rows of the same run vary between the seeds, the run is a specification,
so the shared values are slots named by their labels, and the next page's
"Nikon" is in its item. A run of fixed rows only (a menu laid out in a
grid) stays template.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

ROWS = {
    "cells": ("<table class='specs'>{}</table>", "<tr><td>{}</td><td>{}</td></tr>"),
    "cells with classes": (
        "<table>{}</table>",
        "<tr><td class='spec-name'>{}</td><td class='spec-value'>{}</td></tr>",
    ),
    "font cells": (
        "<table>{}</table>",
        "<tr><td><font size='2'>{}</font></td><td><font size='2'>{}</font></td></tr>",
    ),
    "span grid": (
        "<div class='specs'>{}</div>",
        "<div class='r'><span>{}</span><span>{}</span></div>",
    ),
    "div grid": (
        "<div class='specs'>{}</div>",
        "<div class='r'><div class='k'>{}</div><div class='v'>{}</div></div>",
    ),
    "strong grid": ("<div>{}</div>", "<div class='r'><strong>{}</strong><span>{}</span></div>"),
    "list items": ("<ul class='specs'>{}</ul>", "<li><span>{}</span> <span>{}</span></li>"),
}
LABELS = ["Brand Name", "Model Number", "Screen Size", "Weight", "Colour", "Warranty"]
WORDS = ["Arlen", "Borsk", "Calder", "Dunmore", "Elwick", "Farrow", "Gilden", "Hollis"]


def _value(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"{rng.randrange(1, 900)} {rng.choice(['g', 'mm', 'MP'])}"
    return f"{rng.choice(WORDS)} {rng.choice(WORDS)}"


def _page(rng: random.Random, idiom: str, values: dict[str, str]) -> str:
    table, row = ROWS[idiom]
    rows = "".join(row.format(label, values[label]) for label in LABELS)
    return (
        "<html><body><div id='nav'><a href='/'>Home</a> <a href='/c'>Cameras</a></div>"
        f"<h1>Camera {rng.randrange(100, 999)}</h1><p class='price'>${rng.randrange(9, 900)}.99</p>"
        f"{table.format(rows)}<div id='foot'>Copyright Shop</div></body></html>"
    )


@pytest.mark.parametrize("idiom", sorted(ROWS))
def test_a_value_every_seed_shares_is_read_on_the_next_page(idiom: str) -> None:
    rng = random.Random(idiom)
    shared = {"Brand Name": "Canon", "Warranty": "1 Year Limited"}
    seeds = [
        _page(rng, idiom, {**{label: _value(rng) for label in LABELS}, **shared}) for _ in range(5)
    ]
    trees = [dom.parse(html) for html in seeds]
    template = induce_template(trees)
    name_template(template, trees)
    values = {label: _value(rng) for label in LABELS}
    values["Brand Name"] = "Nikon"
    item = item_data(extract(template, _page(rng, idiom, values)), template)
    assert item.get("brand_name") == "Nikon", item
    assert item.get("warranty") == values["Warranty"], item
    assert item.get("weight") == values["Weight"], item


def test_a_grid_of_fixed_rows_stays_template() -> None:
    """A menu laid out as label/value rows that no seed varies, beside a
    spec run of one varying row: neither opens."""
    rng = random.Random(7)
    menu = "".join(
        f"<div class='r'><span>{label}</span><span>{target}</span></div>"
        for label, target in (
            ("Help", "Contact us"),
            ("Orders", "Track an order"),
            ("Returns", "Free"),
        )
    )

    def page(weight: str) -> str:
        return (
            f"<html><body><div class='menu'>{menu}</div><h1>Camera {rng.randrange(1000)}</h1>"
            f"<table><tr><td>Weight</td><td>{weight}</td></tr>"
            "<tr><td>Brand Name</td><td>Canon</td></tr></table></body></html>"
        )

    seeds = [page(f"{rng.randrange(100, 900)} g") for _ in range(5)]
    trees = [dom.parse(html) for html in seeds]
    template = induce_template(trees)
    name_template(template, trees)
    item = item_data(extract(template, page("120 g")), template)
    values = {value for value in item.values() if isinstance(value, str)}
    assert "120 g" in values
    assert not values & {"Contact us", "Track an order", "Free", "Canon"}, item
