"""Aligning long hedges with bounded work.

Peer alignment (:mod:`._merge`) scores every pair of two hedges' nodes: fine
for the tens of siblings of an ordinary page, quadratic for a thousand rows
that do not fold into a set (rows of differing shapes, or texts that every
seed shows, which are template and so no repetitions). Past
:data:`MAX_ALIGN_CELLS` pairs only the pairs near where a node's peer is
expected are considered: a band of :data:`ALIGN_BAND` siblings either side
of a path through *anchors*, siblings with the very same content found once
on each side (as ``diff``'s patience algorithm anchors on unique lines), and
straight between them. The best order-preserving chain of peers among those
pairs (:func:`best_chain`) takes ``O(P log n)`` for ``P`` pairs, and ``P``
grows linearly with the hedges. Pairs outside the band are left unaligned:
what they miss becomes optional, so the merge still accepts both sides.

>>> centres(4, 4, [])
[0, 1, 2, 3, 4]
>>> centres(6, 3, [(4, 0)])
[-1, -1, -1, -1, 0, 1, 3]
>>> _increasing([(0, 3), (1, 1), (2, 2), (3, 0), (4, 4)])
[(1, 1), (2, 2), (4, 4)]
>>> best_chain([(0, 1, 2.0), (1, 0, 1.0), (1, 2, 1.0), (2, 2, 5.0)], 3)
[(0, 1), (2, 2)]
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise

from scrapy_wrapx.induction._info import Scratch, content_sig
from scrapy_wrapx.template import TNode

#: Most pairs of two hedges' nodes compared one by one (a hundred siblings
#: on each side); the hedges of ordinary pages stay far below it.
MAX_ALIGN_CELLS = 10_000
#: How many siblings either side of its expected place a node's peer is
#: looked for in a longer hedge: insertions and deletions up to this many
#: siblings between two anchors still align.
ALIGN_BAND = 16

#: Pairs ``(i, j)``: the ``i``-th node of one hedge with the ``j``-th of
#: the other.
Pairs = list[tuple[int, int]]


def bounded(m: int, n: int) -> bool:
    """Whether hedges of ``m`` and ``n`` nodes are too long to compare
    every pair."""
    return m * n > MAX_ALIGN_CELLS


def cells(m: int, n: int, path: Sequence[int] | None = None) -> Iterator[tuple[int, int]]:
    """The pairs of hedges of ``m`` and ``n`` nodes worth comparing, in
    order (row by row): all of them, or for long hedges the band around
    ``path`` (:func:`centres`; the straight diagonal by default)."""
    if not bounded(m, n):
        yield from ((i, j) for i in range(m) for j in range(n))
        return
    centre = path if path is not None else centres(m, n, [])
    for i in range(m):
        low = max(0, centre[i] - ALIGN_BAND)
        high = min(n, max(centre[i], centre[i + 1]) + ALIGN_BAND + 1)
        yield from ((i, j) for j in range(low, high))


def centres(m: int, n: int, anchors: Sequence[tuple[int, int]]) -> list[int]:
    """Where the peer of each of ``m`` nodes (and of the end, ``m``) is
    expected among ``n``: at the anchors exactly, in a straight line
    between them (non-decreasing, as alignment is order-preserving)."""
    knots = [(-1, -1), *anchors, (m, n)]
    path: list[int] = []
    for (i0, j0), (i1, j1) in pairwise(knots):
        path.extend(j0 + (i - i0) * (j1 - j0) // (i1 - i0) for i in range(i0 + 1, i1 + 1))
    return path


def anchors(scratch: Scratch, a: Sequence[TNode], b: Sequence[TNode]) -> Pairs:
    """The pairs of nodes with the very same content that occurs once in
    each hedge, the longest order-preserving run of them."""
    keys_a = [hash(content_sig(scratch, [node])) for node in a]
    keys_b = [hash(content_sig(scratch, [node])) for node in b]
    count_a, count_b = Counter(keys_a), Counter(keys_b)
    where_b = {key: j for j, key in enumerate(keys_b) if count_b[key] == 1}
    unique = [
        (i, where_b[key]) for i, key in enumerate(keys_a) if count_a[key] == 1 and key in where_b
    ]
    return _increasing(unique)


def _increasing(pairs: Pairs) -> Pairs:
    """The longest run of ``pairs`` (sorted by their first item) whose
    second items increase (patience sorting)."""
    piles: list[int] = []  # the pair on top of each pile
    tops: list[int] = []  # its second item
    before: list[int] = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pile = bisect_left(tops, j)
        before[k] = piles[pile - 1] if pile else -1
        piles[pile : pile + 1] = [k]
        tops[pile : pile + 1] = [j]
    out: Pairs = []
    k = piles[-1] if piles else -1
    while k >= 0:
        out.append(pairs[k])
        k = before[k]
    return out[::-1]


def band_pairs(
    scratch: Scratch,
    a: Sequence[TNode],
    b: Sequence[TNode],
    score: Callable[[Scratch, TNode, TNode], float],
) -> Pairs:
    """The best order-preserving pairs of peers (``score`` > 0) of two long
    hedges, among the pairs in the band around their anchors."""
    path = centres(len(a), len(b), anchors(scratch, a, b))
    scored = [
        (i, j, value)
        for i, j in cells(len(a), len(b), path)
        if (value := score(scratch, a[i], b[j])) > 0
    ]
    return best_chain(scored, len(b))


def best_chain(scored: Sequence[tuple[int, int, float]], n: int) -> Pairs:
    """The pairs, strictly increasing in both items, with the highest
    total score; ``scored`` is sorted by first item, second items are
    below ``n``. A Fenwick tree of prefix maxima over the second item
    finds each pair's best predecessor in ``O(log n)``."""
    tree: list[tuple[float, int]] = [(0.0, -1)] * (n + 1)
    totals: list[float] = []
    before: list[int] = []
    row: list[int] = []
    for k, (i, j, value) in enumerate(scored):
        if row and scored[row[0]][0] != i:
            _insert_row(tree, scored, totals, row)
        total, previous = _prefix_best(tree, j)
        totals.append(total + value)
        before.append(previous)
        row.append(k)
    if not totals:
        return []
    best = max(range(len(totals)), key=totals.__getitem__)
    out: Pairs = []
    while best >= 0:
        out.append((scored[best][0], scored[best][1]))
        best = before[best]
    return out[::-1]


def _insert_row(
    tree: list[tuple[float, int]],
    scored: Sequence[tuple[int, int, float]],
    totals: list[float],
    row: list[int],
) -> None:
    """Enter a finished row's chains (none may follow another of its own
    row, hence entered only once the row is done)."""
    for k in row:
        position = scored[k][1] + 1
        while position < len(tree):
            if totals[k] > tree[position][0]:
                tree[position] = (totals[k], k)
            position += position & -position
    row.clear()


def _prefix_best(tree: list[tuple[float, int]], j: int) -> tuple[float, int]:
    """The best chain total ending before second item ``j``, and its last
    pair."""
    best = (0.0, -1)
    position = j
    while position > 0:
        if tree[position][0] > best[0]:
            best = tree[position]
        position -= position & -position
    return best
