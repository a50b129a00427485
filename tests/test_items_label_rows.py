"""A list of "Label: value" rows whose labels differ between the seeds is
a mapping keyed by its labels (issue 11: the shape users expect, names a
person would pick). ``<p><b>Phone:</b> 555-0100</p>`` rows, a different
subset in another order on every seed, align as one record of optional
alternative labels and one value slot: items held the values alone under
one name (``price`` for the phone, the hours and the price). The labels
are one label whose text varies now, and the rows a key/value set.

Pages come from a generator: three lead-in markups, subsets and orders of
rows of 0 to 4, values of distinct shapes."""

from __future__ import annotations

import random
import re

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

#: The rows: label, value format, and the pattern a value fits.
ROWS = [
    ("Phone", "({a}) {b}-{c}", r"^\(\d{3}\) \d{3}-\d{4}$"),
    ("Hours", "Open {h}am-{k}pm", r"^Open \d+am-\d+pm$"),
    ("Cuisine", "{w}", r"^[A-Z][a-z]+$"),
    ("Price", "${h}{k} a head", r"^\$\d\d a head$"),
]
#: How the list and a row are marked up.
IDIOMS = {
    "p b": ("<div class='facts'>{}</div>", "<p><b>{label}:</b> {value}</p>"),
    "div strong": ("<div class='facts'>{}</div>", "<div><strong>{label}:</strong> {value}</div>"),
    "li span": ("<ul class='facts'>{}</ul>", "<li><span class='lbl'>{label}:</span> {value}</li>"),
}
#: Each seed's rows, in an order of its own.
SEEDS = [[0, 1, 2], [2, 0], [1, 3, 0, 2], [3, 1], [0, 2, 3]]
WORDS = ["Thai", "Greek", "Cajun", "Tapas", "Sushi", "Deli"]


def _page(rng: random.Random, name: str, idiom: str, rows: list[int]) -> str:
    box, row = IDIOMS[idiom]
    shown = "".join(
        row.format(
            label=ROWS[kind][0],
            value=ROWS[kind][1].format(
                a=rng.randint(200, 999),
                b=rng.randint(200, 999),
                c=rng.randint(1000, 9999),
                h=rng.randint(1, 9),
                k=rng.randint(1, 9),
                w=rng.choice(WORDS),
            ),
        )
        for kind in rows
    )
    return (
        f"<html><head><title>{name}</title></head><body><h1>{name}</h1>"
        f"{box.format(shown)}<p class='foot'>Copyright Eats</p></body></html>"
    )


def _induced(rng: random.Random, idiom: str) -> Template:
    pages = [_page(rng, f"Diner {n}", idiom, rows) for n, rows in enumerate(SEEDS)]
    trees = [dom.parse(html, f"http://eats.example/r/{n}") for n, html in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(3))
def test_label_rows_are_a_mapping_keyed_by_their_labels(idiom: str, seed: int) -> None:
    rng = random.Random(seed)
    template = _induced(rng, idiom)
    for rows in ([0, 1, 2, 3], [1], [3, 0], [2, 1, 0], [3, 2, 1, 0]):
        html = _page(rng, "Diner X", idiom, rows)
        item = item_data(extract(template, html, "http://eats.example/r/99"), template)
        mappings = [value for value in item.values() if isinstance(value, dict)]
        assert len(mappings) == 1, item
        (facts,) = mappings
        assert set(facts) == {ROWS[kind][0].lower() for kind in rows}, item
        for kind in rows:
            assert re.match(ROWS[kind][2], facts[ROWS[kind][0].lower()]), item


#: Label and value in elements told apart by their classes alone.
PAIRS = {
    "span pair": (
        "<ul class='facts'>{}</ul>",
        "<li><span class='k'>{label}</span><span class='v'>{value}</span></li>",
    ),
    "div pair": (
        "<div class='facts'>{}</div>",
        "<div class='row'><div class='key'>{label}</div><div class='val'>{value}</div></div>",
    ),
}


@pytest.mark.parametrize("idiom", sorted(PAIRS))
@pytest.mark.parametrize("seed", range(3))
def test_pairs_told_apart_by_class_are_a_mapping_where_labels_recur(idiom: str, seed: int) -> None:
    # No markup and no colon says "label"; the label texts recur from seed
    # to seed while the values do not.
    IDIOMS[idiom] = PAIRS[idiom]
    try:
        test_label_rows_are_a_mapping_keyed_by_their_labels(idiom, seed)
    finally:
        del IDIOMS[idiom]


@pytest.mark.parametrize("seed", range(3))
def test_cards_of_a_name_and_a_price_stay_a_list(seed: int) -> None:
    # Pairs alike whose first texts do not recur (products' names): data.
    rng = random.Random(seed)

    def page(n: int) -> str:
        cards = "".join(
            f"<li><span class='k'>{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randint(1, 999)}"
            f"</span><span class='v'>${rng.randint(5, 90)}</span></li>"
            for _ in range(3 + n % 3)
        )
        return (
            f"<html><body><h1>Shop {n}</h1><ul class='cards'>{cards}</ul><p>Foot</p></body></html>"
        )

    trees = [dom.parse(page(n), f"http://shop.example/c/{n}") for n in range(5)]
    template = induce_template(trees)
    name_template(template, trees)
    item = item_data(extract(template, page(7), "http://shop.example/c/7"), template)
    assert not any(isinstance(value, dict) for value in item.values()), item
    assert [len(v) for v in item.values() if isinstance(v, list)] == [4], item
