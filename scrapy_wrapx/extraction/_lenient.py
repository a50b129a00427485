"""Lenient alignment: where a hedge of a page has no parse.

A subtree that does not fit fails *locally* (the flaw in §11 item 1 of
seed 000): the hedge's children are aligned with the template's items by
dynamic programming (skip an item, skip a node, take a segment, or, for a
set, take one more repetition), and whatever aligned is extracted; what did
not lowers the score. Each segment an item could take earns a gain by the
rules of :func:`segments`; the alignment maximizes the total gain.

It never takes a row for one with another label
(:meth:`.Fits.other_label`), but a first text deeper than a row's label
(:data:`~._compiled.ROW_LABEL_DEPTH`) is a block's first part, which a page
may lack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_wrapx.dom import TEXT, Node
from scrapy_wrapx.template import Elem, Opt, Set, Text, TNode

if TYPE_CHECKING:
    from scrapy_wrapx.extraction._compiled import Env
    from scrapy_wrapx.extraction._match import Matcher

#: What aligning a page element with a template element of its tag earns on
#: top of the weight it matched: alone when it does not fit shallowly (its
#: attributes changed), so the alignment still takes it and its data; half
#: of it where another version of the template element's block explains
#: the page element better (see :meth:`.Matcher.version`), so that one
#: takes it.
TAG_GAIN = 0.5
#: What a page text that fits a template text's tokens earns.
TEXT_GAIN = 1.0
#: What a page text that does not fit the tokens earns: it is still kept
#: (whole) rather than skipped.
UNFIT_TEXT_GAIN = 0.2
#: What a page node taken into a blob earns: barely more than skipping it.
BLOB_GAIN = 0.01
#: What each page node a repetition of a set takes past its first earns
#: on top.
NODE_GAIN = 0.01
#: The share of a segment's gain that one more repetition of a set earns,
#: so that a set takes its repetitions but never at the price of an item.
REPEAT_SHARE = 0.5

#: Choices of the alignment: skip an item, skip a page node, take a segment
#: for an item, take a segment as one more repetition of a set (or of an
#: optional set).
SKIP_ITEM, SKIP_NODE, TAKE, REPEAT = 0, 1, 2, 3

#: ``(end, gain)``: a segment an item can take, ending at a child position.
Segment = tuple[int, float]
#: One cell of the alignment table: the choice and where its segment ends.
Choice = tuple[int, int]


def _elem_segments(m: Matcher, item: Elem, node: Node, j: int) -> list[Segment]:
    """A page element of the item's tag, unless it opens with another
    row's label; one that fits shallowly earns the item's weight by the
    share of its content the item could hold (:func:`content_share`)."""
    if node.tag != item.tag or m.other_label(item, node):
        return []
    if m.shallow(item, node):
        return [(j + 1, float(item.weight) * content_share(m, item, node) + TAG_GAIN)]
    other = item.uid in m.versions and m.version(item, node) not in (-1, item.uid)
    return [(j + 1, TAG_GAIN / 2 if other else TAG_GAIN)]


def content_share(m: Matcher, item: Elem, node: Node) -> float:
    """How much of a page element's content the template element could
    hold: the share of its child elements whose tags the item may hold,
    times the share of the tags the item always holds that it shows.
    Without classes, every ``<div>`` fits every other shallowly: a page
    whose related products are missing aligned its breadcrumb with the
    main block (the heaviest ``<div>``) and its main block with a review,
    and lost both; the children's tags tell the blocks apart."""
    may, must = m.c.child_tags[item.uid]
    tags = [child.tag for child in node.children if child.tag != TEXT]
    if not tags:
        return 0.0 if must else 1.0
    known = sum(tag in may for tag in tags) / len(tags)
    return known * len(must.intersection(tags)) / len(must) if must else known


def _text_segments(item: Text, node: Node, j: int) -> list[Segment]:
    if node.tag != TEXT:
        return []
    return [(j + 1, TEXT_GAIN if item.split(node.value) is not None else UNFIT_TEXT_GAIN)]


