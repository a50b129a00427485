"""Matching a template against a page tree (seed 000, procedure 6, repaired).

One pass over the page: every page node is visited at most once, and each
visit both checks and extracts. Three things make that possible:

* **fixed subtrees by digest**: a fully fixed template element carries the
  digests of its seed elements' serializations
  (:attr:`~scrapy_wrapx.template.Elem.sigs`); a page element with one of
  them is taken whole, unvisited;
* **shallow fit** decides where items go: an element fits an item when its
  tag and fixed attributes agree and, if the item's first leaf is a fixed
  text (the "Publisher:" of a row), the element's first leaf is that text.
  A hedge of children is matched as a regular expression over shallow fits
  (``Opt`` is ``?``, ``Set`` is ``+``), run as an NFA over child positions
  (the language of full backtracking over optionals, in polynomial time);
  the chosen children are then matched deeply, once;
* a subtree that does not fit fails *locally* (the flaw in §11 item 1 of
  seed 000): where a hedge has no parse, its children are aligned with the
  items by dynamic programming (skip an item, skip a node, take a segment),
  and whatever aligned is extracted; what did not lowers the score. It
  never takes a row for one with another label, but a first text deeper
  than a row's label (:data:`ROW_LABEL_DEPTH`) is a block's first part,
  which a page may lack.

Recursion follows the template's depth only, which induction caps.
"""

from __future__ import annotations

import hashlib
from typing import Any

from lxml import etree

from scrapy_wrapx.dom import TEXT, Node, PageTree
from scrapy_wrapx.extraction._plan import GREEDY, TAGS, First, first, plan_of
from scrapy_wrapx.template import Blob, Elem, Opt, Set, Template, Text, TNode, node_form

Env = dict[int, Any]

_SKIP_ITEM, _SKIP_NODE, _TAKE, _REPEAT = 0, 1, 2, 3
_EMPTY: frozenset[int] = frozenset()


def digest(element: etree._Element) -> str:
    """Digest of an element's serialization, tail left out (the same as
    induction's :func:`~scrapy_wrapx.induction._induce.subtree_digest`)."""
    data = etree.tostring(element, with_tail=False)
    return hashlib.blake2b(data, digest_size=8).hexdigest()


#: How deep below an element a fixed first text still names a *row*
#: (``<b>ISBN:</b>``, ``<tr><td><b>Pages:</b>``) rather than the first part
#: of a block, which a page may lack ("Also Available" atop a table that
#: every seed had): see :meth:`Matcher.other_label`.
ROW_LABEL_DEPTH = 3


def _first_leaf(item: Elem, depth: int | None = None) -> str | None:
    """The fixed text that every page's element of ``item`` starts with, if
    the template says so (no optional, set or slot before it), found at
    most ``depth`` levels down if given."""
    node: TNode = item
    levels = 0
    while isinstance(node, Elem):
        if not node.children or (depth is not None and levels == depth):
            return None
        node = node.children[0]
        levels += 1
    if isinstance(node, Text) and node.fixed:
        return node.parts[0]
    return None


