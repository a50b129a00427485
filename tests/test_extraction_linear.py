"""Extraction's work grows linearly with a page's long hedges, fitting or
not (issue 12: no slow path on pages that do not fit).

Work is counted as Python function calls during :func:`extract` (a
profiler hook: deterministic, unlike a timer). Quadrupling a hedge's
length must at most quadruple the calls, give or take a fifth; a pass
over every pair of siblings makes it about sixteen, which the lenient
alignment did on five of these families before it chained repetitions.
"""

from __future__ import annotations

import random
import re
import sys
import tracemalloc
from types import FrameType
from typing import Any

import pytest

from scrapy_wrapx.dom import parse
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Elem, Opt, Set, Template, Text, TNode
from tests.hedges import FAMILIES, list_then_stranger, seed_pages

SHORT, LONG = 200, 800
#: Allowed growth of the call count when the hedge is LONG / SHORT times longer.
SLACK = 1.2


def _calls(template: Template, html: str, only: frozenset[str] = frozenset()) -> int:
    """Python function calls during the extraction (of the functions named
    ``only``, if given)."""
    tree = parse(html)
    count = 0

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call" and (not only or frame.f_code.co_name in only):
            count += 1

    sys.setprofile(hook)
    try:
        extract(template, tree)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("misfit", [False, True], ids=["fits", "misfit"])
@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_extraction_work_is_linear_in_the_hedge(name: str, misfit: bool) -> None:
    family = FAMILIES[name]
    template = induce_template(seed_pages(family))
    rng = random.Random(7)
    short = _calls(template, family(SHORT, rng, misfit))
    long = _calls(template, family(LONG, rng, misfit))
    assert long <= short * (LONG / SHORT) * SLACK, (name, short, long)


def test_a_list_with_a_stranger_after_it_keeps_every_row() -> None:
    """The lenient path chains repetitions one by one: all rows come out."""
    template = induce_template(seed_pages(list_then_stranger))
    extraction = extract(template, list_then_stranger(300, random.Random(3), True))
    assert extraction.matched
    rows = max(extraction.records.values(), key=len)
    assert len(rows) == 300


def _nested_template(depth: int) -> Template:
    """``depth`` nested levels, each a hedge the plans must search: two
    optional ``<span>`` blocks no shallow fit tells apart (one holds an
    ``<i>``, the other a ``<b>``), then the next level."""
    level: list[TNode] = []
    for _ in range(depth):
        level = [
            Opt(Elem("span", {}, [Elem("i", {}, [Text([None])])])),
            Opt(Elem("span", {}, [Elem("b", {}, [Text([None])])])),
            *([Elem("div", {"class": "level"}, level)] if level else []),
        ]
    return Template(Elem("body", {}, level))


def _nested_page(depth: int) -> str:
    """Every level takes the second block, which the shallow parse, taking
    the first, gets wrong: a deep misfit, then a second, exact parse."""
    html = ""
    for number in range(depth):
        inner = f'<div class="level">{html}</div>' if html else ""
        html = f"<span><b>value {number}</b></span>{inner}"
    return f"<html><body>{html}</body></html>"


def test_a_misfit_at_every_depth_costs_work_linear_in_the_depth() -> None:
    """A hedge parsed twice (shallow, then exact) matches what both parses
    share only once: without that, each level doubled the work below it,
    exponential in the depth (tables of optional rows of optional cells)."""
    counts = {}
    for depth in (6, 12):
        template = _nested_template(depth)
        extraction = extract(template, _nested_page(depth))
        assert extraction.score == 1.0
        slots = [value for value in extraction.data.values() if isinstance(value, tuple)]
        assert sorted(slots) == sorted((f"value {number}",) for number in range(depth))
        counts[depth] = _calls(template, _nested_page(depth))
    assert counts[12] <= counts[6] * 2 * SLACK, counts


def _two_lists_template() -> Template:
    """Two lists of alike rows, then a closing block: the parse tries the
    second list at every row the first could end at."""

    def row() -> Elem:
        return Elem("p", {"class": "row"}, [Text([None])])

    closing = Elem("div", {"class": "end"}, [Text(["The end"])])
    return Template(Elem("body", {}, [Set([row()]), Set([row()]), closing]))


def test_a_list_tried_at_every_row_matches_each_row_once() -> None:
    """Where a page lacks what follows two lists, the parse tries the second
    list from every row: each repetition's hedge is matched once per start,
    not again for every start before it (a walk over all the rows after
    each start, quadratic in the rows). The ends found from each start
    still number the rows after it: tried from every row, building them
    is quadratic work in sets (not in calls, which this counts)."""
    template = _two_lists_template()
    counts = {}
    for rows in (SHORT, LONG):
        page = "".join(f'<p class="row">row {n}</p>' for n in range(rows))
        html = f"<html><body>{page}</body></html>"
        counts[rows] = _calls(template, html, frozenset({"hedge_ends", "_exact_hedge"}))
    assert counts[LONG] <= counts[SHORT] * (LONG / SHORT) * SLACK, counts


