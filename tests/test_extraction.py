"""Extraction: local failure, unmatched pages, records, inputs."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from tests.hedges import list_then_stranger, seed_pages
from tests.test_induction import book_page, site


def test_a_subtree_that_does_not_fit_fails_locally() -> None:
    template = induce_template(site(7, 5))
    html = book_page(random.Random(70))
    broken = html.replace('<a href="/about">About</a>', "<table><tr><td>odd</td></tr></table>")
    good, bad = extract(template, html), extract(template, broken)
    assert bad.score < good.score
    for name in ("title", "publisher", "isbn", "price"):
        assert bad.fields[name] == good.fields[name]


def test_page_of_another_kind_is_unmatched_but_extracted() -> None:
    template = induce_template(site(8, 4))
    other = (
        '<html><body><div id="top"><a href="/">Home</a><a href="/about">About</a></div>'
        '<form><input name="q"></form><ol><li>a</li><li>b</li></ol>'
        '<div id="foot">Copyright Example Books</div></body></html>'
    )
    extraction = extract(template, other)
    assert not extraction.matched
    assert 0.0 < extraction.score < template.match_threshold


def test_records_and_fields_agree() -> None:
    template = induce_template(site(9, 5))
    extraction = extract(template, book_page(random.Random(90), authors=3))
    authors = [r for r in extraction.records.values() if len(r) == 3]
    assert authors
    flat = [v for record in authors[0] for v in record.values() if isinstance(v, str)]
    assert all(any(v in values for values in extraction.fields.values()) for v in flat)


def test_accepts_text_bytes_and_trees() -> None:
    pages = site(10, 3)
    template = induce_template(pages)
    probe = book_page(random.Random(100))
    results = [
        extract(template, probe),
        extract(template, probe.encode("utf-8")),
        extract(template, dom.parse(probe), url="http://x/"),
    ]
    assert results[0].fields == results[1].fields == results[2].fields
    assert results[2].url == "http://x/"


FOREIGN_ROWS = [
    '<li class="ad"><p>Sponsored</p><span>Buy now</span></li>',
    '<li class="see-also"><b>See also</b><span>Gift cards</span></li>',
    "<li><em>Staff pick</em><span>$5 off</span></li>",
]


@pytest.mark.parametrize("seed", range(8))
def test_a_foreign_row_among_rows_that_fit_gives_no_values(seed: int) -> None:
    """A row of another shape in a list whose other rows fit (an advert)
    is skipped, not taken as an unfit row whose span becomes a price."""
    rng = random.Random(seed)
    template = induce_template(seed_pages(list_then_stranger))
    rows = [
        f'<li class="item"><a href="/p/{i}">Product {i}</a><span class="price">${i}.99</span></li>'
        for i in range(rng.randint(1, 12))
    ]
    for _ in range(rng.randint(1, 3)):
        rows.insert(rng.randint(0, len(rows)), rng.choice(FOREIGN_ROWS))
    html = (
        f'<html><body><h1>Shop</h1><ul class="list">{"".join(rows)}</ul><p>Footer</p></body></html>'
    )
    values = [v for vs in extract(template, html).fields.values() for v in vs]
    assert not {"Buy now", "Gift cards", "$5 off", "Sponsored", "See also", "Staff pick"} & set(
        values
    )
    prices = [row.split('"price">')[1].split("<")[0] for row in rows if 'class="item"' in row]
    assert [v for v in values if v.startswith("$")] == prices


@pytest.mark.parametrize("space", ["\n    ", " ", "\t"])
def test_an_attribute_value_is_read_without_the_space_around_it(space: str) -> None:
    pages = [
        f'<body><h1>Item {n}</h1><a href="{space}/item/{n}/share{space}">Share</a></body>'
        for n in range(3, 9)
    ]
    template = induce_template(pages[:5])
    fields = extract(template, pages[5]).fields
    assert ["/item/8/share"] in fields.values(), fields
