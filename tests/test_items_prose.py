"""Free-form text is one value: a description written by hand for each
page (paragraphs, lists, bold lines, in any number and order) is one field
holding its text, the page still fits its template, and the labelled
details beside it keep their own fields.

Pages come from a generator of job ads whose descriptions vary in shape
(1 to 5 blocks of paragraphs, lists of 1 to N items, bold lead-ins), next
to a details list whose rows some ads lack.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import normalized_form

WORDS = [
    "the",
    "team",
    "will",
    "build",
    "and",
    "run",
    "our",
    "systems",
    "with",
    "care",
    "while",
    "customers",
    "expect",
    "reliable",
    "service",
    "across",
    "many",
    "regions",
    "every",
    "day",
    "of",
    "the",
    "year",
]


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(9, 20))]
    return " ".join(words).capitalize() + "."


def _block(rng: random.Random) -> str:
    kind = rng.choice(["p", "ul", "bold", "p2"])
    if kind == "ul":
        items = "".join(f"<li>{_sentence(rng)}</li>" for _ in range(rng.randint(1, 5)))
        return f"<ul>{items}</ul>"
    if kind == "bold":
        return f"<p><b>{rng.choice(['Duties', 'About us', 'Benefits'])}</b> {_sentence(rng)}</p>"
    if kind == "p2":
        return f"<p><font>{_sentence(rng)} {_sentence(rng)}</font></p>"
    return f"<p>{_sentence(rng)}</p>"


def job_page(rng: random.Random, *, with_type: bool) -> tuple[str, str]:
    description = "".join(_block(rng) for _ in range(rng.randint(1, 5)))
    rows = [
        ("Location:", f"City {rng.randint(1, 99)}"),
        ("Salary:", f"$ {rng.randint(30, 90)},000"),
    ]
    rows += [("Type:", f"Grade {rng.randint(1, 9)}")] if with_type else []
    details = "".join(f"<li><b>{label}</b> {value}</li>" for label, value in rows)
    html = (
        f"<html><body><h1>Engineer {rng.randint(1, 999)}</h1><ul class='details'>{details}</ul>"
        f"<div class='description'>{description}</div><p>Apply today</p></body></html>"
    )
    return html, " ".join(dom.parse(f"<body>{description}</body>").root.element.itertext())


@pytest.mark.parametrize("seed", range(6))
def test_a_description_is_one_field_and_the_page_still_fits(seed: int) -> None:
    rng = random.Random(seed)
    pages = [job_page(rng, with_type=n % 3 != 1) for n in range(10)]
    template = induce_template([html for html, _ in pages[:5]])
    for html, text in pages[5:]:
        extraction = extract(template, html)
        assert extraction.coverage == 1.0, extraction.coverage
        (description,) = extraction.fields["description"]
        assert description.split() == text.split()
        values = {v for vs in extraction.fields.values() for v in vs}
        assert any(v.startswith("City ") for v in values), values
        assert any(v.startswith("$ ") for v in values), values
    for html, _ in pages[:5]:  # the seeds stay lossless
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)


def test_a_details_list_with_optional_rows_is_no_prose() -> None:
    rng = random.Random(3)
    pages = []
    for _ in range(5):
        rows = [
            f"<li><b>{label}</b> {rng.randint(1, 999)} {rng.choice(WORDS)}</li>"
            for label in ("Pages:", "Publisher:", "Edition:", "Weight:")
            if rng.random() < 0.6
        ]
        pages.append(f"<html><body><h1>Book</h1><ul>{''.join(rows)}</ul></body></html>")
    template = induce_template(pages)
    assert "description" not in template.field_names
