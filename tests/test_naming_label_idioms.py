"""The page's label names its value, in every idiom a page labels with
(issue 11: names a person would pick): a label cell with or without a
colon, ``th``, ``dt``, a label element or class, a bold lead-in, a heading
above, a list item, a label before a dash or a bar ("Phone - (212)
555-0100", "Type | Public"), where rows alike but for their labels once
folded into one list of unnamed texts, cells wrapped alike however deep,
an icon's alternative text, and
the value's own element's ``title`` (``<span title="Director">``).
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

IDIOMS = {
    "cell": "<table><tr><td>{label}</td><td>{value}</td></tr></table>",
    "cell with colon": "<table><tr><td>{label}:</td><td>{value}</td></tr></table>",
    "th": "<table><tr><th>{label}</th><td>{value}</td></tr></table>",
    "dt": "<dl><dt>{label}</dt><dd>{value}</dd></dl>",
    "label class": "<div><span class='lbl'>{label}</span> <span>{value}</span></div>",
    "label element": "<label>{label}</label><span>{value}</span>",
    "key and value divs": "<div class='row'><div class='key'>{label}</div><div>{value}</div></div>",
    "strong": "<p><strong>{label}</strong> {value}</p>",
    "strong with colon": "<p><strong>{label}:</strong> {value}</p>",
    "bold cell": "<table><tr><td><b>{label}</b></td><td>{value}</td></tr></table>",
    # Both cells wrapped alike, as table layouts do: the cell before names it.
    "wrapped cells": "<table><tr><td><div class='s'>{label}</div></td>"
    "<td><div class='s'>{value}</div></td></tr></table>",
    "paragraph cells": "<table><tr><td><p>{label}</p></td><td><p>{value}</p></td></tr></table>",
    "deep cells": "<table><tr><td><div class='c'><p class='t'>{label}</p></div></td>"
    "<td><div class='c'><p class='t'>{value}</p></div></td></tr></table>",
    "heading above": "<h3>{label}</h3><p>{value}</p>",
    "list item": "<ul><li>{label}: {value}</li></ul>",
    "bold list item": "<ul><li><b>{label}</b> {value}</li></ul>",
    "dash": "<p>{label} - {value}</p>",
    "bar": "<p>{label} | {value}</p>",
    "en dash": "<div>{label} \u2013 {value}</div>",
    "icon": "<p><img src='/icons/{file}.gif' alt='{label}'> {value}</p>",
    "own title": "<p><span title='{label}'>{value}</span></p>",
}
SCHOOLS = [
    "Public",
    "Private",
    "Private for-profit",
    "Community college",
    "Military academy",
    "Online",
]
DIRECTORS = ["Ridley Scott", "Jane Campion", "Ang Lee", "Sofia Coppola", "Spike Lee", "Agnes Varda"]
#: (label, values drawn without repeats, the name a person would pick).
FIELDS = [
    (
        "Phone",
        lambda rng, i: f"({200 + i}) {rng.randrange(200, 999)}-{rng.randrange(1000, 9999)}",
        "phone",
    ),
    ("Type of School", lambda rng, i: SCHOOLS[i], "type_of_school"),
    (
        "Engine",
        lambda rng, i: f"{1 + i}.{rng.randrange(10)}L I{4 + i % 2 * 2}, {120 + 9 * i} hp",
        "engine",
    ),
    ("Director", lambda rng, i: DIRECTORS[i], "director"),
]


def _page(rng: random.Random, index: int, idiom: str, order: list[int]) -> str:
    rows = "".join(
        IDIOMS[idiom].format(label=FIELDS[f][0], value=FIELDS[f][1](rng, index), file=FIELDS[f][2])
        for f in order
    )
    return (
        "<html><body><div id='nav'><a href='/'>Home</a></div>"
        f"<h1>School {rng.randrange(100, 999)}</h1><div class='main'>{rows}</div>"
        "<p>Copyright</p></body></html>"
    )


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(2))
def test_the_label_names_the_value(idiom: str, seed: int) -> None:
    rng = random.Random(f"{idiom}{seed}")
    order = rng.sample(range(len(FIELDS)), len(FIELDS))
    seeds = [dom.parse(_page(rng, i, idiom, order)) for i in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)
    html = _page(rng, 5, idiom, order)
    item = item_data(extract(template, html), template)
    for _, _, name in FIELDS:
        assert name in item, item
    assert item["director"] == DIRECTORS[5]
    assert item["type_of_school"] == SCHOOLS[5]
