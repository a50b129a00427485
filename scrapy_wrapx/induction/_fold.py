"""Folding repeated records inside one page into sets (MDR, NET, SYNTHIA).

MDR finds *data regions*: runs of adjacent generalized nodes (1 to
:data:`MAX_PERIOD` siblings each) that are similar to each other; NET walks
the tree bottom-up so that nested lists are collapsed before their parents
are compared, which makes records with sub-lists of different lengths look
alike. :func:`fold_children` is called on the way up (see
:func:`._instance.instance`), so both hold here: a run of at least two
similar groups is replaced by a :class:`~scrapy_wrapx.template.Set` whose
body is the merge of all the groups (SYNTHIA's fold).

Similar means alike as trees, not merely the same tag: the same coarse
symbols (tag and class; a template text, or a text that opens with a label
such as "Price:", is its own symbol), a template text in common below, and
profiles whose Dice overlap reaches the peer threshold (simple tree matching
made graded, as MDR and FiVaTech compare generalized nodes). So a menu of
fixed labels does not fold into "records", nor ``<p>by X</p><p>Price:
Y</p>``, while a list of authors does, whatever their names.

Lists written inline, ``by <a>A</a>, <a>B</a> and <a>C</a>``, are
repetitions of ``[separator,] <a>``: alike elements with short texts between
them. They fold into one set whose body is an optional separator and the
element, so all the names land in one field; the separators are marked
(:attr:`._instance.Info.sep`) and never become fields.
"""

from __future__ import annotations

from scrapy_wrapx.induction._instance import (
    content_sig,
    dice,
    opening_label,
    refresh,
    template_features,
)
from scrapy_wrapx.induction._merge import PEER_THRESHOLD, merge_hedges, optional
from scrapy_wrapx.template import Elem, Opt, Set, Text, TNode

#: Longest generalized node (number of adjacent siblings in one record).
MAX_PERIOD = 3
#: A separator between inline repetitions is short: a few characters and at
#: most this many words (", ", " and ", " & ", " / ", "; ").
SEPARATOR_WORDS = 2
SEPARATOR_CHARS = 12


def _text_symbol(node: Text) -> str:
    """A text's symbol for folding: its label (:func:`._instance.text_label`),
    and for data the label it opens with even when only this page shows it:
    "Availability: In Stock" after an ISBN is no repetition of the ISBN,
    though neither is template text on pages that say "Availability:" apart
    (a lone label, "UPC:", is a label as well)."""
    label: str = node.aux.label
    if label != "#" or not node.fixed:
        return label
    opening = opening_label(node.parts[0] or "")
    return f"#:{opening}" if opening else label


def _symbol(node: TNode) -> tuple[str, ...]:
    if isinstance(node, Text):
        return ("#text", _text_symbol(node))
    if isinstance(node, Elem):
        return ("elem", node.aux.label)
    if isinstance(node, Set):
        return ("set", *[_symbol(child)[1] for child in node.children[-1:]])
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
    # Records with template texts must share one (seed 000's textual
    # symbols, and the peer rule of merging): "Publisher: x" and "ISBN: y"
    # rows are no repetitions, while two products that both say "Add to
    # Cart" are, even if one says "(Hardcover)" and the other "(Paperback)".
    ta, tb = template_features(pa), template_features(pb)
    if (ta or tb) and not ta & tb:
        return False
    return dice(pa, pb) >= PEER_THRESHOLD


def _make_set(body: list[TNode], raw: list[TNode], reps: list[list[TNode]]) -> Set:
    folded = Set(body)
    refresh(folded)
    folded.aux.raw = raw
    folded.aux.sig = content_sig(raw)
    folded.aux.instances = [reps]
    return folded


def _separator(node: TNode) -> bool:
    if not isinstance(node, Text) or not node.fixed:
        return False
    value = (node.parts[0] or "").strip()
    return len(value) <= SEPARATOR_CHARS and len(value.split()) <= SEPARATOR_WORDS


def _fold_separated(children: list[TNode]) -> list[TNode]:
    """Fold runs ``E (sep E)+`` of alike elements with separator texts."""
    out: list[TNode] = []
    i = 0
    while i < len(children):
        head = children[i]
        end = i + 1
        if isinstance(head, Elem):
            while (
                end + 1 < len(children)
                and _separator(children[end])
                and isinstance(children[end + 1], Elem)
                and _similar([head], [children[end + 1]])
            ):
                end += 2
        if end - i < 3:
            out.append(head)
            i += 1
            continue
        for sep in children[i + 1 : end : 2]:
            sep.aux.sep = True
        body: list[TNode] = [head]
        for start in range(i + 1, end, 2):
            body = merge_hedges(body, children[start : start + 2])
        # The first repetition has no separator: make it optional whatever
        # the alignment did.
        body = [optional(node) if _separator_slot(node) else node for node in body]
        reps = [[head], *(children[start : start + 2] for start in range(i + 1, end, 2))]
        out.append(_make_set(body, children[i:end], reps))
        i = end
    return out


def _separator_slot(node: TNode) -> bool:
    inner = node.child if isinstance(node, Opt) else node
    return isinstance(inner, Text) and inner.aux.sep


def fold_children(children: list[TNode]) -> list[TNode]:
    """Replace runs of repeated sibling groups by sets."""
    if len(children) >= 3:
        children = _fold_separated(children)
    for period in range(1, MAX_PERIOD + 1):
        if len(children) < 2 * period:
            break
        out: list[TNode] = []
        i = 0
        while i < len(children):
            first = children[i : i + period]
            if len(first) < period or (period > 1 and len({_symbol(node) for node in first}) == 1):
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
                reps = [children[start : start + period] for start in range(i, end, period)]
                out.append(_make_set(body, children[i:end], reps))
                i = end
            else:
                out.append(children[i])
                i += 1
        children = out
    return children
