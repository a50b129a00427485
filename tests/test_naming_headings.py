"""A section heading labels the value or the list right under it
(``<h3>Type of School</h3><ul><li>Private</li>...``): the field is named
after the heading, not after a presentational class of the list ("none",
"top") or its tag (:data:`scrapy_wrapx.induction._naming.LEAD_TAGS`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template

CAPTIONS = ["Type of School", "Cuisine", "Features", "Team"]
WORDS = ["Private", "Coed", "Public", "Italian", "Thai", "Boston", "Lakers", "Four-year"]
CLASSES = ["", ' class="none"', ' class="top"', ' class="list_a"']


def _page(rng: random.Random, level: int, caption: str, cls: str, values: list[str]) -> str:
    items = "".join(f"<li>{value}</li>" for value in values)
    other = rng.randrange(1000)
    return (
        f"<body><div id='header'><a href='/'>Home</a></div><h1>Item {other}</h1>"
        f"<table><tr><td><h{level}>{caption}</h{level}><ul{cls}>{items}</ul></td>"
        f"<td><h{level}>Notes</h{level}><p>Note {other}</p></td></tr></table></body>"
    )


@pytest.mark.parametrize("seed", range(12))
def test_a_heading_names_the_list_under_it(seed: int) -> None:
    rng = random.Random(seed)
    level, caption, cls = rng.randrange(2, 7), rng.choice(CAPTIONS), rng.choice(CLASSES)
    lengths = rng.choice([[1, 3, 2, 4], [3, 3, 4, 2], [1, 1, 2, 1]])
    pages = [_page(rng, level, caption, cls, rng.sample(WORDS, length)) for length in lengths]
    template = induce_template(pages)
    first = rng.choice(WORDS)
    extraction = extract(template, _page(rng, level, caption, cls, [first, "Coed"]))
    holders = [name for name, values in extraction.fields.items() if first in values]
    holders += [
        name
        for name, rows in extraction.records.items()
        for row in rows
        for key, value in row.items()
        if value == first or (isinstance(value, list) and first in value)
        for name in [key]
    ]
    wanted = caption.lower().replace(" ", "_")
    assert holders and all(wanted in name for name in holders), (holders, template.field_names)


PRODUCTS = ["Canon PowerShot SD940 IS", "Nikon Coolpix L22", "Sony Cyber-shot W310", "Kodak Z981"]


@pytest.mark.parametrize("seed", range(8))
def test_the_one_top_heading_is_the_title(seed: int) -> None:
    """A page's one ``<h1>``, with nothing but its tag to name it and a
    ``<title>`` that says something else, names what the page is about:
    ``title``; with two ``<h1>`` fields neither is."""
    rng = random.Random(seed)
    second = seed % 2 == 1

    def page() -> tuple[str, str]:
        name = f"{rng.choice(PRODUCTS)} {rng.randrange(100, 999)}"
        extra = (
            f"<h1>Sold by {rng.choice(['Ann', 'Bo', 'Cy'])}{rng.randrange(99)}</h1>"
            if second
            else ""
        )
        html = (
            f"<html><head><title>Digital cameras | Shop {rng.randrange(9)}</title></head><body>"
            f"<div><h1>{name}</h1>{extra}<h2>Specifications</h2>"
            f"<p>{rng.randrange(8, 24)} MP</p></div></body></html>"
        )
        return html, name

    pages = [page()[0] for _ in range(5)]
    template = induce_template(pages)
    name_template(template, [dom.parse(p) for p in pages])
    html, name = page()
    holders = [n for n, values in extract(template, html).fields.items() if name in values]
    assert holders == (["heading"] if second else ["title"])
