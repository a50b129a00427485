"""A labelled value every seed shows the same is data where the page holds
data around it ("Team: Boston Celtics" in a player's bio, five seeds of one
team), and the site's chrome where nothing around it varies ("Order By
Phone: 800-806-1115" in the header): there it stays template, a latent
field that a page shows only where it differs from the seeds' (issue 11:
template values in items).
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

#: How a page shows labelled values, in the header and in the player's bio.
ROWS = {
    "bold label": ("<div class='{box}'>", "<p><b>{label}:</b> {value}</p>", "</div>"),
    "label cells": (
        "<table class='{box}'>",
        "<tr><td>{label}:</td><td>{value}</td></tr>",
        "</table>",
    ),
    "definition list": ("<dl class='{box}'>", "<dt>{label}</dt><dd>{value}</dd>", "</dl>"),
}
ORDER, SERVICE = "800-806-1115", "800-426-6027"


def _rows(idiom: str, box: str, pairs: list[tuple[str, str]]) -> str:
    head, row, tail = ROWS[idiom]
    shown = "".join(row.format(label=label, value=value) for label, value in pairs)
    return head.format(box=box) + shown + tail


def _page(rng: random.Random, chrome: str, bio: str, team: str, order: str = ORDER) -> str:
    """A header of menu links and phone lines; a player's bio (a team the
    seeds share, a height they do not); a box of its own, a heading and
    a conference every seed shares, in wrappers."""
    height = f"{rng.randrange(5, 8)}-{rng.randrange(12)}"
    phones = _rows(chrome, "phones", [("Order By Phone", order), ("Customer Service", SERVICE)])
    return (
        "<html><body><div id='top'><ul class='menu'><li><a href='/'>Home</a></li>"
        f"<li><a href='/cart'>Cart</a></li></ul><div class='bar'>{phones}</div></div>"
        f"<div class='player'><h1>Player {rng.randrange(10000)}</h1>"
        f"{_rows(bio, 'bio', [('Team', team), ('Height', height)])}"
        "<div class='box'><div class='inner'><h3>League</h3>"
        f"{_rows(bio, 'league', [('Conference', 'Eastern')])}</div></div>"
        "</div><p>Copyright</p></body></html>"
    )


@pytest.mark.parametrize("bio", sorted(ROWS))
@pytest.mark.parametrize("chrome", sorted(ROWS))
def test_a_labelled_value_is_data_in_data_and_template_in_chrome(chrome: str, bio: str) -> None:
    rng = random.Random(f"{chrome}{bio}")
    seeds = [dom.parse(_page(rng, chrome, bio, "Boston Celtics")) for _ in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)

    same = item_data(extract(template, _page(rng, chrome, bio, "Boston Celtics")), template)
    assert same.get("team") == "Boston Celtics", same
    assert same.get("conference") == "Eastern", same
    assert ORDER not in same.values() and SERVICE not in same.values(), same

    other = item_data(extract(template, _page(rng, chrome, bio, "Utah Jazz")), template)
    assert other.get("team") == "Utah Jazz", other

    moved = item_data(
        extract(template, _page(rng, chrome, bio, "Utah Jazz", "888-000-1234")), template
    )
    assert "888-000-1234" in moved.values(), moved
