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


SPECS = ("Brand", "Color", "Weight", "Warranty")
IDIOMS = {
    "th": ("<table>", '<tr><th>{label}</th><td class="{p}-val">{value}</td></tr>', "</table>"),
    "dl": ("<dl>", '<dt>{label}</dt><dd class="{p}-val">{value}</dd>', "</dl>"),
    "span": (
        "<div>",
        '<div class="{p}-line"><span class="{p}-label">{label}</span> '
        '<span class="{p}-data">{value}</span></div>',
        "</div>",
    ),
}


def _shop(rng: random.Random) -> dict[str, str]:
    values = {label: _words(rng, rng.randint(1, 2)) for label in (*SPECS, "Material")}
    values["sku"] = f"SK-{rng.randint(1000, 99999)}"
    values["shipping"] = f"SH-{rng.randint(1000, 99999)}"
    return values


#: Labels version 2 may reword, keeping a word of each.
REWORDED = {"Brand": "Brand name", "Color": "Colors", "Weight": "Item weight"}


def _spec_page(
    values: dict[str, str], prefix: str, idiom: str, version: int, reword: bool = False
) -> str:
    """Version 2 drops the last row, shows a row of its own in its place,
    and a code of its own in the head, all in its own class words; it may
    reword the other rows' labels."""
    labels = [*SPECS[:-1], "Material"] if version == 2 else list(SPECS)
    head = f'<span class="{prefix}-sku">{values["sku"]}</span>'
    if version == 2:
        head += f'<span class="{prefix}-shipping">{values["shipping"]}</span>'
    start, row, end = IDIOMS[idiom]
    shown = {label: REWORDED.get(label, label) if reword else label for label in labels}
    rows = "".join(
        row.format(label=shown[label], value=values[label], p=prefix) for label in labels
    )
    return (
        f'<html><body><div class="{prefix}-head">{head}</div>'
        f'<div class="{prefix}-specs">{start}{rows}{end}</div></body></html>'
    )


@pytest.mark.parametrize("reword", [False, True], ids=["same_labels", "reworded"])
@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(4))
def test_a_new_row_or_code_takes_no_dropped_fields_name(
    seed: int, idiom: str, reword: bool
) -> None:
    """A row the redesign shows in the place of one it dropped, and a code
    it adds beside an old one, in class words that share the site's
    prefix: neither takes the old field's name (an old template matched
    on the new pages puts the new row's value in the dropped row's place,
    which is not the same data; a prefix is no evidence). Rows whose
    labels it rewords, keeping a word, keep their names."""
    rng = random.Random(100 + seed)
    prefix = PREFIXES[seed % len(PREFIXES)]
    shops = [_shop(rng) for _ in range(12)]
    old = _named([_spec_page(shop, prefix, idiom, 1) for shop in shops[:5]])
    new_prefix = f"new-{prefix}"
    new = _named(
        [_spec_page(shop, new_prefix, idiom, 2, reword) for shop in shops[:5]], previous=old
    )
    for shop in shops[5:]:
        before = extract(old, _spec_page(shop, prefix, idiom, 1)).fields
        after = extract(new, _spec_page(shop, new_prefix, idiom, 2, reword)).fields
        held = {name: set(values) for name, values in before.items()}
        for label in (*SPECS[:-1], "sku"):
            was, now = _holders(before, shop[label]), _holders(after, shop[label])
            assert was and was <= now, (label, was, now)
        for label in ("Material", "shipping"):
            now = _holders(after, shop[label])
            assert now, label
            wrong = {name for name in now if name in held and shop[label] not in held[name]}
            assert not wrong, (label, wrong)


def test_class_words_every_field_shares_are_no_evidence() -> None:
    """Every element of both designs has the same one class word: it says
    nothing of which field is which (and weighs nothing, not a division by
    nothing)."""
    rng = random.Random(7)
    shops = [_shop(rng) for _ in range(8)]

    def page(values: dict[str, str], version: int) -> str:
        rows = "".join(
            f'<p class="site"><span class="site">{label}</span> '
            f'<span class="site">{values[label]}</span></p>'
            for label in (SPECS if version == 1 else (*SPECS[:-1], "Material"))
        )
        return f'<html><body><div class="site">{rows}</div></body></html>'

    old = _named([page(shop, 1) for shop in shops[:5]])
    new = _named([page(shop, 2) for shop in shops[:5]], previous=old)
    after = extract(new, page(shops[6], 2)).fields
    assert _holders(after, shops[6]["Brand"]) == {"brand"}
    assert "warranty" not in _holders(after, shops[6]["Material"])
