"""Folding repeated records inside one page into sets (MDR, NET, SYNTHIA).

MDR finds *data regions*: runs of adjacent generalized nodes (1 to
:data:`MAX_PERIOD` siblings each) that are similar to each other; NET walks
the tree bottom-up so that nested lists are collapsed before their parents
are compared, which makes records with sub-lists of different lengths look
alike. :func:`fold_children` is called on the way up (see
:func:`._instance.instance`), so both hold here: a run of at least two
similar groups is replaced by a :class:`~scrapy_wrapx.template.Set` whose
body is the merge of all the groups (SYNTHIA's fold).

Similar means: the same coarse symbols (tag and class; a template text is its
own symbol) and profiles whose Dice overlap reaches the peer threshold. So a
menu of fixed labels does not fold into "records", while a list of authors
does, whatever their names.
"""

from __future__ import annotations

from ..template import Elem, Opt, Set, Text, TNode
from ._instance import dice, refresh, template_features
from ._merge import PEER_THRESHOLD, merge_hedges

#: Longest generalized node (number of adjacent siblings in one record).
MAX_PERIOD = 3


def _symbol(node: TNode) -> tuple[str, ...]:
    if isinstance(node, Text):
        return ("#text", node.aux.label)
    if isinstance(node, Elem):
        return ("elem", node.aux.label)
    if isinstance(node, Set):
        return ("set", *[_symbol(child)[1] for child in node.children[:1]])
    if isinstance(node, Opt):
        return ("opt", *_symbol(node.child))
    return ("blob",)


def _group_profile(group: list[TNode]) -> frozenset[tuple[str, ...]]:
    profile: set[tuple[str, ...]] = set()
    for node in group:
        profile |= node.aux.profile
    return frozenset(profile)


def _similar(a: list[TNode], b: list[TNode]) -> bool:
    if [_symbol(x) for x in a] != [_symbol(y) for y in b]:
        return False
    if all(isinstance(x, Text) for x in a):
        return True
    pa, pb = _group_profile(a), _group_profile(b)
    # Different template texts make different records (seed 000's textual
    # symbols): "Publisher: x" and "ISBN: y" rows are no repetitions.
    if template_features(pa) != template_features(pb):
        return False
    return dice(pa, pb) >= PEER_THRESHOLD


def fold_children(children: list[TNode]) -> list[TNode]:
    """Replace runs of repeated sibling groups by sets."""
    for period in range(1, MAX_PERIOD + 1):
        if len(children) < 2 * period:
            break
        out: list[TNode] = []
        i = 0
        while i < len(children):
            first = children[i : i + period]
            if len(first) < period or (
                period > 1 and len({_symbol(node) for node in first}) == 1
            ):
                out.append(children[i])
                i += 1
                continue
            end = i + period
            while end + period <= len(children) and _similar(first, children[end : end + period]):
                end += period
            if end - i >= 2 * period:
                body = first
                for start in range(i + period, end, period):
                    body = merge_hedges(body, children[start : start + period])
                folded = Set(body)
                refresh(folded)
                out.append(folded)
                i = end
            else:
                out.append(children[i])
                i += 1
        children = out
    return children
