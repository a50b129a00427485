"""Target references: what the hybrid locator keeps of the page where a
target was seen, as compact, versioned JSON.

A reference does not hold the page. It holds the *pruned* reference tree
around the target — every leaf within ``window`` leaves of it, as a tag
and a checksum of its value, and their ancestors as tags — plus, for every
stored node, its node-distance triple ⟨ALD, RLD, PD⟩ to the target (thesis
§4.2.2) and which leaf boundary it was measured from; and for the target
its path features (ch. 5). That is everything the neighbour-zone and
path-similarity methods read of the reference page.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy_wrapx._versioned import load_versioned
from scrapy_wrapx.locate._page import PageIndex, leaf_label, tag_path_below
from scrapy_wrapx.locate._select import output_of
from scrapy_wrapx.locate.context import marked_old, nearest_label
from scrapy_wrapx.locate.mapping import ArrayTree
from scrapy_wrapx.locate.paths import PathFeatures

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node, PageTree
    from scrapy_wrapx.locate._select import Pick

__all__ = ["FORMAT", "VERSION", "TargetNode", "TargetReference", "build_reference"]

FORMAT = "scrapy-wrapx/target-reference"
VERSION = 1


@dataclass(frozen=True)
class TargetNode:
    """One selected node of a reference, as the locator tracks it (the
    public :class:`scrapy_wrapx.Target` is what a spider declares).

    ``node`` is the position in the pruned tree of the *anchor leaf* the
    locator tracks (the node itself, or the first leaf of a selected
    element, which is ``up`` levels below it); ``triples`` holds, per
    pruned node, ``(ALD, RLD, PD, side)`` with side 0 for the leftmost and
    1 for the rightmost leaf boundary.
    """

    node: int
    prop: str | None
    value: str
    kind: str  # "text", "element" or "attribute"
    up: int
    attribute: str | None
    features: PathFeatures
    triples: tuple[tuple[int, int, int, int], ...]
    list_path: tuple[str, ...] | None
    #: The label nearest before the target (:func:`.context.nearest_label`).
    label: str | None = None
    #: Whether the target's markup marks it as an old value.
    marked: bool = False
    #: Whether ``label`` and ``marked`` were recorded (older references
    #: lack them: their context is not checked).
    recorded: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "node": self.node,
            "prop": self.prop,
            "value": self.value,
            "kind": self.kind,
            "up": self.up,
            "attribute": self.attribute,
            "features": self.features.to_json(),
            "triples": [value for triple in self.triples for value in triple],
            "list_path": list(self.list_path) if self.list_path is not None else None,
            "label": self.label,
            "marked": self.marked,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TargetNode:
        """Read :meth:`to_json`'s output back (:class:`TargetReference`
        turns any error of a malformed one into :class:`ValueError`)."""
        if not isinstance(data, dict):
            raise ValueError(f"Corrupt target in target reference: {data!r:.60}")
        if not all(_optional_str(data.get(key)) for key in ("prop", "attribute", "label")):
            raise ValueError(f"Corrupt target in target reference: {data.get('prop')!r:.60}")
        flat = [int(value) for value in data["triples"]]
        if len(flat) % 4:
            raise ValueError(f"Corrupt triples in target reference: {len(flat)!r} values")
        return cls(
            int(data["node"]),
            data["prop"],
            str(data["value"]),
            str(data["kind"]),
            int(data["up"]),
            data["attribute"],
            PathFeatures.from_json(data["features"]),
            tuple((flat[i], flat[i + 1], flat[i + 2], flat[i + 3]) for i in range(0, len(flat), 4)),
            tuple(str(step) for step in data["list_path"])
            if data["list_path"] is not None
            else None,
            data.get("label"),
            bool(data.get("marked", False)),
            "marked" in data,
        )


def _optional_str(value: Any) -> bool:
    return value is None or isinstance(value, str)


@dataclass(frozen=True)
class TargetReference:
    """A target as seen on its reference page; see the module docstring."""

    selector: str
    url: str | None
    labels: tuple[Any, ...]
    parents: tuple[int, ...]
    targets: tuple[TargetNode, ...]

    @property
    def is_list(self) -> bool:
        """True when the selector matched several nodes: relocation then
        returns all members of the list."""
        return len(self.targets) > 1

    @property
    def shape(self) -> str:
        """Equal for references taken on pages of one structure: a digest of
        the reference tree's tags without the leaves' values. Pages of one
        template differ in shape where optional parts come and go."""
        tags = [label if isinstance(label, str) else label[0] for label in self.labels]
        return format(zlib.crc32(json.dumps([tags, list(self.parents)]).encode()), "08x")

    def tree(self) -> ArrayTree:
        """The pruned reference tree, for the mapping."""
        return ArrayTree(self.labels, self.parents)

    def to_json(self) -> str:
        labels = [label if isinstance(label, str) else list(label) for label in self.labels]
        return json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                "selector": self.selector,
                "url": self.url,
                "labels": labels,
                "parents": list(self.parents),
                "targets": [target.to_json() for target in self.targets],
            },
            separators=(",", ":"),
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> TargetReference:
        """Read :meth:`to_json`'s output back; :class:`ValueError` (and
        nothing else) for any other text."""
        data = load_versioned(text, FORMAT, VERSION, "target reference")
        if not _optional_str(data.get("url")) or not isinstance(data.get("selector"), str):
            raise ValueError(f"Corrupt target reference: selector {data.get('selector')!r:.60}")
        try:
            labels = tuple(
                label if isinstance(label, str) else (str(label[0]), int(label[1]))
                for label in data["labels"]
            )
            parents = tuple(int(parent) for parent in data["parents"])
            targets = tuple(TargetNode.from_json(target) for target in data["targets"])
            reference = cls(str(data["selector"]), data["url"], labels, parents, targets)
            tree = reference.tree()
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise ValueError(f"Corrupt target reference: {exc!r:.80}") from exc
        if not targets or not all(_fits(target, len(labels)) for target in targets):
            raise ValueError(f"Corrupt target reference: {len(targets)!r} targets do not fit")
        del tree
        return reference


def _fits(target: TargetNode, size: int) -> bool:
    """Whether a target node lies in a pruned tree of ``size`` nodes and
    holds one triple per node of it."""
    return 0 <= target.node < size and len(target.triples) == size


def _anchor(tree: PageTree, node: Node) -> tuple[Node, int]:
    """The leaf a selected node is tracked by and how far below it is."""
    if node.is_leaf:
        return node, 0
    leaf = tree.leaves[node.first_leaf]
    return leaf, leaf.depth - node.depth


def build_reference(
    page: PageIndex, picks: list[Pick], selector: str, url: str | None, window: int
) -> TargetReference:
    """The reference of ``picks`` (non-empty) on ``page``."""
    tree = page.tree
    anchors = [_anchor(tree, pick.node) for pick in picks]
    kept = _pruned_nodes(tree, [leaf for leaf, _ in anchors], window)
    position = {node.index: number for number, node in enumerate(kept)}
    labels, parents = _labels_and_parents(kept, position)
    list_paths = _list_paths([leaf for leaf, _ in anchors])
    targets = tuple(
        _target_node(page, pick, anchor, kept, position, list_paths[number] if list_paths else None)
        for number, (pick, anchor) in enumerate(zip(picks, anchors, strict=True))
    )
    return TargetReference(selector, url, labels, parents, targets)


def _labels_and_parents(
    kept: list[Node], position: dict[int, int]
) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """The pruned tree's labels (a leaf's value checksummed) and parents."""
    labels = tuple(leaf_label(node.tag, node.value) if node.is_leaf else node.tag for node in kept)
    parents = tuple(position[node.parent.index] if node.parent else -1 for node in kept)
    return labels, parents


def _target_node(
    page: PageIndex,
    pick: Pick,
    anchor: tuple[Node, int],
    kept: list[Node],
    position: dict[int, int],
    list_path: tuple[str, ...] | None,
) -> TargetNode:
    """The target node of one pick, tracked by its anchor leaf."""
    leaf, up = anchor
    return TargetNode(
        position[leaf.index],
        leaf.prop,
        output_of(page.tree, pick.node, pick.attribute)[1],
        _kind(pick),
        up,
        pick.attribute,
        PathFeatures.of(leaf),
        tuple(_triple(page, leaf, node) for node in kept),
        list_path,
        nearest_label(page.tree, leaf.leaf_index),
        marked_old(page.tree, leaf.leaf_index),
        True,
    )


def _pruned_nodes(tree: PageTree, anchors: list[Node], window: int) -> list[Node]:
    """The nodes of the pruned reference tree, in document order: those
    with a leaf within ``window`` leaves of an anchor leaf."""
    low = max(0, min(leaf.leaf_index for leaf in anchors) - window)
    high = min(len(tree.leaves) - 1, max(leaf.leaf_index for leaf in anchors) + window)
    return [node for node in tree.nodes if node.first_leaf <= high and node.last_leaf >= low]


def _kind(pick: Pick) -> str:
    """What a selector selected: an ``"attribute"``, a ``"text"`` node or
    an ``"element"``."""
    if pick.attribute is not None:
        return "attribute"
    if pick.node.is_text:
        return "text"
    return "element"


def _list_paths(leaves: list[Node]) -> list[tuple[str, ...]] | None:
    """For a list target, each member's tag path (no sibling indexes) below
    the members' deepest common ancestor — the *list pattern*."""
    if len(leaves) < 2:
        return None
    common = set(leaves[0].ancestors())
    for leaf in leaves[1:]:
        common &= set(leaf.ancestors())
    container = max(common, key=lambda node: node.depth)
    return [tag_path_below(leaf, container) for leaf in leaves]


def _triple(page: PageIndex, target: Node, node: Node) -> tuple[int, int, int, int]:
    """⟨ALD, RLD, PD⟩ from ``target`` to ``node`` and the boundary used."""
    here = target.leaf_index
    left, right = node.first_leaf, node.last_leaf
    side = 0 if abs(left - here) <= abs(right - here) else 1
    boundary = left if side == 0 else right
    ald = boundary - here
    rank_target = page.relative_rank(target.prop, here, True)
    rank_boundary = page.relative_rank(target.prop, boundary, ald < 0 or ald == 0)
    rld = rank_boundary - rank_target
    pd = page.path_distance(node.index, here)
    return (ald, rld, pd, side)