def _set_segments(m: Matcher, item: Set, owner: Node, node: Node, j: int) -> list[Segment]:
    """One repetition that fits shallowly; failing that, one page element
    of the tag a repetition ends with, as one unfit repetition, but only
    where no repetition of the set fits among these children: a list whose
    rows all changed (a redesign) still gives its data, while a foreign
    row among rows that fit (an advert, a "see also") gives none, rather
    than its ``<span>`` as a price.

    Runs of repetitions are the alignment's to chain (its ``REPEAT``
    choice, which scores a run above taking it whole), so a cell looks at
    one repetition's ends, not at every run's: a list of *n* rows costs
    *n* cells, not *n* squared."""
    # A repetition earns a little for each node it takes past its first:
    # one that takes a row's label and value beats skipping the label to
    # take the value alone (a record without its label is no label's
    # value), while repetitions of one element each score as they did.
    gain = float(item.weight) + TAG_GAIN
    out = [(e, gain + NODE_GAIN * (e - j - 1)) for e in m.rep_ends(item, owner, j)]
    head = item.children[-1] if item.children else None
    if not out and isinstance(head, Elem) and node.tag == head.tag and not m.set_fits(item, owner):
        out.append((j + 1, TAG_GAIN))
    return out


def segments(m: Matcher, item: TNode, owner: Node, j: int) -> list[Segment]:
    """(end, gain) for ``item`` starting at child ``j``."""
    node = owner.children[j]
    if isinstance(item, Elem):
        return _elem_segments(m, item, node, j)
    if isinstance(item, Text):
        return _text_segments(item, node, j)
    if isinstance(item, Opt):
        return segments(m, item.child, owner, j)
    if isinstance(item, Set):
        return _set_segments(m, item, owner, node, j)
    return [(j + 1, BLOB_GAIN)]


def _best(
    m: Matcher,
    item: TNode,
    owner: Node,
    j: int,
    span: tuple[int, int],
    row: list[float],
    below: list[float],
) -> tuple[float, Choice]:
    """The best choice for ``item`` at relative child ``j`` of ``span``
    (``row``: the scores of this item onwards, ``below``: of the next)."""
    start, n = span
    # An optional list is a list when present: its rows chain the same way.
    repeats = isinstance(item, Set) or (isinstance(item, Opt) and isinstance(item.child, Set))
    # Ties go to taking the node now: a page node the template lacks counts
    # as inserted *after* what aligned ("UPC: x" after "ISBN-13: y"), never
    # as pushing a value onto it.
    score, pick = -1.0, (SKIP_ITEM, 0)
    for stop, gain in segments(m, item, owner, start + j):
        stop -= start
        if stop > n:
            continue
        if gain + below[stop] > score:
            score, pick = gain + below[stop], (TAKE, stop)
        if repeats and gain * REPEAT_SHARE + row[stop] > score:
            score, pick = gain * REPEAT_SHARE + row[stop], (REPEAT, stop)
    if row[j + 1] > score:
        score, pick = row[j + 1], (SKIP_NODE, 0)
    if below[j] > score:
        score, pick = below[j], (SKIP_ITEM, 0)
    return score, pick


def _table(m: Matcher, items: list[TNode], owner: Node, start: int, end: int) -> list[list[Choice]]:
    """The alignment's choices, filled from the last item and node back.

    Only the cells where an item can take a segment (see
    :class:`_Openings`) look for one; every other cell skips the node or
    the item, whichever scores more, as :func:`_best` would with no
    segment. A list of *n* labelled rows against *n* template rows is then
    *n* segment checks, not *n* squared."""
    count, n = len(items), end - start
    best = [[0.0] * (n + 1) for _ in range(count + 1)]
    choice = [[(SKIP_ITEM, 0)] * (n + 1) for _ in range(count + 1)]
    openings = _Openings(m, owner, start, end)
    labelled = m.c.labelled_values.get(id(items), ())
    for i in range(count - 1, -1, -1):
        item, row, below, picks = items[i], best[i], best[i + 1], choice[i]
        where = openings.of(item)
        if i in labelled and where is not None:
            # A value right after its label only where the page shows
            # that label before it: elsewhere it is another label's value,
            # which the alignment would take only to drop (see lenient).
            labels = openings.of(items[i - 1])
            if labels is not None:
                where = {j for j in where if j - 1 in labels}
        for j in range(n - 1, -1, -1):
            if where is None or j in where:
                row[j], picks[j] = _best(m, item, owner, j, (start, n), row, below)
            elif below[j] > row[j + 1]:
                row[j] = below[j]  # picks[j] is SKIP_ITEM already
            else:
                row[j], picks[j] = row[j + 1], _SKIP_NODE
    return choice


_SKIP_NODE: Choice = (SKIP_NODE, 0)


