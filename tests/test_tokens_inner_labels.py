"""Several labelled fields in one text node ("Height: 6-8 | Weight: 220
lbs | Born: May 3, 1990") are several fields, each named by its label and
with its unit: issue 11, values inside a longer text. The labels must be
the same, in the same order, in every value; a lowercase word before a
colon is no label ("3 reviews, average rating: 4.5", "1 year: $29.99")
(:func:`scrapy_wrapx.induction._tokens.derive_parts`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.induction._tokens import derive_parts

SEPARATORS = [" | ", " / ", ", ", " ", "; ", " \u2022 "]


def _height(rng: random.Random) -> str:
    return f"{rng.randrange(5, 8)}-{rng.randrange(0, 12)}"


def _weight(rng: random.Random) -> str:
    return f"{rng.randrange(160, 300)} lbs"


def _born(rng: random.Random) -> str:
    month = rng.choice(["May", "June", "Jan", "March", "October"])
    return f"{month} {rng.randrange(1, 29)}, {rng.randrange(1970, 2004)}"


def _college(rng: random.Random) -> str:
    return rng.choice(["Duke", "North Carolina", "UCLA", "St. John's", "Texas A&M"])


#: Labelled fields: label, value maker, the field name the label gives.
FIELDS = [
    ("Height", _height, "height"),
    ("Weight", _weight, "weight"),
    ("Born", _born, "born"),
    ("Date of Birth", _born, "date_of_birth"),
    ("College", _college, "college"),
]


def _draw(rng: random.Random) -> tuple[list[tuple[str, object, str]], str]:
    fields = rng.sample([f for f in FIELDS if f[0] != "Born"], 2)
    fields.insert(rng.randrange(3), FIELDS[2])
    return fields, rng.choice(SEPARATORS)


def _text(fields: list[tuple[str, object, str]], values: list[str], separator: str) -> str:
    return separator.join(
        f"{label}: {value}" for (label, _, _), value in zip(fields, values, strict=True)
    )


@pytest.mark.parametrize("seed", range(24))
def test_each_labelled_field_of_one_text_is_a_field(seed: int) -> None:
    rng = random.Random(seed)
    fields, separator = _draw(rng)
    truths = [[make(rng) for _, make, _ in fields] for _ in range(8)]  # type: ignore[operator]
    pages = [
        f"<html><body><h1>Player {i}</h1><p class='bio'>{_text(fields, truth, separator)}</p>"
        "<p>All rights reserved.</p></body></html>"
        for i, truth in enumerate(truths)
    ]
    template = induce_template(pages[:5])
    for page, truth in zip(pages[5:], truths[5:], strict=True):
        extraction = extract(template, page)
        assert extraction.matched
        for (_, _, name), value in zip(fields, truth, strict=True):
            assert extraction.fields[name] == [value], (separator, fields)


@pytest.mark.parametrize("separator", SEPARATORS)
def test_the_label_and_the_separator_before_it_are_template(separator: str) -> None:
    rng = random.Random(7)
    values = [
        f"{_height(rng)}{separator}Weight: {_weight(rng)}{separator}Born: {_born(rng)}"
        for _ in range(4)
    ]
    assert derive_parts(values) == [None, f"{separator}Weight: ", None, f"{separator}Born: ", None]


def test_a_label_some_values_lack_cuts_nothing() -> None:
    values = ["6-8 | Weight: 220 lbs", "7-1 | 245 lbs", "5-11 | Weight: 180 lbs"]
    assert derive_parts(values) == [None, " | ", None]


@pytest.mark.parametrize(
    "second",
    ["College: UCLA, 7-1, Weight: 245 lbs", "7-1, College: UCLA, Weight: 245 lbs"],
)
def test_labels_in_another_order_cut_nothing(second: str) -> None:
    """Values that disagree on the order of their labels (or hold one where
    no data comes before it) are kept whole: no field could hold the same
    thing on every page."""
    values = [
        "6-8, Weight: 220 lbs, College: Duke",
        second,
        "5-11, Weight: 180 lbs, College: Texas",
    ]
    assert derive_parts(values) == [None]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_an_optional_label_is_an_optional_field(separator: str) -> None:
    """A label some seeds lack is a field of its own where it is there, and
    absent where not; the field before it never runs on into it."""
    rng = random.Random(5)
    truths = [(_height(rng), _college(rng) if i % 3 == 0 else None, _weight(rng)) for i in range(9)]
    texts = [
        separator.join(
            f"{label}: {value}"
            for label, value in zip(("Height", "College", "Weight"), truth, strict=True)
            if value is not None
        )
        for truth in truths
    ]
    pages = [
        f"<html><body><h1>Player {i}</h1><p class='bio'>{text}</p></body></html>"
        for i, text in enumerate(texts)
    ]
    template = induce_template(pages[:5])
    for page, (height, college, weight) in zip(pages, truths, strict=True):
        fields = extract(template, page).fields
        assert fields["height"] == [height]
        assert fields["college"] == ([college] if college else [])
        assert fields["weight"] == [weight]


@pytest.mark.parametrize(
    "values",
    [
        [
            "(3 reviews, average rating: 4.5/5)",
            "(12 reviews, average rating: 3.0/5)",
            "(1 review, average rating: 5.0/5)",
        ],
        ["1 year: $29.99", "2 year: $49.99", "3 year: $79.99"],
        # A title's colon, and rows of a list of specs, with no label that
        # every value has or that the text starts with.
        ["Trois Couleurs: Rouge", "Short Cuts", "Butch and Sundance: The Early Days", "Heat"],
        ["Still Image: Single, Jump", "Movie: Normal Playback", "Supported", "Auto, P, Movie"],
    ],
)
def test_no_label_inside_a_phrase_or_after_its_number(values: list[str]) -> None:
    assert not any(part and ":" in part for part in derive_parts(values))


def test_a_label_that_is_the_data_of_some_value_is_no_label() -> None:
    # "Note: " appears twice in one value: no anchor it could be cut at.
    values = ["x Note: a Note: b", "y Note: c", "z Note: d"]
    assert derive_parts(values) == [None]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_page_without_one_of_the_labels_keeps_the_others(separator: str) -> None:
    rng = random.Random(11)
    truths = [(_height(rng), _weight(rng), _born(rng)) for _ in range(5)]
    texts = [f"Height: {h}{separator}Weight: {w}{separator}Born: {b}" for h, w, b in truths]
    # The page of a player whose weight is not known, and one whose page
    # shows a label no seed had, where the height could hold it.
    texts.append(f"Height: 6-2{separator}Born: May 4, 1988")
    texts.append(f"Height: 6-2{separator}Reach: 7-1{separator}Born: May 4, 1988")
    pages = [
        f"<html><body><h1>Player {i}</h1><p class='bio'>{text}</p></body></html>"
        for i, text in enumerate(texts)
    ]
    template = induce_template(pages[:5])
    missing = extract(template, pages[5]).fields
    assert (missing["height"], missing["weight"], missing["born"]) == (["6-2"], [], ["May 4, 1988"])
    # Not "6-2 | Reach: 7-1" as a height: the text is kept whole, as any
    # text that does not fit its tokens is.
    unknown = extract(template, pages[6]).fields
    assert unknown["height"] == [texts[6]]
    assert unknown["weight"] == [] and unknown["born"] == []


#: Measures read whole, each part labelled: the labels and the shape of
#: one part's numbers.
MEASURES = [
    ("City", "Highway", lambda rng: str(rng.randrange(12, 40))),
    ("Min", "Max", lambda rng: f"{rng.randrange(1, 9)}.{rng.randrange(10)}"),
    ("Low", "High", lambda rng: f"${rng.randrange(10, 99)}"),
]
#: How a page labels a row: (label, value) -> markup.
ROWS = {
    "table": lambda label, value: f"<table><tr><td>{label}:</td><td>{value}</td></tr></table>",
    "dl": lambda label, value: f"<dl><dt>{label}</dt><dd>{value}</dd></dl>",
    "bold": lambda label, value: f"<p><b>{label}:</b> {value}</p>",
}


@pytest.mark.parametrize("row", sorted(ROWS))
@pytest.mark.parametrize("measure", range(len(MEASURES)))
@pytest.mark.parametrize("separator", [" ", "  ", ", ", " / "])
def test_a_measure_of_labelled_parts_is_one_value_with_its_labels(
    separator: str, measure: int, row: str
) -> None:
    """ "City: 16 Highway: 23", numbers of one shape after each label, is
    one value read whole, named by its row's label: its first label stays
    in it as much as the second (it held "16 Highway: 23" under ``city``)."""
    first, second, number = MEASURES[measure]
    rng = random.Random(measure)
    texts = [f"{first}: {number(rng)}{separator}{second}: {number(rng)}" for _ in range(7)]
    pages = [
        f"<html><body><h1>Car {i}</h1>{ROWS[row]('Fuel Economy', text)}"
        "<p>All rights reserved.</p></body></html>"
        for i, text in enumerate(texts)
    ]
    template = induce_template(pages[:5])
    name_template(template, [dom.parse(page) for page in pages[:5]])
    for page, text in zip(pages[5:], texts[5:], strict=True):
        fields = {name: values for name, values in extract(template, page).fields.items() if values}
        assert fields.get("fuel_economy") == [" ".join(text.split())], fields