def _paired_rows_template() -> Template:
    """Records of a row and a note row, either of which a record may lack:
    a repetition one or two rows wide."""

    def row(kind: str) -> Elem:
        return Elem("tr", {"class": kind}, [Elem("td", {}, [Text([None])])])

    records = Set([Opt(row("film")), Opt(row("note"))])
    closing = Elem("p", {}, [Text(["The end"])])
    return Template(Elem("body", {}, [Elem("table", {}, [records]), closing]))


def test_repetitions_of_varying_width_split_in_work_linear_in_the_rows() -> None:
    """Rows that split into records in many ways (each record one row or
    two) take the fewest records, found in one pass over the rows: the
    positions reachable after each number of records grew with that
    number, and walking them was quadratic in the rows (a 98-row box
    office table took 7 ms)."""
    template = _paired_rows_template()
    records = template.root.children[0].children[0]
    counts = {}
    for pairs in (SHORT // 2, LONG // 2):
        rows = "".join(
            f'<tr class="film"><td>Film {n}</td></tr><tr class="note"><td>Note {n}</td></tr>'
            for n in range(pairs)
        )
        html = f"<html><body><table>{rows}</table><p>The end</p></body></html>"
        extraction = extract(template, html)
        assert extraction.score == 1.0
        reps = extraction.data[records.uid]
        assert len(reps) == pairs
        assert all(
            rep[uid] for rep in reps for uid in (records.children[0].uid, records.children[1].uid)
        )
        counts[pairs] = _calls(template, html)
    assert counts[LONG // 2] <= counts[SHORT // 2] * (LONG / SHORT) * SLACK, counts


def _spec_table(labels: list[str], rng: random.Random) -> str:
    rows = "".join(
        f"<tr><th>{label}:</th><td>{rng.randint(1, 10**6)} units</td></tr>" for label in labels
    )
    return f'<html><body><table class="specs">{rows}</table></body></html>'


def test_a_table_of_labelled_rows_that_misfits_aligns_each_row_once() -> None:
    """A spec table of fixed labels that a page reorders or shortens goes
    down the lenient alignment, items against rows. A row's label says
    which rows it can take, so the alignment looks for segments only
    there: work linear in the rows, where every item tried at every row
    was quadratic (a 58-row spec table took 6 ms a page)."""
    counts = {}
    for rows in (50, 200):
        labels = [f"Attribute {number}" for number in range(rows)]
        rng = random.Random(rows)
        template = induce_template([_spec_table(labels, rng) for _ in range(4)])
        page_labels = [*labels[: rows // 2], "Stranger", *labels[rows // 2 + 1 :], "Other"]
        page = _spec_table(page_labels, random.Random(0))
        extraction = extract(template, page)
        # Every known row's value comes out, and no stranger's.
        shown = dict(zip(page_labels, re.findall(r"<td>(.*?)</td>", page), strict=True))
        expected = sorted(shown[label] for label in page_labels if label in labels)
        assert sorted(v for vs in extraction.fields.values() for v in vs) == expected
        counts[rows] = _calls(template, page)
    assert counts[200] <= counts[50] * 4 * SLACK, counts


#: Allowed growth of the peak memory when the hedge is LONG / SHORT times
#: longer: sets and dicts grow by steps, so a little more than the calls.
MEMORY_SLACK = 1.6


def _peak_bytes(template: Template, html: str) -> int:
    """The most memory the extraction held at once, beyond the parsed
    tree (traced allocations: deterministic, unlike a timer)."""
    tree = parse(html)
    extract(template, tree)  # warm: compiled template, caches
    tracemalloc.start()
    try:
        extract(template, tree)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_extraction_memory_is_linear_in_the_hedge(name: str) -> None:
    """The ends a parse keeps grow with the hedge, not with its square:
    keeping every start's whole set of ends of a list (each start's ends
    and all those after them) held a quadratic number of them on a long
    list of loose texts the template did not fit (text runs: twelve
    times the memory for four times the rows)."""
    family = FAMILIES[name]
    template = induce_template(seed_pages(family))
    rng = random.Random(7)
    short = _peak_bytes(template, family(SHORT, rng, True))
    long = _peak_bytes(template, family(LONG, rng, True))
    assert long <= short * (LONG / SHORT) * MEMORY_SLACK, (name, short, long)
