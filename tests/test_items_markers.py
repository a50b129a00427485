"""List markers are no data: a bullet, an asterisk, the ``+`` and ``-``
before pros and cons vary between the items they mark, so they are slots,
but no field (issue 11: template values). A run of marks (a rating in
stars) and a column of numbers with a ``-`` for none stay data."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import normalized_form

POINTS = ["Roomy cabin", "Good mileage", "Noisy at speed", "Stiff ride", "Cheap to run"]
MARKS = ["\u2022", "+", "-", "\u203a", "*", "\u00b7"]
#: What a stats cell shows for none.
NONE = "\u2013"


def _point(rng: random.Random) -> str:
    return f"{rng.choice(POINTS)}, {rng.randrange(2, 99)} of {rng.randrange(100, 999)} owners say"


def _page(rng: random.Random, points: int, wrap: str) -> str:
    title = rng.choice(["Civic", "Golf", "Focus", "Corolla", "Mazda3", "Elantra"])
    rows = "".join(
        f"<li><span class='mark'>{rng.choice(MARKS)}</span> {wrap.format(_point(rng))}</li>"
        for _ in range(points)
    )
    stars = "\u2605" * rng.randrange(1, 6)
    stats = "".join(
        f"<td>{NONE if rng.random() < 0.25 else rng.randrange(40)}</td>" for _ in range(3)
    )
    return (
        f"<html><body><h1>{title} review</h1>"
        + (f"<ul class='points'>{rows}</ul>" if rows else "")
        + f"<p class='rating'>{stars}</p><table><tr>{stats}</tr></table>"
        "<p>All rights reserved</p></body></html>"
    )


@pytest.mark.parametrize("wrap", ["{}", "<b>{}</b>"])
@pytest.mark.parametrize("points", [0, 1, 4])
@pytest.mark.parametrize("seed", range(3))
def test_list_markers_are_no_field(seed: int, points: int, wrap: str) -> None:
    rng = random.Random(seed)
    seeds = [_page(rng, count, wrap) for count in (3, 0, 4, 1, 5)]
    template = induce_template(seeds)
    page = dom.parse(_page(rng, points, wrap))
    extraction = extract(template, page)
    values = {v for found in extraction.fields.values() for v in found}
    assert not values & set(MARKS)  # no marker is a value
    stars = next(leaf.value for leaf in page.leaves if "\u2605" in leaf.value)
    assert stars in values  # a run of marks is data
    cells = [leaf.value for leaf in page.leaves if leaf.element.tag == "td"]
    assert all(cell in values for cell in cells)  # numbers, or the mark of none
    marked = [leaf.value for leaf in page.leaves if leaf.value.endswith("owners say")]
    assert [v for found in extraction.fields.values() for v in found if v in marked] == marked
    assert render(template, extraction) == normalized_form(page)  # still rendered
