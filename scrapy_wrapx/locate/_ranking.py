"""Ranking one target's leaves on a page: the zone each method searches
(thesis ch. 4-6), the score each method ranks it by, and the evidence
(:class:`~.confidence.Evidence`) each ranked leaf carries to the
confidence model.

The neighbour zone (SSN) ranks the leaves the unchanged neighbourhood
votes for, the center first; path similarity (SSP) ranks every leaf of
the target's property by its path score; the hybrid (SSNP) ranks the
leaves within ``radius`` of the center by their path score weighed with
the neighbourhood's backing.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from scrapy_wrapx.locate.confidence import Evidence, shape_similarity
from scrapy_wrapx.locate.context import Eligibility
from scrapy_wrapx.locate.neighbour import (
    STRONG,
    WEAK,
    Vote,
    agreement,
    choose_center,
    votes,
)
from scrapy_wrapx.locate.paths import path_score

if TYPE_CHECKING:
    from scrapy_wrapx.locate._page import PageIndex
    from scrapy_wrapx.locate.mapping import ArrayTree
    from scrapy_wrapx.locate.reference import TargetNode

__all__ = [
    "ALTERNATIVES",
    "TIE",
    "RankedLeaf",
    "Ranking",
    "RelocationContext",
    "relocate",
]

#: Scores closer than this are ties (SSP returns ties together, thesis §5.1).
TIE = 1e-9
#: Alternatives (rank > 0) returned per target besides the answer.
ALTERNATIVES = 10
#: Decimals of the ranking score that order leaves; leaves equal to this
#: many decimals are ordered by their distance to the center.
SCORE_DECIMALS = 9
#: SSN: what being the center adds to a leaf's share of the votes, so the
#: center ranks first and the other voted leaves follow.
CENTER_BONUS = 1.0
#: SSNP: the share of its path score a leaf keeps with no backing from the
#: unchanged neighbourhood at all.
PATH_FLOOR = 0.7
#: SSNP: the share of its path score a leaf earns with full backing.
BACKING_WEIGHT = 0.3
#: Leaves after a label searched for the first eligible one.
LABEL_SKIP = 3
#: SSNP: the share of its score a leaf keeps whatever its value's shape,
#: and the share its shape similarity earns.
SHAPE_FLOOR = 0.5
SHAPE_WEIGHT = 0.5
#: A ranked leaf whose value's shape is this similar to the reference
#: value's is a look-alike of any other of its tag path.
RIVAL_SHAPE = 0.8
#: Bounds of the evidence's margin to the runner-up (or to the answer).
MARGIN_LIMIT = 1.0


@dataclass
class RelocationContext:
    """What one relocation on one page shares between its targets."""

    ref_tree: ArrayTree
    index: PageIndex
    unchanged: list[tuple[int, int]]
    #: Reference node -> variant node, for every mapped pair.
    partner: dict[int, int]
    #: Reference nodes of the unchanged pairs.
    unchanged_ref: set[int]
    #: Leaf indexes the stored selector selects (anchor leaves).
    selected: set[int]
    #: Variant leaf -> the reference leaf the mapping pairs it with, and
    #: whether firmly (:func:`~.neighbour.leaf_claims`).
    claims: dict[int, tuple[int, bool]] = field(default_factory=dict)
    #: The reference's target nodes (a list's members may claim each other).
    members: tuple[TargetNode, ...] = ()


@dataclass(frozen=True)
class Neighbourhood:
    """What the unchanged part of a page says about one target."""

    #: The votes of the unchanged pairs (Algorithm 2).
    cast: list[Vote]
    #: The center leaf (§4.3.3), None without votes.
    center: int | None
    #: Whether the target's label (the leaf before it) is unchanged.
    has_label: bool
    #: The first leaf of the target's property after its label, else -1.
    after_label: int
    #: The strongest class of votes present, -1 without votes.
    strength: int
    #: Share of the reference leaves near the target kept unchanged.
    mapped_near: float
    #: Share of all stored reference leaves kept unchanged.
    mapped: float
    #: The leaf the mapping pairs the target's own node with, else -1.
    partner_leaf: int


class ScoredLeaf(NamedTuple):
    """A leaf of the zone and what its ranking score is made of."""

    leaf: int
    #: What the leaves are ranked by (depends on the method).
    score: float
    #: Path similarity to the target.
    path: float
    #: Share of the nearby votes that point at the leaf.
    support: float
    #: 1.0 when the leaf is the one right after the target's label.
    label_hit: float
    #: Similarity of the leaf value's shape to the reference value's.
    shape: float


class RankedLeaf(NamedTuple):
    """A ranked leaf and its evidence."""

    leaf: int
    evidence: Evidence


def _flag(condition: bool) -> float:
    return 1.0 if condition else 0.0


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def relocate(
    method: str, radius: int, target: TargetNode, context: RelocationContext
) -> Ranking | None:
    """The ranked leaves for one target: the answer, then up to
    :data:`ALTERNATIVES` runners-up; None when nothing qualifies."""
    eligible = eligibility(target, context)
    hood = neighbourhood(target, context, radius, eligible)
    zone = [
        leaf for leaf in search_zone(method, radius, target, context.index, hood) if eligible(leaf)
    ]
    if not zone:
        return None
    ranking = Ranking(method, radius, target, context, hood)
    ranking.eligible = eligible
    ranking.rank(zone)
    return ranking


def eligibility(target: TargetNode, context: RelocationContext) -> Eligibility:
    """Which leaves may be ``target`` on the page (:mod:`.context`)."""
    return Eligibility(
        target,
        context.ref_tree,
        context.index,
        context.claims,
        dict(context.unchanged),
        context.members or (target,),
        context.partner,
    )


def neighbourhood(
    target: TargetNode, context: RelocationContext, radius: int, eligible: Eligibility
) -> Neighbourhood:
    """The votes for ``target``, its center, its label and how much of its
    reference neighbourhood the mapping kept. The leaf after the label is
    the first *eligible* one: a cell inserted between them is skipped."""
    ref_tree, index = context.ref_tree, context.index
    cast = votes(ref_tree, target, context.unchanged, index)
    label = _label_partner(ref_tree, target, context.unchanged, index)
    near, mapped = _mapped_shares(ref_tree, target, context.unchanged_ref, radius)
    return Neighbourhood(
        cast,
        choose_center(cast),
        label is not None,
        _leaf_after(index.leaves_of(target.prop), label, eligible),
        max((vote.strength for vote in cast), default=-1),
        near,
        mapped,
        _partner_leaf(target, context),
    )


def _leaf_after(same: list[int], label: int | None, eligible: Eligibility) -> int:
    """The first eligible leaf of the target's property among the few after
    its label: an icon or a cell inserted between them changes nothing."""
    if label is None:
        return -1
    start = bisect_right(same, label)
    return next((leaf for leaf in same[start : start + LABEL_SKIP] if eligible(leaf)), -1)


def _partner_leaf(target: TargetNode, context: RelocationContext) -> int:
    """The variant leaf the mapping pairs the target's node with, else -1."""
    partner = context.partner.get(target.node, -1)
    array = context.index.array
    if partner >= 0 and not array.children[partner]:
        return array.first_leaf[partner]
    return -1


