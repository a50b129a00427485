"""Matching a template against a page tree (seed 000, procedure 6, repaired).

Two modes, so that a subtree that does not fit fails *locally* (the flaw in
§11 item 1 of seed 000, where one misfit deep down failed the whole page):

* **exact**: the template is a regular expression over each hedge of
  children (``Opt`` is ``?``, ``Set`` is ``+``). Instead of backtracking over
  optionals, the matcher runs the expression as an NFA over page positions:
  the set of positions reachable after each template item. That is the same
  language as full backtracking, in polynomial time, and memoized per
  (item, hedge, position). An element *fits* when its tag and fixed
  attributes agree and its children hedge is accepted.
* **lenient**: where an element's children do not fit, they are aligned with
  the template's items by dynamic programming (skip an item, skip a node, or
  match a segment: an element of the same tag, a text, a run accepted by an
  optional or a set), and every matched part is extracted; the unmatched part
  of the template lowers the score instead of failing the page.

Recursion follows the template's depth only, which induction caps.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..dom import TEXT, Node
from ..template import Blob, Elem, Opt, Set, Template, Text, TNode, node_form

Env = dict[int, Any]

_SKIP_ITEM, _SKIP_NODE, _TAKE, _REPEAT = 0, 1, 2, 3


def _simple(items: list[TNode]) -> bool:
    return all(isinstance(item, (Elem, Text)) for item in items)


class Compiled:
    """Per-template facts the matcher asks for on every page."""

    def __init__(self, template: Template) -> None:
        self.attr_names: dict[int, frozenset[str]] = {}
        self.fixed_attrs: dict[int, tuple[tuple[str, str], ...]] = {}
        self.variant_attrs: dict[int, list[str]] = {}
        self.simple: dict[int, bool] = {}
        self.child_tags: dict[int, Counter[str]] = {}
        for node in template.nodes:
            if isinstance(node, Elem):
                self.attr_names[node.uid] = frozenset(node.attrs)
                self.fixed_attrs[node.uid] = tuple(
                    (k, v) for k, v in node.attrs.items() if v is not None
                )
                self.variant_attrs[node.uid] = node.variant_attrs
                self.simple[node.uid] = _simple(node.children)
                tags: Counter[str] = Counter()
                for child in node.children:
                    inner = child.child if isinstance(child, Opt) else child
                    if isinstance(inner, Set) and inner.children:
                        inner = inner.children[0]
                    if isinstance(inner, Elem):
                        tags[inner.tag] += 1
                    elif isinstance(inner, Text):
                        tags[TEXT] += 1
                self.child_tags[node.uid] = tags
            elif isinstance(node, Set):
                self.simple[node.uid] = _simple(node.children)


class Matcher:
    """Matches one page; memo tables live as long as the page."""

    def __init__(self, template: Template, compiled: Compiled) -> None:
        self.template = template
        self.c = compiled
        self.fit_memo: dict[tuple[int, int], bool] = {}
        self.ends_memo: dict[tuple[int, int, int], frozenset[int]] = {}

    # -- exact mode -----------------------------------------------------

    def fits(self, t: Elem, node: Node) -> bool:
        if node.tag != t.tag:
            return False
        key = (t.uid, node.index)
        found = self.fit_memo.get(key)
        if found is not None:
            return found
        result = self._attrs_fit(t, node) and self._children_fit(t, node)
        self.fit_memo[key] = result
        return result

    def _attrs_fit(self, t: Elem, node: Node) -> bool:
        attrib = node.element.attrib
        for name, value in self.c.fixed_attrs[t.uid]:
            if attrib.get(name) != value:
                return False
        return len(attrib) <= len(t.attrs) and self.c.attr_names[t.uid].issuperset(attrib.keys())

    def _children_fit(self, t: Elem, node: Node) -> bool:
        items, children = t.children, node.children
        if self.c.simple[t.uid]:
            return len(items) == len(children) and all(
                self.item_fits(item, child) for item, child in zip(items, children)
            )
        return len(children) in self.hedge_ends(items, node, frozenset((0,)))

    def item_fits(self, item: TNode, node: Node) -> bool:
        if isinstance(item, Elem):
            return self.fits(item, node)
        assert isinstance(item, Text)
        return node.tag == TEXT and item.split(node.value) is not None

    def hedge_ends(self, items: list[TNode], owner: Node, starts: frozenset[int]) -> frozenset[int]:
        """Positions in ``owner.children`` where ``items`` can end, starting
        from any of ``starts``."""
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

    def item_ends(self, item: TNode, owner: Node, j: int) -> frozenset[int]:
        key = (item.uid, owner.index, j)
        found = self.ends_memo.get(key)
        if found is not None:
            return found
        children = owner.children
        result: frozenset[int]
        if isinstance(item, (Elem, Text)):
            ok = j < len(children) and self.item_fits(item, children[j])
            result = frozenset((j + 1,)) if ok else frozenset()
        elif isinstance(item, Opt):
            result = self.item_ends(item.child, owner, j) | {j}
        elif isinstance(item, Set):
            reached: set[int] = set()
            frontier = frozenset((j,))
            while frontier:
                new = self.hedge_ends(item.children, owner, frontier) - reached - frontier
                new = frozenset(e for e in new if e > j)
                reached |= new
                frontier = new
            result = frozenset(reached)
        else:  # Blob: any hedge
            result = frozenset(range(j, len(children) + 1))
        self.ends_memo[key] = result
        return result

    def extract_exact_elem(self, t: Elem, node: Node, env: Env) -> None:
        self._extract_attrs(t, node, env)
        self.extract_exact_hedge(t.children, node, 0, len(node.children), env,
                                 self.c.simple[t.uid])

    def _extract_attrs(self, t: Elem, node: Node, env: Env) -> None:
        names = self.c.variant_attrs[t.uid]
        if names:
            attrib = node.element.attrib
            env[t.uid] = tuple(attrib.get(name) for name in names)

    def extract_exact_hedge(self, items: list[TNode], owner: Node, start: int, end: int,
                            env: Env, simple: bool = False) -> None:
        children = owner.children
        if simple:
            for item, child in zip(items, children[start:end]):
                self._take(item, owner, start, start + 1, env, exact=True)
                start += 1
            return
        # Forward: positions reachable before each item; backward: pick, for
        # each item from the last, the latest start that still reaches the
        # chosen end (earlier items take as much as they can).
        forward = [frozenset((start,))]
        for item in items:
            reached: set[int] = set()
            for j in forward[-1]:
                reached.update(e for e in self.item_ends(item, owner, j) if e <= end)
            forward.append(frozenset(reached))
        spans: list[tuple[int, int]] = []
        position = end
        for index in range(len(items) - 1, -1, -1):
            item = items[index]
            candidates = [j for j in forward[index] if position in self.item_ends(item, owner, j)]
            if not candidates:
                raise ValueError(f"Hedge does not fit at position {position!r}")
            begin = max(candidates)
            spans.append((begin, position))
            position = begin
        spans.reverse()
        for item, (begin, finish) in zip(items, spans):
            self._take(item, owner, begin, finish, env, exact=True)

    def _take(self, item: TNode, owner: Node, begin: int, end: int, env: Env, exact: bool) -> float:
        """Extract ``item`` from ``owner.children[begin:end]``; returns the
        matched weight."""
        children = owner.children
        if isinstance(item, Elem):
            return self.extract_elem(item, children[begin], env)
        if isinstance(item, Text):
            value = children[begin].value
            slots = item.split(value)
            if slots is None:
                if item.slots:
                    env[item.uid] = value  # did not fit the tokens: kept whole
                return 0.0
            if item.slots:
                env[item.uid] = slots
            return 1.0
        if isinstance(item, Opt):
            env[item.uid] = end > begin
            if end > begin:
                self._take(item.child, owner, begin, end, env, exact)
            return 0.0
        if isinstance(item, Set):
            reps = env.setdefault(item.uid, [])
            if exact:
                for rep_begin, rep_end in self._split_reps(item, owner, begin, end):
                    rep_env: Env = {}
                    self.extract_exact_hedge(item.children, owner, rep_begin, rep_end, rep_env,
                                             self.c.simple[item.uid])
                    reps.append(rep_env)
                return float(item.weight)
            rep_env = {}
            weight = self.extract_elem(item.children[0], children[begin], rep_env)  # type: ignore[arg-type]
            reps.append(rep_env)
            return weight
        assert isinstance(item, Blob)
        form: list[Any] = []
        for child in children[begin:end]:
            node_form(child, 0, form)
        env[item.uid] = form
        return 0.0

    def _split_reps(self, item: Set, owner: Node, begin: int, end: int) -> list[tuple[int, int]]:
        levels = [frozenset((begin,))]
        while end not in levels[-1]:
            nxt = frozenset(
                e for e in self.hedge_ends(item.children, owner, levels[-1]) if begin < e <= end
            )
            if not nxt or len(levels) > end - begin + 1:
                raise ValueError(f"Set does not fit positions {begin!r}..{end!r}")
            levels.append(nxt)
        reps: list[tuple[int, int]] = []
        position = end
        for level in range(len(levels) - 2, -1, -1):
            starts = [
                s for s in levels[level]
                if s < position and position in self.hedge_ends(item.children, owner, frozenset((s,)))
            ]
            start = max(starts)
            reps.append((start, position))
            position = start
        reps.reverse()
        return reps

    # -- lenient mode ---------------------------------------------------

    def extract_elem(self, t: Elem, node: Node, env: Env) -> float:
        """Extract ``node`` as ``t``; exact where it fits, else aligned."""
        if self.fits(t, node):
            self.extract_exact_elem(t, node, env)
            return float(t.weight)
        self._extract_attrs(t, node, env)
        return 1.0 + self.lenient_hedge(t.children, node, env)

    def _quick(self, t: Elem, node: Node) -> float:
        """A cheap guess of how much of ``t`` an unfit ``node`` matches."""
        tags = self.c.child_tags[t.uid]
        total = sum(tags.values())
        if not total:
            return 1.0
        have = Counter(child.tag for child in node.children)
        common = sum(min(count, have[tag]) for tag, count in tags.items())
        return 1.0 + 0.5 * (t.weight - 1) * common / max(total, len(node.children))

    def _segments(self, item: TNode, owner: Node, j: int) -> list[tuple[int, float, bool]]:
        """(end, gain, exact) for ``item`` starting at child ``j``."""
        node = owner.children[j]
        if isinstance(item, Elem):
            if node.tag != item.tag:
                return []
            if self.fits(item, node):
                return [(j + 1, float(item.weight) + 0.5, True)]
            return [(j + 1, self._quick(item, node), False)]
        if isinstance(item, Text):
            if node.tag != TEXT:
                return []
            return [(j + 1, 1.0 if item.split(node.value) is not None else 0.2, True)]
        if isinstance(item, Opt):
            return self._segments(item.child, owner, j)
        if isinstance(item, Set):
            out = [
                (e, float(item.weight) + 0.5, True)
                for e in self.item_ends(item, owner, j)
                if e > j and self.hedge_ends(item.children, owner, frozenset((j,))) >= {e}
            ]
            head = item.children[0] if len(item.children) == 1 else None
            if not out and isinstance(head, Elem) and node.tag == head.tag:
                out.append((j + 1, self._quick(head, node), False))
            return out
        return [(j + 1, 0.01, True)]

    def lenient_hedge(self, items: list[TNode], owner: Node, env: Env) -> float:
        children = owner.children
        m, n = len(items), len(children)
        best = [[0.0] * (n + 1) for _ in range(m + 1)]
        choice: list[list[tuple[int, int, bool]]] = [[(_SKIP_ITEM, 0, True)] * (n + 1) for _ in range(m + 1)]
        for i in range(m - 1, -1, -1):
            item = items[i]
            row, below = best[i], best[i + 1]
            for j in range(n - 1, -1, -1):
                score, pick = below[j], (_SKIP_ITEM, 0, True)
                if row[j + 1] > score:
                    score, pick = row[j + 1], (_SKIP_NODE, 0, True)
                for end, gain, exact in self._segments(item, owner, j):
                    if gain + below[end] > score:
                        score, pick = gain + below[end], (_TAKE, end, exact)
                    if isinstance(item, Set) and gain * 0.5 + row[end] > score:
                        score, pick = gain * 0.5 + row[end], (_REPEAT, end, exact)
                row[j] = score
                choice[i][j] = pick
        matched = 0.0
        counted: set[int] = set()
        i = j = 0
        while i < m and j < n:
            kind, end, exact = choice[i][j]
            if kind == _SKIP_ITEM:
                i += 1
            elif kind == _SKIP_NODE:
                j += 1
            else:
                item = items[i]
                gain = self._take(item, owner, j, end, env, exact)
                if item.uid not in counted:
                    matched += gain
                    counted.add(item.uid)
                j = end
                if kind == _TAKE:
                    i += 1
        return matched
