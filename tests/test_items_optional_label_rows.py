"""An optional "Label: value" row that two seeds showed is named by its
label, its value without it (issue 11). Seeds are few, so a text with two
distinct values keeps its words whole ("by Paul Kent", "by John Wesley"
could be two names); but a label with its colon says where the value
starts, so the row "Brand: Holmor" on one seed and "Brand: Elarda" on
another is the field ``brand``, not ``Brand: Elarda`` under a class name.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

WORDS = ["Arlen", "Borsk", "Calder", "Dunmore", "Elwick", "Farrow", "Gilden", "Hollis"]
ROWS = ["Material", "Brand", "Capacity", "Warranty"]


def _page(rng: random.Random, brand: bool) -> tuple[str, dict[str, str]]:
    values = {
        "Material": rng.choice(WORDS),
        "Brand": f"{rng.choice(WORDS)} {rng.choice(WORDS)}",
        "Capacity": f"{rng.randrange(1, 900)} L",
        "Warranty": f"{rng.randrange(1, 5)} year limited",
    }
    if not brand:
        del values["Brand"]
    rows = "".join(f"<li>{label}: {value}</li>" for label, value in values.items())
    html = (
        f"<html><body><h1>Item {rng.randrange(1000)}</h1><ul class='c91'>{rows}</ul>"
        "<p>Copyright</p></body></html>"
    )
    return html, {label.lower(): value for label, value in values.items()}


@pytest.mark.parametrize("seed", range(6))
def test_an_optional_row_two_seeds_showed_is_named_by_its_label(seed: int) -> None:
    rng = random.Random(seed)
    seeds = [_page(rng, brand)[0] for brand in (True, False, False, True, False)]
    trees = [dom.parse(html) for html in seeds]
    template = induce_template(trees)
    name_template(template, trees)
    html, truth = _page(rng, True)
    item = item_data(extract(template, html), template)
    assert item.get("brand") == truth["brand"], item
    assert item.get("material") == truth["material"], item