def _mapped_shares(
    ref_tree: ArrayTree, target: TargetNode, unchanged: set[int], radius: int
) -> tuple[float, float]:
    """Shares of the reference leaves within ``radius`` leaves of the target,
    and of all stored reference leaves, that the mapping kept unchanged."""
    leaves = ref_tree.leaves
    here = ref_tree.first_leaf[target.node]
    near = leaves[max(0, here - radius) : here + radius + 1]
    return _share(near, unchanged), _share(leaves, unchanged)


def _share(leaves: list[int], unchanged: set[int]) -> float:
    return sum(1 for leaf in leaves if leaf in unchanged) / len(leaves) if leaves else 0.0


def _label_partner(
    ref_tree: ArrayTree,
    target: TargetNode,
    unchanged: list[tuple[int, int]],
    index: PageIndex,
) -> int | None:
    """The variant leaf index of the target's *label* — the leaf just before
    it on the reference page — when that leaf is unchanged, else None."""
    ordinal = ref_tree.first_leaf[target.node]
    if ordinal <= 0:
        return None
    label = ref_tree.leaves[ordinal - 1]
    for i, j in unchanged:
        if i == label:
            return index.array.first_leaf[j]
    return None


# -- zones: the leaves each method ranks --------------------------------------


def search_zone(
    method: str, radius: int, target: TargetNode, index: PageIndex, hood: Neighbourhood
) -> list[int]:
    """The leaves ``method`` ranks for ``target``; SSNP without a center
    falls back to SSP's zone."""
    if method == "ssn":
        return _voted_zone(target, index, hood)
    if method == "ssp" or hood.center is None:
        return index.leaves_of(target.prop)
    return _radius_zone(target, index, hood.center, radius)


