"""A set of label/value rows whose labels differ from page to page (a specs
table, a ``<dl>``, "Label: value" lines) is one mapping in the item, keyed
by the labels (:mod:`scrapy_wrapx.induction._keyvalue`); a list of data
that merely sits in the same markup (product names in ``<b>``) stays a list.
"""

from __future__ import annotations

import json
import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.commands._show import template_schema
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._keyvalue import KEY_VALUE_SETS, KeyValueSet
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.induction.item_shape import ItemShape, item_shape
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import build_item

SPECS = {
    "Weight": "g",
    "Height": "cm",
    "Color": "",
    "Battery life": "h",
    "Warranty": "years",
    "Screen size": "in",
    "Optical zoom": "x",
    "Resolution": "MP",
}
IDIOMS = ["th", "td_b", "td", "colon", "line"]


def _rows(idiom: str, rows: list[tuple[str, str]]) -> str:
    if idiom == "dl":
        return (
            "<dl class='specs'>" + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"
        )
    if idiom == "colon":
        lines = "".join(f"<li><span>{k}:</span> <span>{v}</span></li>" for k, v in rows)
        return f"<ul class='specs'>{lines}</ul>"
    if idiom == "line":
        # One text a row, its label of its own: no label is fixed text.
        lines = "".join(f"<li>{k}: {v}</li>" for k, v in rows)
        return f"<ul class='specs'>{lines}</ul>"
    cell = {"th": "<th>{}</th>", "td_b": "<td><b>{}</b></td>", "td": "<td>{}</td>"}[idiom]
    body = "".join(f"<tr>{cell.format(k)}<td>{v}</td></tr>" for k, v in rows)
    return f"<table class='specs'>{body}</table>"


def _page(rng: random.Random, idiom: str, count: int) -> tuple[str, dict[str, str]]:
    labels = sorted(rng.sample(sorted(SPECS), count), key=list(SPECS).index)
    rows = [(k, f"{rng.randrange(1, 900)} {SPECS[k]}".strip()) for k in labels]
    number = rng.randrange(10_000)
    html = (
        f"<html><head><title>Camera {number}</title></head><body><h1>Camera {number}</h1>"
        f"<p class='price'>${number}.99</p>{_rows(idiom, rows)}<p>Footer</p></body></html>"
    )
    return html, {k.lower().replace(" ", "_"): v for k, v in rows}


def _named(pages: list[str]) -> Template:
    template = induce_template(pages)
    name_template(template, [dom.parse(page) for page in pages])
    return template


def _mappings(item: dict[str, object]) -> list[dict[str, object]]:
    return [value for value in item.values() if isinstance(value, dict)]


@pytest.mark.parametrize("seed", range(15))
def test_label_value_rows_are_one_mapping(seed: int) -> None:
    rng = random.Random(seed)
    idiom = IDIOMS[seed % len(IDIOMS)]
    seeds = [_page(rng, idiom, rng.randrange(3, 7))[0] for _ in range(5)]
    template = _named(seeds)
    noted = template.meta.get(KEY_VALUE_SETS)
    assert noted, (idiom, template.field_names)
    # Named after the class of the element holding the rows, not "tr_list".
    assert all(name.startswith("specs") for name in noted), noted
    assert "labels -> values" in template_schema(template)
    # As a page worker sends it with the template it induced.
    shape = item_shape(template)
    assert ItemShape.from_dict(json.loads(json.dumps(shape.to_dict()))) == shape
    for count in (1, 4, len(SPECS)):
        html, truth = _page(rng, idiom, count)
        item = build_item(None, "", "", 1, extract(template, html), template)
        # Rows every seed showed may be fields of their own, named by their
        # fixed label; the others are keyed by theirs.
        keyed = {k: v for k, v in item.items() if k in truth}
        for mapping in _mappings(item):
            assert not set(mapping) & set(keyed), item
            keyed.update(mapping)
        assert keyed == truth, (idiom, item)
        assert _mappings(item) or count == 1, item
    # A page whose table is empty has no such key at all.
    item = build_item(None, "", "", 1, extract(template, _page(rng, idiom, 0)[0]), template)
    assert not _mappings(item) and not set(item) & {k.lower() for k in SPECS}, item


