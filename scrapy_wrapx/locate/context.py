"""A candidate's own context, and when it contradicts the reference's.

Ranking answers "which leaf is most like the target"; on a page where the
target is absent (no sale badge, no reviews) or where a look-alike was
inserted (a promo heading before the title, a new row above the ISBN row)
the most alike leaf is still the wrong one, often with a high score. So a
leaf is *eligible* only when nothing about it contradicts the reference:

* **claimed**: the tree mapping pairs it with another reference leaf that
  is not the target: it is that leaf's counterpart (the product name on a
  page without the sale badge next to it); for a list, any pairing with a
  reference leaf outside the list's container counts;
* **outside**: it lies outside a single target's unchanged neighbours
  (the nearest unchanged reference leaves before and after the target,
  where the mapping put them);
* **label**: the leaf right before it is a label (``"Country:"``) and the
  target's label is not among the few leaves before it;
* **marked**: its markup says it is an old value (``<del>``, ``<s>``,
  ``<strike>``, a *was*/*old*/*strike*/*before* class or label) and the
  target's did not;
* **kind**: its value is of another kind (a number, a price, a text) than
  the target's, or it is a label or a heading's caption where the
  target's was none.

>>> value_kind("9781602600157"), value_kind("$7.99"), value_kind("In Stock")
('number', 'price', 'text')
>>> marked_words("old-price strikethrough"), marked_words("price-now")
(True, False)
>>> label_text("ISBN-13:"), label_text("Harry Potter")
('isbn-13', None)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from scrapy_wrapx.dom import HEADINGS, fold_whitespace

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node, PageTree
    from scrapy_wrapx.locate._page import PageIndex
    from scrapy_wrapx.locate.mapping import ArrayTree
    from scrapy_wrapx.locate.reference import TargetNode

__all__ = [
    "Eligibility",
    "label_text",
    "labels_before",
    "marked_old",
    "marked_words",
    "nearest_label",
    "value_kind",
]

#: A label is a short text ending with a colon, or a table/definition header.
LABEL_LENGTH = 40
_LABEL_TAGS = frozenset({"th", "dt", "label"})
#: How many leaves before a candidate its label may stand (an icon or an
#: inserted cell may come between).
LABEL_REACH = 3
#: Elements above a leaf whose markup can mark it as an old value.
MARK_LEVELS = 3
_MARK_TAGS = frozenset({"del", "s", "strike"})
_MARK_PREFIXES = ("old", "strike", "before")
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+")
_CURRENCY = frozenset("$€£¥₹")


def value_kind(value: str) -> str:
    """The coarse kind of a value: ``price`` (a currency sign and a digit),
    ``number`` (digits, no letters), ``text`` (letters) or ``other``."""
    has_digit = any(char.isdigit() for char in value)
    if has_digit and any(char in _CURRENCY for char in value):
        return "price"
    if any(char.isalpha() for char in value):
        return "text"
    return "number" if has_digit else "other"


def label_text(value: str, tag: str = "") -> str | None:
    """The label a text is (folded, lower case, without its colon), or
    None when it is no label."""
    text = fold_whitespace(value)
    if not text or len(text) > LABEL_LENGTH:
        return None
    if text.endswith(":") or tag in _LABEL_TAGS:
        return text.rstrip(": ").lower()
    return None


def _heading_text(leaf: Node) -> bool:
    """Whether ``leaf`` is the whole text of a heading: a section's
    caption ("Options", "Customer reviews"), which names what follows."""
    owner = leaf.parent if leaf.is_text else None
    return owner is not None and owner.tag in HEADINGS and len(owner.children) == 1


def _owner_tag(target: TargetNode) -> str:
    """The tag of the element holding a text target."""
    steps = target.features.tag_path
    return steps[-2].split("[", 1)[0] if len(steps) > 1 else ""


def _leaf_label(leaf: Node) -> str | None:
    owner = leaf.parent if leaf.is_text else leaf
    return label_text(leaf.value, owner.tag if owner is not None else "")


def nearest_label(tree: PageTree, leaf: int) -> str | None:
    """The label nearest before ``leaf`` within :data:`LABEL_REACH`."""
    return next((label for label in labels_before(tree, leaf) if label is not None), None)


def labels_before(tree: PageTree, leaf: int, reach: int = LABEL_REACH) -> list[str | None]:
    """The labels of the ``reach`` leaves before ``leaf``, nearest first
    (None for a leaf that is no label)."""
    leaves = tree.leaves
    return [
        _leaf_label(leaves[number]) for number in range(leaf - 1, max(-1, leaf - 1 - reach), -1)
    ]


def marked_words(value: str) -> bool:
    """Whether a class, id or label names an old value."""
    words = [word.lower() for word in _WORD.findall(value)]
    return any(word == "was" or word.startswith(_MARK_PREFIXES) for word in words)


def marked_old(tree: PageTree, leaf: int) -> bool:
    """Whether the leaf's markup, or its label, says it is an old value."""
    if any(_marked_element(node) for node in _elements_above(tree.leaves[leaf])):
        return True
    label = labels_before(tree, leaf, 1)
    return bool(label and label[0] and marked_words(label[0]))


