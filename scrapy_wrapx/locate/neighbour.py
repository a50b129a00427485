"""The neighbour zone (thesis ch. 4, the SSN method).

Every unchanged node pair ⟨u, u'⟩ of the mapping carries the node-distance
triple ⟨ALD, RLD, PD⟩ from the target to ``u``; applied from ``u'`` in the
variant it points at a leaf. Algorithm 2 sorts those pointers into *strong*
ones (ALD and RLD land on the same leaf, at the right path distance),
*weak* ones (RLD lands at the right path distance) and plain ALD landings;
§4.3.3 picks the center among the best class by the least mean ``|ALD|`` of
its supporters, then by most votes. The neighbour zone is the leaves within
a radius of the center.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy_wrapx.locate._page import PageIndex
    from scrapy_wrapx.locate.mapping import ArrayTree
    from scrapy_wrapx.locate.reference import TargetNode

__all__ = [
    "LANDING",
    "STRONG",
    "WEAK",
    "Vote",
    "choose_center",
    "leaf_claims",
    "unchanged_pairs",
    "votes",
]

#: Vote classes of Algorithm 2, strongest first: ALD and RLD land on the
#: same leaf at the right path distance; RLD lands at the right path
#: distance; ALD merely lands on a leaf.
STRONG, WEAK, LANDING = 2, 1, 0


@dataclass(frozen=True)
class Vote:
    """A center-node candidate pointed at by one unchanged pair."""

    leaf: int
    distance: int  # |ALD| of the anchor from the target in the reference
    strength: int
    anchor: int  # the anchor's node in the variant


def unchanged_pairs(
    reference: ArrayTree, page: ArrayTree, pairs: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The mapped pairs with equal labels (thesis Definition 4.10)."""
    return [(i, j) for i, j in pairs if reference.labels[i] == page.labels[j]]


def leaf_claims(
    reference: ArrayTree, page: ArrayTree, partner: dict[int, int]
) -> dict[int, tuple[int, bool]]:
    """Variant leaf ordinal -> the reference leaf node the mapping pairs it
    with, and whether that is a firm claim: an unchanged pair, or a changed
    one whose parents and grandparents are paired and of one tag (a value
    that changed in place). A pocket's pairing of unrelated texts is no firm claim."""
    claims: dict[int, tuple[int, bool]] = {}
    for i, j in partner.items():
        if reference.children[i] or page.children[j]:
            continue
        firm = reference.labels[i] == page.labels[j] or _same_parent(reference, page, partner, i, j)
        claims[page.first_leaf[j]] = (i, firm)
    return claims


def _same_parent(
    reference: ArrayTree, page: ArrayTree, partner: dict[int, int], i: int, j: int
) -> bool:
    """Whether the parents and grandparents of ``i`` and ``j`` are paired
    and of one tag each: a tag alone (two ``span``) says little."""
    for _ in range(2):
        i, j = reference.parents[i], page.parents[j]
        if i < 0 or j < 0 or partner.get(i) != j or reference.labels[i] != page.labels[j]:
            return False
    return True


def votes(
    reference: ArrayTree,
    target: TargetNode,
    unchanged: Sequence[tuple[int, int]],
    page: PageIndex,
) -> list[Vote]:
    """Algorithm 2 for one target: one vote per usable unchanged pair."""
    x = target.node
    deepest = _deepest_above(reference, x, unchanged)
    same = page.leaves_of(target.prop)
    result: list[Vote] = []
    for i, j in unchanged:
        if i != deepest and _at_or_above(reference, i, x):
            continue
        vote = _vote(page, target, same, target.triples[i], j)
        if vote is not None:
            result.append(vote)
    return result


def _at_or_above(reference: ArrayTree, node: int, target: int) -> bool:
    return node == target or reference.is_ancestor(node, target)


def _deepest_above(reference: ArrayTree, target: int, unchanged: Sequence[tuple[int, int]]) -> int:
    """Of the unchanged ancestors-or-self of the target only the deepest
    votes: it is the one whose distance to the target is smallest."""
    deepest = -1
    for i, _ in unchanged:
        if _at_or_above(reference, i, target) and (
            deepest < 0 or reference.depth[i] > reference.depth[deepest]
        ):
            deepest = i
    return deepest


def _vote(
    page: PageIndex,
    target: TargetNode,
    same: list[int],
    triple: tuple[int, int, int, int],
    anchor: int,
) -> Vote | None:
    """Where the triple ⟨ALD, RLD, PD⟩ applied from ``anchor`` (a variant
    node) lands, and how strongly; None when it lands nowhere."""
    ald, rld, pd, side = triple
    array = page.array
    boundary = array.first_leaf[anchor] if side == 0 else array.last_leaf[anchor]
    if boundary < 0:
        return None
    y_ald = _ald_landing(boundary, ald, len(page.tree.leaves))
    y_rld = _rld_landing(page, target, same, boundary, ald, rld)
    if y_ald >= 0 and y_ald == y_rld and page.path_distance(anchor, y_ald) == pd:
        return Vote(y_ald, abs(ald), STRONG, anchor)
    if y_rld >= 0 and page.path_distance(anchor, y_rld) == pd:
        return Vote(y_rld, abs(ald), WEAK, anchor)
    if y_ald >= 0:
        return Vote(y_ald, abs(ald), LANDING, anchor)
    return None


def _ald_landing(boundary: int, ald: int, leaf_count: int) -> int:
    """The leaf ALD leaves away from the boundary, -1 off the page."""
    landing = boundary - ald
    return landing if 0 <= landing < leaf_count else -1


def _rld_landing(
    page: PageIndex, target: TargetNode, same: list[int], boundary: int, ald: int, rld: int
) -> int:
    """The leaf RLD leaves of the target's property away from the
    boundary, -1 off the page."""
    rank = page.relative_rank(target.prop, boundary, ald <= 0) - rld
    return same[rank] if 0 <= rank < len(same) else -1


def choose_center(cast: Sequence[Vote]) -> int | None:
    """§4.3.3: within the strongest class present, the candidate whose
    supporters are nearest the target on average, then the most voted."""
    if not cast:
        return None
    best_class = max(vote.strength for vote in cast)
    tally: dict[int, list[int]] = {}
    for vote in cast:
        if vote.strength == best_class:
            tally.setdefault(vote.leaf, []).append(vote.distance)
    return min(
        tally,
        key=lambda leaf: (sum(tally[leaf]) / len(tally[leaf]), -len(tally[leaf]), leaf),
    )


def agreement(cast: Sequence[Vote], leaf: int, radius: int) -> float:
    """Share of the votes of anchors within ``radius`` leaves of the target
    that point at ``leaf``: how much of the unchanged neighbourhood agrees.
    Only the strongest class of votes present counts, as in Algorithm 2."""
    if not cast:
        return 0.0
    best_class = max(vote.strength for vote in cast)
    near = [vote for vote in cast if vote.distance <= radius and vote.strength == best_class]
    if not near:
        return 0.0
    return sum(1 for vote in near if vote.leaf == leaf) / len(near)