class Compiled:
    """Per-template facts the matcher asks for on every page."""

    def __init__(self, template: Template) -> None:
        self.fixed_attrs: dict[int, tuple[tuple[str, str], ...]] = {}
        self.attr_names: dict[int, frozenset[str]] = {}
        self.variant_attrs: dict[int, list[str]] = {}
        self.sigs: dict[int, frozenset[str]] = {}
        self.anchor: dict[int, str | None] = {}
        #: Anchors near enough to the top to be a row's label.
        self.row_label: dict[int, str | None] = {}
        #: For elements whose children are all elements and texts: their tags.
        self.tags: dict[int, tuple[str, ...] | None] = {}
        #: Uids of nodes with a field at or below them (set by the caller).
        self.data: frozenset[int] = frozenset()
        #: How to gather fields from an environment (set by the caller).
        self.program: list[tuple[Any, ...]] = []
        #: Per element: what :meth:`Matcher.elem` reads, in one lookup.
        self.elems: dict[int, tuple[Any, ...]] = {}
        #: Per set: the plan of one repetition's hedge.
        self.plans: dict[int, int] = {}
        #: Per optional and set: the tags and the items its content starts
        #: with (see :meth:`Matcher.starts`).
        self.first: dict[int, tuple[frozenset[str], tuple[TNode, ...]]] = {}
        #: Per fully fixed text: its text.
        self.fixed_text: dict[int, str] = {}
        for node in template.nodes:
            if isinstance(node, Elem):
                self.fixed_attrs[node.uid] = tuple(
                    (k, v) for k, v in node.attrs.items() if v is not None
                )
                self.attr_names[node.uid] = frozenset(node.attrs)
                self.variant_attrs[node.uid] = node.variant_attrs
                self.sigs[node.uid] = frozenset(node.sigs)
                self.anchor[node.uid] = _first_leaf(node)
                self.row_label[node.uid] = _first_leaf(node, ROW_LABEL_DEPTH)
            if isinstance(node, (Elem, Set)):
                self.tags[node.uid] = _tags(node.children)
            if isinstance(node, Elem):
                self.elems[node.uid] = (
                    tuple(node.variant_attrs),
                    self.sigs[node.uid],
                    plan_of(node.children, _first_leaf),
                    self.tags[node.uid],
                )
            elif isinstance(node, Set):
                self.plans[node.uid] = plan_of(node.children, _first_leaf)
                self.first[node.uid] = _starts(first(node))
            elif isinstance(node, Opt):
                self.first[node.uid] = _starts(first(node.child))
            elif isinstance(node, Text) and node.fixed:
                self.fixed_text[node.uid] = node.parts[0] or ""


def _starts(found: First) -> tuple[frozenset[str], tuple[TNode, ...]]:
    if found is None:
        return frozenset(), ()
    tags = frozenset(
        TEXT if isinstance(item, Text) else item.tag  # type: ignore[union-attr]
        for item in found[0]
    )
    return tags, found[0]


def _tags(items: list[TNode]) -> tuple[str, ...] | None:
    tags = []
    for item in items:
        if isinstance(item, Elem):
            tags.append(item.tag)
        elif isinstance(item, Text):
            tags.append(TEXT)
        else:
            return None
    return tuple(tags)


