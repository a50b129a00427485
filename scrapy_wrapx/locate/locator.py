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

How the leaves are ranked is :mod:`._ranking`; how a list target's members
and an answer's repeats are found is :mod:`._lists`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple

from scrapy_wrapx.dom import fold_whitespace
from scrapy_wrapx.locate._lists import Relocated, expand_list, repeats
from scrapy_wrapx.locate._page import page_index, to_tree
from scrapy_wrapx.locate._ranking import (
    TIE,
    RankedLeaf,
    Ranking,
    RelocationContext,
    eligibility,
    relocate,
)
from scrapy_wrapx.locate._select import Pick, evaluate, output_of
from scrapy_wrapx.locate.confidence import Evidence, probability
from scrapy_wrapx.locate.mapping import POCKET_LIMIT, ArrayTree, map_trees
from scrapy_wrapx.locate.neighbour import leaf_claims, unchanged_pairs
from scrapy_wrapx.locate.reference import TargetNode, TargetReference, build_reference

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node, PageTree

__all__ = ["Candidate", "HybridLocator", "Method", "Resolution"]

Method = Literal["ssnp", "ssn", "ssp"]
METHODS = ("ssnp", "ssn", "ssp")
Source = Literal["selector", "relocated", "refused"]

#: The neighbour zone's radius in leaves (the thesis uses 10).
RADIUS = 10
#: Leaves on each side of a target that a reference keeps.
WINDOW = 40
#: A tie or a repeat of the answer joins it only from this confidence on
#: (more likely than not the target).
JOIN_CONFIDENCE = 0.5
#: Default :meth:`HybridLocator.resolve` threshold for a relocation.
MIN_CONFIDENCE = 0.5
#: Reference trees kept mapped per locator before the cache is emptied.
TREE_CACHE_SIZE = 64
_POSITION = re.compile(r"\[\d+\]")


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


class Placed(NamedTuple):
    """A target node placed on a leaf of the page, before it becomes a
    :class:`Candidate`."""

    leaf: int
    target: TargetNode
    confidence: float
    evidence: Evidence
    rank: int


