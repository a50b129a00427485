"""A fast ordered, ancestor-preserving mapping between two trees.

The neighbour-zone method (thesis §4.3.1) needs the *unchanged node pairs*
of a reference page and its variant: the pairs of a tree-edit-distance
mapping whose labels are equal. Zhang-Shasha gives the optimal mapping but
costs seconds to minutes on whole pages, so this module builds a mapping
with the same guarantees — one-to-one, order-preserving, ancestor-preserving
(thesis Definition 4.8) — in near-linear time:

1. **Leaves first.** The leaf sequences are aligned by a longest common
   subsequence over their labels (rapidfuzz's compiled Indel aligner works on
   lists of hashables). Visible content survives redesigns far better than
   markup, and wrapper elements do not disturb a leaf sequence at all.
   Isolated matches of a label that is common on the page are dropped: they
   are what an LCS uses to fill gaps, not evidence of an unchanged part.
2. **Internal nodes by the leaves they hold.** Every element gets the set
   of matched leaf pairs below it, which is a contiguous run of the monotone
   leaf matching. Elements of one tree with the same non-empty run lie on one
   root path (a *chain*); chains with equal runs in both trees are aligned by
   tag with an edit-distance alignment (equal tags and relabels pair up).
   Pairing only nodes with *identical* runs is what makes the result a valid
   mapping by construction: containment of runs decides ancestry and the
   order of runs decides left/right, in both trees alike.
3. **Changed leaves in the gaps** (relabels: a value that differs) are then
   paired in order when their deepest mapped ancestors correspond, and the
   chains are recomputed with them, so an element whose content all changed
   can still be mapped.

Tests check the invariants on random trees and compare the cost with
``zss`` (exact Zhang-Shasha) on small ones.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from rapidfuzz.distance import Indel, Levenshtein

__all__ = ["POCKET_LIMIT", "ArrayTree", "map_trees", "mapping_cost"]

#: Largest ``|pocket a| * |pocket b|`` mapped exactly: Zhang-Shasha in pure
#: Python stays within a millisecond or two below this size.
POCKET_LIMIT = 400


@dataclass
class ArrayTree:
    """An ordered labelled tree as flat arrays in pre-order.

    ``parents[i]`` is the pre-order index of node *i*'s parent (-1 for the
    root, which must be node 0); ``labels[i]`` its label: the tag for an
    element, a value label for a leaf (any hashable). Derived arrays
    (children, leaf ranges, depths) are computed once on construction.
    """

    labels: Sequence[Hashable]
    parents: Sequence[int]
    children: list[list[int]] = field(init=False, repr=False)
    leaves: list[int] = field(init=False, repr=False)
    first_leaf: list[int] = field(init=False, repr=False)
    last_leaf: list[int] = field(init=False, repr=False)
    depth: list[int] = field(init=False, repr=False)
    end: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        count = len(self.labels)
        if len(self.parents) != count:
            raise ValueError(
                f"ArrayTree needs one parent per label, got {len(self.parents)!r} for {count!r}"
            )
        children, depth = _children_and_depths(self.parents, count)
        leaves = [index for index in range(count) if not children[index]]
        first, last, end = _ranges(self.parents, children, leaves)
        self.children = children
        self.leaves = leaves
        self.first_leaf = first
        self.last_leaf = last
        self.depth = depth
        self.end = end

    def __len__(self) -> int:
        return len(self.labels)

    def is_ancestor(self, ancestor: int, node: int) -> bool:
        """True when ``ancestor`` is a proper ancestor of ``node``."""
        return ancestor < node <= self.end[ancestor]


def _children_and_depths(parents: Sequence[int], count: int) -> tuple[list[list[int]], list[int]]:
    """Each node's children and depth; every parent must come before its
    children (preorder)."""
    children: list[list[int]] = [[] for _ in range(count)]
    depth = [0] * count
    for index in range(1, count):
        parent = parents[index]
        if not 0 <= parent < index:
            raise ValueError(f"Node {index!r} has parent {parent!r}, not an earlier node")
        children[parent].append(index)
        depth[index] = depth[parent] + 1
    return children, depth


def _ranges(
    parents: Sequence[int], children: list[list[int]], leaves: list[int]
) -> tuple[list[int], list[int], list[int]]:
    """Each node's first and last leaf ordinals (-1 for none) and the last
    node of its subtree, gathered bottom-up."""
    count = len(children)
    ordinal = {node: position for position, node in enumerate(leaves)}
    first = [-1] * count
    last = [-1] * count
    end = list(range(count))
    for index in range(count - 1, -1, -1):
        if not children[index]:
            first[index] = last[index] = ordinal[index]
        parent = parents[index] if index else -1
        if parent >= 0:
            if first[parent] < 0 or first[index] < first[parent]:
                first[parent] = first[index]
            last[parent] = max(last[parent], last[index])
            end[parent] = max(end[parent], end[index])
    return first, last, end


def map_trees(
    a: ArrayTree, b: ArrayTree, pocket_limit: int = POCKET_LIMIT
) -> list[tuple[int, int]]:
    """Map ``a`` onto ``b``: node pairs ``(i, j)``, sorted, forming an
    ordered, ancestor-preserving one-to-one mapping.

    ``pocket_limit`` bounds the product of the node counts of an unmapped
    pocket that is still mapped exactly (Zhang-Shasha); 0 skips that step.
    """
    if not len(a) or not len(b):
        return []
    leaf_pairs = _anchor_leaves(a, b)
    inner = _chain_pairs(a, b, leaf_pairs)
    leaf_pairs = _add_relabelled_leaves(a, b, leaf_pairs, inner)
    inner = _chain_pairs(a, b, leaf_pairs)
    pairs = [(a.leaves[i], b.leaves[j]) for i, j in leaf_pairs]
    pairs.extend(inner)
    if all(i != 0 and j != 0 for i, j in pairs):
        # Two roots neither of which is mapped can always be paired.
        pairs.append((0, 0))
    if pocket_limit > 0:
        pairs.extend(_map_pockets(a, b, pairs, pocket_limit))
    pairs.sort()
    return pairs


def mapping_cost(a: ArrayTree, b: ArrayTree, pairs: Sequence[tuple[int, int]]) -> int:
    """Unit-cost edit script size of a mapping: deletions + insertions +
    relabels (thesis eq. 4.8 with c1 = c2 = c3 = 1)."""
    relabels = sum(1 for i, j in pairs if a.labels[i] != b.labels[j])
    return (len(a) - len(pairs)) + (len(b) - len(pairs)) + relabels


def _anchor_leaves(a: ArrayTree, b: ArrayTree) -> list[tuple[int, int]]:
    """Monotone leaf pairs (leaf ordinals) by LCS over leaf labels, without
    isolated matches of labels that are not unique on both sides."""
    seq_a = [a.labels[node] for node in a.leaves]
    seq_b = [b.labels[node] for node in b.leaves]
    count_a = Counter(seq_a)
    count_b = Counter(seq_b)
    pairs: list[tuple[int, int]] = []
    for op in Indel.opcodes(seq_a, seq_b):
        if op.tag != "equal":
            continue
        length = op.src_end - op.src_start
        for offset in range(length):
            i = op.src_start + offset
            j = op.dest_start + offset
            if length == 1:
                label = seq_a[i]
                if count_a[label] > 1 or count_b[label] > 1:
                    continue
            pairs.append((i, j))
    return pairs


def _chain_pairs(
    a: ArrayTree, b: ArrayTree, leaf_pairs: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Internal node pairs: elements holding exactly the same run of matched
    leaf pairs, aligned chain against chain by tag."""
    matched_a = [i for i, _ in leaf_pairs]
    matched_b = [j for _, j in leaf_pairs]
    chains_a = _chains(a, matched_a)
    chains_b = _chains(b, matched_b)
    pairs: list[tuple[int, int]] = []
    for key, chain_a in chains_a.items():
        chain_b = chains_b.get(key)
        if chain_b is None:
            continue
        tags_a = [a.labels[node] for node in chain_a]
        tags_b = [b.labels[node] for node in chain_b]
        if tags_a == tags_b:
            pairs.extend(zip(chain_a, chain_b, strict=True))
            continue
        for op in Levenshtein.opcodes(tags_a, tags_b):
            if op.tag in ("equal", "replace"):
                pairs.extend(
                    zip(
                        chain_a[op.src_start : op.src_end],
                        chain_b[op.dest_start : op.dest_end],
                        strict=False,
                    )
                )
    return pairs


