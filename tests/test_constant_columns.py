"""A footer of link columns that is the same on every page is template,
lists and all (issue 12: no slow path; issue 11: template, not data).

Sites end their pages with columns of links ("Locations:", "All
restaurants:"...), each a heading and a list whose last link has no comma
after it. The columns are alike, so each page folds them into one set of
columns, whose lists merge into one; the seeds agree on the whole footer,
so the set is unfolded back into the columns it was folded from. But the
lists inside those columns stayed sets: seen once each, as the unfolded
content comes from one page. Their records had the other columns' links
merged in as alternatives, and matching every page searched through them:
zagat's footer took 10 of a page's 12 ms.

Lists inside content that every seed shows the same are unfolded with it.
Content only some seeds share (pages of one product line, a rating table
two records of one page repeat) keeps its lists: the next page may fill
them differently. Pages come from generators."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Elem, Opt, Set, Template, iter_nodes

CITIES = [
    "Atlanta",
    "Baltimore",
    "Boston",
    "Chicago",
    "Dallas",
    "Houston",
    "Miami",
    "Paris",
    "Rome",
    "Tokyo",
    "Toronto",
    "Seattle",
    "Denver",
    "Austin",
]
HEADINGS = ["Browse:", "Locations:", "All restaurants:", "Nightlife:"]


def _footer(seed: int, columns: int, separator: str, tag: str) -> str:
    """The same footer on every page of a site (``seed``)."""
    rng = random.Random(seed)
    out = []
    for column in range(columns):
        cities = rng.sample(CITIES, rng.randint(3, 12))
        items = "".join(
            f"<{tag}><a href='/{column}/{city.lower()}'>{city}</a>"
            f"{separator if i < len(cities) - 1 else ''}</{tag}>"
            for i, city in enumerate(cities)
        )
        wrapper = "ul" if tag == "li" else "div"
        out.append(
            f"<div id='col{column}'><h3>{HEADINGS[column]}</h3><{wrapper}>{items}</{wrapper}></div>"
        )
    return f"<div id='footer'>{''.join(out)}</div>"


def _page(rng: random.Random, footer: str) -> tuple[str, str]:
    name = f"{rng.choice(CITIES)} Grill {rng.randint(1, 999)}"
    return name, (
        f"<html><body><h1>{name}</h1><p class='addr'>{rng.randint(1, 999)} Main St</p>"
        f"{footer}</body></html>"
    )


def _footer_of(template: Template) -> Elem:
    return next(
        node
        for node in iter_nodes(template.root)
        if isinstance(node, Elem) and node.attrs.get("id") == "footer"
    )


@pytest.mark.parametrize("separator", [",", " |", ""])
@pytest.mark.parametrize("tag", ["li", "span"])
@pytest.mark.parametrize("seed", range(3))
def test_columns_the_same_on_every_page_are_template_lists_and_all(
    separator: str, tag: str, seed: int
) -> None:
    footer = _footer(seed, 2 + seed % 3, separator, tag)
    rng = random.Random(seed)
    trees = [dom.parse(_page(rng, footer)[1]) for _ in range(5)]
    template = induce_template(trees)
    inside = list(iter_nodes(_footer_of(template)))
    assert not any(isinstance(node, Set | Opt) for node in inside)
    name, html = _page(rng, footer)
    extraction = extract(template, html)
    assert extraction.score == 1.0 and extraction.coverage == 1.0
    assert {field: values for field, values in extraction.fields.items() if values} == {
        "h1": [name],
        "addr": [html.split("class='addr'>")[1].split("<")[0]],
    }


RATINGS = ["Appearance", "Comfort", "Performance", "Quality", "Value"]


def _rated(rng: random.Random, model: int) -> tuple[str, list[str]]:
    """A page of one of a few models: its rating table (a score per
    category) is the same on every page of the model; model 0 has none."""
    scores = random.Random(model)
    rows = [(category, f"{scores.randint(30, 50) / 10} out of 5") for category in RATINGS]
    table = "<table class='ratings'>" + "".join(
        f"<tr><td>{category}</td><td>{score}</td></tr>" for category, score in rows
    )
    table += "</table>"
    if model == 0:
        table, rows = "<p>Not rated yet</p>", []
    html = (
        f"<html><body><h1>Model {model} trim {rng.randint(1, 99)}</h1>"
        f"<div class='summary'>{table}</div><p>Photos</p></body></html>"
    )
    return html, [score for _, score in rows]


@pytest.mark.parametrize("models", [(1, 1, 1, 2, 2), (1, 1, 1, 0, 0), (0, 1, 1, 0, 1)])
@pytest.mark.parametrize("seed", range(3))
def test_content_only_some_seeds_share_keeps_its_lists(models: tuple[int, ...], seed: int) -> None:
    rng = random.Random(seed)
    # Three seeds of one model, two of others: the first model's table is
    # the same on three seeds, not on every one.
    trees = [dom.parse(_rated(rng, model)[0]) for model in models]
    template = induce_template(trees)
    for model in (3, 4, 5):
        html, values = _rated(rng, model)
        extracted = extract(template, html)
        found = {value for values in extracted.fields.values() for value in values}
        found |= {
            value
            for records in extracted.records.values()
            for record in records
            for values in record.values()
            for value in (values if isinstance(values, list) else [values])
        }
        assert set(values) <= found, (model, values, extracted.fields)
