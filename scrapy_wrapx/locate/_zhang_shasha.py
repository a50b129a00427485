"""Exact tree edit distance mappings of small forests (Zhang-Shasha).

Only used on the small unmatched pockets left by :mod:`.mapping`, where the
optimal mapping is affordable; the work is done by the ``zss`` package.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import zss

if TYPE_CHECKING:
    from scrapy_wrapx.locate.mapping import ArrayTree

_VIRTUAL = object()


class _Node:
    __slots__ = ("children", "index", "label")

    def __init__(self, index: int, label: Hashable) -> None:
        self.index = index
        self.label = label
        self.children: list[_Node] = []


def _forest(tree: ArrayTree, roots: Sequence[int]) -> _Node:
    top = _Node(-1, _VIRTUAL)
    for root in roots:
        made = {root: _Node(root, tree.labels[root])}
        top.children.append(made[root])
        for node in range(root + 1, tree.end[root] + 1):
            made[node] = _Node(node, tree.labels[node])
            made[tree.parents[node]].children.append(made[node])
    return top


def _children(node: _Node) -> list[_Node]:
    return node.children


def _one(node: _Node) -> int:
    return 1


def _relabel(x: _Node, y: _Node) -> int:
    return 0 if x.label == y.label else 1


def forest_mapping(
    a: ArrayTree, roots_a: Sequence[int], b: ArrayTree, roots_b: Sequence[int]
) -> list[tuple[int, int]]:
    """Optimal unit-cost mapping between the forests rooted at ``roots_a``
    and ``roots_b`` (consecutive siblings), as pre-order index pairs."""
    _, operations = zss.distance(
        _forest(a, roots_a),
        _forest(b, roots_b),
        _children,
        _one,
        _one,
        _relabel,
        return_operations=True,
    )
    pairs = []
    for operation in operations:
        if (
            operation.type in (zss.Operation.match, zss.Operation.update)
            and operation.arg1.index >= 0
            and operation.arg2.index >= 0
        ):
            pairs.append((operation.arg1.index, operation.arg2.index))
    return pairs
