"""Merging templates: the multiple tree merge of seed 000, by alignment.

Seed 000 recognizes peer nodes (simple tree matching with structural and
textual symbols), aligns the peer matrix with rules R1-R4 and compresses it.
Here the peer matrix is built one page at a time, as partial tree alignment
does with its growing seed tree (seed 001): the current template's children
are aligned with the next page's children by dynamic programming that
maximizes the total similarity of aligned peers (order preserved); which
nodes are peers, and how good a pair is, is :mod:`._peers`' rule. Hedges
too long to compare every pair (past :data:`._band.MAX_ALIGN_CELLS`) are
aligned in a band around their expected diagonal (:mod:`._band`), so the
work stays linear in the number of siblings. The same subtrees at the
start of both hedges (a site's header and menus on every seed) are paired
before any pair is scored: the alignment would pair them first anyway.

Between two aligned peers, an element on each side that is the same block
(:func:`._peers.same_block`), and no other such partner there, is merged
even when too unlike for a peer (:func:`_merge_gap`): one seed's broken
markup may nest half a block deeper, and the block must not become two
optional alternatives.

Aligned peers merge recursively; what one side lacks becomes optional
(seed 000's optional rows, SYNTHIA's ``if``). The merged template accepts
every page either side accepted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from scrapy_wrapx.induction._band import Pairs, band_pairs, bounded, cells
from scrapy_wrapx.induction._info import MAX_SAMPLES, Info, Scratch, refresh, same_shape, text_shape
from scrapy_wrapx.induction._peers import core, peer_score, same_block
from scrapy_wrapx.induction._styles import unify_styles
from scrapy_wrapx.template import Elem, Opt, Set, Text, TNode

#: Seed elements remembered per template element (for fixed-subtree
#: digests; more would only slow induction down).
MAX_SOURCES = 24

#: What merges the nodes between two pairs.
Gap = Callable[[Scratch, list[TNode], list[TNode]], list[TNode]]


def merge_nodes(scratch: Scratch, a: TNode, b: TNode) -> TNode:
    """The generalization of two peers (optional if either side is)."""
    if same_shape(scratch, a, b):
        return _merge_same(scratch, a, b)
    is_optional = isinstance(a, Opt) or isinstance(b, Opt)
    merged = _merge_cores(scratch, core(a), core(b))
    if is_optional:
        merged = Opt(merged)
        refresh(scratch, merged)
    return merged


def _merge_same(scratch: Scratch, a: TNode, b: TNode) -> TNode:
    """The merge of the very same subtree (:func:`._info.same_shape`): ``a``
    itself, its elements standing for ``b``'s seed elements too, and a text
    a separator only where both are (what merging them node by node would
    give, without building it anew)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        info_x, info_y = scratch[x], scratch[y]
        if isinstance(x, Elem) and isinstance(y, Elem):
            info_x.sources = (info_x.sources + info_y.sources)[:MAX_SOURCES]
            stack.extend(zip(x.children, y.children, strict=True))
        else:
            info_x.sep = info_x.sep and info_y.sep
    return a


def _merge_cores(scratch: Scratch, a: TNode, b: TNode) -> TNode:
    if isinstance(a, Text) and isinstance(b, Text):
        return _merge_texts(scratch, a, b)
    if isinstance(a, Elem) and isinstance(b, Elem):
        return _merge_elems(scratch, a, b)
    if isinstance(a, Set) or isinstance(b, Set):
        return _merge_sets(scratch, a, b)
    return a  # two blobs


def _merge_texts(scratch: Scratch, a: Text, b: Text) -> Text:
    info_a, info_b = scratch[a], scratch[b]
    samples = list(info_a.samples)
    seen = set(samples)
    for value in info_b.samples:
        if value not in seen and len(samples) < MAX_SAMPLES:
            samples.append(value)
            seen.add(value)
    text = Text([samples[0]] if len(samples) == 1 else [None])
    label = info_a.label if info_a.label == info_b.label else "#"
    shape = text_shape(samples[0], label) if len(samples) == 1 else 0
    scratch[text] = Info(
        frozenset({(label,)}), 1, samples, label, sep=info_a.sep and info_b.sep, shape=shape
    )
    return text


def _merge_elems(scratch: Scratch, a: Elem, b: Elem) -> Elem:
    attrs: dict[str, str | None] = {}
    for name in {**a.attrs, **b.attrs}:
        va, vb = a.attrs.get(name), b.attrs.get(name)
        attrs[name] = va if va is not None and va == vb else None
    elem = Elem(a.tag, attrs, merge_hedges(scratch, a.children, b.children))
    refresh(scratch, elem)
    # Keep the union of both sides' features: the next page is compared with
    # what any seed so far looked like.
    info, info_a, info_b = scratch[elem], scratch[a], scratch[b]
    info.profile = info_a.profile | info_b.profile | info.profile
    info.size = max(info_a.size, info_b.size, info.size)
    info.sources = (info_a.sources + info_b.sources)[:MAX_SOURCES]
    return elem


