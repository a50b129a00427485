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
    from scrapy_wrapx.locate.reference import Target

__all__ = [
    "LANDING",
    "STRONG",
    "WEAK",
    "Vote",
    "choose_center",
    "unchanged_pairs",
    "votes",
]

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


def votes(
    reference: ArrayTree,
    target: Target,
    unchanged: Sequence[tuple[int, int]],
    page: PageIndex,
) -> list[Vote]:
    """Algorithm 2 for one target: one vote per usable unchanged pair."""
    x = target.node
    # Of the unchanged ancestors-or-self of the target only the deepest is
    # used: it is the one whose distance to the target is smallest.
    deepest = -1
    for i, _ in unchanged:
        if (i == x or reference.is_ancestor(i, x)) and (
            deepest < 0 or reference.depth[i] > reference.depth[deepest]
        ):
            deepest = i
    array = page.array
    leaf_count = len(page.tree.leaves)
    same = page.leaves_of(target.prop)
    result: list[Vote] = []
    for i, j in unchanged:
        if i != deepest and (i == x or reference.is_ancestor(i, x)):
            continue
        ald, rld, pd, side = target.triples[i]
        boundary = array.first_leaf[j] if side == 0 else array.last_leaf[j]
        if boundary < 0:
            continue
        y_ald = boundary - ald
        if not 0 <= y_ald < leaf_count:
            y_ald = -1
        rank = page.relative_rank(target.prop, boundary, ald <= 0) - rld
        y_rld = same[rank] if 0 <= rank < len(same) else -1
        if y_ald >= 0 and y_ald == y_rld and page.path_distance(j, y_ald) == pd:
            result.append(Vote(y_ald, abs(ald), STRONG, j))
        elif y_rld >= 0 and page.path_distance(j, y_rld) == pd:
            result.append(Vote(y_rld, abs(ald), WEAK, j))
        elif y_ald >= 0:
            result.append(Vote(y_ald, abs(ald), LANDING, j))
    return result


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
