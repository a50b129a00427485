"""Merging templates: the multiple tree merge of seed 000, by alignment.

Seed 000 recognizes peer nodes (simple tree matching with structural and
textual symbols), aligns the peer matrix with rules R1-R4 and compresses it.
Here the peer matrix is built one page at a time, as partial tree alignment
does with its growing seed tree (seed 001): the current template's children
are aligned with the next page's children by dynamic programming that
maximizes the total similarity of aligned peers (order preserved), where

* two elements are peers when their tags agree and their profiles overlap
  (Dice >= :data:`PEER_THRESHOLD`); the score grows with the smaller one's
  size, so big matching blocks anchor the alignment (what R1/R2's spans
  do): no pair matches more nodes than its smaller side has, and a merged
  node, whose profile and size are the union of all seeds so far, must not
  outbid a page block's true peer by its bulk; two elements that open with
  different labels ("Dimensions:", "ISBN:") are no peers;
* two texts are peers unless both are *different* template texts; equal
  texts score highest (the textual symbol ``T_l`` of seed 000);
* a set is the peer of another set, or of one element like its body
  (SYNTHIA's AlignFor).

Between two aligned peers, an element on each side with the same tag and
attributes, and no other such partner there, is merged even when too unlike
for a peer (:func:`_merge_gap`): one seed's broken markup may nest half a
block deeper, and the block must not become two optional alternatives.

Aligned peers merge recursively; what one side lacks becomes optional
(seed 000's optional rows, SYNTHIA's ``if``). The merged template accepts
every page either side accepted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from scrapy_wrapx.induction._instance import (
    MAX_SAMPLES,
    Info,
    dice,
    label_only,
    refresh,
    template_features,
)
from scrapy_wrapx.template import Blob, Elem, Opt, Set, Text, TNode

#: Minimum profile overlap (Dice) for two elements to be peers.
PEER_THRESHOLD = 0.5

#: Seed elements remembered per template element (for fixed-subtree
#: digests; more would only slow induction down).
MAX_SOURCES = 24

_NONE = -1.0


def _core(node: TNode) -> TNode:
    return node.child if isinstance(node, Opt) else node


def peer_score(a: TNode, b: TNode) -> float:
    """How good a pair ``a``/``b`` is, or ``-1`` when they are no peers."""
    a, b = _core(a), _core(b)
    if isinstance(a, Text) and isinstance(b, Text):
        la, lb = a.aux.label, b.aux.label
        if a.fixed and b.fixed and a.parts[0] == b.parts[0]:
            return 3.0
        if _other_labels(a, b):
            return _NONE
        if a.aux.sep and b.aux.sep:
            return 1.0  # ", " and " and " between the same repetitions
        if la != lb and la != "#" and lb != "#":
            return _NONE  # different template texts, or different labels
        return 2.0 if la == lb != "#" else 1.0
    if isinstance(a, Blob) and isinstance(b, Blob):
        return 1.0
    if isinstance(a, Set) and not isinstance(b, Set):
        a, b = b, a
    if isinstance(b, Set) and not isinstance(a, Set):
        # A set is the peer of one node like the one required node of its
        # body (a single author is a list of one: its separator, if the body
        # has one, is optional). A text is a list of one, too: the lines one
        # page splits by <br> where another has a single line.
        required = [child for child in b.children if not isinstance(child, Opt)]
        if len(required) != 1:
            return _NONE
        body = required[0]
        if isinstance(a, Text) and isinstance(body, Text):
            return peer_score(a, body)
        if not (isinstance(a, Elem) and isinstance(body, Elem) and a.tag == body.tag):
            return _NONE
    elif isinstance(a, Elem) and isinstance(b, Elem):
        if a.tag != b.tag or _other_labels(_opening(a), _opening(b)):
            return _NONE
    elif not (isinstance(a, Set) and isinstance(b, Set)):
        return _NONE
    similarity = dice(a.aux.profile, b.aux.profile)
    texts_a, texts_b = template_features(a.aux.profile), template_features(b.aux.profile)
    if texts_a and texts_b and not texts_a & texts_b:
        return _NONE  # no template text in common: different blocks
    if similarity < PEER_THRESHOLD:
        return _NONE
    # A template text in common is evidence beyond the shape (seed 000's
    # textual symbol): of two pairs alike in shape, the pair that shares its
    # label wins ("By:" with "By:" over "More in" with "Edited By:").
    shared = 1.0 if texts_a & texts_b else 0.0
    return float(1.0 + shared + similarity * min(a.aux.size, b.aux.size))


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


def merge_nodes(a: TNode, b: TNode) -> TNode:
    """The generalization of two peers."""
    optional = isinstance(a, Opt) or isinstance(b, Opt)
    a, b = _core(a), _core(b)
    merged: TNode
    if isinstance(a, Text) and isinstance(b, Text):
        merged = _merge_texts(a, b)
    elif isinstance(a, Elem) and isinstance(b, Elem):
        merged = _merge_elems(a, b)
    elif isinstance(a, Set) or isinstance(b, Set):
        body_a: list[TNode] = a.children if isinstance(a, Set) else [a]
        body_b: list[TNode] = b.children if isinstance(b, Set) else [b]
        merged = Set(merge_hedges(body_a, body_b))
        refresh(merged)
        if (
            isinstance(a, Set)
            and isinstance(b, Set)
            and a.aux.sig is not None
            and a.aux.sig == b.aux.sig
        ):
            # The same list on both sides so far: maybe template (see Info).
            merged.aux.raw, merged.aux.sig = a.aux.raw, a.aux.sig
            merged.aux.count = a.aux.count + b.aux.count
        if (
            isinstance(a, Set)
            and isinstance(b, Set)
            and a.aux.instances is not None
            and b.aux.instances is not None
        ):
            merged.aux.instances = a.aux.instances + b.aux.instances
    else:
        merged = a  # two blobs
    if optional:
        merged = Opt(merged)
        refresh(merged)
    return merged


def _merge_texts(a: Text, b: Text) -> Text:
    samples = list(a.aux.samples)
    seen = set(samples)
    for value in b.aux.samples:
        if value not in seen and len(samples) < MAX_SAMPLES:
            samples.append(value)
            seen.add(value)
    text = Text([samples[0]] if len(samples) == 1 else [None])
    label = a.aux.label if a.aux.label == b.aux.label else "#"
    text.aux = Info(frozenset({(label,)}), 1, samples, label, sep=a.aux.sep and b.aux.sep)
    return text


def _merge_elems(a: Elem, b: Elem) -> Elem:
    attrs: dict[str, str | None] = {}
    for name in {**a.attrs, **b.attrs}:
        va, vb = a.attrs.get(name), b.attrs.get(name)
        attrs[name] = va if va is not None and va == vb else None
    elem = Elem(a.tag, attrs, merge_hedges(a.children, b.children))
    refresh(elem)
    # Keep the union of both sides' features: the next page is compared with
    # what any seed so far looked like.
    elem.aux.profile = a.aux.profile | b.aux.profile | elem.aux.profile
    elem.aux.size = max(a.aux.size, b.aux.size, elem.aux.size)
    elem.aux.sources = (a.aux.sources + b.aux.sources)[:MAX_SOURCES]
    return elem


def optional(node: TNode) -> TNode:
    if isinstance(node, Opt):
        return node
    wrapped = Opt(node)
    refresh(wrapped)
    return wrapped


def merge_hedges(a: list[TNode], b: list[TNode]) -> list[TNode]:
    """Align two sequences of sibling templates and merge them."""
    if not a:
        return [optional(node) for node in b]
    if not b:
        return [optional(node) for node in a]
    m, n = len(a), len(b)
    scores = [[peer_score(x, y) for y in b] for x in a]
    best = [[0.0] * (n + 1) for _ in range(m + 1)]
    for i in range(m - 1, -1, -1):
        row, below, pair_row = best[i], best[i + 1], scores[i]
        for j in range(n - 1, -1, -1):
            value = max(row[j + 1], below[j])
            pair = pair_row[j]
            if pair > 0 and pair + below[j + 1] > value:
                value = pair + below[j + 1]
            row[j] = value
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < m and j < n:
        pair = scores[i][j]
        if pair > 0 and best[i][j] == pair + best[i + 1][j + 1]:
            pairs.append((i, j))
            i += 1
            j += 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return _merge_along(a, b, pairs, _merge_gap)


def _merge_along(
    a: list[TNode],
    b: list[TNode],
    pairs: list[tuple[int, int]],
    gap: Callable[[list[TNode], list[TNode]], list[TNode]],
) -> list[TNode]:
    """``a`` and ``b`` merged at ``pairs`` (in order), what lies between
    two pairs handed to ``gap``."""
    out: list[TNode] = []
    i = j = 0
    for next_i, next_j in [*pairs, (len(a), len(b))]:
        out.extend(gap(a[i:next_i], b[j:next_j]))
        if next_i < len(a):
            out.append(merge_nodes(a[next_i], b[next_j]))
        i, j = next_i + 1, next_j + 1
    return out


def _merge_gap(a: list[TNode], b: list[TNode]) -> list[TNode]:
    """What lies between two aligned peers: optional on either side, but
    for the elements that are the same block by tag and attributes, one on
    each side and neither with another such partner (partial tree
    alignment's unique insertion place). Their contents may differ too much
    for peers (one seed's broken markup nests half a block one level
    deeper), yet nothing else in between could be the other's peer."""
    links = [(i, j) for i, x in enumerate(a) for j, y in enumerate(b) if _same_block(x, y)]
    per_a = Counter(i for i, _ in links)
    per_b = Counter(j for _, j in links)
    pairs: list[tuple[int, int]] = []
    for i, j in links:
        if per_a[i] == 1 and per_b[j] == 1 and (not pairs or j > pairs[-1][1]):
            pairs.append((i, j))
    return _merge_along(a, b, pairs, _optionals)


def _optionals(a: list[TNode], b: list[TNode]) -> list[TNode]:
    return [optional(node) for node in a] + [optional(node) for node in b]


def _same_block(a: TNode, b: TNode) -> bool:
    """Whether ``a`` and ``b`` are elements of the same tag with the same
    attributes, at least one of them fixed (``<div style=..>``, not a bare
    ``<div>``), some template text in common and a profile overlap of at
    least half the peer threshold."""
    a, b = _core(a), _core(b)
    if not (isinstance(a, Elem) and isinstance(b, Elem)) or a.tag != b.tag:
        return False
    if a.attrs.keys() != b.attrs.keys() or _other_labels(_opening(a), _opening(b)):
        return False
    fixed = 0
    for name, value in a.attrs.items():
        other = b.attrs[name]
        if value is not None and other is not None:
            if value != other:
                return False
            fixed += 1
    if not fixed:
        return False
    texts_a, texts_b = template_features(a.aux.profile), template_features(b.aux.profile)
    if not texts_a & texts_b:
        return False
    return dice(a.aux.profile, b.aux.profile) >= PEER_THRESHOLD / 2