def _voted_zone(target: TargetNode, index: PageIndex, hood: Neighbourhood) -> list[int]:
    """SSN: the center, then the other leaves the votes point at, all of
    the target's property; nothing when the center is of another one."""
    leaves = index.tree.leaves
    center = hood.center
    if center is None or leaves[center].prop != target.prop:
        return []
    others = {vote.leaf for vote in hood.cast if vote.leaf != center}
    return [leaf for leaf in [center, *sorted(others)] if leaves[leaf].prop == target.prop]


def _radius_zone(target: TargetNode, index: PageIndex, center: int, radius: int) -> list[int]:
    """SSNP: the leaves of the target's property within ``radius`` of the
    center (the neighbour zone, thesis §4.3.3)."""
    low, high = center - radius, center + radius
    return [
        leaf.leaf_index
        for leaf in index.tree.leaves[max(0, low) : high + 1]
        if leaf.prop == target.prop
    ]


# -- scores: what each method ranks by ----------------------------------------


def _ssn_score(
    leaf: int, path: float, support: float, hit: float, shape: float, hood: Neighbourhood
) -> float:
    """SSN: the center first, then the other leaves the votes point at."""
    return support + (CENTER_BONUS if leaf == hood.center else 0.0)


def _ssp_score(
    leaf: int, path: float, support: float, hit: float, shape: float, hood: Neighbourhood
) -> float:
    """SSP: path similarity alone."""
    return path


def _ssnp_score(
    leaf: int, path: float, support: float, hit: float, shape: float, hood: Neighbourhood
) -> float:
    """SSNP: path similarity weighed with how much of the unchanged
    neighbourhood points at the leaf, and with how much its value has the
    reference value's shape. SSP alone cannot tell apart sibling texts of
    one element, the neighbours can; the leaf after the target's unchanged
    label ("ISBN-13:") has as much say as the votes; a look-alike inserted
    before the target takes its position, rarely its shape."""
    backing = (support + hit) / 2 if hood.has_label else support
    return path * (PATH_FLOOR + BACKING_WEIGHT * backing) * (SHAPE_FLOOR + SHAPE_WEIGHT * shape)


def _score_rule(method: str, hood: Neighbourhood) -> partial[float]:
    if method == "ssn":
        return partial(_ssn_score, hood=hood)
    if method == "ssp" or hood.center is None:
        return partial(_ssp_score, hood=hood)
    return partial(_ssnp_score, hood=hood)


def _rank_key(middle: int, row: ScoredLeaf) -> tuple[float, int, int]:
    """Best score first; leaves of equal scores by their distance to the
    center, then in document order."""
    return (-round(row.score, SCORE_DECIMALS), abs(row.leaf - middle), row.leaf)