def _elements_above(leaf: Node) -> list[Node]:
    """The :data:`MARK_LEVELS` elements holding ``leaf`` (itself if it is
    an element leaf), below the root."""
    found: list[Node] = []
    node = leaf if not leaf.is_text else leaf.parent
    while node is not None and node.parent is not None and len(found) < MARK_LEVELS:
        found.append(node)
        node = node.parent
    return found


def _marked_element(node: Node) -> bool:
    element = node.element
    return node.tag in _MARK_TAGS or marked_words(
        f"{element.get('class') or ''} {element.get('id') or ''}"
    )


class Eligibility:
    """Which leaves of a page may be the target (see the module doc)."""

    def __init__(
        self,
        target: TargetNode,
        ref_tree: ArrayTree,
        index: PageIndex,
        claims: dict[int, tuple[int, bool]],
        unchanged: dict[int, int],
        members: tuple[TargetNode, ...],
        partner: Mapping[int, int] | None = None,
    ) -> None:
        self.target = target
        self.tree = index.tree
        self.claims = claims
        self.twins = (
            _twins(ref_tree, target.node)
            if partner is not None and not _has_counterpart(ref_tree, index, partner, target.node)
            else frozenset()
        )
        self.allowed = frozenset(member.node for member in members)
        self.list_nodes = _list_nodes(ref_tree, target) if len(members) > 1 else None
        self.recorded = all(member.recorded for member in members)
        self.labels = {member.label for member in members if member.label is not None}
        self.marked = any(member.marked for member in members)
        # A list's neighbours are its other members, whose values may recur
        # anywhere on a page: only a single target is bounded by them.
        self.low, self.high = (
            _bounds(ref_tree, target.node, unchanged, index)
            if len(members) == 1
            else (-1, len(index.tree.leaves))
        )
        # Only a text target's value is its anchor leaf's value.
        self.kind = value_kind(target.value) if target.kind == "text" else None
        self.is_label = (
            target.kind == "text" and label_text(target.value, _owner_tag(target)) is not None
        )
        self.in_heading = _owner_tag(target) in HEADINGS

    def refusal(self, leaf: int, weak_claims: bool = True) -> str | None:
        """Why ``leaf`` cannot be the target, or None when it may be.
        Without ``weak_claims``, only a firm pairing claims a leaf: a list
        member found by the pattern of members relocated around it repeats
        their structure, which says more than a loose pairing of a page
        the redesign rebuilt."""
        if self._claimed(leaf, weak_claims):
            return "claimed"
        if not self.low < leaf < self.high:
            return "outside"
        return self._kind_refusal(leaf) or self._context_refusal(leaf)

    def _claimed(self, leaf: int, weak_claims: bool = True) -> bool:
        """Firmly paired with another reference leaf; for a list, paired at
        all with a reference leaf outside the list (if ``weak_claims``)."""
        claim = self.claims.get(leaf)
        if claim is None or claim[0] in self.allowed or claim[0] in self.twins:
            return False
        node, firm = claim
        if firm:
            return True
        if not weak_claims or self.list_nodes is None:
            return False
        return not self.list_nodes[0] <= node <= self.list_nodes[1]

    def _kind_refusal(self, leaf: int) -> str | None:
        """Another kind of value, or a label where the target is none."""
        if self.kind is None:
            return None
        node = self.tree.leaves[leaf]
        if value_kind(node.value) != self.kind:
            return "kind"
        if not self.is_label and _leaf_label(node) is not None:
            return "kind"
        if not self.in_heading and _heading_text(node):
            return "kind"
        return None

    def _context_refusal(self, leaf: int) -> str | None:
        if not self.recorded:
            return None  # a reference from before contexts were recorded
        before = labels_before(self.tree, leaf)
        if before and before[0] is not None and not set(before) & self.labels:
            return "label"  # labelled, and not with the target's label
        if self.marked != marked_old(self.tree, leaf):
            return "marked"
        return None

    def __call__(self, leaf: int) -> bool:
        return self.refusal(leaf) is None


