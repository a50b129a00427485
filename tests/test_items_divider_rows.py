"""Labelled rows with a divider row after each are a mapping keyed by their
labels (issue 11: names a person would pick, data only). Old table layouts
put a row of spacer images between a table's rows: ``<tr><td><span><b>Phone
</b></span></td><td><span>...</span></td></tr>`` then ``<tr><td colspan=2>
<img src=spacer.gif></td></tr>``. Both rows are ``<tr>``, so groups of two
were left to the fold of single rows, which found a label row and a spacer
row no repetition of each other: nothing folded, the rows aligned by place
across seeds that show different subsets of labels, and items held the
labels as values ("sm": "Cuisine", "sm_2": "Tapas"). A group whose second
element is the same divider after every record is a record now.

Pages come from a generator: a subset of six labelled rows on every seed,
values of distinct shapes."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

ROWS = [
    ("Cuisine", lambda rng: rng.choice(["Thai", "Greek", "Cajun", "Tapas"])),
    ("Hours", lambda rng: f"Daily {rng.randint(6, 11)}am-{rng.randint(5, 11)}pm"),
    ("Location", lambda rng: rng.choice(["Midtown", "South Beach", "Old Town"])),
    ("Reservations", lambda rng: rng.choice(["Required", "Not accepted", "Recommended"])),
    (
        "Phone",
        lambda rng: f"{rng.randint(200, 999)}/{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
    ),
    ("Prices", lambda rng: f"Main courses ${rng.randint(5, 15)}-${rng.randint(16, 40)}"),
]
ROW = (
    "<tr><td class='l'><span class='sm'><b>{label}</b></span></td>"
    "<td class='v'><span class='sm'>{value}</span></td></tr>"
)
DIVIDER = "<tr><td colspan='2'><img src='/images/spacer.gif'></td></tr>"


def _page(rng: random.Random, kinds: list[int]) -> tuple[str, dict[str, str]]:
    shown = {ROWS[kind][0]: ROWS[kind][1](rng) for kind in kinds}
    rows = "".join(ROW.format(label=label, value=value) + DIVIDER for label, value in shown.items())
    html = (
        f"<html><body><h1>Diner {rng.randint(1, 999)}</h1>"
        f"<table class='details'>{rows}</table><p>Copyright Eats</p></body></html>"
    )
    return html, shown


@pytest.mark.parametrize("seed", range(4))
def test_labelled_rows_with_a_divider_after_each_are_keyed_by_their_labels(seed: int) -> None:
    rng = random.Random(seed)
    seeds = [sorted(rng.sample(range(len(ROWS)), rng.randint(3, 6))) for _ in range(5)]
    trees = [dom.parse(_page(rng, kinds)[0]) for kinds in seeds]
    template = induce_template(trees)
    name_template(template, trees)
    for kinds in ([0, 1, 4, 5], [2], [3, 4], list(range(len(ROWS)))):
        html, shown = _page(rng, kinds)
        item = item_data(extract(template, html), template)
        values = {
            key: value
            for part in item.values()
            if isinstance(part, dict)
            for key, value in part.items()
        }
        assert values == {label.lower(): value for label, value in shown.items()}, item
        # No label is a value, anywhere in the item.
        assert not any(f"'{label}'" in repr(item) for label in shown), item
