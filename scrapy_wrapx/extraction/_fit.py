"""Shallow fit, and the hedge of children as a regular expression over it.

An element *fits* a template element shallowly when its tag and fixed
attributes agree and, if the item's first leaf is a fixed text (the
"Publisher:" of a row), the element's first leaf is that text. A hedge of
children is matched as a regular expression over shallow fits (``Opt`` is
``?``, ``Set`` is ``+``), run as an NFA over child positions: the language
of full backtracking over optionals, in polynomial time. Where shallow fits
leave a choice that went wrong deeper down, *exact* fits (whole subtrees,
by digest or by their own hedges) decide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scrapy_wrapx.dom import TEXT, Node, PageTree
from scrapy_wrapx.extraction._compiled import Compiled, digest
from scrapy_wrapx.extraction._tables import folded_text
from scrapy_wrapx.template import Elem, Opt, Set, Text, TNode

#: Where an item can end when it starts at a child position.
Ends = Callable[[TNode, Node, int], frozenset[int]]
#: Where a hedge can end when it starts at one of some child positions.
HedgeEnds = Callable[[list[TNode], Node, frozenset[int]], frozenset[int]]
#: Spans ``(begin, end)`` of a hedge's items over a page's children.
Spans = list[tuple[int, int]]

_EMPTY: frozenset[int] = frozenset()


def _candidates(found: frozenset[int], end: int) -> list[int]:
    """The ends of one item within ``end``, longest first."""
    if len(found) < 2:
        return [e for e in found if e <= end]
    return sorted((e for e in found if e <= end), reverse=True)


def _backtrack(frames: list[list[Any]], dead: set[tuple[int, int]]) -> int | None:
    """The next position to try: the next end of the innermost item with
    one left; items out of ends are dead at their start."""
    while frames:
        frame = frames[-1]
        if frame[2] < len(frame[1]):
            frame[2] += 1
            position: int = frame[1][frame[2] - 1]
            return position
        dead.add((len(frames) - 1, frame[0]))
        frames.pop()
    return None


def parse_spans(
    items: list[TNode], owner: Node, start: int, end: int, ends: Ends
) -> tuple[Spans, bool] | None:
    """Spans of ``items`` over ``owner.children[start:end]`` and whether
    the parse had a choice to make, or None.

    Depth first, each item trying its longest span first, so earlier items
    take as much as they can; a state (item, position) that led nowhere
    once is never tried again, which bounds the search by items x positions
    (a memoized backtracker, as regular-expression engines without
    exponential blow-up run). Iterative: hedges can be long."""
    count = len(items)
    if count == 0:
        return ([], False) if start == end else None
    dead: set[tuple[int, int]] = set()
    frames: list[list[Any]] = []  # [start, candidate ends, next candidate]
    position: int | None = start
    while position is not None:
        level = len(frames)
        if level == count:
            if position == end:
                # Ambiguous when an alternative on the way was left untried
                # (one that failed is no alternative).
                ambiguous = any(frame[2] < len(frame[1]) for frame in frames)
                return [(frame[0], frame[1][frame[2] - 1]) for frame in frames], ambiguous
        elif (level, position) not in dead:
            frames.append([position, _candidates(ends(items[level], owner, position), end), 0])
        position = _backtrack(frames, dead)
    return None


def repeat_ends(
    item: Set,
    owner: Node,
    j: int,
    hedge: HedgeEnds,
    steps: dict[tuple[int, int, int], frozenset[int]],
) -> frozenset[int]:
    """Where one or more repetitions of ``item`` can end when they start
    at ``j``: the ends of one repetition, and from each of them on.

    The ends of one repetition from each start are kept in ``steps`` (the
    caller's table, keyed by uid, owner index and start), so a parse that
    tries a set at many starts of a long hedge (a table's rows) matches
    each row once; the ends from ``j`` are then the starts reachable in
    that table, found by a walk over it. (Keeping every start's whole set
    of ends instead made memory and time quadratic in the rows.)"""
    reached: set[int] = set()
    stack = [j]
    while stack:
        for end in one_repetition(item, owner, stack.pop(), hedge, steps):
            if end not in reached:
                reached.add(end)
                stack.append(end)
    return frozenset(reached)


def one_repetition(
    item: Set,
    owner: Node,
    start: int,
    hedge: HedgeEnds,
    steps: dict[tuple[int, int, int], frozenset[int]],
) -> frozenset[int]:
    """Where one repetition of ``item`` can end when it starts at
    ``start`` (an empty repetition is none), kept in ``steps``."""
    key = (item.uid, owner.index, start)
    ends = steps.get(key)
    if ends is None:
        found = hedge(item.children, owner, frozenset((start,)))
        ends = steps[key] = frozenset(e for e in found if e > start)
    return ends


def _state_class(fixed: str, found: str | None) -> bool:
    """Whether a page's ``class`` is the seeds' but for one word of a state
    every seed happened to share: ``main mid`` for the seeds' ``main low``
    (a price gauge), ``stars s4`` for ``stars s5``. One word of several
    differs, in the same place; a class of one word is the element's
    identity, never a state."""
    if not found:
        return False
    words, page = fixed.split(), found.split()
    if len(words) < 2 or len(words) != len(page):
        return False
    return sum(a != b for a, b in zip(words, page, strict=True)) == 1 and words[0] == page[0]


def _previous_text(node: Node, tag: str) -> str | None:
    """The text of the element right before ``node`` where it is a
    ``tag``, whitespace folded; else None."""
    before = node.element.getprevious()
    while before is not None and not isinstance(before.tag, str):
        before = before.getprevious()  # a comment
    return folded_text(before) if before is not None and before.tag == tag else None


def _under_heading(node: Node, tag: str, others: frozenset[str]) -> bool:
    """Whether a page's element is right after a heading the template has
    over another section of the same hedge: that section, not this one."""
    return _previous_text(node, tag) in others


def _other_term(node: Node, terms: tuple[str, ...]) -> bool:
    """Whether a page's ``<dd>`` follows another term than ``terms``: the
    definition of another row (a ``<dl>`` whose terms are optional, one
    of them on a page the template's next one), not the template's."""
    term = _previous_text(node, "dt")
    if term is None:
        return False
    # A term without a word ("<dt>&nbsp;</dt>" before an address's next
    # line) labels nothing.
    return any(char.isalpha() for char in term) and not term.startswith(terms)


class Fits:
    """Shallow and exact fits of one page; memo tables live as long as the
    page."""

    def __init__(self, compiled: Compiled, tree: PageTree) -> None:
        self.c = compiled
        #: The compiled template's versions of blocks (read for every
        #: shallow fit that looks right, so kept at hand).
        self.versions = compiled.versions
        self.shallow_facts = compiled.shallow_facts
        self.nodes = tree.nodes
        self.leaves = tree.leaves
        self.ends_memo: dict[tuple[int, int, int], frozenset[int]] = {}
        self.fit_memo: dict[tuple[int, int], bool] = {}
        self.exact_memo: dict[tuple[int, int, int], frozenset[int]] = {}
        #: Ends of one repetition of a set from each start (shallow, exact).
        self.rep_memo: dict[tuple[int, int, int], frozenset[int]] = {}
        self.exact_rep_memo: dict[tuple[int, int, int], frozenset[int]] = {}
        self.set_fit_memo: dict[tuple[int, int], bool] = {}
        #: :func:`_state_class` by pair of classes: a table's rows ask it
        #: of the same pairs, row after row, where the page's rows do not fit.
        self.state_memo: dict[tuple[str, str | None], bool] = {}
        #: Places where the page did not fit (texts, hedges, repetitions).
        self.misfits = 0

    def shallow(self, t: Elem, node: Node) -> bool:
        uid = t.uid
        tag, fixed, most, names, after_label, versioned, anchor, label = self.shallow_facts[uid]
        if node.tag != tag or (after_label and self._after_another_label(uid, node)):
            return False
        element = node.element
        for name, value in fixed:
            found = element.get(name)
            if found != value and not (name == "class" and self._state_class(value, found)):
                return False
        keys = element.keys()
        if keys and (len(keys) > most or not names.issuperset(keys)):
            return False
        if versioned:
            chosen = self.version(t, node)
            if chosen != -1:
                # Matched deeply as each version: the evidence an anchor
                # gives, and more (a version one seed showed opens with
                # that seed's text, which is latent data).
                return chosen == uid
        if anchor is not None:
            first = node.first_leaf
            if first < 0:
                return False
            value = self.leaves[first].value
            return value == anchor or (bool(label) and value.startswith(label))
        return True

    def _after_another_label(self, uid: int, node: Node) -> bool:
        """Whether the page's element follows another label than the
        template's element ``uid`` does: a ``<dd>`` after another term, a
        section after another section's heading."""
        terms = self.c.terms.get(uid)
        if terms is not None and _other_term(node, terms):
            return True
        headings = self.c.other_headings.get(uid)
        return headings is not None and _under_heading(node, *headings)

    def _looks(self, t: Elem, node: Node) -> bool:
        """Whether ``node`` has ``t``'s tag and attributes: a shallow fit
        but for what the element opens with (:meth:`shallow` checks the
        same inline, called as it is for nearly every page element)."""
        tag, fixed, most, names, *_ = self.shallow_facts[t.uid]
        if node.tag != tag:
            return False
        element = node.element
        for name, value in fixed:
            found = element.get(name)
            if found != value and not (name == "class" and self._state_class(value, found)):
                return False
        keys = element.keys()
        return not keys or (len(keys) <= most and names.issuperset(keys))

    def version(self, t: Elem, node: Node) -> int:
        """The uid of the version of ``t``'s block (see
        :func:`~scrapy_wrapx.template.block_versions`) that ``node`` is,
        -1 for any: always any here, where no deep match can tell;
        :class:`.Matcher` decides."""
        return -1

    def _state_class(self, fixed: str, found: str | None) -> bool:
        key = (fixed, found)
        known = self.state_memo.get(key)
        if known is None:
            known = self.state_memo[key] = _state_class(fixed, found)
        return known

    def other_label(self, t: Elem, node: Node) -> bool:
        """Whether ``node`` opens with another text than the fixed one every
        element of ``t`` opens with near its top: another row
        ("<b>ISBN-13:</b>" is no "<b>Dimensions:</b>" whose attributes
        changed), which lenient alignment must not take for ``t``, or the
        data after it follows. A block whose first words lie deeper is
        still itself without its first part
        (:data:`~._compiled.ROW_LABEL_DEPTH`)."""
        labels = self.c.row_labels.get(t.uid)
        if labels is not None:
            return self._other_rows(labels, node)
        anchor = self.c.row_label[t.uid]
        if anchor is None:
            return self._other_row_label(t, node)
        first = node.first_leaf
        if first < 0:
            return True
        value = self.leaves[first].value
        label = self.c.row_label_prefix[t.uid]
        return value != anchor and not (label and value.startswith(label))

    def _other_rows(self, labels: frozenset[str], node: Node) -> bool:
        """Whether a list of rows (a ``<dl>``, a table, a ``<div>`` of
        labelled rows) holds none of the rows whose ``labels`` the
        template's list holds (see :data:`._compiled.ROW_CONTAINERS`): a
        page's list that lacks the first of them (a camera without a
        battery life) is still the list, one of other rows is not."""
        if not labels:
            return False
        leaves = self.leaves
        return not any(
            child.first_leaf >= 0 and leaves[child.first_leaf].value in labels
            for child in node.children
        )

    def _other_row_label(self, t: Elem, node: Node) -> bool:
        """Whether ``node`` opens with another label than the one before
        the data ``t`` opens with: "Our price: $9" is no "List price: {}"."""
        text = self.c.row_text[t.uid]
        first = node.first_leaf
        if text is None or first < 0:
            return False
        leaf = self.leaves[first]
        return leaf.tag == TEXT and text.foreign_label(leaf.value)

    def starts(self, uid: int, node: Node) -> bool:
        """Whether ``node`` can start the content of optional or set ``uid``
        (in a deterministic hedge, whether it must)."""
        tags, items = self.c.first[uid]
        if node.tag not in tags:
            return False
        for item in items:
            if isinstance(item, Elem):
                if item.tag == node.tag and self.shallow(item, node):
                    return True
            elif node.tag == TEXT:
                fixed = self.c.fixed_text.get(item.uid)
                if fixed is None or fixed == node.value:
                    return True
        return False

    # -- the hedge NFA over shallow fits -----------------------------------

    def _one_ends(self, item: TNode, owner: Node, j: int) -> frozenset[int]:
        children = owner.children
        if isinstance(item, Elem):
            ok = j < len(children) and self.shallow(item, children[j])
        else:
            assert isinstance(item, Text)
            ok = (
                j < len(children)
                and children[j].tag == TEXT
                and item.split(children[j].value) is not None
            )
        return frozenset((j + 1,)) if ok else _EMPTY

    def item_ends(self, item: TNode, owner: Node, j: int) -> frozenset[int]:
        """Child positions of ``owner`` where ``item`` can end when it
        starts at ``j`` (shallow fits)."""
        key = (item.uid, owner.index, j)
        result = self.ends_memo.get(key)
        if result is not None:
            return result
        if isinstance(item, (Elem, Text)):
            result = self._one_ends(item, owner, j)
        elif isinstance(item, Opt):
            result = self.item_ends(item.child, owner, j) | {j}
        elif isinstance(item, Set):
            result = repeat_ends(item, owner, j, self.hedge_ends, self.rep_memo)
        else:  # Blob: any hedge
            result = frozenset(range(j, len(owner.children) + 1))
        self.ends_memo[key] = result
        return result

    def rep_ends(self, item: Set, owner: Node, j: int) -> frozenset[int]:
        """Where one repetition of ``item`` can end when it starts at ``j``
        (shallow fits; an empty repetition is none)."""
        return one_repetition(item, owner, j, self.hedge_ends, self.rep_memo)

    def set_fits(self, item: Set, owner: Node) -> bool:
        """Whether one repetition of ``item`` fits shallowly somewhere among
        ``owner``'s children (once per set and owner: linear)."""
        key = (item.uid, owner.index)
        found = self.set_fit_memo.get(key)
        if found is None:
            found = any(self.rep_ends(item, owner, j) for j in range(len(owner.children)))
            self.set_fit_memo[key] = found
        return found

    def hedge_ends(self, items: list[TNode], owner: Node, starts: frozenset[int]) -> frozenset[int]:
        """Where ``items`` can end from ``starts`` by shallow fits."""
        return self._ends_through(items, owner, starts, self.item_ends, self.shallow)

    def _ends_through(
        self,
        items: list[TNode],
        owner: Node,
        starts: frozenset[int],
        ends: Ends,
        fit: Callable[[Elem, Node], bool],
    ) -> frozenset[int]:
        """Where ``items`` can end from ``starts``, item by item with
        ``ends`` (or a hedge of optional rows at once, with ``fit``)."""
        rows = self.c.optional_rows.get(id(items))
        if rows is not None:
            return self.rows_ends(rows, owner, starts, fit)
        current = starts
        for item in items:
            if len(current) == 1:
                (only,) = current
                current = ends(item, owner, only)
            else:
                reached: set[int] = set()
                for j in current:
                    reached |= ends(item, owner, j)
                current = frozenset(reached)
            if not current:
                break
        return current

    def rows_ends(
        self,
        rows: tuple[Elem, ...],
        owner: Node,
        starts: frozenset[int],
        fit: Callable[[Elem, Node], bool],
    ) -> frozenset[int]:
        """Where a hedge of optional elements (``rows``, each an ``Opt``
        of one element) can end from ``starts``, each child taken by a
        row it ``fit``s, in order, each row at most once.

        The general hedge's sets of ends, item by item, cost a step per
        row and position: rows in any order or subset (a table of labelled
        rows, a sidebar of boxes) make the template a long run of optional
        rows, and every position a set. Here a position keeps only the
        first row still free there (any later one is free too, optional
        rows being skippable), and a child goes to the first free row it
        fits (which leaves the most rows free): the same ends, in a pass
        over the children that stops where none is reached."""
        children = owner.children
        free = dict.fromkeys(starts, 0)  # position -> first row still free
        reached = max(starts)
        j = min(starts)
        while j <= reached and j < len(children):
            row = free.get(j)
            if row is not None:
                child = children[j]
                while row < len(rows) and not fit(rows[row], child):
                    row += 1
                if row < len(rows):
                    # Reached from here only, or a start (all its rows free).
                    free.setdefault(j + 1, row + 1)
                    reached = max(reached, j + 1)
            j += 1
        return frozenset(free)

    def split_reps(self, item: Set, owner: Node, begin: int, end: int) -> Spans:
        """The repetitions of ``item`` over ``owner.children[begin:end]``,
        each as short as it can be from the end backwards; the whole span
        as one (a misfit) when no split exists."""
        blocks = self._equal_reps(item, owner, begin, end)
        if blocks is not None or begin == end:
            return blocks or []
        # Fewest repetitions first: a shortest path over child positions,
        # whose edges (one repetition each) only go forward, so one pass in
        # position order settles it; each position keeps the latest start
        # that reaches it as cheaply. (The positions reached after each
        # number of repetitions grow with that number where repetitions
        # vary in width: walked level by level, a long table's rows were
        # quadratic.)
        count = {begin: 0}
        previous: dict[int, int] = {}
        for start in range(begin, end):
            reps_before = count.get(start)
            if reps_before is None:
                continue
            for stop in self.rep_ends(item, owner, start):
                if stop > end:
                    continue
                known = count.get(stop)
                if known is None or reps_before + 1 < known:
                    count[stop] = reps_before + 1
                    previous[stop] = start
                elif reps_before + 1 == known:
                    previous[stop] = start  # a later start: a shorter last repetition
        if end not in previous:
            self.misfits += 1
            return [(begin, end)]
        reps: Spans = []
        position = end
        while position != begin:
            reps.append((previous[position], position))
            position = previous[position]
        reps.reverse()
        return reps

    def _equal_reps(self, item: Set, owner: Node, begin: int, end: int) -> Spans | None:
        """The split of :meth:`split_reps` for a set whose repetition is
        elements and texts only, so always as many children long: equal
        blocks, if every one fits (the search would find them and only
        them); else None. The common case, checked child by child instead
        of through the sets of ends the search builds."""
        items = item.children
        width = len(items)
        if not width or self.c.tags.get(item.uid) is None or (end - begin) % width:
            return None
        children = owner.children
        for start in range(begin, end, width):
            for offset, rep_item in enumerate(items):
                assert isinstance(rep_item, (Elem, Text))
                if not self._fits_at(rep_item, children, start + offset, end):
                    return None
        return [(start, start + width) for start in range(begin, end, width)]

    # -- a greedy pass by shallow fits --------------------------------------

    def _fits_at(self, item: Elem | Text, children: list[Node], j: int, end: int) -> bool:
        """Whether ``children[j]``, before ``end``, fits ``item`` shallowly."""
        if j >= end:
            return False
        child = children[j]
        if isinstance(item, Elem):
            return child.tag == item.tag and self.shallow(item, child)
        return child.tag == TEXT and item.split(child.value) is not None

    def _greedy_end(self, item: TNode, children: list[Node], j: int, end: int) -> int | None:
        """Where ``item`` ends in a greedy pass from ``j``, or None."""
        if isinstance(item, (Elem, Text)):
            return j + 1 if self._fits_at(item, children, j, end) else None
        if isinstance(item, Opt):
            if j < end and self.starts(item.uid, children[j]):
                return self.greedy_ends([item.child], children, j, end, None)
            return j
        if isinstance(item, Set):
            return self._greedy_reps(item, children, j, end)
        return None

    def _greedy_reps(self, item: Set, children: list[Node], j: int, end: int) -> int | None:
        """Every repetition that can start, at least one."""
        begin = j
        while j < end and self.starts(item.uid, children[j]):
            found = self.greedy_ends(item.children, children, j, end, None)
            if found is None or found == j:
                return None
            j = found
        return None if j == begin else j

    def greedy_ends(
        self, items: list[TNode], children: list[Node], j: int, end: int, spans: Spans | None
    ) -> int | None:
        """Where a greedy pass by shallow fits ends (no deep matching): the
        first path the depth-first parse tries, without its bookkeeping."""
        for item in items:
            found = self._greedy_end(item, children, j, end)
            if found is None:
                return None
            if spans is not None:
                spans.append((j, found))
            j = found
        return j

    # -- exact fit, only where shallow fits were ambiguous ------------------

    def fits(self, t: Elem, node: Node) -> bool:
        key = (t.uid, node.index)
        found = self.fit_memo.get(key)
        if found is None:
            found = self.shallow(t, node) and (
                (bool(self.c.sigs[t.uid]) and digest(node.element) in self.c.sigs[t.uid])
                or self._exact_children(t, node)
            )
            self.fit_memo[key] = found
        return found

    def _exact_children(self, t: Elem, node: Node) -> bool:
        """Whether ``node``'s children fit ``t``'s exactly. A hedge of
        elements and texts only has one path, child by child: checked so,
        without the sets of ends the general hedge builds per item."""
        items = t.children
        children = node.children
        if self.c.tags[t.uid] is None:
            return len(children) in self._exact_hedge(items, node, frozenset((0,)))
        if len(children) != len(items):
            return False
        for item, child in zip(items, children, strict=True):
            if isinstance(item, Elem):
                ok = self.fits(item, child)
            else:
                assert isinstance(item, Text)
                ok = child.tag == TEXT and item.split(child.value) is not None
            if not ok:
                return False
        return True

    def exact_ends(self, item: TNode, owner: Node, j: int) -> frozenset[int]:
        key = (item.uid, owner.index, j)
        result = self.exact_memo.get(key)
        if result is not None:
            return result
        if isinstance(item, Elem):
            ok = j < len(owner.children) and self.fits(item, owner.children[j])
            result = frozenset((j + 1,)) if ok else _EMPTY
        elif isinstance(item, Opt):
            result = self.exact_ends(item.child, owner, j) | {j}
        elif isinstance(item, Set):
            result = repeat_ends(item, owner, j, self._exact_hedge, self.exact_rep_memo)
        else:
            result = self.item_ends(item, owner, j)
        self.exact_memo[key] = result
        return result

    def _exact_hedge(
        self, items: list[TNode], owner: Node, starts: frozenset[int]
    ) -> frozenset[int]:
        """Where ``items`` can end from ``starts`` by exact fits."""
        return self._ends_through(items, owner, starts, self.exact_ends, self.fits)