class _Openings:
    """Where, among ``owner.children[start:end]``, an item can take a
    segment (relative positions), from what :func:`segments` requires
    before it looks deeper: an element of the item's tag (opening with its
    row's label, where it has one), a text, the first tags of a
    repetition. None: anywhere (a blob, a set whose repetition may open
    with one)."""

    def __init__(self, m: Matcher, owner: Node, start: int, end: int) -> None:
        self.m = m
        self.children = owner.children[start:end]
        leaves = m.leaves
        self.by_tag: dict[str, set[int]] = {}
        #: (tag, first leaf's text) to positions, for row labels.
        self.by_label: dict[tuple[str, str], set[int]] = {}
        for j, child in enumerate(self.children):
            self.by_tag.setdefault(child.tag, set()).add(j)
            if child.first_leaf >= 0:
                key = (child.tag, leaves[child.first_leaf].value)
                self.by_label.setdefault(key, set()).add(j)

    def of(self, item: TNode) -> set[int] | None:
        if isinstance(item, Opt):
            return self.of(item.child)
        if isinstance(item, Elem):
            return self._elem(item)
        if isinstance(item, Text):
            return self.by_tag.get(TEXT, set())
        if isinstance(item, Set):
            tags = _opening_tags(item)
            if tags is None:
                return None
            return set().union(*(self.by_tag.get(tag, ()) for tag in tags))
        return None

    def _elem(self, item: Elem) -> set[int]:
        c = self.m.c
        anchor = c.row_label[item.uid]
        if anchor is None:
            return self.by_tag.get(item.tag, set())
        if c.row_label_prefix[item.uid]:
            # A latent label: a row opening with it fits too (rare, so
            # asked of each element of the tag).
            candidates = self.by_tag.get(item.tag, ())
            return {j for j in candidates if not self.m.other_label(item, self.children[j])}
        return self.by_label.get((item.tag, anchor), set())


def _opening_tags(item: Set) -> frozenset[str] | None:
    """The tags a repetition of ``item`` can open with, and the tag of the
    element it ends with (taken alone as an unfit repetition, see
    :func:`_set_segments`); None where an opening may be anything."""
    tags = _hedge_opening_tags(item.children)
    if tags is None:
        return None
    head = item.children[-1] if item.children else None
    return tags | {head.tag} if isinstance(head, Elem) else tags


def _hedge_opening_tags(items: list[TNode]) -> frozenset[str] | None:
    found: set[str] = set()
    for item in items:
        node = item.child if isinstance(item, Opt) else item
        if isinstance(node, Elem):
            found.add(node.tag)
        elif isinstance(node, Text):
            found.add(TEXT)
        elif isinstance(node, Set):
            inner = _hedge_opening_tags(node.children)
            if inner is None:
                return None
            found |= inner
        else:
            return None
        if not isinstance(item, Opt):
            return frozenset(found)
    return None  # all optional: a repetition may open with what follows


def _take(m: Matcher, item: TNode, owner: Node, begin: int, end: int, env: Env) -> float:
    """Extract an aligned segment; one unfit repetition of a set is matched
    as the element a repetition ends with."""
    if isinstance(item, Text):
        node = owner.children[begin]
        if node.tag != TEXT:
            m.misfits += 1
            return 0.0
        # Paired by the alignment, not found in place: a latent text that
        # differs here may be another text altogether.
        return m.text(item, node, env, aligned=False)
    if isinstance(item, Set) and end - begin == 1 and not m.rep_ends(item, owner, begin):
        rep_env: Env = {}
        head = item.children[-1]
        assert isinstance(head, Elem)
        gain = m.elem(head, owner.children[begin], rep_env)
        env.setdefault(item.uid, []).append(rep_env)
        return gain
    return m.take(item, owner, begin, end, env)


def lenient(m: Matcher, items: list[TNode], owner: Node, start: int, end: int, env: Env) -> float:
    """Align ``owner.children[start:end]`` with ``items`` and extract what
    aligned: the weight matched, each item counted once."""
    choice = _table(m, items, owner, start, end)
    count, n = len(items), end - start
    matched = 0.0
    counted: set[int] = set()
    taken = -1  # the last item that took a segment
    labelled = m.c.labelled_values.get(id(items), ())
    i = j = 0
    while i < count and j < n:
        kind, stop = choice[i][j]
        if kind == SKIP_ITEM:
            i += 1
            continue
        if kind == SKIP_NODE:
            j += 1
            continue
        item = items[i]
        if i in labelled and taken != i - 1:
            # A value right after a label of the template (see
            # :func:`._compiled.labelled_value`) whose label did not align:
            # the page's label is another (one the seeds never showed), and
            # so is this value's meaning.
            m.misfits += 1
        else:
            gain = _take(m, item, owner, start + j, start + stop, env)
            if item.uid not in counted:
                matched += gain
                counted.add(item.uid)
            taken = i
        j = stop
        if kind == TAKE:
            i += 1
    return matched
