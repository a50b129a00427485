"""Which template nodes are peers, and how good a pair is (seed 000's
peer recognition, made graded for alignment by :mod:`._merge`).

* two texts are peers unless both are *different* template texts or two
  different labels; equal texts score highest (the textual symbol ``T_l``
  of seed 000), then texts with the same template label;
* two elements are peers when their tags agree, they open with no two
  different labels ("Dimensions:", "ISBN:"), and their profiles overlap
  (Dice >= :data:`PEER_THRESHOLD`); the score grows with the smaller one's
  size, so big matching blocks anchor the alignment (what R1/R2's spans
  do): no pair matches more nodes than its smaller side has, and a merged
  node, whose profile and size are the union of all seeds so far, must not
  outbid a page block's true peer by its bulk;
* a set is the peer of another set, or of one node like its body
  (SYNTHIA's AlignFor).

Between two aligned peers, two elements may still be the *same block*
(:func:`same_block`) though too unlike for peers.
"""

from __future__ import annotations

from scrapy_wrapx.induction._info import Scratch, dice
from scrapy_wrapx.induction._labels import label_only
from scrapy_wrapx.induction._styles import STRIPED_TAGS, skeleton
from scrapy_wrapx.template import Blob, Elem, Opt, Set, Text, TNode

#: Minimum profile overlap (Dice) for two elements to be peers.
PEER_THRESHOLD = 0.5
#: Minimum profile overlap (Dice) for two elements to be the same block
#: between aligned peers (:func:`same_block`).
SAME_BLOCK_THRESHOLD = PEER_THRESHOLD / 2

#: The score of two nodes that are no peers.
NO_PEER = -1.0
#: Two equal fixed texts.
EQUAL_TEXTS_SCORE = 3.0
#: Two texts with the same template label ("#Price:", "#:ISBN:").
SAME_LABEL_SCORE = 2.0
#: Any other two texts that are peers (data, or separators of repetitions).
TEXT_SCORE = 1.0
#: Two blobs.
BLOB_SCORE = 1.0
#: The least score of two peer elements or sets, before their shared size.
SHAPE_SCORE = 1.0
#: Added when two peer elements or sets share a template text.
SHARED_TEXT_BONUS = 1.0
#: What two elements that hold the same one fixed text earn on top: a
#: tie-break between pairs alike in every other way (see :func:`_shape_score`).
SAME_OWN_TEXT_BONUS = 0.01


def core(node: TNode) -> TNode:
    """The node an optional wraps, or the node itself."""
    return node.child if isinstance(node, Opt) else node


def peer_score(scratch: Scratch, a: TNode, b: TNode) -> float:
    """How good a pair ``a``/``b`` is, or :data:`NO_PEER`."""
    a, b = core(a), core(b)
    if isinstance(a, Text) and isinstance(b, Text):
        return _text_score(scratch, a, b)
    if isinstance(a, Blob) and isinstance(b, Blob):
        return BLOB_SCORE
    if isinstance(a, Set) and not isinstance(b, Set):
        a, b = b, a
    if isinstance(b, Set) and not isinstance(a, Set):
        return _list_of_one_score(scratch, a, b)
    if not _alike(a, b):
        return NO_PEER
    score = _shape_score(scratch, a, b)
    if score == NO_PEER and (
        (isinstance(a, Set) and isinstance(b, Set) and _restyled_rows(a.children, b.children))
        or (isinstance(a, Elem) and isinstance(b, Elem) and _restyled_rows(_rows(a), _rows(b)))
    ):
        return _shape_score(scratch, a, b, styled=False)
    return score


def _text_score(scratch: Scratch, a: Text, b: Text) -> float:
    if a.fixed and b.fixed and a.parts[0] == b.parts[0]:
        return EQUAL_TEXTS_SCORE
    if _other_labels(a, b):
        return NO_PEER
    if scratch[a].sep and scratch[b].sep:
        return TEXT_SCORE  # ", " and " and " between the same repetitions
    return _label_score(scratch[a].label, scratch[b].label)


def _label_score(label_a: str, label_b: str) -> float:
    """Texts by their labels (:func:`._labels.text_label`): the same
    template label scores :data:`SAME_LABEL_SCORE`; different template
    texts, or different labels, are no peers; data (``#``) pairs with
    anything."""
    if label_a == label_b != "#":
        return SAME_LABEL_SCORE
    if label_a != "#" and label_b != "#":
        return NO_PEER
    return TEXT_SCORE


def _list_of_one_score(scratch: Scratch, node: TNode, group: Set) -> float:
    """A set is the peer of one node like the one required node of its
    body (a single author is a list of one: its separator, if the body has
    one, is optional). A text is a list of one, too: the lines one page
    splits by <br> where another has a single line."""
    required = [child for child in group.children if not isinstance(child, Opt)]
    if len(required) != 1:
        return NO_PEER
    body = required[0]
    if isinstance(node, Text) and isinstance(body, Text):
        return _text_score(scratch, node, body)
    if isinstance(node, Elem) and isinstance(body, Elem) and node.tag == body.tag:
        score = _shape_score(scratch, node, group)
        if score == NO_PEER and _restyled_rows([node], group.children):
            return _shape_score(scratch, node, group, styled=False)
        return score
    return NO_PEER


def _alike(a: TNode, b: TNode) -> bool:
    """Whether ``a`` and ``b`` may be peers by kind: two sets, or two
    elements of one tag that open with no two different labels."""
    if isinstance(a, Elem) and isinstance(b, Elem):
        return a.tag == b.tag and not _other_labels(_opening(a), _opening(b))
    return isinstance(a, Set) and isinstance(b, Set)