NAMES = ["Red Kettle", "Blue Mug", "Oak Table", "Tin Lamp", "Wool Rug", "Glass Jar", "Iron Pan"]


@pytest.mark.parametrize("seed", range(8))
def test_data_in_label_markup_stays_a_list(seed: int) -> None:
    """Product names in ``<b>`` next to their price: names that do not
    recur across pages are data, not labels."""
    rng = random.Random(seed)

    def page() -> str:
        rows = "".join(
            f"<tr><td><b>{rng.choice(NAMES)} {rng.randrange(1000)}</b></td>"
            f"<td>${rng.randrange(100)}.99</td></tr>"
            for _ in range(rng.randrange(2, 6))
        )
        return f"<body><h1>Deals</h1><table>{rows}</table><p>Footer</p></body>"

    template = _named([page() for _ in range(5)])
    assert not template.meta.get(KEY_VALUE_SETS)
    item = build_item(None, "", "", 1, extract(template, page()), template)
    assert not _mappings(item) and any(isinstance(v, list) for v in item.values())


@pytest.mark.parametrize("seed", range(4))
def test_lines_that_open_with_names_stay_a_list(seed: int) -> None:
    """Comments that open with their author ("Ann Lee: works well") read
    like "Label: value" lines, but their authors do not recur across
    pages: a list of comments, not a mapping."""
    rng = random.Random(seed)

    def page() -> str:
        lines = "".join(
            f"<li>{rng.choice(NAMES).split()[0]} {rng.randrange(1000)}: "
            f"{rng.choice(['works well', 'too small', 'as described'])} {rng.randrange(99)}</li>"
            for _ in range(rng.randrange(2, 6))
        )
        return f"<body><h1>Kettle {rng.randrange(999)}</h1><ul class='comments'>{lines}</ul></body>"

    template = _named([page() for _ in range(5)])
    assert not template.meta.get(KEY_VALUE_SETS)
    item = build_item(None, "", "", 1, extract(template, page()), template)
    assert not _mappings(item) and any(isinstance(v, list) for v in item.values()), item


def test_a_label_a_page_repeats_is_no_key() -> None:
    """Two rows with the same label on one page ("Color: red", "Color:
    blue") are a list of pairs, not a mapping that would lose one."""
    rng = random.Random(1)

    def page() -> str:
        colors = rng.sample(["red", "blue", "green", "black"], 2)
        rows = [("Color", c) for c in colors] + [("Weight", f"{rng.randrange(900)} g")]
        return f"<body><h1>Item {rng.randrange(99)}</h1>{_rows('th', rows)}<p>Footer</p></body>"

    template = _named([page() for _ in range(5)])
    assert not template.meta.get(KEY_VALUE_SETS)


def test_rows_in_an_element_without_class_words_are_details() -> None:
    rng = random.Random(5)
    pages = [
        _page(rng, "th", rng.randrange(3, 7))[0].replace(" class='specs'", "") for _ in range(5)
    ]
    template = _named(pages)
    html, truth = _page(rng, "th", 5)
    item = build_item(
        None, "", "", 1, extract(template, html.replace(" class='specs'", "")), template
    )
    assert {k: v for k, v in item.items() if isinstance(v, dict)} == {"details": truth}, item


@pytest.mark.parametrize(
    "data",
    [None, [], {"field_names": ["a"]}, {"keyed": {"specs": ["label", "value"]}}],
)
def test_an_invalid_item_shape_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        ItemShape.from_dict(data)


def test_an_item_shape_with_values_in_other_markups_round_trips() -> None:
    """The alternative value fields of a key/value set travel with the
    shape (a page worker sends it), and a shape sent before them (three
    parts) still loads."""
    shape = ItemShape(
        ["s", "value", "site", "site_url"],
        ["rows"],
        frozenset({"s", "value", "site", "site_url"}),
        {},
        {"rows": KeyValueSet("s", "value", others=("site", "site_url"))},
    )
    again = ItemShape.from_dict(json.loads(json.dumps(shape.to_dict())))
    assert again == shape
    older = shape.to_dict()
    older["keyed"] = {"rows": ["s", "value", ""]}
    assert ItemShape.from_dict(older).keyed == {"rows": KeyValueSet("s", "value")}
