"""The hybrid locator: relocate a target on a page where its selector broke.

>>> page = ('<body><div id="info"><b>ISBN:</b> 111<br><b>Pages:</b> 96</div>'
...         '<p>Availability: In Stock</p></body>')
>>> locator = HybridLocator()
>>> reference = locator.reference(page, '//div[@id="info"]/text()[1]')
>>> variant = ('<body><div class="new"><div id="info"><b>ISBN:</b> 222<br>'
...            '<b>Pages:</b> 120</div></div><p>Availability: In Stock</p></body>')
>>> best = locator.locate(reference, variant)[0]
>>> best.text, best.xpath
('222', '/html/body/div/div/text()[1]')
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from scrapy_wrapx.dom import fold_whitespace
from scrapy_wrapx.locate._page import PageIndex, page_index, tag_path_below, to_tree
from scrapy_wrapx.locate._select import Pick, evaluate, output_of
from scrapy_wrapx.locate.confidence import Evidence, probability, shape_similarity
from scrapy_wrapx.locate.mapping import POCKET_LIMIT, ArrayTree, map_trees
from scrapy_wrapx.locate.neighbour import (
    STRONG,
    WEAK,
    Vote,
    agreement,
    choose_center,
    unchanged_pairs,
    votes,
)
from scrapy_wrapx.locate.paths import path_score
from scrapy_wrapx.locate.reference import Target, TargetReference, build_reference

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node, PageTree

__all__ = ["Candidate", "HybridLocator", "Method", "Resolution"]

Method = Literal["ssnp", "ssn", "ssp"]
METHODS = ("ssnp", "ssn", "ssp")
Source = Literal["selector", "relocated", "refused"]

#: Scores closer than this are ties (SSP returns ties together, thesis §5.1).
_TIE = 1e-9
#: Alternatives (rank > 0) returned per target besides the answer.
_ALTERNATIVES = 10


@dataclass(frozen=True)
class Candidate:
    """A relocated node: its absolute XPath in the page's original HTML
    (``.../@src`` for an attribute target), the value a user would extract
    and a confidence in [0, 1]."""

    xpath: str
    text: str
    confidence: float
    #: 0 for the answer (one node, or several: a list target's members, ties
    #: of SSP, or the repeats an unindexed XPath step selects), then 1, 2...
    rank: int = 0
    #: What the confidence was computed from (:class:`~.confidence.Evidence`).
    evidence: Evidence | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Resolution:
    """What :meth:`HybridLocator.resolve` decided for a target on a page."""

    values: list[str]
    xpaths: list[str]
    confidence: float
    source: Source


class HybridLocator:
    """Relocates targets with the neighbour zone (``"ssn"``), path
    similarity (``"ssp"``) or both (``"ssnp"``, thesis ch. 6).

    ``radius`` is the neighbour zone's radius in leaves (the thesis uses 10);
    ``window`` how many leaves on each side of a target a reference keeps.
    """

    def __init__(
        self,
        method: str = "ssnp",
        radius: int = 10,
        window: int = 40,
        pocket_limit: int = POCKET_LIMIT,
    ) -> None:
        if method not in METHODS:
            raise ValueError(f"Unknown locator method: {method!r}")
        if radius < 1:
            raise ValueError(f"The neighbour zone radius must be positive, got {radius!r}")
        if window < radius:
            raise ValueError(f"The reference window must cover the radius, got {window!r}")
        self.method: Method = method  # type: ignore[assignment]
        self.radius = radius
        self.window = window
        self.pocket_limit = pocket_limit
        self._trees: dict[int, tuple[TargetReference, ArrayTree]] = {}

    # -- references ---------------------------------------------------------

    def reference(
        self, page: str | bytes | PageTree, selector: str, url: str | None = None
    ) -> TargetReference:
        """The reference of what ``selector`` (XPath, or ``css:...``) selects
        on ``page``. Raises :class:`ValueError` when it is invalid or
        selects nothing."""
        tree = to_tree(page, url)
        picks = evaluate(tree, selector)
        if not picks:
            raise ValueError(f"Selector {selector!r} selects nothing on the page")
        return build_reference(page_index(tree), picks, selector, url or tree.url, self.window)

    def reference_by_example(
        self, page: str | bytes | PageTree, example: str, url: str | None = None
    ) -> TargetReference:
        """The reference of the first node whose value equals ``example``
        (whitespace folded): a leaf, else an element whose text equals it."""
        tree = to_tree(page, url)
        wanted = fold_whitespace(example)
        if not wanted:
            raise ValueError(f"Empty example value: {example!r}")
        found: Node | None = next(
            (leaf for leaf in tree.leaves if fold_whitespace(leaf.value) == wanted),
            None,
        )
        if found is None:
            found = next(
                (
                    node
                    for node in tree.nodes
                    if not node.is_leaf and fold_whitespace(tree.text_of(node)) == wanted
                ),
                None,
            )
        if found is None:
            raise ValueError(f"No node of the page has the value {example!r}")
        return self.reference(tree, found.xpath, url)

    # -- relocation -----------------------------------------------------------

    def locate(
        self,
        reference: TargetReference,
        page: str | bytes | PageTree,
        url: str | None = None,
    ) -> list[Candidate]:
        """Candidates for ``reference`` on ``page``, best first (a list target:
        its members in document order); empty when nothing qualifies.

        A candidate's confidence is the calibrated probability that it is
        the target (:mod:`.confidence`); the stored selector selecting it
        is part of that evidence."""
        tree = to_tree(page, url)
        try:
            picks = evaluate(tree, reference.selector)
        except ValueError:
            picks = []
        return self._locate(reference, tree, picks)

    def resolve(
        self,
        reference: TargetReference,
        page: str | bytes | PageTree,
        selector: str | None = None,
        min_confidence: float = 0.5,
        url: str | None = None,
    ) -> Resolution:
        """The policy a spider middleware applies: trust what the selector
        selects only when the locator agrees it is the target (a selector
        can select the wrong node of a changed page), else relocate and keep
        candidates of at least ``min_confidence``."""
        tree = to_tree(page, url)
        try:
            picks = evaluate(tree, selector or reference.selector)
        except ValueError:
            picks = []
        candidates = self._locate(reference, tree, picks)
        answer = [candidate for candidate in candidates if candidate.rank == 0]
        if picks and answer:
            hits = [output_of(tree, pick.node, pick.attribute) for pick in picks]
            by_xpath = {candidate.xpath: candidate for candidate in answer}
            # Every hit must be what the locator finds: a selector that still
            # selects something may select the wrong thing on a changed page.
            if all(xpath in by_xpath for xpath, _ in hits):
                confidence = min(by_xpath[xpath].confidence for xpath, _ in hits)
                return Resolution(
                    [value for _, value in hits],
                    [xpath for xpath, _ in hits],
                    confidence,
                    "selector",
                )
        kept = [c for c in answer if c.confidence >= min_confidence]
        if not kept:
            best = max((c.confidence for c in candidates), default=0.0)
            return Resolution([], [], best, "refused")
        return Resolution(
            [c.text for c in kept],
            [c.xpath for c in kept],
            min(c.confidence for c in kept),
            "relocated",
        )

    # -- internals --------------------------------------------------------------

    def _locate(
        self, reference: TargetReference, tree: PageTree, picks: list[Pick]
    ) -> list[Candidate]:
        if not tree.leaves:
            return []
        index = page_index(tree)
        ref_tree = self._reference_tree(reference)
        pairs = map_trees(ref_tree, index.array, self.pocket_limit)
        unchanged = unchanged_pairs(ref_tree, index.array, pairs)
        context = _Context(
            ref_tree,
            index,
            unchanged,
            dict(pairs),
            {i for i, _ in unchanged},
            {pick.node.first_leaf for pick in picks if pick.node.first_leaf >= 0},
        )
        if reference.is_list:
            # Each member's answer votes for the list's container; the
            # runners-up are no members.
            found: dict[int, tuple[Target, float, Evidence]] = {}
            for target in reference.targets:
                ranking = self._relocate(target, context)
                if ranking is None:
                    continue
                leaf, evidence = ranking.rows[0]
                confidence = probability(self.method, evidence)
                previous = found.get(leaf)
                if previous is None or previous[1] < confidence:
                    found[leaf] = (target, confidence, evidence)
            expanded = _expand_list(index, reference, found)
            members = sorted((leaf, t, c, e, 0) for leaf, (t, c, e) in expanded.items())
            return self._candidates(tree, members)
        target = reference.targets[0]
        ranking = self._relocate(target, context)
        if ranking is None:
            return []
        best, evidence = ranking.rows[0]
        group = [(best, target, probability(self.method, evidence), evidence, 0)]
        if self.method == "ssp":
            # SSP selects every tie of the top path score (thesis §5.1).
            extra = [(leaf, e) for leaf, e in ranking.rows[1:] if e.path >= evidence.path - _TIE]
        else:
            extra = [
                (leaf, ranking.evidence_of(leaf))
                for leaf in _repeats(tree, target, best)
                if leaf != best
            ]
        for leaf, extra_evidence in extra:
            # A repeat (or a tie) joins the answer only when it is itself
            # more likely than not the target: a cell a redesign inserts
            # into the target's row repeats the step too, and is no value.
            confidence = probability(self.method, extra_evidence)
            if confidence >= 0.5:
                group.append((leaf, target, confidence, extra_evidence, 0))
        group.sort(key=lambda item: item[0])
        chosen = {item[0] for item in group}
        rest = [
            (leaf, target, probability(self.method, e), e, rank)
            for rank, (leaf, e) in enumerate(ranking.rows, 1)
            if leaf not in chosen
        ]
        return self._candidates(tree, group + rest)

    def _reference_tree(self, reference: TargetReference) -> ArrayTree:
        cached = self._trees.get(id(reference))
        if cached is not None and cached[0] is reference:
            return cached[1]
        tree = reference.tree()
        if len(self._trees) > 64:
            self._trees.clear()
        self._trees[id(reference)] = (reference, tree)
        return tree

    def _relocate(self, target: Target, context: _Context) -> _Ranking | None:
        """The ranked leaves for one target: the answer, then up to
        ``_ALTERNATIVES`` runners-up; None when nothing qualifies."""
        ref_tree, index = context.ref_tree, context.index
        cast = votes(ref_tree, target, context.unchanged, index)
        center = choose_center(cast)
        leaves = index.tree.leaves
        same = index.leaves_of(target.prop)
        label = _label_partner(ref_tree, target, context.unchanged, index)
        after_label = -1
        if label is not None:
            # The first leaf of the target's property after its label: an
            # icon or an empty cell inserted between them changes nothing.
            position = bisect_right(same, label)
            after_label = same[position] if position < len(same) else -1
        if self.method == "ssn":
            if center is None or leaves[center].prop != target.prop:
                return None
            others = {vote.leaf for vote in cast if vote.leaf != center}
            zone = [center, *sorted(others)]
            zone = [leaf for leaf in zone if leaves[leaf].prop == target.prop]
        elif self.method == "ssp" or center is None:
            zone = same
        else:
            low, high = center - self.radius, center + self.radius
            zone = [
                leaf.leaf_index
                for leaf in leaves[max(0, low) : high + 1]
                if leaf.prop == target.prop
            ]
        if not zone:
            return None
        near, mapped = _mapped_shares(ref_tree, target, context.unchanged_ref, self.radius)
        partner = context.partner.get(target.node, -1)
        partner_leaf = -1
        if partner >= 0 and not index.array.children[partner]:
            partner_leaf = index.array.first_leaf[partner]
        ranking = _Ranking(
            self.method,
            self.radius,
            target,
            context,
            cast,
            center,
            label is not None,
            after_label,
            max((vote.strength for vote in cast), default=-1),
            near,
            mapped,
            partner_leaf,
        )
        ranking.rank(zone)
        return ranking

    def _candidates(
        self,
        tree: PageTree,
        found: list[tuple[int, Target, float, Evidence, int]],
    ) -> list[Candidate]:
        result: list[Candidate] = []
        seen: set[str] = set()
        for leaf, target, confidence, evidence, rank in found:
            node: Node | None = tree.leaves[leaf]
            for _ in range(target.up):
                node = node.parent if node is not None else None
            if node is None:
                continue
            if target.attribute is not None and node.element.get(target.attribute) is None:
                continue
            xpath, text = output_of(tree, node, target.attribute)
            if xpath in seen:
                continue
            seen.add(xpath)
            result.append(Candidate(xpath, text, max(0.0, min(1.0, confidence)), rank, evidence))
        return result


@dataclass
class _Context:
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


class _Ranking:
    """One target's ranked leaves on one page, and the evidence of any leaf
    of the page against the same neighbourhood (for repeats of the answer
    outside the ranked zone)."""

    def __init__(
        self,
        method: str,
        radius: int,
        target: Target,
        context: _Context,
        cast: list[Vote],
        center: int | None,
        has_label: bool,
        after_label: int,
        strength: int,
        near: float,
        mapped: float,
        partner_leaf: int,
    ) -> None:
        self.method = method
        self.radius = radius
        self.target = target
        self.context = context
        self.cast = cast
        self.center = center
        self.has_label = has_label
        self.after_label = after_label
        self.strength = strength
        self.near = near
        self.mapped = mapped
        self.partner_leaf = partner_leaf
        self.rows: list[tuple[int, Evidence]] = []
        self._top = 0.0
        self._second = 0.0
        self._best_path = 0.0

    def _score(self, leaf: int) -> tuple[float, float, float, float]:
        """(ranking score, path score, vote support, label hit) of a leaf."""
        index = self.context.index
        path = path_score(self.target.features, index.features(leaf), index.unit_cache)
        support = agreement(self.cast, leaf, self.radius)
        hit = 1.0 if leaf == self.after_label else 0.0
        if self.method == "ssn":
            # The center first, then the other leaves the votes point at.
            score = support + (1.0 if leaf == self.center else 0.0)
        elif self.method == "ssp" or self.center is None:
            score = path
        else:
            # Path similarity weighed with how much of the unchanged
            # neighbourhood points at the leaf: SSP alone cannot tell apart
            # sibling texts of one element, the neighbours can; the leaf
            # after the target's unchanged label ("ISBN-13:") has as much
            # say as the votes.
            backing = (support + hit) / 2 if self.has_label else support
            score = path * (0.5 + 0.5 * backing)
        return score, path, support, hit

    def rank(self, zone: list[int]) -> None:
        scored = [(leaf, *self._score(leaf)) for leaf in zone]
        middle = self.center if self.center is not None else 0
        scored.sort(key=lambda row: (-round(row[1], 9), abs(row[0] - middle), row[0]))
        self._best_path = max(row[2] for row in scored)
        self._top = scored[0][1]
        self._second = scored[1][1] if len(scored) > 1 else 0.0
        top = scored[0][1]
        ties = sum(1 for row in scored if row[1] >= top - _TIE)
        kept = scored[: ties + _ALTERNATIVES]
        self.rows = [
            (leaf, self._evidence(leaf, score, path, support, hit, number == 0))
            for number, (leaf, score, path, support, hit) in enumerate(kept)
        ]

    def evidence_of(self, leaf: int) -> Evidence:
        """The evidence of any leaf, ranked or not."""
        for ranked, evidence in self.rows:
            if ranked == leaf:
                return evidence
        return self._evidence(leaf, *self._score(leaf), False)

    def _evidence(
        self,
        leaf: int,
        score: float,
        path: float,
        support: float,
        hit: float,
        first: bool,
    ) -> Evidence:
        margin = score - self._second if first else score - self._top
        return Evidence(
            path=path,
            support=support,
            strong=1.0 if self.strength == STRONG else 0.0,
            weak=1.0 if self.strength == WEAK else 0.0,
            label_hit=hit,
            label_miss=1.0 if self.has_label and not hit else 0.0,
            margin=max(-1.0, min(1.0, margin)),
            center=1.0 if leaf == self.center else 0.0,
            path_top=1.0 if path >= self._best_path - _TIE else 0.0,
            mapped_near=self.near,
            mapped=self.mapped,
            shape=shape_similarity(self.target.value, self.context.index.tree.leaves[leaf].value),
            selector=1.0 if leaf in self.context.selected else 0.0,
            partner=1.0 if leaf == self.partner_leaf else 0.0,
        )


def _mapped_shares(
    ref_tree: ArrayTree, target: Target, unchanged: set[int], radius: int
) -> tuple[float, float]:
    """Shares of the reference leaves within ``radius`` leaves of the target,
    and of all stored reference leaves, that the mapping kept unchanged."""
    leaves = ref_tree.leaves
    here = ref_tree.first_leaf[target.node]
    near = leaves[max(0, here - radius) : here + radius + 1]
    near_share = sum(1 for leaf in near if leaf in unchanged) / len(near) if near else 0.0
    share = sum(1 for leaf in leaves if leaf in unchanged) / len(leaves) if leaves else 0.0
    return near_share, share


def _repeats(tree: PageTree, target: Target, leaf: int) -> list[int]:
    """The leaves the target's XPath would select around ``leaf``: where the
    reference's step had no index (its tag was unique among its siblings)
    and the variant repeats that tag, an XPath step selects every repeat —
    all authors where the reference page had one."""
    reference_steps = target.features.tag_path
    goal = tree.leaves[leaf]
    general: set[int] = set()
    node: Node | None = goal
    position = len(reference_steps) - 1
    while node is not None and node.parent is not None and position >= 0:
        step = reference_steps[position]
        if step.split("[", 1)[0] != ("text()" if node.is_text else node.tag):
            break
        if not node.is_text:
            if "[" in step or "[" not in node.step:
                break  # only the levels right above the leaf open up
            general.add(node.index)
        node = node.parent
        position -= 1
    if not general:
        return [leaf]
    steps = [node.tag if node.index in general else node.step for node in goal.path_nodes()]
    xpath = tree.root.xpath + "/" + "/".join(steps)
    found = {leaf}
    results = tree.document.xpath(xpath)
    for result in results if isinstance(results, list) else []:
        node = tree.node_for(result)
        if node is not None and node.is_leaf and node.prop == goal.prop:
            found.add(node.leaf_index)
    return sorted(found)


def _label_partner(
    ref_tree: ArrayTree,
    target: Target,
    unchanged: list[tuple[int, int]],
    index: PageIndex,
) -> int | None:
    """The variant leaf index of the target's *label* — the leaf just before
    it on the reference page — when that leaf is unchanged, else None."""
    leaves = ref_tree.leaves
    ordinal = ref_tree.first_leaf[target.node]
    if ordinal <= 0:
        return None
    label = leaves[ordinal - 1]
    for i, j in unchanged:
        if i == label:
            return index.array.first_leaf[j]
    return None


def _expand_list(
    index: PageIndex,
    reference: TargetReference,
    found: dict[int, tuple[Target, float, Evidence]],
) -> dict[int, tuple[Target, float, Evidence]]:
    """The members of a relocated list: the relocated members inside the
    container they vote for (weighed by confidence), plus the leaves below
    it whose path from it matches a stored member's."""
    tree = index.tree
    containers: dict[int, float] = {}
    for number, (member, confidence, _) in found.items():
        if member.list_path is None:
            continue
        above: Node | None = tree.leaves[number]
        for _ in range(len(member.list_path)):
            above = above.parent if above is not None else None
        if above is not None:
            containers[above.index] = containers.get(above.index, 0.0) + confidence
    if not containers:
        return found
    container = tree.nodes[min(containers, key=lambda key: (-containers[key], key))]
    patterns = {t.list_path: t for t in reference.targets if t.list_path is not None}
    members: dict[int, tuple[Target, float, Evidence] | Target] = {}
    for leaf in tree.leaves[container.first_leaf : container.last_leaf + 1]:
        pattern = patterns.get(tag_path_below(leaf, container))
        if pattern is not None and leaf.prop == pattern.prop:
            members[leaf.leaf_index] = found.get(leaf.leaf_index, pattern)
    relocated = [member for member in members.values() if isinstance(member, tuple)]
    if not relocated:
        return {}
    # Members found only by the pattern take the weakest relocated member's
    # confidence and evidence: they are as sure as the list they belong to.
    weakest = min(relocated, key=lambda member: member[1])
    return {
        leaf: member if isinstance(member, tuple) else (member, weakest[1], weakest[2])
        for leaf, member in members.items()
    }
