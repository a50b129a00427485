"""The shape of variant-data items: decided by the template, never by one
page's count; units kept; partial pages marked.

Pages come from generators of one family (a car dealer's model pages, a
shop's product pages with an optional block and a list of tags).
"""

from __future__ import annotations

import json
import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Template, normalized_form
from scrapy_wrapx.unsupervised.items import build_item

WORDS = ["Red", "Blue", "Old", "New", "Deep", "Wild", "Tide", "Moon"]
ENGINES = ["3.0L Diesel I6", "2.0L I4", "5.0L V8", "1.6L Turbo I4", "2.5L Hybrid I4"]


def car_page(rng: random.Random) -> str:
    """Values whose unit sits in their own text node."""
    engine = f"{rng.choice(ENGINES)}, {rng.randint(90, 450)} HP"
    mpg = f"{rng.randint(12, 40)} mpg City, {rng.randint(20, 50)} mpg Hwy"
    weight = f"{rng.randint(100, 2000)} g"
    return (
        f"<html><body><h1>Model {rng.randint(1, 999)}</h1>"
        f"<p class='engine'>{engine}</p><p class='mpg'>{mpg}</p>"
        f"<p class='weight'>Weight: {weight}</p><p class='note'>Prices may vary.</p>"
        "</body></html>"
    )


def shop_page(rng: random.Random, *, tags: int, review: bool, extra: bool = True) -> str:
    tag_list = "".join(
        f"<li><a href='/t/{rng.randint(1, 99)}'>t{rng.randint(1, 99)}</a></li>" for _ in range(tags)
    )
    review_block = (
        f"<div class='review'><b>{rng.randint(10, 999)} stars</b></div>" if review else ""
    )
    extra_block = (
        f"<div class='details'><p>Publisher: P{rng.randint(1, 99)}</p>"
        f"<p>Pages: {rng.randint(50, 900)}</p><p>Format: F{rng.randint(1, 9)}</p>"
        f"<p>Language: L{rng.randint(1, 9)}</p><p>Size: {rng.randint(1, 9)} in</p></div>"
        if extra
        else ""
    )
    return (
        f"<html><body><h1>{' '.join(rng.choice(WORDS) for _ in range(3))}</h1>"
        f"<span class='price'>{rng.randint(1, 90)}.99</span>{review_block}"
        f"<ul class='tags'>{tag_list}</ul>{extra_block}<p>Shop footer</p></body></html>"
    )


def _item(template: Template, html: str) -> dict[str, object]:
    item = build_item(None, "http://x/1", "x/k", 1, extract(template, html), template)
    assert isinstance(item, dict)
    return item


@pytest.mark.parametrize("seed", range(5))
def test_units_stay_in_the_value(seed: int) -> None:
    rng = random.Random(seed)
    seeds = [car_page(rng) for _ in range(5)]
    template = induce_template(seeds)
    for html in [car_page(rng) for _ in range(3)]:
        tree = dom.parse(html)
        values = set(_item(template, html).values())
        for node in tree.leaves:
            text = node.value
            if text.endswith((" HP", " mpg Hwy", " g")):
                # The whole text, or the text with its leading label only.
                assert text.removeprefix("Weight: ") in values, (text, values)


@pytest.mark.parametrize("seed", range(4))
def test_scalars_lists_and_records_come_from_the_template(seed: int) -> None:
    rng = random.Random(seed)
    seeds = [shop_page(rng, tags=n, review=n % 2 == 0) for n in (2, 3, 1, 4, 2)]
    template = induce_template(seeds)
    single = _item(template, shop_page(rng, tags=1, review=False))
    many = _item(template, shop_page(rng, tags=5, review=True))
    # One tag or five: the same keys, the same types (a list either way).
    lists = {key for key, value in many.items() if isinstance(value, list)}
    assert lists and lists == {k for k, v in single.items() if isinstance(v, list)}
    assert all(len(many[key]) == 5 for key in lists)  # type: ignore[arg-type]
    # A single slot is a string; a record's members are not copied to the top.
    scalars = {key: value for key, value in many.items() if isinstance(value, str)}
    assert {"url", "kind"} < set(scalars)
    assert not {v for v in many.values() if isinstance(v, str)} & {
        str(v)
        for values in lists
        for v in many[values]  # type: ignore[attr-defined]
    }
    # The optional review is left out when the page does not show it.
    assert any("stars" in str(v) for v in many.values())
    assert not any("stars" in str(v) for v in single.values())
    assert all(value != "" and value != [] for value in single.values())
    # Lossless on every seed.
    for html in seeds:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)


def test_a_page_missing_a_block_is_a_partial_item() -> None:
    rng = random.Random(11)
    seeds = [shop_page(rng, tags=n, review=True) for n in (2, 3, 1, 4, 2)]
    template = induce_template(seeds)
    lacking = shop_page(rng, tags=0, review=False, extra=False)
    extraction = extract(template, lacking)
    item = _item(template, lacking)
    assert item["partial"] is (not extraction.matched)
    # Whatever it matched is there: the title and the price.
    assert any(str(v).split(" ")[0] in WORDS for v in item.values())
    assert any(str(v).endswith(".99") for v in item.values())
    full = _item(template, shop_page(rng, tags=2, review=True))
    assert full["partial"] is False