class Ranking:
    """One target's ranked leaves on one page, and the evidence of any leaf
    of the page against the same neighbourhood (for repeats of the answer
    outside the ranked zone)."""

    def __init__(
        self,
        method: str,
        radius: int,
        target: TargetNode,
        context: RelocationContext,
        hood: Neighbourhood,
    ) -> None:
        self.method = method
        self.radius = radius
        self.target = target
        self.context = context
        self.hood = hood
        self.rows: list[RankedLeaf] = []
        #: Which leaves may be the target at all.
        self.eligible: Eligibility | None = None
        self._rule = _score_rule(method, hood)
        self._top = 0.0
        self._second = 0.0
        self._best_path = 0.0
        self._alike: Counter[tuple[str, ...]] = Counter()

    def _score(self, leaf: int) -> ScoredLeaf:
        index = self.context.index
        path = path_score(self.target.features, index.features(leaf), index.unit_cache)
        support = agreement(self.hood.cast, leaf, self.radius)
        hit = _flag(leaf == self.hood.after_label)
        shape = shape_similarity(self.target.value, index.tree.leaves[leaf].value)
        score = self._rule(leaf, path, support, hit, shape)
        return ScoredLeaf(leaf, score, path, support, hit, shape)

    def rank(self, zone: list[int]) -> None:
        """Rank ``zone`` (not empty): every tie of the top score, then up to
        :data:`ALTERNATIVES` runners-up."""
        scored = [self._score(leaf) for leaf in zone]
        middle = self.hood.center if self.hood.center is not None else 0
        scored.sort(key=partial(_rank_key, middle))
        self._best_path = max(row.path for row in scored)
        self._top = scored[0].score
        self._second = scored[1].score if len(scored) > 1 else 0.0
        ties = sum(1 for row in scored if row.score >= self._top - TIE)
        kept = scored[: ties + ALTERNATIVES]
        self._alike = Counter(self._look(row) for row in scored if row.shape >= RIVAL_SHAPE)
        self.rows = [
            RankedLeaf(row.leaf, self._evidence(row, number == 0))
            for number, row in enumerate(kept)
        ]

    def _look(self, row: ScoredLeaf) -> tuple[str, ...]:
        return self.context.index.tree.leaves[row.leaf].tag_path_cut

    def _rival(self, row: ScoredLeaf) -> float:
        """1.0 when another ranked leaf looks like this one (:class:`Evidence`)."""
        mine = 1 if row.shape >= RIVAL_SHAPE else 0
        return _flag(self._alike.get(self._look(row), 0) - mine > 0)

    def evidence_of(self, leaf: int) -> Evidence:
        """The evidence of any leaf, ranked or not."""
        for ranked, evidence in self.rows:
            if ranked == leaf:
                return evidence
        return self._evidence(self._score(leaf), False)

    def _evidence(self, row: ScoredLeaf, first: bool) -> Evidence:
        """The answer's margin is to the runner-up, any other leaf's to the
        answer."""
        hood = self.hood
        margin = row.score - (self._second if first else self._top)
        return Evidence(
            path=row.path,
            support=row.support,
            strong=_flag(hood.strength == STRONG),
            weak=_flag(hood.strength == WEAK),
            label_hit=row.label_hit,
            label_miss=_flag(hood.has_label and not row.label_hit),
            margin=_clamp(margin, -MARGIN_LIMIT, MARGIN_LIMIT),
            center=_flag(row.leaf == hood.center),
            path_top=_flag(row.path >= self._best_path - TIE),
            mapped_near=hood.mapped_near,
            mapped=hood.mapped,
            shape=row.shape,
            selector=_flag(row.leaf in self.context.selected),
            partner=_flag(row.leaf == hood.partner_leaf),
            rival=self._rival(row),
        )
