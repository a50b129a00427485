"""Repeated structures around a relocated answer: the members of a list
target, and the repeats an unindexed XPath step selects."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from scrapy_wrapx.locate._page import tag_path_below

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node, PageTree
    from scrapy_wrapx.locate._page import PageIndex
    from scrapy_wrapx.locate.confidence import Evidence
    from scrapy_wrapx.locate.reference import TargetNode, TargetReference

__all__ = ["Relocated", "expand_list", "repeats"]


class Relocated(NamedTuple):
    """A member of a list target relocated to a leaf."""

    target: TargetNode
    confidence: float
    evidence: Evidence


# -- repeats of an answer ------------------------------------------------------


def repeats(tree: PageTree, target: TargetNode, leaf: int) -> list[int]:
    """The leaves the target's XPath would select around ``leaf``: where the
    reference's step had no index (its tag was unique among its siblings)
    and the variant repeats that tag, an XPath step selects every repeat —
    all authors where the reference page had one."""
    goal = tree.leaves[leaf]
    opened = _opened_steps(goal, target.features.tag_path)
    if not opened:
        return [leaf]
    steps = [node.tag if node.index in opened else node.step for node in goal.path_nodes()]
    found = {leaf}
    results = tree.document.xpath(tree.root.xpath + "/" + "/".join(steps))
    for result in results if isinstance(results, list) else []:
        node = tree.node_for(result)
        if node is not None and node.is_leaf and node.prop == goal.prop:
            found.add(node.leaf_index)
    return sorted(found)


def _opened_steps(goal: Node, reference_steps: tuple[str, ...]) -> set[int]:
    """The elements right above ``goal`` whose reference step had no index
    where the variant's has one: only the levels right above the leaf, up
    to the first step that differs, open up."""
    opened: set[int] = set()
    node: Node | None = goal
    position = len(reference_steps) - 1
    while node is not None and node.parent is not None and position >= 0:
        step = reference_steps[position]
        if not _same_tag(step, node):
            break
        if not node.is_text:
            if not _opens(step, node):
                break
            opened.add(node.index)
        node = node.parent
        position -= 1
    return opened


def _same_tag(step: str, node: Node) -> bool:
    """Whether a reference step names the node's tag (or text())."""
    return step.split("[", 1)[0] == ("text()" if node.is_text else node.tag)


def _opens(step: str, node: Node) -> bool:
    """An element's step opens up when the reference step had no index
    and the variant's has one (its tag now repeats among its siblings)."""
    return "[" not in step and "[" in node.step


# -- members of a list target -----------------------------------------------


def expand_list(
    index: PageIndex,
    reference: TargetReference,
    found: dict[int, Relocated],
) -> dict[int, Relocated]:
    """The members of a relocated list: the relocated members inside the
    container they vote for (weighed by confidence), plus the leaves below
    it whose path from it matches a stored member's."""
    tree = index.tree
    container = _container(tree, found)
    if container is None:
        return found
    members = _list_members(tree, container, reference, found)
    relocated = [member for member in members.values() if isinstance(member, Relocated)]
    if not relocated:
        return {}
    # Members found only by the pattern take the weakest relocated member's
    # confidence and evidence: they are as sure as the list they belong to.
    weakest = min(relocated, key=lambda member: member.confidence)
    return {
        leaf: member
        if isinstance(member, Relocated)
        else Relocated(member, weakest.confidence, weakest.evidence)
        for leaf, member in members.items()
    }


def _container(tree: PageTree, found: dict[int, Relocated]) -> Node | None:
    """The list's container: the node the relocated members' list paths
    lead up to, chosen by their summed confidence (then document order)."""
    containers: dict[int, float] = {}
    for number, (member, confidence, _) in found.items():
        if member.list_path is None:
            continue
        above = _ancestor(tree.leaves[number], len(member.list_path))
        if above is not None:
            containers[above.index] = containers.get(above.index, 0.0) + confidence
    if not containers:
        return None
    return tree.nodes[min(containers, key=lambda key: (-containers[key], key))]


def _ancestor(node: Node, levels: int) -> Node | None:
    above: Node | None = node
    for _ in range(levels):
        above = above.parent if above is not None else None
    return above


def _list_members(
    tree: PageTree, container: Node, reference: TargetReference, found: dict[int, Relocated]
) -> dict[int, Relocated | TargetNode]:
    """The members below ``container`` by the stored list pattern, else (a
    redesign changed the members' markup: rows became divs) by the pattern
    the relocated members inside it show."""
    leaves = tree.leaves[container.first_leaf : container.last_leaf + 1]
    patterns: dict[tuple[str, ...] | None, TargetNode] = {
        t.list_path: t for t in reference.targets if t.list_path is not None
    }
    members = _members(leaves, container, patterns, found)
    if any(isinstance(member, Relocated) for member in members.values()):
        return members
    return _members(leaves, container, _new_patterns(tree, container, found), found)


def _new_patterns(
    tree: PageTree, container: Node, found: dict[int, Relocated]
) -> dict[tuple[str, ...] | None, TargetNode]:
    """The paths below ``container`` of the relocated members inside it."""
    return {
        tag_path_below(tree.leaves[leaf], container): member.target
        for leaf, member in found.items()
        if container.first_leaf <= leaf <= container.last_leaf
    }


def _members(
    leaves: list[Node],
    container: Node,
    patterns: dict[tuple[str, ...] | None, TargetNode],
    found: dict[int, Relocated],
) -> dict[int, Relocated | TargetNode]:
    """The leaves below ``container`` that match a member's list pattern:
    relocated, or the pattern's target node."""
    members: dict[int, Relocated | TargetNode] = {}
    for leaf in leaves:
        pattern = patterns.get(tag_path_below(leaf, container))
        if pattern is not None and leaf.prop == pattern.prop:
            members[leaf.leaf_index] = found.get(leaf.leaf_index, pattern)
    return members
