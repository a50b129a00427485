"""A list right after a heading row takes the heading's name (issue 11:
names a person would pick). A credits table heads its cast's rows with a
row ``<tr><td colspan=2><b>Cast</b></td></tr>`` and its crew's with one of
"Crew": the two lists were ``credits_list`` and ``credits_list_2``, after
the table's class. They are ``cast`` and ``crew`` now, in table rows or in
blocks of a heading element and a list; a plain text before a list (a
value, not a heading) names nothing."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

PEOPLE = ["Ann Lee", "Bob Ray", "Cy Young", "Di Fox", "Ed Wood", "Flo Rida", "Gus Van", "Hal Ash"]
ROLES = ["Director", "Producer", "Writer", "Composer", "Editor"]


def _table(rng: random.Random, groups: list[tuple[str, int]]) -> str:
    rows = ""
    for heading, count in groups:
        rows += f"<tr class='head'><td colspan='2'><b>{heading}</b></td></tr>"
        for _ in range(count):
            who = rng.choice(PEOPLE)
            rows += (
                f"<tr><td><a href='/p/{who.replace(' ', '_')}'>{who}</a></td>"
                f"<td>{rng.choice(ROLES)}</td></tr>"
            )
    return f"<table class='credits'>{rows}</table>"


def _blocks(rng: random.Random, groups: list[tuple[str, int]]) -> str:
    out = ""
    for heading, count in groups:
        items = "".join(
            f"<li><a href='/p/{n}'>{rng.choice(PEOPLE)}</a> <i>{rng.choice(ROLES)}</i></li>"
            for n in range(count)
        )
        out += f"<strong>{heading}</strong><ul>{items}</ul>"
    return f"<div class='credits'>{out}</div>"


MARKUPS = {"table rows": _table, "blocks": _blocks}


def _page(rng: random.Random, markup: str, title: str, cast: int, crew: int) -> str:
    credits = MARKUPS[markup](rng, [("Cast", cast), ("Crew", crew)])
    return (
        f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{credits}"
        "<p>Copyright Films</p></body></html>"
    )


def _induced(pages: list[str]) -> Template:
    trees = [dom.parse(html, f"http://films.example/f/{n}") for n, html in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


@pytest.mark.parametrize("markup", sorted(MARKUPS))
@pytest.mark.parametrize("seed", range(3))
def test_a_list_takes_the_name_of_its_heading_row(markup: str, seed: int) -> None:
    rng = random.Random(seed)
    template = _induced([_page(rng, markup, f"Film {n}", 2 + n % 3, 2 + n % 2) for n in range(5)])
    item = item_data(extract(template, _page(rng, markup, "Film X", 3, 2)), template)
    if markup == "table rows":
        assert "cast" in item, item
    # Where the induction aligned a heading's rows as a list of their own
    # (rows of two kinds between headings, or blocks of a heading and a
    # list repeated, do not always align so), it bears that heading's name;
    # a list of blocks bears none of them.
    assert len(item.get("cast", [None] * 3)) == 3, item
    assert len(item.get("crew", [None] * 2)) == 2, item


def test_a_plain_text_before_a_list_names_nothing() -> None:
    rng = random.Random(4)

    def page(n: int) -> str:
        tags = "".join(
            f"<li><a href='/t/{k}'>{rng.choice(ROLES)}</a></li>" for k in range(2 + n % 3)
        )
        return (
            f"<html><body><h1>Film {n}</h1><div class='tags'><span>Snow</span>"
            f"<ul>{tags}</ul></div><p>Foot</p></body></html>"
        )

    template = _induced([page(n) for n in range(5)])
    assert "snow" not in template.set_names
