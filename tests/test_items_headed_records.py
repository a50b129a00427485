"""Records that span several sibling elements, with no element around each,
and differ in length, are one list (issue 11: on a list page, all records
are one record set even when some carry optional parts).

A results table of a title row, a row of details and, on some records, a
note row (``<tr class=t>``, ``<tr class=m>``, ``<tr class=n>``); the same
as ``<h3>``, ``<p class=meta>``, ``<p class=note>`` in a ``<div>``, or as
``<dt>``, ``<dd>``, ``<dd>`` in a ``<dl>``. Folding groups of a fixed
number of siblings cut the run at every record with a note: a page's
records landed in three lists and in top-level fields. Each record is now
the element it opens with and what follows up to the next one.

Pages come from a generator: three markups, 0, 1 or many records, notes
on none, some or all of them."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

WORDS = ["Alpha", "Bravo", "Delta", "Echo", "Golf", "Hotel", "India", "Kilo", "Lima"]
#: A record's parts in each markup: title (with its link), details, note.
IDIOMS = {
    "table rows": (
        "<table class='results'>{}</table>",
        "<tr class='t'><td><a href='{url}'>{title}</a></td></tr>"
        "<tr class='m'><td>{year}</td><td>{price}</td></tr>",
        "<tr class='n'><td>{note}</td></tr>",
    ),
    "heading and paragraphs": (
        "<div class='results'>{}</div>",
        "<h3><a href='{url}'>{title}</a></h3><p class='meta'>{year} &middot; {price}</p>",
        "<p class='note'>{note}</p>",
    ),
    "definition list": (
        "<dl class='results'>{}</dl>",
        "<dt><a href='{url}'>{title}</a></dt><dd class='year'>{year}</dd>"
        "<dd class='price'>{price}</dd>",
        "<dd class='note'>{note}</dd>",
    ),
}


class Record:
    """One record's values, drawn at random."""

    def __init__(self, rng: random.Random, note: bool) -> None:
        self.title = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randint(2, 99)}"
        self.url = f"/film/{rng.randint(1, 10**6)}"
        self.year = str(rng.randint(1950, 2020))
        self.price = f"${rng.randint(1, 99)}.{rng.randint(10, 99)}"
        self.note = f"Remastered in {rng.randint(1990, 2020)}" if note else None


def _page(idiom: str, records: list[Record], heading: str) -> str:
    box, record, note = IDIOMS[idiom]
    shown = "".join(
        record.format(url=r.url, title=r.title, year=r.year, price=r.price)
        + (note.format(note=r.note) if r.note else "")
        for r in records
    )
    return (
        f"<html><body><h1>Results for {heading}</h1>{box.format(shown)}"
        "<p class='foot'>Copyright 2009 Films</p></body></html>"
    )


def _records(rng: random.Random, count: int, notes: float) -> list[Record]:
    return [Record(rng, rng.random() < notes) for _ in range(count)]


def _induced(rng: random.Random, idiom: str) -> Template:
    pages = [
        _page(idiom, _records(rng, rng.randint(2, 7), 0.4), rng.choice(WORDS)) for _ in range(5)
    ]
    trees = [dom.parse(html, f"http://films.example/s/{n}") for n, html in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


def _listed(item: dict[str, object]) -> list[dict[str, object]]:
    """The item's one list of records (and that it has one)."""
    lists = [value for value in item.values() if isinstance(value, list)]
    assert len(lists) == 1, item
    records = lists[0]
    assert all(isinstance(record, dict) for record in records)
    return records  # type: ignore[return-value]


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(4))
def test_records_of_varying_length_are_one_list(idiom: str, seed: int) -> None:
    rng = random.Random(seed)
    template = _induced(rng, idiom)
    for count, notes in ((1, 1.0), (1, 0.0), (6, 0.5), (9, 0.0), (4, 1.0)):
        records = _records(rng, count, notes)
        item = item_data(extract(template, _page(idiom, records, "Kilo")), template)
        found = _listed(item)
        assert len(found) == count, item
        for record, shown in zip(records, found, strict=True):
            values = {str(value) for value in shown.values()}
            assert record.url in values, shown
            assert record.title in values, shown
            if record.note is None:
                assert not any("Remastered" in value for value in values), shown
            else:
                assert any(value.endswith(record.note[-4:]) for value in values), shown
        # No record's value is outside the list.
        top = {str(value) for value in item.values() if not isinstance(value, list)}
        assert not any(r.title in top or r.url in top for r in records), item


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_a_page_without_records_has_no_list_values(idiom: str) -> None:
    rng = random.Random(11)
    template = _induced(rng, idiom)
    item = item_data(extract(template, _page(idiom, [], "Kilo")), template)
    assert not any(isinstance(value, list) and value for value in item.values()), item


def _labelled_page(rng: random.Random, rows: list[tuple[str, int]]) -> str:
    shown = "".join(
        f"<dt>{label}:</dt>"
        + "".join(f"<dd>{rng.choice(WORDS)} {rng.randint(1, 99)}</dd>" for _ in range(values))
        for label, values in rows
    )
    return f"<html><body><h1>{rng.choice(WORDS)}</h1><dl class='facts'>{shown}</dl></body></html>"


def test_labelled_rows_of_several_values_stay_apart() -> None:
    """``<dt>Director:</dt><dd>…</dd><dt>Cast:</dt><dd>…</dd><dd>…</dd>``
    opens each group with a ``<dt>`` too, but of another label: the groups
    are rows of their own, no records of one list."""
    rng = random.Random(3)
    seeds = [
        [("Director", 1), ("Cast", 3), ("Genre", 2)],
        [("Director", 2), ("Cast", 2), ("Genre", 1)],
        [("Director", 1), ("Cast", 4), ("Genre", 2)],
        [("Director", 1), ("Cast", 1), ("Genre", 3)],
    ]
    trees = [dom.parse(_labelled_page(rng, rows)) for rows in seeds]
    template = induce_template(trees)
    name_template(template, trees)
    item = item_data(extract(template, _labelled_page(rng, seeds[0])), template)
    text = repr(item)
    for label in ("Director", "Cast", "Genre"):
        # A label names its values (a key or a field), never a record's value.
        assert f"'{label}:'" not in text and f"'{label}'" not in text, item
