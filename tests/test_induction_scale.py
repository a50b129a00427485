"""Induction does bounded work per sibling: long hedges that do not fold
into a set (texts every seed shows, rows of differing shapes) are aligned
in a band (:mod:`scrapy_wrapx.induction._band`), not pair by pair.

The pages here are large enough that all-pairs alignment takes minutes
(2,000 siblings on three seeds): a regression shows as a hung test, not as
a timing assertion."""

from __future__ import annotations

import random
import sys
from itertools import pairwise
from types import FrameType
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._band import MAX_ALIGN_CELLS, best_chain, cells, centres
from scrapy_wrapx.induction._merge import _best_pairs, _best_totals
from scrapy_wrapx.template import Template, normalized_form

SIBLINGS = 2_000
SEEDS = 3
WORDS = ("alpha", "bravo", "delta", "echo", "golf", "hotel", "kilo", "lima", "oscar", "papa")


def _words(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def _frame(body: str, page: int) -> str:
    return (
        f"<html><body><div id='head'><h1>Shop</h1><span>Page {page}</span></div>"
        f"<div id='main'>{body}</div><div id='foot'>Copyright</div></body></html>"
    )


def paragraphs_page(page: int) -> str:
    """Paragraphs with texts that every seed shows (template texts, so no
    set), and every tenth one the page's own."""
    rng = random.Random(1)
    texts = [f"{_words(rng, 3)} {i}" for i in range(SIBLINGS)]
    for i in range(0, SIBLINGS, 10):
        texts[i] = f"{_words(random.Random(page * SIBLINGS + i), 3)} p{page}"
    return _frame("".join(f"<p>{text}</p>" for text in texts), page)


def _cell(rng: random.Random, page: int, i: int, c: int) -> str:
    """A cell's text: every seventh row is the page's own."""
    if i % 7:
        return f"{_words(rng, 2)} {i}.{c}"
    return f"{_words(random.Random(page * SIBLINGS * 4 + i * 4 + c), 2)} t{page}"


def table_page(page: int) -> str:
    """Rows of one to four cells with differing classes, some with an
    extra cell on this page only."""
    rng = random.Random(2)
    rows = []
    for i in range(SIBLINGS):
        cell = rng.choice(["td", "th"])
        cls = rng.choice(["", " class='odd'", " class='even'"])
        tds = "".join(
            f"<{cell}>{_cell(rng, page, i, c)}</{cell}>" for c in range(rng.randint(1, 4))
        )
        if i % 13 == page % 13:
            tds += f"<td><b>extra {i}</b></td>"
        rows.append(f"<tr{cls}>{tds}</tr>")
    return _frame(f"<table>{''.join(rows)}</table>", page)


def _check_lossless(template: Template, pages: list[str]) -> None:
    for html in pages:
        tree = dom.parse(html)
        extraction = extract(template, tree)
        assert extraction.matched and extraction.score == 1.0
        assert render(template, extraction) == normalized_form(tree)


def _values(template: Template, html: str) -> set[str]:
    extraction = extract(template, html)
    return {value for values in extraction.fields.values() for value in values}


def test_thousands_of_template_paragraphs() -> None:
    pages = [paragraphs_page(page) for page in range(SEEDS)]
    template = induce_template(pages)
    _check_lossless(template, pages)
    for page, html in enumerate(pages):
        # Every page's own texts are data, and extracted.
        assert {v for v in _values(template, html) if v.endswith(f" p{page}")} == {
            f"{_words(random.Random(page * SIBLINGS + i), 3)} p{page}"
            for i in range(0, SIBLINGS, 10)
        }


def test_thousands_of_unlike_table_rows() -> None:
    pages = [table_page(page) for page in range(SEEDS)]
    template = induce_template(pages)
    _check_lossless(template, pages)
    for page, html in enumerate(pages):
        assert {v for v in _values(template, html) if v.endswith(f" t{page}")} == {
            _cell(random.Random(), page, i, c) for i in range(0, SIBLINGS, 7) for c in range(4)
        } & _texts(html)


def _texts(html: str) -> set[str]:
    return {leaf.value for leaf in dom.parse(html).leaves if leaf.tag == dom.TEXT}


def test_ordinary_hedges_compare_every_pair() -> None:
    assert len(list(cells(100, 100))) == 100 * 100 == MAX_ALIGN_CELLS
    band = list(cells(1000, 1000))
    assert len(band) < 40 * 1000
    assert band == sorted(band) and {(i, i) for i in range(1000)} <= set(band)


def test_band_follows_anchors() -> None:
    # 500 inserted siblings before an anchor: the band bends to meet it.
    path = centres(1000, 1500, [(0, 500), (999, 1499)])
    band = set(cells(1000, 1500, path))
    assert {(i, i + 500) for i in range(1000)} <= band


@given(
    st.lists(
        st.lists(st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, 3.5]), min_size=1, max_size=7),
        min_size=1,
        max_size=7,
    ).filter(lambda rows: len({len(row) for row in rows}) == 1)
)
def test_best_chain_totals_as_much_as_the_full_alignment(scores: list[list[float]]) -> None:
    n = len(scores[0])
    scored = [(i, j, s) for i, row in enumerate(scores) for j, s in enumerate(row) if s > 0]
    chain = best_chain(scored, n)
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in pairwise(chain))
    assert all(scores[i][j] > 0 for i, j in chain)
    total = sum(scores[i][j] for i, j in chain)
    assert total == _best_totals(scores)[0][0] == sum(scores[i][j] for i, j in _best_pairs(scores))