def test_field_infos_say_which_set_a_field_repeats_in() -> None:
    rng = random.Random(2)
    template = induce_template([shop_page(rng, tags=n, review=True) for n in (2, 3, 1, 4)])
    repeated = [info for info in template.fields if info.repeated]
    assert repeated and all(info.set in template.set_names for info in repeated)
    again = Template.from_json(template.to_json())
    assert [info.set for info in again.fields] == [info.set for info in template.fields]
    # A version 2 template (no "set" per field) is still read, its sets
    # taken from its tree.
    data = json.loads(template.to_json())
    data["version"] = 2
    for info in data["fields"]:
        del info["set"]
    old = Template.from_json(json.dumps(data))
    assert [info.set for info in old.fields] == [info.set for info in template.fields]
    data["version"] = 1
    with pytest.raises(ValueError, match="version"):
        Template.from_json(json.dumps(data))


@pytest.mark.parametrize("stray", [")", "-", " — ", "*", "(", "..."])
def test_a_slot_of_punctuation_only_is_left_out(stray: str) -> None:
    """A stray bracket, dash or footnote mark in a slot says nothing: the
    item leaves the slot out (as an empty one), in records too; symbols
    that say something (stars, a currency) stay."""
    pages = [
        f"<body><h1>Item {n}</h1><p class='note'>{note}</p><ul>"
        + "".join(f"<li><b>{c}</b><i>{v}</i></li>" for c, v in cells)
        + "</ul><p>Footer</p></body>"
        for n, note, cells in [
            (1, "Open", [("a", "1"), ("b", "2")]),
            (2, "Closed", [("c", "3")]),
            (3, "★★★", [("d", "4"), ("e", "5"), ("f", "6")]),
            (4, "Late", [("g", "7"), ("h", "8")]),
        ]
    ]
    template = induce_template(pages)
    page = (
        f"<body><h1>Item 9</h1><p class='note'>{stray}</p><ul><li><b>x</b><i>{stray}</i></li>"
        "<li><b>y</b><i>9</i></li></ul><p>Footer</p></body>"
    )
    item = build_item(None, "", "k", 1, extract(template, page), template)
    values = _strings(item)
    assert stray.strip() not in values, item
    assert "9" in values
    stars = build_item(None, "", "k", 1, extract(template, pages[2]), template)
    assert "★★★" in json.dumps(stars, ensure_ascii=False)


def _strings(data: object) -> set[str]:
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_strings(v) for v in data))
    return {data.strip()} if isinstance(data, str) else set()


#: A labelled value that ends its line, as pages mark it up, with the
#: values of one kind: quantities (one value, a scalar) and names (a
#: byline: a list of one, which a page with two names fills).
LINE_IDIOMS = {
    "b": "<p class='{cls}'>{label}: <b>{value}</b></p>",
    "span": "<div class='{cls}'><span class='k'>{label}</span> <span class='v'>{value}</span></div>",
    "a": "<p class='{cls}'>{label}: <a href='/x/{n}'>{value}</a></p>",
}
QUANTITIES = {
    "price": lambda rng: f"${rng.randint(5, 400)}.{rng.randint(10, 99)}",
    "height": lambda rng: f"{rng.randint(5, 7)}-{rng.randint(0, 11)}",
    "weight": lambda rng: f"{rng.randint(150, 300)} lbs",
    "released": lambda rng: (
        f"{rng.choice(['Jan', 'May', 'Oct'])} {rng.randint(1, 28)}, {rng.randint(1990, 2010)}"
    ),
    "pages": lambda rng: str(rng.randint(90, 900)),
}
NAMES = ["Ann Lee", "Bo Chan", "Cy Young", "Di Ross", "Ed Wood", "Flo Hart", "Gus Van"]


def lines_page(rng: random.Random, idiom: str, authors: int = 1) -> tuple[str, dict[str, str]]:
    values = {name: make(rng) for name, make in QUANTITIES.items()}
    lines = "".join(
        LINE_IDIOMS[idiom].format(cls=name, label=name.title(), value=value, n=rng.randint(1, 99))
        for name, value in values.items()
    )
    names = rng.sample(NAMES, authors)
    byline = "<p class='by'>By: " + ", ".join(f"<a href='/p/{n}'>{n}</a>" for n in names) + "</p>"
    html = (
        f"<html><body><h1>Item {rng.randint(1, 999)}</h1>{byline}{lines}<p>Footer</p></body></html>"
    )
    return html, {**values, "authors": ", ".join(names)}


@pytest.mark.parametrize("idiom", sorted(LINE_IDIOMS))
@pytest.mark.parametrize("seed", range(3))
def test_a_labelled_quantity_is_a_scalar_and_a_byline_a_list(idiom: str, seed: int) -> None:
    rng = random.Random(seed)
    template = induce_template([lines_page(rng, idiom)[0] for _ in range(5)])
    html, values = lines_page(rng, idiom, authors=2)
    item = _item(template, html)
    for name in QUANTITIES:
        assert values[name] in item.values(), (name, item)  # a scalar, not a list of one
    names = set(values["authors"].split(", "))
    lists = [
        {v for entry in value for v in (entry.values() if isinstance(entry, dict) else [entry])}
        for value in item.values()
        if isinstance(value, list)
    ]
    assert any(names <= texts for texts in lists), item  # both, in one list