def _chains(tree: ArrayTree, matched: Sequence[int]) -> dict[tuple[int, int], list[int]]:
    chains: dict[tuple[int, int], list[int]] = {}
    first = tree.first_leaf
    last = tree.last_leaf
    for node, kids in enumerate(tree.children):
        if not kids:
            continue
        low = bisect_left(matched, first[node])
        high = bisect_right(matched, last[node])
        if low == high:
            continue
        chains.setdefault((low, high), []).append(node)  # pre-order: top-down
    return chains


def _add_relabelled_leaves(
    a: ArrayTree,
    b: ArrayTree,
    leaf_pairs: list[tuple[int, int]],
    inner: Sequence[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Pair unmatched leaves between consecutive matched ones, in order,
    when their deepest mapped ancestors are partners and they are of one
    kind (text or the same element)."""
    partner = dict(inner)
    mapped_b = set(partner.values())
    result: list[tuple[int, int]] = []
    previous_i = previous_j = -1
    bounds = [*leaf_pairs, (len(a.leaves), len(b.leaves))]
    for i, j in bounds:
        gap_a = range(previous_i + 1, i)
        gap_b = range(previous_j + 1, j)
        if gap_a and gap_b:
            keys_a = [
                (
                    partner.get(_deepest_mapped(a, a.leaves[x], partner), -1),
                    _kind(a, a.leaves[x]),
                )
                for x in gap_a
            ]
            keys_b = [
                (_deepest_mapped(b, b.leaves[y], mapped_b), _kind(b, b.leaves[y])) for y in gap_b
            ]
            for op in Indel.opcodes(keys_a, keys_b):
                if op.tag == "equal":
                    for offset in range(op.src_end - op.src_start):
                        result.append(
                            (
                                gap_a[op.src_start + offset],
                                gap_b[op.dest_start + offset],
                            )
                        )
        if i < len(a.leaves):
            result.append((i, j))
        previous_i, previous_j = i, j
    return result


def _deepest_mapped(tree: ArrayTree, node: int, mapped: dict[int, int] | set[int]) -> int:
    parent = tree.parents[node]
    while parent >= 0 and parent not in mapped:
        parent = tree.parents[parent]
    return parent


def _kind(tree: ArrayTree, node: int) -> Hashable:
    """What a relabel may keep: a leaf's label family (its first element)
    when labels are tuples, else nothing."""
    label = tree.labels[node]
    return label[0] if isinstance(label, tuple) and label else None


def _map_pockets(
    a: ArrayTree, b: ArrayTree, pairs: Sequence[tuple[int, int]], limit: int
) -> list[tuple[int, int]]:
    """Exact mappings of *pockets*: runs of sibling subtrees with no mapped
    node, under a mapped pair, lying between the partners of their mapped
    neighbours. Any mapping inside such a pair of runs keeps the whole
    mapping valid, so the optimal one (Zhang-Shasha) is used when small."""
    partner = dict(pairs)
    occupied_a = _occupied(a, partner)
    occupied_b = _occupied(b, set(partner.values()))
    result: list[tuple[int, int]] = []
    queue = sorted(pairs)
    while queue:
        p, q = queue.pop()
        if a.children[p] and b.children[q]:
            result.extend(_pockets_under(a, b, p, q, partner, occupied_a, occupied_b, limit))
    return result


def _pockets_under(
    a: ArrayTree,
    b: ArrayTree,
    p: int,
    q: int,
    partner: dict[int, int],
    occupied_a: list[bool],
    occupied_b: list[bool],
    limit: int,
) -> list[tuple[int, int]]:
    """The exact mappings of the pockets among the children of the mapped
    pair ``(p, q)``."""
    result: list[tuple[int, int]] = []
    kids_b = b.children[q]
    position_b = {child: position for position, child in enumerate(kids_b)}
    run: list[int] = []
    low_b = 0  # first B child position the next run may use
    for child in [*a.children[p], -1]:
        if child >= 0 and not occupied_a[child]:
            run.append(child)
            continue
        if child >= 0:
            span = _partner_span(a, child, partner, b.parents, q, position_b)
            if span is None:
                run = []
                continue
            high_b, next_low = span
        else:
            high_b, next_low = len(kids_b), len(kids_b)
        free_b = [kid for kid in kids_b[low_b:high_b] if not occupied_b[kid]]
        if run and free_b:
            result.extend(_exact(a, b, run, free_b, limit))
        run = []
        low_b = next_low
    return result


def _occupied(tree: ArrayTree, mapped: dict[int, int] | set[int]) -> list[bool]:
    """Whether each node's subtree holds a mapped node."""
    occupied = [node in mapped for node in range(len(tree))]
    for node in range(len(tree) - 1, 0, -1):
        if occupied[node]:
            occupied[tree.parents[node]] = True
    return occupied


def _partner_span(
    a: ArrayTree,
    child: int,
    partner: dict[int, int],
    parents_b: Sequence[int],
    q: int,
    position_b: dict[int, int],
) -> tuple[int, int] | None:
    """Positions among ``q``'s children of the first and last B child that
    hold partners of mapped nodes in ``child``'s subtree: (first, last + 1)."""
    first = last = -1
    for node in range(child, a.end[child] + 1):
        mate = partner.get(node)
        if mate is None:
            continue
        while mate >= 0 and parents_b[mate] != q:
            mate = parents_b[mate]
        if mate < 0:
            return None
        position = position_b[mate]
        if first < 0 or position < first:
            first = position
        last = max(last, position)
    if first < 0:
        return None
    return first, last + 1


def _exact(
    a: ArrayTree, b: ArrayTree, run_a: list[int], run_b: list[int], limit: int
) -> list[tuple[int, int]]:
    size_a = sum(a.end[node] - node + 1 for node in run_a)
    size_b = sum(b.end[node] - node + 1 for node in run_b)
    if size_a * size_b > limit:
        return []
    from scrapy_wrapx.locate._zhang_shasha import forest_mapping

    return forest_mapping(a, run_a, b, run_b)
