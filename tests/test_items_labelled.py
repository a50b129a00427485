"""A value right after its label is data even when every seed shows the
same one (five players of one team, three jobs of one type): the next page
with another value still yields it.

Pages come from a generator of the label idioms (inline bold lead-in,
``th``/``td``, ``dt``/``dd``, two cells with a colon, styling around the
label), with look-alikes that stay template: a sentence after "Note:".
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

IDIOMS = {
    "bold": "<p><b>Team:</b> {}</p>",
    "strong_no_colon": "<p><strong>Team</strong> {}</p>",
    "th": "<table><tr><th>Team</th><td>{}</td></tr></table>",
    "dl": "<dl><dt>Team</dt><dd>{}</dd></dl>",
    "cells": "<table><tr><td><font><b>Team:</b></font></td><td><font>{}</font></td></tr></table>",
}


def _page(rng: random.Random, idiom: str, team: str) -> str:
    return (
        f"<html><body><h1>Player {rng.randint(1, 999)}</h1>"
        f"<p class='born'>{rng.randint(1970, 2000)}</p>{IDIOMS[idiom].format(team)}"
        "<p><b>Note:</b> Statistics are updated every night during the season.</p>"
        "</body></html>"
    )


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(3))
def test_a_labelled_value_every_seed_shares_is_still_data(seed: int, idiom: str) -> None:
    rng = random.Random(seed)
    template = induce_template([_page(rng, idiom, "Boston Celtics") for _ in range(5)])
    for team in ("Boston Celtics", "Chicago Bulls"):
        fields = extract(template, _page(rng, idiom, team)).fields
        values = [v for vs in fields.values() for v in vs]
        assert team in values, (idiom, fields)
        # The note's sentence is the page's wording: no field.
        assert not [v for v in values if "updated" in v], fields