def _restyled_rows(a: list[TNode], b: list[TNode]) -> bool:
    """Whether two lists' repetitions are one row (or list item) each,
    alike but for their classes (see :mod:`._styles`)."""
    if len(a) != 1 or len(b) != 1:
        return False
    row_a, row_b = core(a[0]), core(b[0])
    return (
        isinstance(row_a, Elem)
        and isinstance(row_b, Elem)
        and row_a.tag == row_b.tag
        and row_a.tag in STRIPED_TAGS
        and skeleton(row_a)[1] == skeleton(row_b)[1]
    )


#: Elements that list rows (see :func:`_rows`), and how far into their
#: children the rows start (after a ``<caption>``, a ``<colgroup>``).
ROW_LISTS = frozenset({"table", "tbody", "thead", "ul", "ol"})
ROWS_START = 3


def _rows(elem: Elem) -> list[TNode]:
    """The rows a table or list element lists (``tr``, ``li``): its first,
    or the body of its first list of them. A table of one row in the first
    row's style (``class="first"``) is the peer of the table whose rows a
    page with more of them folded (see :func:`_restyled_rows`). Only the
    first children are looked at: alignment asks this of many pairs."""
    if elem.tag not in ROW_LISTS:
        return []
    for child in elem.children[:ROWS_START]:
        node = core(child)
        if isinstance(node, Set):
            node = core(node.children[0]) if len(node.children) == 1 else node
        if isinstance(node, Elem) and node.tag in STRIPED_TAGS:
            return [node]
    return []


def _shape_score(scratch: Scratch, a: TNode, b: TNode, styled: bool = True) -> float:
    """Peers by profile: enough overlap, and a template text in common
    when both have any (else they are different blocks). Lists compare
    without classes (``styled`` false): one seed may show only the rows
    of one style, another only those of the other (see :mod:`._styles`
    and :func:`_restyled_rows`)."""
    info_a, info_b = scratch[a], scratch[b]
    profile_a, profile_b = info_a.profile, info_b.profile
    if not styled:
        profile_a, profile_b = scratch.unstyled(profile_a), scratch.unstyled(profile_b)
    similarity = dice(profile_a, profile_b)
    texts_a = scratch.template_features(profile_a)
    texts_b = scratch.template_features(profile_b)
    if texts_a and texts_b and not texts_a & texts_b:
        return NO_PEER  # no template text in common: different blocks
    if similarity < PEER_THRESHOLD:
        return NO_PEER
    # A template text in common is evidence beyond the shape (seed 000's
    # textual symbol): of two pairs alike in shape, the pair that shares its
    # label wins ("By:" with "By:" over "More in" with "Edited By:").
    shared = SHARED_TEXT_BONUS if texts_a & texts_b else 0.0
    if _same_own_text(a, b):
        # Of two pairs alike in all else, a heading that says the same
        # ("Reviews" with "Reviews") over one that merely looks the same
        # ("Related"): where a page lacks a section, its next section's
        # heading pairs with its own. A tie-break only.
        shared += SAME_OWN_TEXT_BONUS
    return float(SHAPE_SCORE + shared + similarity * min(info_a.size, info_b.size))


def _same_own_text(a: TNode, b: TNode) -> bool:
    """Whether two elements each hold one fixed text, the same."""
    if not (isinstance(a, Elem) and isinstance(b, Elem)):
        return False
    if len(a.children) != 1 or len(b.children) != 1:
        return False
    text_a, text_b = a.children[0], b.children[0]
    return (
        isinstance(text_a, Text)
        and isinstance(text_b, Text)
        and text_a.fixed
        and text_b.fixed
        and text_a.parts[0] == text_b.parts[0]
    )


def _opening(node: Elem) -> Text | None:
    """The text ``node`` itself opens with, if any: the label of a row
    (``<b>ISBN:</b>``, ``<div>By: <a>..</a></div>``). Only its own: a
    block's first row does not name the block."""
    first = node.children[0] if node.children else None
    return first if isinstance(first, Text) else None


def _other_labels(a: Text | None, b: Text | None) -> bool:
    """Whether ``a`` and ``b`` are two different labels ("Dimensions:",
    "ISBN:"): then they, and the rows they open, are no peers, whether or
    not every seed shows them (a row only some pages have is labelled
    too). Template texts alone cannot tell: "Dimensions:" is missing on
    pages without dimensions, so it looks like data to them."""
    if a is None or b is None or not (a.fixed and b.fixed):
        return False
    value_a, value_b = a.parts[0] or "", b.parts[0] or ""
    return value_a != value_b and label_only(value_a) and label_only(value_b)


def same_block(scratch: Scratch, a: TNode, b: TNode) -> bool:
    """Whether ``a`` and ``b`` are elements of the same tag with the same
    attributes, at least one of them fixed (``<div style=..>``, not a bare
    ``<div>``), some template text in common and a profile overlap of at
    least :data:`SAME_BLOCK_THRESHOLD`."""
    a, b = core(a), core(b)
    if not (isinstance(a, Elem) and isinstance(b, Elem)) or a.tag != b.tag:
        return False
    if not _same_fixed_attrs(a, b) or _other_labels(_opening(a), _opening(b)):
        return False
    profile_a, profile_b = scratch[a].profile, scratch[b].profile
    if not scratch.template_features(profile_a) & scratch.template_features(profile_b):
        return False
    return dice(profile_a, profile_b) >= SAME_BLOCK_THRESHOLD


def _same_fixed_attrs(a: Elem, b: Elem) -> bool:
    """The same attribute names, at least one value fixed on both sides,
    and every value fixed on both sides equal."""
    if a.attrs.keys() != b.attrs.keys():
        return False
    both = [
        (value, b.attrs[name])
        for name, value in a.attrs.items()
        if value is not None and b.attrs[name] is not None
    ]
    return bool(both) and all(value == other for value, other in both)
