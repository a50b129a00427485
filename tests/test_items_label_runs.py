"""Runs of labelled values with no element around each row (issue 11: a
wrong value is worse than none): ``<b>Pages:</b> 320<br><b>Format:</b>
Paperback<br>``, each row shown or not, in the site's order.

Short values between alike label elements read as the separators of an
inline list ("<a>A</a>, <a>B</a>"), so the labels folded into one list
and the values were lost as commas; or the rows folded from a value on,
each record a value and the next label, and a value landed under the
label before it. Labels are no list items now, a record opens with its
label, and the records' alternative labels are one label slot (the label
before the set that most seeds show, aligned apart, joins them): the run
is a key/value set keyed by the page's own labels.

Pages come from a generator: three markups of the label, rows of eight
labels each shown or not, values of one or more words and numbers."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import build_item

LABELS = ["Author", "Publisher", "Pages", "Format", "Language", "Edition", "Weight", "Series"]
WORDS = ["Acme", "Blue", "Oak", "Star", "North", "Lake", "Iron", "Red", "Tall", "Gold"]
ROWS = {
    "b": "<b>{}:</b> {}<br>",
    "strong": "<strong>{}:</strong> {}<br/>",
    "span": "<span class='lbl'>{}:</span> {}<br>",
}
KEYS = {label.lower() for label in LABELS}


def _value(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.3:
        return str(rng.randrange(10, 999))
    if kind < 0.6:
        return rng.choice(WORDS)
    return f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randrange(9)}"


def _page(rng: random.Random, idiom: str) -> tuple[str, dict[str, str]]:
    rows = [(label, _value(rng)) for label in LABELS if rng.random() < 0.65]
    number = rng.randrange(10_000)
    details = "".join(ROWS[idiom].format(label, value) for label, value in rows)
    html = (
        f"<html><body><div id='nav'><a href='/'>Home</a></div>"
        f"<h1>Book {number} {rng.choice(WORDS)}</h1><div class='details'>{details}</div>"
        f"<p class='price'>${number}.99</p><div id='footer'>About</div></body></html>"
    )
    return html, dict(rows)


def _named(pages: list[str]) -> Template:
    template = induce_template(pages)
    name_template(template, [dom.parse(page) for page in pages])
    return template


def _pairs(data: object, key: str = "") -> list[tuple[str, str]]:
    if isinstance(data, dict):
        return [pair for k, v in data.items() for pair in _pairs(v, str(k))]
    if isinstance(data, list):
        return [pair for v in data for pair in _pairs(v, key)]
    return [(key, str(data))]


def _unseen(idiom: str, seed: int) -> list[tuple[dict[str, object], dict[str, str]]]:
    rng = random.Random(seed)
    template = _named([_page(rng, idiom)[0] for _ in range(5)])
    pages = [_page(rng, idiom) for _ in range(8)]
    return [
        (build_item(None, "", "", 1, extract(template, html), template), truth)
        for html, truth in pages
    ]


WRONG_CASES = [(i, s) for i in ("b", "strong") for s in range(10)]
#: With seed 34, the labels "Pages:" and "Language:" stood before one
#: value outside any list: the language was under ``pages``.
WRONG_CASES += [("span", s) for s in range(30, 40)]


@pytest.mark.parametrize(("idiom", "seed"), WRONG_CASES)
def test_no_value_under_another_label(idiom: str, seed: int) -> None:
    for item, truth in _unseen(idiom, seed):
        pairs = _pairs(item)
        for label, value in truth.items():
            if list(truth.values()).count(value) > 1:
                continue  # the same value under two labels
            wrong = [k for k, v in pairs if v == value and k in KEYS and k != label.lower()]
            assert not wrong, (label, value, wrong, item)


@pytest.mark.parametrize("idiom", ["b", "strong", "span"])
def test_values_are_kept_and_mostly_keyed(idiom: str) -> None:
    """The code before lost 41% of the values and keyed 33% of them; now
    under 1% and 99%."""
    keyed = lost = total = 0
    for seed in range(10):
        for item, truth in _unseen(idiom, seed):
            pairs = _pairs(item)
            for label, value in truth.items():
                total += 1
                keyed += (label.lower(), value) in pairs
                lost += all(value not in v for _, v in pairs)
    assert keyed >= 0.9 * total, (keyed, total)
    assert lost <= 0.03 * total, (lost, total)


@pytest.mark.parametrize("idiom", ["b", "strong"])
def test_a_page_without_a_row_every_seed_showed(idiom: str) -> None:
    """These seeds all show a "Publisher:" row; a page without it keeps
    the rows after it. The alignment gave the next row's value to the
    publisher's place, where it was dropped (its label is another), and
    that row lost its value."""
    rng = random.Random(1)
    template = _named([_page(rng, idiom)[0] for _ in range(5)])
    rows = [("Author", "Kim Lee"), ("Pages", "320"), ("Format", "Paper"), ("Series", "Dune")]
    details = "".join(ROWS[idiom].format(label, value) for label, value in rows)
    html = (
        f"<html><body><div id='nav'><a href='/'>Home</a></div><h1>Book 1 Oak</h1>"
        f"<div class='details'>{details}</div><p class='price'>$1.99</p>"
        f"<div id='footer'>About</div></body></html>"
    )
    item = build_item(None, "", "", 1, extract(template, html), template)
    assert {("pages", "320"), ("format", "Paper"), ("series", "Dune")} <= set(_pairs(item)), item


#: Sections of a car's sheet, in runs of "<i>Label:</i> value".
CAR_SECTIONS = {
    "Performance": ["Engine", "Horsepower", "Torque", "Transmission", "Drivetrain"],
    "Efficiency": ["MPG City", "MPG Highway", "Fuel tank"],
    "Interior": ["Seating", "Cargo volume", "Legroom"],
    "Dimensions": ["Wheelbase", "Length", "Curb weight"],
    "Warranty": ["Basic", "Powertrain", "Roadside"],
}
CAR_KEYS = {label.lower().replace(" ", "_") for rows in CAR_SECTIONS.values() for label in rows}


CAR_WORDS = ["Turbo", "Sport", "Eco", "Plus", "Touring", "Base", "Elite", "AWD", "FWD", "CVT"]
CAR_UNITS = ["hp", "lb-ft", "mpg", "gal", "in", "lbs", "cu ft", "mi"]


def _car_value(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.5:
        return f"{rng.randrange(2, 900)} {rng.choice(CAR_UNITS)}"
    if kind < 0.8:
        return f"{rng.choice(CAR_WORDS)} {rng.choice(CAR_WORDS).lower()}"
    return f"{rng.randrange(1, 9)} yr / {rng.randrange(10, 99)},000 mi"


def _car_page(rng: random.Random) -> tuple[str, dict[str, str]]:
    truth: dict[str, str] = {}
    parts = ""
    for title, labels in CAR_SECTIONS.items():
        if title != "Performance" and rng.random() > 0.7:
            continue
        rows = [(label, _car_value(rng)) for label in labels if rng.random() < 0.75]
        if rows:
            runs = "".join(f"<i>{label}:</i> {value}<br/>" for label, value in rows)
            parts += f"<p class='sec'><u>{title}</u><br/>{runs}</p>"
            truth.update(rows)
    number = rng.randrange(100000)
    html = (
        "<html><head><title>Car</title></head><body><div class='top'><a href='/'>Cars</a>"
        f"</div><div class='main'><h1>{rng.choice(CAR_WORDS)} {number}</h1>"
        f"<div class='msrp'>MSRP ${number}</div>{parts}</div><div class='foot'>Contact</div>"
        "</body></html>"
    )
    return html, truth


@pytest.mark.parametrize("seed", range(1002, 1042, 4))
def test_runs_in_sections_alike(seed: int) -> None:
    """The sections fold into one list, whose record held several runs of
    alternative labels, each with a value named after one of them (with
    seed 1026, the seating, the cargo volume and the length were under
    ``engine``)."""
    rng = random.Random(seed)
    template = _named([_car_page(rng)[0] for _ in range(5)])
    for _ in range(6):
        html, truth = _car_page(rng)
        pairs = _pairs(build_item(None, "", "", 1, extract(template, html), template))
        for label, value in truth.items():
            if list(truth.values()).count(value) > 1:
                continue
            key = label.lower().replace(" ", "_")
            wrong = [k for k, v in pairs if v == value and k in CAR_KEYS and k != key]
            assert not wrong, (label, value, wrong, pairs)