def _has_counterpart(
    ref_tree: ArrayTree, index: PageIndex, partner: Mapping[int, int], node: int
) -> bool:
    """Whether the mapping pairs the target's leaf with a page leaf held by
    an element of the same tag (its counterpart), not with noise."""
    page_node = partner.get(node)
    if page_node is None:
        return False
    page = index.array
    owner, page_owner = ref_tree.parents[node], page.parents[page_node]
    return (
        not page.children[page_node]
        and owner >= 0
        and page_owner >= 0
        and ref_tree.labels[owner] == page.labels[page_owner]
    )


def _twins(ref_tree: ArrayTree, node: int) -> frozenset[int]:
    """The reference leaves that look like the target's to the mapping:
    each the only leaf of an element of the target element's tag under the
    same parent (a promo ``<h1>`` before the title's). Where the mapping
    found no counterpart for the target, its pairing of a page leaf with a
    twin is a coin toss between the two, no claim: the page may simply
    lack the look-alike the reference page had."""
    owner = ref_tree.parents[node]
    if owner < 0 or ref_tree.parents[owner] < 0:
        return frozenset()
    twins = set()
    for sibling in ref_tree.children[ref_tree.parents[owner]]:
        leaves = ref_tree.children[sibling]
        alike = sibling != owner and ref_tree.labels[sibling] == ref_tree.labels[owner]
        if alike and len(leaves) == 1 and not ref_tree.children[leaves[0]]:
            twins.add(leaves[0])
    return frozenset(twins)


def _list_nodes(ref_tree: ArrayTree, target: TargetNode) -> tuple[int, int] | None:
    """The first and last reference node of the element holding the list's
    container (a table holds its header row and its body)."""
    if target.list_path is None:
        return None
    node = target.node
    for _ in range(len(target.list_path) + 1):
        node = ref_tree.parents[node]
        if node < 0:
            return None
    return node, ref_tree.end[node]


def _bounds(
    ref_tree: ArrayTree, node: int, unchanged: dict[int, int], index: PageIndex
) -> tuple[int, int]:
    """The variant leaves of the nearest unchanged reference leaves before
    and after the target's leaf; the page's ends when there is none."""
    leaves = ref_tree.leaves
    here = ref_tree.first_leaf[node]
    first_leaf = index.array.first_leaf
    low, high = -1, len(index.tree.leaves)
    for ordinal in range(here - 1, -1, -1):
        partner = unchanged.get(leaves[ordinal])
        if partner is not None:
            low = first_leaf[partner]
            break
    for ordinal in range(here + 1, len(leaves)):
        partner = unchanged.get(leaves[ordinal])
        if partner is not None:
            high = first_leaf[partner]
            break
    return low, high
