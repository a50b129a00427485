"""Names carried over a redesign go to the same data, never to another
field's (induction/_rename.carry_profiles).

A generated site shows labelled rows and an unlabelled block in markup
whose class words all share the site's prefix (``movie-info``,
``movie-critic``...). Its redesign changes the markup, drops the
unlabelled block and brings a labelled list the old design did not have.
A field of the redesign may take an old field's name by its profile
(label, class words, tag), but not where the page labels the two
differently, nor by the site's prefix alone.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.dom import parse
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template

PREFIXES = ("movie", "prod", "item", "film", "listing")
ROWS = ("Director", "Studio", "Runtime", "Rating")
WORDS = ("amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "haven", "iris", "juniper")
CRITICS = ("Ebert", "Kael", "Sarris", "Crowther", "Agee", "Farber", "Canby", "Maslin")
GENRES = ("Action", "Drama", "Comedy", "Sci-Fi", "Horror", "Romance", "Western")


def _words(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(WORDS).capitalize() for _ in range(count))


def _record(rng: random.Random) -> dict[str, list[str]]:
    return {
        "title": [_words(rng, 3)],
        **{row: [_words(rng, 2)] for row in ROWS},
        "critics": rng.sample(CRITICS, rng.randint(1, 3)),
        "genres": rng.sample(GENRES, rng.randint(1, 3)),
    }


def _label(markup: str, prefix: str, text: str) -> str:
    if markup == "b":
        return f"<b>{text}:</b> "
    if markup == "span":
        return f'<span class="{prefix}-label">{text}</span> '
    return f"<strong>{text}:</strong> "


def _v1(record: dict[str, list[str]], prefix: str, markup: str) -> str:
    rows = "".join(
        f'<div class="{prefix}-info">{_label(markup, prefix, row)}'
        f'<a class="{prefix}-link" href="/p/{record[row][0]}">{record[row][0]}</a></div>'
        for row in ROWS
    )
    critics = "".join(
        f'<li><a class="{prefix}-critic-name" href="/c/{name}">{name}</a></li>'
        for name in record["critics"]
    )
    return (
        f'<html><body><div class="{prefix}-main"><h1 class="{prefix}-title">'
        f"{record['title'][0]}</h1>{rows}"
        f'<ul class="{prefix}-critic-summary">{critics}</ul></div></body></html>'
    )


def _v2(record: dict[str, list[str]], prefix: str, markup: str) -> str:
    rows = "".join(
        f'<p class="{prefix}-row">{_label(markup, prefix, row)}'
        f'<a class="{prefix}-value" href="/p/{record[row][0]}">{record[row][0]}</a></p>'
        for row in ROWS
    )
    genres = ", ".join(
        f'<a class="{prefix}-genre-name" href="/g/{genre}">{genre}</a>'
        for genre in record["genres"]
    )
    return (
        f'<html><body><main class="{prefix}-page"><h1 class="{prefix}-heading">'
        f"{record['title'][0]}</h1>"
        f'<section class="{prefix}-facts">{rows}'
        f'<p class="{prefix}-genres">{_label(markup, prefix, "Genres")}{genres}</p>'
        "</section></main></body></html>"
    )


def _named(pages: list[str], previous: Template | None = None) -> Template:
    urls = [f"http://films.test/title/{i}.html" for i in range(len(pages))]
    trees = [parse(page, url) for page, url in zip(pages, urls, strict=True)]
    template = induce_template(trees, urls=urls, previous=previous)
    name_template(template, trees, previous)
    return template


def _holders(fields: dict[str, list[str]], value: str) -> set[str]:
    return {name for name, values in fields.items() if value in values}


@pytest.mark.parametrize("markup", ["b", "span", "strong"])
@pytest.mark.parametrize("seed", range(6))
def test_a_redesigned_field_takes_no_other_fields_name(seed: int, markup: str) -> None:
    """The rows keep their names; the new labelled list (of 0 to 3 links,
    in the class words of the dropped block but one) takes none of the
    old fields' names. (Unlabelled, it could be the dropped block with its
    classes renamed: nothing but its values tells, and those are of the
    same shape here.)"""
    rng = random.Random(seed)
    prefix = PREFIXES[seed % len(PREFIXES)]
    records = [_record(rng) for _ in range(12)]
    for record in records[5:]:
        record["genres"] = record["genres"][: rng.randint(0, 3)]
    old = _named([_v1(record, prefix, markup) for record in records[:5]])
    new = _named([_v2(record, prefix, markup) for record in records[:5]], previous=old)
    old_names = set(old.field_names)
    for record in records[5:]:
        before = extract(old, _v1(record, prefix, markup)).fields
        after = extract(new, _v2(record, prefix, markup)).fields
        for row in ROWS:
            value = record[row][0]
            was, now = _holders(before, value), _holders(after, value)
            assert was and was <= now, (row, was, now)  # names stay
        for genre in record["genres"]:
            now = _holders(after, genre)
            assert now, genre
            # A list the old design did not show is no old field.
            assert not now & old_names, (genre, now)