def _menu_page(rng: random.Random, links: int) -> str:
    """A product page under a site header with a menu of ``links`` links
    (the same on every page) and a product block (not the same)."""
    menu = "".join(f"<li class='m'><a href='/c/{i}'>Category {i}</a></li>" for i in range(links))
    return (
        f"<html><body><div id='top'><a href='/'>Home</a><ul class='menu'>{menu}</ul></div>"
        f"<div class='product'><h1>{_words(rng, 3)}</h1><p>{_words(rng, 12)}</p>"
        f"<span class='price'>${rng.randrange(5, 99)}.99</span></div></body></html>"
    )


def _pair_scores(pages: list[str]) -> int:
    """Calls of the alignment's pair score while inducing ``pages`` (a
    profiler hook: deterministic, unlike a timer)."""
    count = 0

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call" and frame.f_code.co_name == "peer_score":
            count += 1

    trees = [dom.parse(page) for page in pages]
    sys.setprofile(hook)
    try:
        induce_template(trees)
    finally:
        sys.setprofile(None)
    return count


def test_the_same_header_on_every_seed_is_aligned_without_scoring() -> None:
    """A site's header, the same on every seed, is what alignment pairs
    first; ten times the menu costs no more pairs scored."""
    short = _pair_scores([_menu_page(random.Random(seed), 10) for seed in range(4)])
    long = _pair_scores([_menu_page(random.Random(seed), 100) for seed in range(4)])
    assert long == short


def _results_page(page: int, records: int) -> str:
    """Results of a title row, a details row and, on some, a note row,
    with no element around each record (see
    :func:`scrapy_wrapx.induction._fold._fold_headed`)."""
    rng = random.Random(page)
    rows = []
    for i in range(records):
        rows.append(f"<tr class='t'><td>{_words(rng, 2)} {i}</td></tr>")
        rows.append(f"<tr class='m'><td>{rng.randint(10**5, 10**6)} views</td></tr>")
        if rng.random() < 0.3:
            rows.append(f"<tr class='n'><td>note {_words(rng, 2)} {i}</td></tr>")
    return _frame(f"<table>{''.join(rows)}</table>", page)


def test_thousands_of_records_of_varying_length() -> None:
    pages = [_results_page(page, SIBLINGS // 3) for page in range(SEEDS)]
    template = induce_template(pages)
    _check_lossless(template, pages)
    assert len(template.set_names) == 1


def _labelled_rows_page(page: int, rows: int) -> str:
    """Rows of a label every seed shows and one or two values: each opens
    with a ``<dt>``, but no two are records of one list."""
    rng = random.Random(page)
    body = "".join(
        f"<dt>Label {i}:</dt>"
        + "".join(f"<dd>{_words(rng, 2)}</dd>" for _ in range(1 + (i + page) % 2))
        for i in range(rows)
    )
    return _frame(f"<dl>{body}</dl>", page)


def _lines_in(name: str, pages: list[str]) -> int:
    """Lines run in the function ``name`` while inducing ``pages`` (a
    tracing hook: deterministic, unlike a timer; a scan shows as lines,
    not calls)."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def hook(frame: FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_name == name else None

    trees = [dom.parse(page) for page in pages]
    sys.settrace(hook)
    try:
        induce_template(trees)
    finally:
        sys.settrace(None)
    return count


def test_a_run_that_is_no_list_is_scanned_once() -> None:
    """Every ``<dt>`` could open a run of records; the rows are no list,
    and each start scans only as far as its first records, not the whole
    run after it (quadratic in the rows)."""
    short = _lines_in("_headed_run", [_labelled_rows_page(page, 100) for page in range(SEEDS)])
    long = _lines_in("_headed_run", [_labelled_rows_page(page, 400) for page in range(SEEDS)])
    assert 0 < long <= short * 4 * 1.2, (short, long)


def _linked_prose_page(page: int, links: int) -> str:
    """One paragraph of text with a link after every few words, and a list
    of links beside it: every link text is asked whether it is in prose."""
    rng = random.Random(page)
    prose = "".join(
        f"{_words(rng, 4)} <a class='x' href='/w/{i}'>{_words(rng, 1)}</a> " for i in range(links)
    )
    tags = ", ".join(f"<a href='/t/{i}'>{_words(rng, 1)}</a>" for i in range(links))
    return _frame(f"<p class='story'>{prose}</p><p class='tags'>{tags}</p>", page)


def test_links_are_told_from_prose_once_per_paragraph() -> None:
    """Whether a place's links are in a paragraph is read once for the
    element around them, from the leaves' text lengths: a paragraph of
    *n* links is no *n* walks of the paragraph."""
    short = _lines_in("_in_prose", [_linked_prose_page(page, 60) for page in range(SEEDS)])
    long = _lines_in("_in_prose", [_linked_prose_page(page, 240) for page in range(SEEDS)])
    assert 0 < long <= short * 4 * 1.2, (short, long)
