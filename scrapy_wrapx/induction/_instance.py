"""Seed pages as fully fixed templates, with what alignment compares them by.

Each seed page becomes a template that accepts exactly that page: elements
with all their attributes fixed, texts fixed. Merging such templates (see
:mod:`._merge`) generalizes them. Every template node carries an
:class:`Info` while induction runs:

* a **profile**: the set of label paths up to :data:`PROFILE_DEPTH` levels
  below the node, the structural/textual symbol of seed 000 made graded:
  element labels are tag and class, a text's label is the text itself when it
  is *template text* and ``#`` otherwise. Two subtrees are peers when their
  profiles overlap enough (Dice coefficient);
* the node's **size** (weight in alignment) and, for texts, the distinct
  values seen (the samples EXALG-style tokens are derived from).

*Template text* follows EXALG's occurrence vectors, reduced to what a handful
of seeds can support: a text value that occurs on every seed page is
template (data values do repeat across pages — tags, reviewers, prices —
but rarely on all of them). Template texts are what keeps a menu of fixed labels from folding into
a set of "records", and "Publisher" from aligning with "ISBN-13".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scrapy_wrapx.dom import TEXT, PageTree
from scrapy_wrapx.template import Blob, Elem, Opt, Set, Text, TNode

#: Nodes deeper than this become a :class:`~scrapy_wrapx.template.Blob`:
#: templates stay shallow enough for the recursive matcher on any page.
DEPTH_CAP = 80
#: How many levels below a node its profile describes.
PROFILE_DEPTH = 4
#: Distinct values kept per text (enough to derive EXALG tokens).
MAX_SAMPLES = 64


@dataclass
class Info:
    """Induction's working data on a template node (never serialized).

    ``sources`` are the seed elements an element template stands for (their
    serialization digests let extraction skip fixed subtrees, see
    :attr:`~scrapy_wrapx.template.Elem.sigs`). For a set, ``raw`` is the
    hedge it was folded from and ``sig`` that hedge's content, kept while
    every instance merged into the set had the very same content (``count``
    instances): a "list" that repeats identically on every seed is template,
    not data (EXALG's occurrence vector ``<1, 1, ...>``), and is unfolded.
    ``sep`` marks a text that separates repetitions (", " between authors).
    """

    profile: frozenset[tuple[str, ...]] = frozenset()
    size: int = 1
    samples: list[str] = field(default_factory=list)
    label: str = ""
    sources: list[Any] = field(default_factory=list)
    raw: list[TNode] | None = None
    sig: tuple[Any, ...] | None = None
    count: int = 1
    sep: bool = False
    #: For a set: its repetitions (hedges) in every instance merged into it,
    #: or None once it was merged with something that is no set.
    instances: list[list[list[TNode]]] | None = None


def template_texts(trees: Sequence[PageTree]) -> frozenset[str]:
    """Text values that occur on every page (EXALG's root occurrence
    vector, ``<1, 1, ...>``, read as "at least once")."""
    if len(trees) < 2:
        return frozenset()
    need = len(trees)
    counts: dict[str, int] = {}
    for tree in trees:
        values = {leaf.value for leaf in tree.leaves if leaf.tag == TEXT}
        # Labels that open a text on every page ("Price: 12", "Price: 9")
        # are template too, marked so that no text value can collide.
        labels = {_LABEL_MARK + prefix for prefix in map(label_prefix, values) if prefix}
        for value in values | labels:
            counts[value] = counts.get(value, 0) + 1
    return frozenset(value for value, count in counts.items() if count >= need)


def elem_label(tag: str, attrs: dict[str, str | None]) -> str:
    cls = attrs.get("class")
    return f"{tag}.{' '.join(sorted(cls.split()))}" if cls else tag


#: A label: words ending in a colon ("Price:", "ISBN-13:"); "12:30" and
#: "http://x" are none.
_LABEL = r"[^\W\d_][^:]{0,30}?:"
#: A text that opens with a label, then a space ("Price: $12").
_LABEL_PREFIX = re.compile(rf"({_LABEL})\s")
#: A label opening a text, or the whole text: "Price: $12", "UPC:".
_OPENING_LABEL = re.compile(rf"({_LABEL})(?:\s|$)")

_LABEL_MARK = "\x00"


def opening_label(value: str) -> str:
    """The label a text opens with or is ("Price:" of "Price: $12", "UPC:"
    of "UPC:"), or "", whether or not other pages share it."""
    match = _OPENING_LABEL.match(value.strip())
    return match.group(1) if match is not None else ""


def label_prefix(value: str) -> str:
    """The label a text opens with ("Price:" of "Price: $12"), or ""."""
    match = _LABEL_PREFIX.match(value)
    return match.group(1) if match is not None else ""


def text_label(value: str, template: frozenset[str]) -> str:
    """The symbol of a text: the text itself when it is template text; the
    label it opens with when that label opens a text on every seed page,
    marked ``#:``, so that "Price: 12" and "ISBN: 3" are different symbols
    although both carry data (a title such as "Dune: Part One" opens with
    no *template* label); else ``#``."""
    if value in template:
        return f"#{value}"
    prefix = label_prefix(value)
    return f"#:{prefix}" if prefix and _LABEL_MARK + prefix in template else "#"


def label_only(value: str) -> bool:
    """Whether a text is a label and nothing else ("Dimensions:")."""
    opening = opening_label(value)
    return bool(opening) and opening == value.strip()


def content_sig(nodes: Sequence[TNode]) -> tuple[Any, ...]:
    """The content of a hedge of template nodes as one flat tuple (no
    recursion), to tell whether two hedges are the very same."""
    out: list[Any] = []
    stack: list[tuple[TNode, int]] = [(node, 0) for node in reversed(nodes)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Elem):
            out.append((depth, node.tag, tuple(sorted(node.attrs.items(), key=lambda kv: kv[0]))))
            stack.extend((child, depth + 1) for child in reversed(node.children))
        elif isinstance(node, Text):
            out.append((depth, "#", tuple(node.parts)))
        elif isinstance(node, Set):
            raw = node.aux.raw if node.aux is not None and node.aux.raw is not None else None
            out.append((depth, "set", raw is None))
            stack.extend((child, depth + 1) for child in reversed(raw or node.children))
        elif isinstance(node, Opt):
            out.append((depth, "opt"))
            stack.append((node.child, depth + 1))
        else:
            out.append((depth, "blob"))
    return tuple(out)


def profile_of(label: str, children: Iterable[TNode]) -> frozenset[tuple[str, ...]]:
    """``label`` itself and ``label`` prefixed to the children's features
    (sets and optionals are transparent)."""
    features: set[tuple[str, ...]] = {(label,)}
    for child in children:
        info: Info = child.aux
        features.update((label, *f) for f in info.profile if len(f) < PROFILE_DEPTH)
    return frozenset(features)


def refresh(node: TNode) -> None:
    """Recompute a node's :class:`Info` from its children's."""
    if isinstance(node, Elem):
        label = elem_label(node.tag, node.attrs)
        node.aux = Info(
            profile_of(label, node.children),
            1 + sum(c.aux.size for c in node.children),
            label=label,
        )
    elif isinstance(node, (Set, Opt)):
        children = node.children if isinstance(node, Set) else [node.child]
        profile: set[tuple[str, ...]] = set()
        for child in children:
            profile |= child.aux.profile
        node.aux = Info(
            frozenset(profile),
            sum(c.aux.size for c in children),
            label=children[0].aux.label if children else "",
        )


def instance(tree: PageTree, template: frozenset[str]) -> Elem:
    """The fully fixed template of one page (no recursion; children are
    finished before their parent, so each node's profile can be built from
    theirs, and folding of repeats (:mod:`._fold`) runs on the way up)."""
    from scrapy_wrapx.induction._fold import fold_children

    made: dict[int, TNode] = {}
    nodes = tree.nodes
    for node in reversed(nodes):
        if node.depth > DEPTH_CAP:
            continue
        if node.tag == TEXT:
            text = Text([node.value])
            text.aux = Info(
                frozenset({(text_label(node.value, template),)}),
                1,
                [node.value],
                text_label(node.value, template),
            )
            made[node.index] = text
            continue
        attrs: dict[str, str | None] = {str(k): str(v) for k, v in node.element.attrib.items()}
        elem = Elem(node.tag, attrs, [])
        if node.depth == DEPTH_CAP and node.children:
            blob = Blob()
            blob.aux = Info(frozenset({("*",)}), 1, label="*")
            elem.children = [blob]
        else:
            elem.children = fold_children([made.pop(child.index) for child in node.children])
        refresh(elem)
        elem.aux.sources = [node.element]
        made[node.index] = elem
    root = made[nodes[0].index]
    assert isinstance(root, Elem)
    return root


def template_features(profile: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The features that end in a template text (textual symbols)."""
    return frozenset(f for f in profile if len(f[-1]) > 1 and f[-1][0] == "#")


def dice(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> float:
    if not a or not b:
        return 0.0
    return 2.0 * len(a & b) / (len(a) + len(b))
