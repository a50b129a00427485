"""A label that ends with a particle names its value where the page says it
is a label (issue 11: names a person would pick). "Check in", "Made in",
"Sold by" end with a word that also leads into a value inside a sentence
("by <a>Paul Kent</a>", "Reviews for <b>Dune</b>"), where it names nothing.
What tells them apart is where the words stand: the whole text of an
element of their own (a ``dt``, a ``th``, a cell, a ``label``, a ``span``,
a bold lead-in, a heading), or followed by a colon or a dash, they are a
label; loose in the value's own element, a lead-in. A label's being an
element of its own is kept in the stored template (version 4), so the
name holds when the template is read back.
"""

from __future__ import annotations

import json
import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

IDIOMS = {
    "dt": "<dl><dt>{label}</dt><dd>{value}</dd></dl>",
    "th": "<table><tr><th>{label}</th><td>{value}</td></tr></table>",
    "cell": "<table><tr><td>{label}</td><td>{value}</td></tr></table>",
    "label element": "<div><label>{label}</label> <span>{value}</span></div>",
    "span of its own": "<div class='row'><span class='k'>{label}</span> <span>{value}</span></div>",
    "strong": "<p><strong>{label}</strong> {value}</p>",
    "heading above": "<div><h4>{label}</h4><p>{value}</p></div>",
    "dash": "<p>{label} - {value}</p>",
    "en dash": "<div>{label} \u2013 {value}</div>",
}
#: (label, the name a person would pick).
LABELS = [("Check in", "check_in"), ("Made in", "made_in"), ("Sold by", "sold_by")]
WORDS = ["Arlen", "Borsk", "Calder", "Dunmore", "Elwick", "Farrow", "Gilden", "Hollis", "Ivers"]


def _value(rng: random.Random, column: int) -> str:
    if column == 0:
        return f"{rng.randrange(1, 12)}:{rng.choice(['00', '30'])} pm"
    return f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randrange(10, 99)}"


def _page(rng: random.Random, idiom: str) -> tuple[str, dict[str, str]]:
    values = {name: _value(rng, column) for column, (_, name) in enumerate(LABELS)}
    rows = "".join(IDIOMS[idiom].format(label=label, value=values[name]) for label, name in LABELS)
    html = (
        "<html><body><div id='nav'><a href='/'>Home</a></div>"
        f"<h1>Hotel {rng.choice(WORDS)} {rng.randrange(100, 999)}</h1>"
        f"<div class='facts'>{rows}</div><p>Copyright</p></body></html>"
    )
    return html, values


def _induced(pages: list[str]) -> Template:
    trees = [dom.parse(html) for html in pages]
    template = induce_template(trees)
    name_template(template, trees)
    return template


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_a_phrasal_label_names_its_value(idiom: str) -> None:
    rng = random.Random(idiom)
    pages = [_page(rng, idiom) for _ in range(7)]
    template = _induced([html for html, _ in pages[:5]])
    for html, values in pages[5:]:
        item = item_data(extract(template, html), template)
        for name, value in values.items():
            assert item.get(name) == value, (name, item)


def test_the_name_holds_in_the_stored_template() -> None:
    rng = random.Random(3)
    pages = [_page(rng, "dt") for _ in range(6)]
    template = _induced([html for html, _ in pages[:5]])
    data = json.loads(template.to_json())
    assert data["version"] == 4
    assert {info["label"]: info["label_element"] for info in data["fields"]}["Check in"]
    read = Template.from_json(template.to_json())
    html, values = pages[5]
    assert item_data(extract(read, html), read)["made_in"] == values["made_in"]


def test_a_version_3_template_is_read_with_loose_labels() -> None:
    rng = random.Random(4)
    template = _induced([_page(rng, "dt")[0] for _ in range(5)])
    data = json.loads(template.to_json())
    data["version"] = 3
    for info in data["fields"]:
        del info["label_element"]
    read = Template.from_json(json.dumps(data))
    assert [info.name for info in read.fields] == [info.name for info in template.fields]
    assert not any(info.label_element for info in read.fields)


LEAD_INS = {
    "by a link": "<p class='credit'>by <a href='/a/{slug}'>{value}</a></p>",
    "reviews for": "<p class='rv'>Reviews for <b>{value}</b></p>",
}


@pytest.mark.parametrize("idiom", sorted(LEAD_INS))
def test_a_lead_in_inside_the_values_element_names_nothing(idiom: str) -> None:
    """The particle ends a lead-in here: 'by' and 'reviews_for' are no
    names; the value's element names it (class words, else the tag)."""
    rng = random.Random(idiom)

    def page() -> tuple[str, str]:
        value = f"{rng.choice(WORDS)} {rng.choice(WORDS)}"
        row = LEAD_INS[idiom].format(value=value, slug=value.lower().replace(" ", "-"))
        return f"<html><body><h1>Book {rng.randrange(1000)}</h1>{row}</body></html>", value

    pages = [page() for _ in range(6)]
    template = _induced([html for html, _ in pages[:5]])
    html, value = pages[5]
    item = item_data(extract(template, html), template)
    names = set(_names_of(item, value))
    assert names and not {"by", "reviews_for"} & names, item


def _names_of(data: object, value: str, name: str = "") -> list[str]:
    """The names of the leaves of an item that hold ``value``."""
    if isinstance(data, dict):
        return [found for key, each in data.items() for found in _names_of(each, value, key)]
    if isinstance(data, list):
        return [found for each in data for found in _names_of(each, value, name)]
    return [name] if data == value else []