class Matcher:
    """Matches one page; memo tables live as long as the page."""

    def __init__(self, template: Template, compiled: Compiled, tree: PageTree) -> None:
        self.template = template
        self.c = compiled
        self.leaves = tree.leaves
        self.ends_memo: dict[tuple[int, int, int], frozenset[int]] = {}
        self.fit_memo: dict[tuple[int, int], bool] = {}
        self.exact_memo: dict[tuple[int, int, int], frozenset[int]] = {}
        #: Page leaves the match explained (taken by a fitting item).
        self.explained = 0
        #: Places where the page did not fit (texts, hedges, repetitions).
        self.misfits = 0
        #: Whether the last :meth:`_parse` had a choice to make.
        self.ambiguous = False
        self.hits = 0

    # -- shallow fit and the hedge NFA ------------------------------------

    def shallow(self, t: Elem, node: Node) -> bool:
        if node.tag != t.tag:
            return False
        uid = t.uid
        attrib = node.element.attrib
        for name, value in self.c.fixed_attrs[uid]:
            if attrib.get(name) != value:
                return False
        if len(attrib) > len(t.attrs) or not self.c.attr_names[uid].issuperset(attrib.keys()):
            return False
        anchor = self.c.anchor[uid]
        if anchor is not None:
            first = node.first_leaf
            return first >= 0 and self.leaves[first].value == anchor
        return True

    def other_label(self, t: Elem, node: Node) -> bool:
        """Whether ``node`` opens with another text than the fixed one every
        element of ``t`` opens with near its top: another row
        ("<b>ISBN-13:</b>" is no "<b>Dimensions:</b>" whose attributes
        changed), which lenient alignment must not take for ``t``, or the
        data after it follows. A block whose first words lie deeper is
        still itself without its first part (:data:`ROW_LABEL_DEPTH`)."""
        anchor = self.c.row_label[t.uid]
        if anchor is None:
            return False
        first = node.first_leaf
        return first < 0 or self.leaves[first].value != anchor

    def item_ends(self, item: TNode, owner: Node, j: int) -> frozenset[int]:
        """Child positions of ``owner`` where ``item`` can end when it
        starts at ``j`` (shallow fits)."""
        key = (item.uid, owner.index, j)
        found = self.ends_memo.get(key)
        if found is not None:
            return found
        children = owner.children
        result: frozenset[int]
        if isinstance(item, Elem):
            ok = j < len(children) and self.shallow(item, children[j])
            result = frozenset((j + 1,)) if ok else _EMPTY
        elif isinstance(item, Text):
            ok = (
                j < len(children)
                and children[j].tag == TEXT
                and item.split(children[j].value) is not None
            )
            result = frozenset((j + 1,)) if ok else _EMPTY
        elif isinstance(item, Opt):
            result = self.item_ends(item.child, owner, j) | {j}
        elif isinstance(item, Set):
            reached: set[int] = set()
            frontier = frozenset((j,))
            while frontier:
                new = (
                    frozenset(e for e in self.hedge_ends(item.children, owner, frontier) if e > j)
                    - reached
                )
                reached |= new
                frontier = new
            result = frozenset(reached)
        else:  # Blob: any hedge
            result = frozenset(range(j, len(children) + 1))
        self.ends_memo[key] = result
        return result

    def hedge_ends(self, items: list[TNode], owner: Node, starts: frozenset[int]) -> frozenset[int]:
        current = starts
        for item in items:
            if len(current) == 1:
                (only,) = current
                current = self.item_ends(item, owner, only)
            else:
                reached: set[int] = set()
                for j in current:
                    reached |= self.item_ends(item, owner, j)
                current = frozenset(reached)
            if not current:
                break
        return current

    def _parse(
        self, items: list[TNode], owner: Node, start: int, end: int, ends: Any
    ) -> list[tuple[int, int]] | None:
        """Spans of ``items`` over ``owner.children[start:end]``, or None.

        Depth first, each item trying its longest span first, so earlier
        items take as much as they can; a state (item, position) that led
        nowhere once is never tried again, which bounds the search by
        items x positions (a memoized backtracker, as regular-expression
        engines without exponential blow-up run). Iterative: hedges can
        be long."""
        count = len(items)
        if count == 0:
            return [] if start == end else None
        dead: set[tuple[int, int]] = set()
        frames: list[list[Any]] = []  # [start, candidate ends, next candidate]
        position = start
        while True:
            level = len(frames)
            if level == count:
                if position == end:
                    # Ambiguous when an alternative on the way was left
                    # untried (one that failed is no alternative).
                    self.ambiguous = any(frame[2] < len(frame[1]) for frame in frames)
                    return [(frame[0], frame[1][frame[2] - 1]) for frame in frames]
            elif (level, position) not in dead:
                found = ends(items[level], owner, position)
                candidates = (
                    [e for e in found if e <= end]
                    if len(found) < 2
                    else sorted((e for e in found if e <= end), reverse=True)
                )
                frames.append([position, candidates, 0])
            while frames:
                frame = frames[-1]
                if frame[2] < len(frame[1]):
                    position = frame[1][frame[2]]
                    frame[2] += 1
                    break
                dead.add((len(frames) - 1, frame[0]))
                frames.pop()
            else:
                return None

    def _split_reps(self, item: Set, owner: Node, begin: int, end: int) -> list[tuple[int, int]]:
        levels = [frozenset((begin,))]
        while end not in levels[-1]:
            nxt = frozenset(
                e for e in self.hedge_ends(item.children, owner, levels[-1]) if begin < e <= end
            )
            if not nxt or len(levels) > end - begin + 1:
                self.misfits += 1
                return [(begin, end)]
            levels.append(nxt)
        reps: list[tuple[int, int]] = []
        position = end
        for level in range(len(levels) - 2, -1, -1):
            start = max(
                s
                for s in levels[level]
                if s < position
                and position in self.hedge_ends(item.children, owner, frozenset((s,)))
            )
            reps.append((start, position))
            position = start
        reps.reverse()
        return reps

    # -- deep matching, one visit per page node ----------------------------

    def elem(self, t: Elem, node: Node, env: Env) -> float:
        """Match and extract ``node`` as ``t``; the weight matched."""
        uid = t.uid
        names, sigs, plan, tags = self.c.elems[uid]
        element = node.element
        if sigs and digest(element) in sigs:
            self.hits += 1
            if node.first_leaf >= 0:
                self.explained += node.last_leaf - node.first_leaf + 1
            return float(t.weight)
        if names:
            env[uid] = tuple([element.get(name) for name in names])
        children = node.children
        if not children:
            if node.leaf_index >= 0:
                self.explained += 1  # an image or link leaf
            if not t.children:
                return 1.0
        return 1.0 + self.hedge(t.children, plan, tags, node, 0, len(children), env)

    def hedge(
        self,
        items: list[TNode],
        plan: int,
        tags: tuple[str, ...] | None,
        owner: Node,
        start: int,
        end: int,
        env: Env,
    ) -> float:
        """Match ``owner.children[start:end]`` as ``items`` (see :mod:`._plan`)."""
        children = owner.children
        if plan == TAGS:
            assert tags is not None
            if len(tags) == end - start:
                for index, tag in enumerate(tags, start):
                    if children[index].tag != tag:
                        break
                else:
                    weight = 0.0
                    for item, child in zip(items, children[start:end], strict=True):
                        if child.tag == TEXT:
                            weight += self.text(item, child, env)  # type: ignore[arg-type]
                        else:
                            weight += self.elem(item, child, env)  # type: ignore[arg-type]
                    return weight
            # Elements and texts fit position by position or not at all.
            self.misfits += 1
            return self.lenient(items, owner, start, end, env)
        if plan == GREEDY:
            state = (self.misfits, self.explained)
            local: Env = {}
            found = self.greedy(items, children, start, end, local)
            if found is not None and found[1] == end:
                env.update(local)
                return found[0]
            # The only parse there could be failed: so would the search.
            self.misfits, self.explained = state
            self.misfits += 1
            return self.lenient(items, owner, start, end, env)
        return self.search(items, owner, start, end, env)

    def greedy(
        self, items: list[TNode], children: list[Node], j: int, end: int, env: Env
    ) -> tuple[float, int] | None:
        """One left-to-right pass over a hedge, taking every optional and
        repetition that can start (in a deterministic hedge, see
        :mod:`._plan`, the only parse): ``(weight, where it ended)``, or
        None."""
        weight = 0.0
        for item in items:
            if isinstance(item, Elem):
                if j >= end:
                    return None
                child = children[j]
                if child.tag != item.tag or not self.shallow(item, child):
                    return None
                weight += self.elem(item, child, env)
                j += 1
            elif isinstance(item, Text):
                if j >= end or children[j].tag != TEXT:
                    return None
                weight += self.text(item, children[j], env)
                j += 1
            elif isinstance(item, Opt):
                if j < end and self.starts(item.uid, children[j]):
                    found = self.greedy([item.child], children, j, end, env)
                    if found is None:
                        return None
                    j = found[1]
                    env[item.uid] = True
                else:
                    env[item.uid] = False
            elif isinstance(item, Set):
                reps: list[Env] = []
                best = 0.0
                while j < end and self.starts(item.uid, children[j]):
                    rep: Env = {}
                    found = self.greedy(item.children, children, j, end, rep)
                    if found is None or found[1] == j:
                        return None
                    reps.append(rep)
                    best = max(best, found[0])
                    j = found[1]
                if not reps:
                    return None
                env[item.uid] = reps
                weight += best
            else:
                return None
        return weight, j

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

    def _greedy_ends(
        self,
        items: list[TNode],
        children: list[Node],
        j: int,
        end: int,
        spans: list[tuple[int, int]] | None,
    ) -> int | None:
        """Where a greedy pass by shallow fits ends (no deep matching): the
        first path the depth-first parse tries, without its bookkeeping."""
        for item in items:
            begin = j
            if isinstance(item, Elem):
                if j >= end or children[j].tag != item.tag or not self.shallow(item, children[j]):
                    return None
                j += 1
            elif isinstance(item, Text):
                if j >= end or children[j].tag != TEXT or item.split(children[j].value) is None:
                    return None
                j += 1
            elif isinstance(item, Opt):
                if j < end and self.starts(item.uid, children[j]):
                    found = self._greedy_ends([item.child], children, j, end, None)
                    if found is None:
                        return None
                    j = found
            elif isinstance(item, Set):
                while j < end and self.starts(item.uid, children[j]):
                    found = self._greedy_ends(item.children, children, j, end, None)
                    if found is None or found == j:
                        return None
                    j = found
                if j == begin:
                    return None
            else:
                return None
            if spans is not None:
                spans.append((begin, j))
        return j

    def search(self, items: list[TNode], owner: Node, start: int, end: int, env: Env) -> float:
        """The general case: parse by shallow fits, then match deeply."""
        spans: list[tuple[int, int]] | None = []
        if self._greedy_ends(items, owner.children, start, end, spans) == end:
            self.ambiguous = True
        else:
            spans = self._parse(items, owner, start, end, self.item_ends)
        if spans is None:
            self.misfits += 1
            return self.lenient(items, owner, start, end, env)
        ambiguous = self.ambiguous
        state = (self.misfits, self.explained)
        local: Env = {}
        weight = 0.0
        for item, (begin, finish) in zip(items, spans, strict=True):
            weight += self.take(item, owner, begin, finish, local)
        if ambiguous and self.misfits > state[0]:
            # Shallow fits chose a branch that did not fit deeper down (two
            # optional blocks alike at the top): parse again by exact fit.
            exact = self._parse(items, owner, start, end, self.exact_ends)
            if exact is not None and exact != spans:
                self.misfits, self.explained = state
                return self._take_all(items, owner, exact, env)
        env.update(local)
        return weight

    def _take_all(
        self, items: list[TNode], owner: Node, spans: list[tuple[int, int]], env: Env
    ) -> float:
        weight = 0.0
        for item, (begin, finish) in zip(items, spans, strict=True):
            weight += self.take(item, owner, begin, finish, env)
        return weight

    # -- exact fit, only where shallow fits were ambiguous ----------------

    def fits(self, t: Elem, node: Node) -> bool:
        key = (t.uid, node.index)
        found = self.fit_memo.get(key)
        if found is None:
            found = self.shallow(t, node) and (
                (bool(self.c.sigs[t.uid]) and digest(node.element) in self.c.sigs[t.uid])
                or len(node.children) in self._exact_hedge(t.children, node, frozenset((0,)))
            )
            self.fit_memo[key] = found
        return found

    def exact_ends(self, item: TNode, owner: Node, j: int) -> frozenset[int]:
        key = (item.uid, owner.index, j)
        found = self.exact_memo.get(key)
        if found is not None:
            return found
        children = owner.children
        result: frozenset[int]
        if isinstance(item, Elem):
            ok = j < len(children) and self.fits(item, children[j])
            result = frozenset((j + 1,)) if ok else _EMPTY
        elif isinstance(item, Opt):
            result = self.exact_ends(item.child, owner, j) | {j}
        elif isinstance(item, Set):
            reached: set[int] = set()
            frontier = frozenset((j,))
            while frontier:
                new = (
                    frozenset(e for e in self._exact_hedge(item.children, owner, frontier) if e > j)
                    - reached
                )
                reached |= new
                frontier = new
            result = frozenset(reached)
        else:
            result = self.item_ends(item, owner, j)
        self.exact_memo[key] = result
        return result

    def _exact_hedge(
        self, items: list[TNode], owner: Node, starts: frozenset[int]
    ) -> frozenset[int]:
        current = starts
        for item in items:
            reached: set[int] = set()
            for j in current:
                reached |= self.exact_ends(item, owner, j)
            current = frozenset(reached)
            if not current:
                break
        return current

    def text(self, item: Text, node: Node, env: Env) -> float:
        value = node.value
        fixed = self.c.fixed_text.get(item.uid)
        if fixed is not None:
            if value == fixed:
                self.explained += 1
                return 1.0
            self.misfits += 1
            return 0.0
        slots = item.split(value)
        if slots is None:
            self.misfits += 1
            if item.slots:
                env[item.uid] = value  # did not fit the tokens: kept whole
            return 0.0
        if item.slots:
            env[item.uid] = slots
        self.explained += 1
        return 1.0

    def take(self, item: TNode, owner: Node, begin: int, end: int, env: Env) -> float:
        """Extract ``item`` from ``owner.children[begin:end]``."""
        children = owner.children
        if isinstance(item, Elem):
            return self.elem(item, children[begin], env)
        if isinstance(item, Text):
            if children[begin].tag != TEXT:
                self.misfits += 1
                return 0.0
            return self.text(item, children[begin], env)
        if isinstance(item, Opt):
            env[item.uid] = end > begin
            if end > begin:
                self.take(item.child, owner, begin, end, env)
            return 0.0
        if isinstance(item, Set):
            reps = env.setdefault(item.uid, [])
            best = 0.0
            tags = self.c.tags[item.uid]
            plan = self.c.plans[item.uid]
            for rep_begin, rep_end in self._split_reps(item, owner, begin, end):
                rep_env: Env = {}
                weight = self.hedge(item.children, plan, tags, owner, rep_begin, rep_end, rep_env)
                best = max(best, weight)
                reps.append(rep_env)
            return best
        assert isinstance(item, Blob)
        form: list[Any] = []
        for child in children[begin:end]:
            node_form(child, 0, form)
            if child.first_leaf >= 0:
                self.explained += child.last_leaf - child.first_leaf + 1
        env[item.uid] = form
        return 0.0

    # -- lenient mode ---------------------------------------------------

    def _segments(self, item: TNode, owner: Node, j: int) -> list[tuple[int, float]]:
        """(end, gain) for ``item`` starting at child ``j``."""
        node = owner.children[j]
        if isinstance(item, Elem):
            if node.tag != item.tag or self.other_label(item, node):
                return []
            return [(j + 1, float(item.weight) + 0.5 if self.shallow(item, node) else 0.5)]
        if isinstance(item, Text):
            if node.tag != TEXT:
                return []
            return [(j + 1, 1.0 if item.split(node.value) is not None else 0.2)]
        if isinstance(item, Opt):
            return self._segments(item.child, owner, j)
        if isinstance(item, Set):
            out = [(e, float(item.weight) + 0.5) for e in self.item_ends(item, owner, j) if e > j]
            head = item.children[-1] if item.children else None
            if not out and isinstance(head, Elem) and node.tag == head.tag:
                out.append((j + 1, 0.5))
            return out
        return [(j + 1, 0.01)]

    def lenient(self, items: list[TNode], owner: Node, start: int, end: int, env: Env) -> float:
        m, n = len(items), end - start
        best = [[0.0] * (n + 1) for _ in range(m + 1)]
        choice = [[(_SKIP_ITEM, 0)] * (n + 1) for _ in range(m + 1)]
        for i in range(m - 1, -1, -1):
            item = items[i]
            row, below = best[i], best[i + 1]
            for j in range(n - 1, -1, -1):
                # Ties go to taking the node now: a page node the template
                # lacks counts as inserted *after* what aligned ("UPC: x"
                # after "ISBN-13: y"), never as pushing a value onto it.
                score, pick = -1.0, (_SKIP_ITEM, 0)
                for stop, gain in self._segments(item, owner, start + j):
                    stop -= start
                    if stop > n:
                        continue
                    if gain + below[stop] > score:
                        score, pick = gain + below[stop], (_TAKE, stop)
                    if isinstance(item, Set) and gain * 0.5 + row[stop] > score:
                        score, pick = gain * 0.5 + row[stop], (_REPEAT, stop)
                if row[j + 1] > score:
                    score, pick = row[j + 1], (_SKIP_NODE, 0)
                if below[j] > score:
                    score, pick = below[j], (_SKIP_ITEM, 0)
                row[j] = score
                choice[i][j] = pick
        matched = 0.0
        counted: set[int] = set()
        i = j = 0
        while i < m and j < n:
            kind, stop = choice[i][j]
            if kind == _SKIP_ITEM:
                i += 1
            elif kind == _SKIP_NODE:
                j += 1
            else:
                item = items[i]
                if (
                    isinstance(item, Set)
                    and stop - j == 1
                    and not self.item_ends(item, owner, start + j)
                ):
                    # One unfit repetition: match it as the set's element.
                    rep_env: Env = {}
                    head = item.children[-1]
                    assert isinstance(head, Elem)
                    gain = self.elem(head, owner.children[start + j], rep_env)
                    env.setdefault(item.uid, []).append(rep_env)
                else:
                    gain = self.take(item, owner, start + j, start + stop, env)
                if item.uid not in counted:
                    matched += gain
                    counted.add(item.uid)
                j = stop
                if kind == _TAKE:
                    i += 1
        return matched
