"""Cells of one row that each hold a block of labelled rows are columns of
details, not records of a list, even when their labels lie deeper than
induction's profiles reach: a player's "Birth Date / Height / Weight",
"Age / Position / College" and "Drafted / Salary" columns keep their rows
apart, so each value is named by its own label. Cells that share their
labels (product cards in a table row) are still one list."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template

COLUMNS = [
    ["Birth Date", "Birth Place", "Height", "Weight"],
    ["Age", "Position", "Experience", "College"],
    ["Drafted", "Salary"],
]
#: Rows some players lack.
OPTIONAL = {"Experience", "College", "Drafted"}
REQUIRED = {label for labels in COLUMNS for label in labels} - OPTIONAL


def _value(rng: random.Random, label: str) -> str:
    return {
        "Height": f"6-{rng.randint(0, 11)}",
        "Weight": f"{rng.randint(170, 290)} lbs.",
        "Age": str(rng.randint(19, 40)),
    }.get(label, f"{label.split()[0]} {rng.randint(1, 9999)}")


def _cell(rng: random.Random, labels: list[str], wrap: str) -> str:
    rows = "".join(
        f"<tr><td><strong>{label}</strong></td><td>{_value(rng, label)}</td></tr>"
        for label in labels
        if label not in OPTIONAL or rng.random() < 0.6
    )
    return f"<td valign='top'>{wrap.format(f'<table>{rows}</table>')}</td>"


def player_page(rng: random.Random, wrap: str) -> str:
    cells = "".join(_cell(rng, labels, wrap) for labels in COLUMNS)
    return (
        f"<html><body><h1>Player {rng.randint(1, 99999)}</h1>"
        f"<table class='meta'><tr>{cells}</tr></table><p>Footer</p></body></html>"
    )


@pytest.mark.parametrize("wrap", ["{}", "<div class='col'>{}</div>"])
@pytest.mark.parametrize("seed", range(4))
def test_columns_of_labelled_rows_name_their_values(seed: int, wrap: str) -> None:
    rng = random.Random(seed)
    pages = [player_page(rng, wrap) for _ in range(5)]
    trees = [dom.parse(page) for page in pages]
    template = induce_template(trees)
    name_template(template, trees)
    page = player_page(random.Random(100 + seed), wrap)
    fields = extract(template, page).fields
    leaves = dom.parse(page).leaves
    for row, label in enumerate(leaves):
        if label.value in REQUIRED:
            value = leaves[row + 1].value
            holders = [name for name, values in fields.items() if value in values]
            assert holders == ["_".join(label.value.lower().split())], (label.value, fields)


def cards_page(rng: random.Random, count: int) -> str:
    cells = "".join(
        f"<td><table><tr><td><b>Item {rng.randint(1, 999)}</b></td></tr>"
        f"<tr><td><strong>Price:</strong></td><td>${rng.randint(1, 99)}</td></tr></table></td>"
        for _ in range(count)
    )
    return f"<html><body><table><tr>{cells}</tr></table><p>Footer</p></body></html>"


def test_cells_sharing_their_labels_are_one_list() -> None:
    rng = random.Random(3)
    template = induce_template([cards_page(rng, count) for count in (3, 5, 2, 4, 3)])
    extraction = extract(template, cards_page(rng, 6))
    assert extraction.score == 1.0
    assert max(len(rows) for rows in extraction.records.values()) == 6, extraction.records