class HybridLocator:
    """Relocates targets with the neighbour zone (``"ssn"``), path
    similarity (``"ssp"``) or both (``"ssnp"``, thesis ch. 6).

    ``radius`` is the neighbour zone's radius in leaves (the thesis uses 10);
    ``window`` how many leaves on each side of a target a reference keeps.
    """

    def __init__(
        self,
        method: str = "ssnp",
        radius: int = RADIUS,
        window: int = WINDOW,
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
        found = _node_with_value(tree, wanted)
        if found is None:
            raise ValueError(f"No node of the page has the value {example!r}")
        return self.reference(tree, found.xpath, url)

    # -- relocation -----------------------------------------------------------

    def locate(
        self,
        reference: TargetReference,
        page: str | bytes | PageTree,
        url: str | None = None,
        many: bool | None = None,
    ) -> list[Candidate]:
        """Candidates for ``reference`` on ``page``, best first (a list target:
        its members in document order); empty when nothing qualifies.

        ``many`` says whether the target is a list (None: whether the
        reference holds several nodes); a list whose reference page had one
        member still relocates as a list, with every repeat of it.

        A candidate's confidence is the calibrated probability that it is
        the target (:mod:`.confidence`); the stored selector selecting it
        is part of that evidence."""
        tree = to_tree(page, url)
        return self._locate(reference, tree, _picks(tree, reference.selector), many)

    def resolve(
        self,
        reference: TargetReference,
        page: str | bytes | PageTree,
        selector: str | None = None,
        min_confidence: float = MIN_CONFIDENCE,
        url: str | None = None,
        many: bool | None = None,
    ) -> Resolution:
        """The policy a spider middleware applies: trust what the selector
        selects only when the locator agrees it is the target (a selector
        can select the wrong node of a changed page), else relocate and keep
        candidates of at least ``min_confidence``. A list (``many``, see
        :meth:`locate`) is verified by the members the locator agrees on:
        its other hits must repeat their path, so a page with fewer or more
        members than the reference page keeps the selector."""
        tree = to_tree(page, url)
        picks = _picks(tree, selector or reference.selector)
        candidates = self._locate(reference, tree, picks, many)
        answer = [candidate for candidate in candidates if candidate.rank == 0]
        listed = reference.is_list if many is None else many
        verified = _verified_selection(tree, picks, answer, listed)
        if verified is not None:
            return verified
        return _relocation(answer, min_confidence)

    # -- internals --------------------------------------------------------------

    def _locate(
        self, reference: TargetReference, tree: PageTree, picks: list[Pick], many: bool | None
    ) -> list[Candidate]:
        if not tree.leaves:
            return []
        context = self._context(reference, tree, picks)
        # A list with one member on its reference page has no list pattern:
        # its one member's repeats (an unindexed step) are the list.
        if reference.is_list and many is not False:
            return _candidates(tree, self._list_members(reference, context))
        # A target declared single takes no repeats: a look-alike inserted
        # before it (a promo heading of the title's tag) repeats its step.
        join = many is not False
        return _candidates(tree, self._single(reference.targets[0], tree, context, join))

    def _context(
        self, reference: TargetReference, tree: PageTree, picks: list[Pick]
    ) -> RelocationContext:
        """Map the reference tree to the page, once for all its targets."""
        index = page_index(tree)
        ref_tree = self._reference_tree(reference)
        pairs = map_trees(ref_tree, index.array, self.pocket_limit)
        unchanged = unchanged_pairs(ref_tree, index.array, pairs)
        partner = dict(pairs)
        return RelocationContext(
            ref_tree,
            index,
            unchanged,
            partner,
            {i for i, _ in unchanged},
            {pick.node.first_leaf for pick in picks if pick.node.first_leaf >= 0},
            leaf_claims(ref_tree, index.array, partner),
            reference.targets,
        )

    def _list_members(self, reference: TargetReference, context: RelocationContext) -> list[Placed]:
        """A list target: each member's answer votes for the list's
        container; the runners-up are no members. None when the list's
        container is mapped onto an empty node: the list is empty there."""
        if _empty_container(reference, context):
            return []
        found: dict[int, Relocated] = {}
        for target in reference.targets:
            ranking = relocate(self.method, self.radius, target, context)
            if ranking is None:
                continue
            leaf, evidence = ranking.rows[0]
            confidence = probability(self.method, evidence)
            previous = found.get(leaf)
            if previous is None or previous.confidence < confidence:
                found[leaf] = Relocated(target, confidence, evidence)
        expanded = expand_list(context.index, reference, found)
        # Members found by the list's pattern pass the same rules, but for
        # loose pairings (see Eligibility.refusal).
        eligible = eligibility(reference.targets[0], context)
        return [
            Placed(leaf, member.target, member.confidence, member.evidence, 0)
            for leaf, member in sorted(expanded.items(), key=lambda item: item[0])
            if eligible.refusal(leaf, weak_claims=leaf in found) is None
        ]

    def _single(
        self, target: TargetNode, tree: PageTree, context: RelocationContext, join: bool = True
    ) -> list[Placed]:
        """A single target: the answer with the ties or repeats that join
        it (if ``join``), in document order, then the runners-up."""
        ranking = relocate(self.method, self.radius, target, context)
        if ranking is None:
            return []
        group = self._answer(ranking, tree, join)
        chosen = {placed.leaf for placed in group}
        rest = [
            Placed(leaf, target, probability(self.method, evidence), evidence, rank)
            for rank, (leaf, evidence) in enumerate(ranking.rows, 1)
            if leaf not in chosen
        ]
        return _exclusive(group, rest) + rest

    def _answer(self, ranking: Ranking, tree: PageTree, join: bool = True) -> list[Placed]:
        """The best leaf, and the ties (SSP) or repeats (else) that are
        themselves more likely than not the target: a cell a redesign
        inserts into the target's row repeats the step too, and is no
        value."""
        target = ranking.target
        best, evidence = ranking.rows[0]
        group = [Placed(best, target, probability(self.method, evidence), evidence, 0)]
        for leaf, extra in self._companions(ranking, tree) if join else []:
            confidence = probability(self.method, extra)
            if confidence >= JOIN_CONFIDENCE:
                group.append(Placed(leaf, target, confidence, extra, 0))
        group.sort(key=lambda placed: placed.leaf)
        return group

    def _companions(self, ranking: Ranking, tree: PageTree) -> list[RankedLeaf]:
        """The leaves that may join the answer: SSP selects every tie of the
        top path score (thesis §5.1); the other methods, the repeats the
        target's XPath selects around the answer."""
        best, evidence = ranking.rows[0]
        if self.method == "ssp":
            return [row for row in ranking.rows[1:] if row.evidence.path >= evidence.path - TIE]
        eligible = ranking.eligible
        return [
            RankedLeaf(leaf, ranking.evidence_of(leaf))
            for leaf in repeats(tree, ranking.target, best)
            if leaf != best and (eligible is None or eligible(leaf))
        ]

    def _reference_tree(self, reference: TargetReference) -> ArrayTree:
        cached = self._trees.get(id(reference))
        if cached is not None and cached[0] is reference:
            return cached[1]
        tree = reference.tree()
        if len(self._trees) > TREE_CACHE_SIZE:
            self._trees.clear()
        self._trees[id(reference)] = (reference, tree)
        return tree


def _exclusive(group: list[Placed], rest: list[Placed]) -> list[Placed]:
    """The answer's confidences, knowing that a single target is one node:
    the answer and its strongest runner-up cannot both be right, so when
    their probabilities add up to more than one (a look-alike of the
    target's shape and markup inserted before it) the answer keeps its
    share of the two.

    >>> [round(p.confidence, 2) for p in _exclusive(
    ...     [Placed(1, None, 0.99, None, 0)], [Placed(2, None, 0.97, None, 1)])]  # type: ignore[arg-type]
    [0.51]
    """
    rival = max((placed.confidence for placed in rest), default=0.0)
    return [
        placed._replace(confidence=placed.confidence / (placed.confidence + rival))
        if placed.confidence + rival > 1.0
        else placed
        for placed in group
    ]


def _empty_container(reference: TargetReference, context: RelocationContext) -> bool:
    """Whether the reference's list container maps onto a page node with no
    leaf: an empty list (no reviews yet), not members to look for elsewhere."""
    target = reference.targets[0]
    if target.list_path is None:
        return False
    node = target.node
    for _ in target.list_path:
        node = context.ref_tree.parents[node]
        if node < 0:
            return False
    partner = context.partner.get(node)
    return partner is not None and context.index.tree.nodes[partner].first_leaf < 0


def _node_with_value(tree: PageTree, wanted: str) -> Node | None:
    """The first leaf whose value is ``wanted`` (whitespace folded), else
    the first element whose text is."""
    leaf = next((leaf for leaf in tree.leaves if fold_whitespace(leaf.value) == wanted), None)
    if leaf is not None:
        return leaf
    return next(
        (
            node
            for node in tree.nodes
            if not node.is_leaf and fold_whitespace(tree.text_of(node)) == wanted
        ),
        None,
    )


def _picks(tree: PageTree, selector: str) -> list[Pick]:
    """What ``selector`` selects on the page; nothing when it is invalid."""
    try:
        return evaluate(tree, selector)
    except ValueError:
        return []


def _verified_selection(
    tree: PageTree, picks: list[Pick], answer: list[Candidate], many: bool = False
) -> Resolution | None:
    """What the selector selects, when every hit is what the locator finds:
    a selector that still selects something may select the wrong thing on
    a changed page. For a list, the hits the locator finds vouch for the
    others with the same path but for positions (the members of one list).
    None when it selects nothing or something else."""
    if not picks or not answer:
        return None
    hits = [output_of(tree, pick.node, pick.attribute) for pick in picks]
    by_xpath = {candidate.xpath: candidate for candidate in answer}
    found = [xpath for xpath, _ in hits if xpath in by_xpath]
    if not _vouched(hits, found, many):
        return None
    xpaths, values = (list(column) for column in zip(*hits, strict=True))
    confidence = min(by_xpath[xpath].confidence for xpath in found)
    return Resolution(values, xpaths, confidence, "selector")


def _vouched(hits: list[tuple[str, str]], found: list[str], many: bool) -> bool:
    """Whether the found hits vouch for all: every hit is found, or, for a
    list, repeats the path (but for positions) of a found one."""
    if not found or len(found) == len(hits):
        return bool(found)
    shapes = {_POSITION.sub("", xpath) for xpath in found}
    return many and all(_POSITION.sub("", xpath) in shapes for xpath, _ in hits)


def _relocation(answer: list[Candidate], min_confidence: float) -> Resolution:
    """The answer's candidates of at least ``min_confidence``, or a refusal
    that reports the best confidence of the answer: the candidates that
    could have been kept (a runner-up is never taken, so its confidence
    says nothing about why the field stays unset)."""
    kept = [c for c in answer if c.confidence >= min_confidence]
    if not kept:
        best = max((c.confidence for c in answer), default=0.0)
        return Resolution([], [], best, "refused")
    return Resolution(
        [c.text for c in kept],
        [c.xpath for c in kept],
        min(c.confidence for c in kept),
        "relocated",
    )


def _candidates(tree: PageTree, found: list[Placed]) -> list[Candidate]:
    """The placed targets as candidates, each XPath once, in order."""
    result: list[Candidate] = []
    seen: set[str] = set()
    for leaf, target, confidence, evidence, rank in found:
        node = _output_node(tree, leaf, target)
        if node is None:
            continue
        xpath, text = output_of(tree, node, target.attribute)
        if xpath in seen:
            continue
        seen.add(xpath)
        result.append(Candidate(xpath, text, max(0.0, min(1.0, confidence)), rank, evidence))
    return result


def _output_node(tree: PageTree, leaf: int, target: TargetNode) -> Node | None:
    """The node the target selects when its anchor leaf is ``leaf``: ``up``
    levels above it, and holding the target's attribute if it has one."""
    node: Node | None = tree.leaves[leaf]
    for _ in range(target.up):
        node = node.parent if node is not None else None
    if node is None:
        return None
    if target.attribute is not None and node.element.get(target.attribute) is None:
        return None
    return node
