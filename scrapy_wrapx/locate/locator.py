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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .._text import fold_whitespace
from ._page import PageIndex, page_index, to_tree
from ._select import evaluate, output_of
from .mapping import POCKET_LIMIT, ArrayTree, map_trees
from .neighbour import agreement, choose_center, unchanged_pairs, votes
from .paths import path_score
from .reference import Target, TargetReference, build_reference

if TYPE_CHECKING:
    from ..dom import Node, PageTree

__all__ = ["Candidate", "HybridLocator", "Method", "Resolution"]

Method = Literal["ssnp", "ssn", "ssp"]
METHODS = ("ssnp", "ssn", "ssp")
Source = Literal["selector", "relocated", "refused"]

#: Scores closer than this are ties (SSP returns ties together, thesis §5.1).
_TIE = 1e-9


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
            raise ValueError(
                f"The neighbour zone radius must be positive, got {radius!r}"
            )
        if window < radius:
            raise ValueError(
                f"The reference window must cover the radius, got {window!r}"
            )
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
        return build_reference(
            page_index(tree), picks, selector, url or tree.url, self.window
        )

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
                    if not node.is_leaf
                    and fold_whitespace(tree.text_of(node)) == wanted
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
        its members in document order); empty when nothing qualifies."""
        tree = to_tree(page, url)
        if not tree.leaves:
            return []
        index = page_index(tree)
        ref_tree = self._reference_tree(reference)
        pairs = map_trees(ref_tree, index.array, self.pocket_limit)
        unchanged = unchanged_pairs(ref_tree, index.array, pairs)
        found: dict[int, tuple[Target, float]] = {}
        ranked: list[tuple[int, Target, float]] = []
        for target in reference.targets:
            for leaf, confidence in self._relocate(ref_tree, target, unchanged, index):
                ranked.append((leaf, target, confidence))
                if not reference.is_list:
                    continue
                previous = found.get(leaf)
                if previous is None or previous[1] < confidence:
                    found[leaf] = (target, confidence)
        if not reference.is_list:
            if not ranked:
                return []
            best, target, confidence = ranked[0]
            answer = [best]
            if self.method == "ssp":
                answer = [leaf for leaf, _, c in ranked if c >= confidence - _TIE]
            else:
                answer = _repeats(tree, target, best)
            group = [(leaf, target, confidence, 0) for leaf in answer]
            rest = [
                (leaf, t, c, rank)
                for rank, (leaf, t, c) in enumerate(ranked, 1)
                if leaf not in answer
            ]
            return self._candidates(tree, group + rest)
        found = _expand_list(index, reference, found)
        members = sorted((leaf, t, c, 0) for leaf, (t, c) in found.items())
        return self._candidates(tree, members)

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
        candidates = self.locate(reference, tree)
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

    def _reference_tree(self, reference: TargetReference) -> ArrayTree:
        cached = self._trees.get(id(reference))
        if cached is not None and cached[0] is reference:
            return cached[1]
        tree = reference.tree()
        if len(self._trees) > 64:
            self._trees.clear()
        self._trees[id(reference)] = (reference, tree)
        return tree

    def _relocate(
        self,
        ref_tree: ArrayTree,
        target: Target,
        unchanged: list[tuple[int, int]],
        index: PageIndex,
    ) -> list[tuple[int, float]]:
        """Leaf indexes with confidences for one target, best first."""
        cast = votes(ref_tree, target, unchanged, index)
        center = choose_center(cast)
        leaves = index.tree.leaves
        if self.method == "ssn":
            if center is None or leaves[center].prop != target.prop:
                return []
            return [(center, agreement(cast, center, self.radius))]
        if self.method == "ssp" or center is None:
            scored = self._score(target, index, index.leaves_of(target.prop))
            if not scored:
                return []
            top = scored[0][1]
            ties = [leaf for leaf, score in scored if score >= top - _TIE]
            # SSP selects all ties together (thesis §5.1); they share the doubt.
            share = top / len(ties)
            if self.method != "ssp":
                share /= 2  # no neighbour zone backs this guess
            return [(leaf, share) for leaf in sorted(ties)]
        low, high = center - self.radius, center + self.radius
        zone = [
            leaf.leaf_index
            for leaf in leaves[max(0, low) : high + 1]
            if leaf.prop == target.prop
        ]
        # Rank the zone by path similarity weighed with how much of the
        # unchanged neighbourhood points at each leaf: SSP alone cannot tell
        # apart sibling texts of one element, the neighbours can.
        label = _label_partner(ref_tree, target, unchanged, index)
        ranked = []
        for leaf, score in self._score(target, index, zone):
            support = agreement(cast, leaf, self.radius)
            if label is not None:
                # The leaf right after the target's unchanged label (the
                # "ISBN-13:" before an ISBN) has as much say as the votes.
                support = (support + (1.0 if leaf == label + 1 else 0.0)) / 2
            ranked.append((leaf, score * (0.5 + 0.5 * support)))
        ranked.sort(
            key=lambda item: (-round(item[1], 9), abs(item[0] - center), item[0])
        )
        return ranked

    def _score(
        self, target: Target, index: PageIndex, leaves: list[int]
    ) -> list[tuple[int, float]]:
        scored = [
            (leaf, path_score(target.features, index.features(leaf), index.unit_cache))
            for leaf in leaves
        ]
        scored.sort(key=lambda item: (-item[1], item[0]))
        return scored

    def _candidates(
        self, tree: PageTree, found: list[tuple[int, Target, float, int]]
    ) -> list[Candidate]:
        result: list[Candidate] = []
        seen: set[str] = set()
        for leaf, target, confidence, rank in found:
            node: Node | None = tree.leaves[leaf]
            for _ in range(target.up):
                node = node.parent if node is not None else None
            if node is None:
                continue
            if (
                target.attribute is not None
                and node.element.get(target.attribute) is None
            ):
                continue
            xpath, text = output_of(tree, node, target.attribute)
            if xpath in seen:
                continue
            seen.add(xpath)
            result.append(Candidate(xpath, text, max(0.0, min(1.0, confidence)), rank))
        return result


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
    steps = [
        node.tag if node.index in general else node.step for node in goal.path_nodes()
    ]
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
    index: PageIndex, reference: TargetReference, found: dict[int, tuple[Target, float]]
) -> dict[int, tuple[Target, float]]:
    """The members of a relocated list: the relocated members inside the
    container they vote for (weighed by confidence), plus the leaves below
    it whose path from it matches a stored member's."""
    tree = index.tree
    containers: dict[int, float] = {}
    for number, (member, confidence) in found.items():
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
    members: dict[int, tuple[Target, float]] = {}
    for leaf in tree.leaves[container.first_leaf : container.last_leaf + 1]:
        steps = []
        step_node: Node | None = leaf
        while step_node is not None and step_node is not container:
            steps.append("text()" if step_node.is_text else step_node.tag)
            step_node = step_node.parent
        steps.reverse()
        pattern = patterns.get(tuple(steps))
        if pattern is not None and leaf.prop == pattern.prop:
            members[leaf.leaf_index] = found.get(leaf.leaf_index, (pattern, -1.0))
    # Members found only by the pattern get the weakest relocated member's
    # confidence: they are as sure as the list they belong to.
    weakest = min((c for _, c in members.values() if c >= 0), default=0.0)
    return {leaf: (t, c if c >= 0 else weakest) for leaf, (t, c) in members.items()}