def _merge_sets(scratch: Scratch, a: TNode, b: TNode) -> Set:
    """A set and its peer (a set, or one node like its body)."""
    body_a: list[TNode] = a.children if isinstance(a, Set) else [a]
    body_b: list[TNode] = b.children if isinstance(b, Set) else [b]
    if len(body_a) == 1 and len(body_b) == 1:
        # One list's rows in the styles each seed shows (see ._styles).
        unify_styles(scratch, [core(body_a[0]), core(body_b[0])])
    merged = Set(merge_hedges(scratch, body_a, body_b))
    refresh(scratch, merged)
    if isinstance(a, Set) and isinstance(b, Set):
        _carry_instances(scratch[a], scratch[b], scratch[merged])
    else:
        # A seed that shows one repetition folded nothing: an instance of
        # one repetition, which set revision weighs like any other.
        instances = scratch[a].instances if isinstance(a, Set) else scratch[b].instances
        if instances is not None:
            single: list[list[TNode]] = [[b if isinstance(a, Set) else a]]
            scratch[merged].instances = [*instances, single]
    return merged


def _carry_instances(a: Info, b: Info, merged: Info) -> None:
    """Keep what two merged sets had in common: the very same content on
    both sides so far (maybe template, see :class:`._info.Info`), and the
    repetitions of every instance."""
    if a.sig is not None and a.sig == b.sig:
        merged.raw, merged.sig = a.raw, a.sig
        merged.count = a.count + b.count
        merged.pages = a.pages | b.pages
    if a.instances is not None and b.instances is not None:
        merged.instances = a.instances + b.instances


def optional(scratch: Scratch, node: TNode) -> TNode:
    if isinstance(node, Opt):
        return node
    wrapped = Opt(node)
    refresh(scratch, wrapped)
    return wrapped


def merge_hedges(scratch: Scratch, a: list[TNode], b: list[TNode]) -> list[TNode]:
    """Align two sequences of sibling templates and merge them."""
    if not a:
        return [optional(scratch, node) for node in b]
    if not b:
        return [optional(scratch, node) for node in a]
    if bounded(len(a), len(b)):
        # Long hedges: peers are looked for near their expected place only.
        return _merge_along(scratch, a, b, band_pairs(scratch, a, b, peer_score), _merge_gap)
    # The same subtrees at the start (a site's header and menus) are what
    # the alignment pairs first (no pair scores more for either), so they
    # are paired without scoring every pair.
    same = 0
    while same < min(len(a), len(b)) and same_shape(scratch, a[same], b[same]):
        same += 1
    if same:
        paired = [_merge_same(scratch, x, y) for x, y in zip(a[:same], b[:same], strict=True)]
        return paired + merge_hedges(scratch, a[same:], b[same:])
    scores = [[peer_score(scratch, x, y) for y in b] for x in a]
    return _merge_along(scratch, a, b, _best_pairs(scores), _merge_gap)


def _best_pairs(scores: list[list[float]]) -> Pairs:
    """The order-preserving pairs of peers (score > 0) with the highest
    total score."""
    best = _best_totals(scores)
    m, n = len(scores), len(scores[0])
    pairs: Pairs = []
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
    return pairs


def _best_totals(scores: list[list[float]]) -> list[list[float]]:
    """``best[i][j]``: the highest total score of aligning the suffixes
    from ``i`` and ``j``."""
    m, n = len(scores), len(scores[0])
    best = [[0.0] * (n + 1) for _ in range(m + 1)]
    for i in range(m - 1, -1, -1):
        row, below, pair_row = best[i], best[i + 1], scores[i]
        for j in range(n - 1, -1, -1):
            value = max(row[j + 1], below[j])
            pair = pair_row[j]
            if pair > 0 and pair + below[j + 1] > value:
                value = pair + below[j + 1]
            row[j] = value
    return best


def _merge_along(
    scratch: Scratch, a: list[TNode], b: list[TNode], pairs: Pairs, gap: Gap
) -> list[TNode]:
    """``a`` and ``b`` merged at ``pairs`` (in order), what lies between
    two pairs handed to ``gap``."""
    out: list[TNode] = []
    i = j = 0
    for next_i, next_j in [*pairs, (len(a), len(b))]:
        out.extend(gap(scratch, a[i:next_i], b[j:next_j]))
        if next_i < len(a):
            out.append(merge_nodes(scratch, a[next_i], b[next_j]))
        i, j = next_i + 1, next_j + 1
    return out


def _merge_gap(scratch: Scratch, a: list[TNode], b: list[TNode]) -> list[TNode]:
    """What lies between two aligned peers: optional on either side, but
    for the elements that are the same block, one on each side and neither
    with another such partner (partial tree alignment's unique insertion
    place). Their contents may differ too much for peers (one seed's broken
    markup nests half a block one level deeper), yet nothing else in
    between could be the other's peer."""
    links = [(i, j) for i, j in cells(len(a), len(b)) if same_block(scratch, a[i], b[j])]
    return _merge_along(scratch, a, b, _unique_links(links), _optionals)


def _unique_links(links: Pairs) -> Pairs:
    """The links whose two ends have no other link, in order."""
    per_a = Counter(i for i, _ in links)
    per_b = Counter(j for _, j in links)
    pairs: Pairs = []
    for i, j in links:
        if per_a[i] == 1 and per_b[j] == 1 and (not pairs or j > pairs[-1][1]):
            pairs.append((i, j))
    return pairs


def _optionals(scratch: Scratch, a: list[TNode], b: list[TNode]) -> list[TNode]:
    return [optional(scratch, node) for node in a] + [optional(scratch, node) for node in b]
