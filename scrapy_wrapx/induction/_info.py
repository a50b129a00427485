"""Induction's working data on template nodes, and what alignment compares
nodes by.

While induction runs, every template node has an :class:`Info`, kept in the
run's :class:`Scratch` table beside the template (a template carries only
what it serializes):

* a **profile**: the set of label paths up to :data:`PROFILE_DEPTH` levels
  below the node, the structural/textual symbol of seed 000 made graded:
  element labels are tag and class, a text's label is the text itself when it
  is *template text* and ``#`` otherwise (:func:`._labels.text_label`). Two
  subtrees are peers when their profiles overlap enough (Dice coefficient);
* the node's **size** (weight in alignment) and, for texts, the distinct
  values seen (the samples EXALG-style tokens are derived from).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scrapy_wrapx.template import Elem, Opt, Set, Text, TNode

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
    #: The seed pages (by :attr:`Scratch.page`) whose instances had that
    #: very content: all of them, and the content is the site's, not a
    #: record repeated on one page or a block a few seeds happen to share.
    pages: frozenset[int] = frozenset()
    sep: bool = False
    #: For a set: its repetitions (hedges) in every instance merged into it,
    #: or None once it was merged with something that is no set.
    instances: list[list[list[TNode]]] | None = None
    #: The template texts anywhere below the node, once asked for (see
    #: :func:`._fold._deep_texts`).
    deep: frozenset[str] | None = None
    #: A hash of the node's whole subtree when it is elements and fixed
    #: texts only, else 0 (see :func:`same_shape`).
    shape: int = 0


#: Longest separator between the items of a list (", ", " and ", " / "):
#: a few characters (see :func:`punctuation` and :mod:`._fold`).
SEPARATOR_CHARS = 12


def punctuation(node: TNode) -> bool:
    """A fixed text of punctuation only (","), or an element that holds
    just one (``<span class="comma">,</span>``): a separator between the
    items of a list."""
    if isinstance(node, Elem) and len(node.children) == 1:
        node = node.children[0]
    if not isinstance(node, Text) or not node.fixed:
        return False
    value = (node.parts[0] or "").strip()
    return 0 < len(value) <= SEPARATOR_CHARS and not any(char.isalnum() for char in value)


class Scratch:
    """The :class:`Info` of every template node of one induction run.

    Keyed by node identity; each entry holds its node too, so that no
    identity is reused while the run lasts. Two nodes may share one
    :class:`Info` (an optional and the text it wraps): a change to it shows
    through both, as intended.
    """

    __slots__ = ("_features", "_infos", "_unstyled", "page", "pages")

    def __init__(self) -> None:
        #: The seed page whose instance is being built, and how many seed
        #: pages there are (see :attr:`Info.pages`).
        self.page = 0
        self.pages = 1
        self._infos: dict[int, tuple[TNode, Info]] = {}
        self._features: dict[
            int, tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]]]
        ] = {}
        self._unstyled: dict[
            int, tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]]]
        ] = {}

    def __getitem__(self, node: TNode) -> Info:
        return self._infos[id(node)][1]

    def __setitem__(self, node: TNode, info: Info) -> None:
        self._infos[id(node)] = (node, info)

    def get(self, node: TNode) -> Info | None:
        """The node's :class:`Info`, or None for a node made without one."""
        entry = self._infos.get(id(node))
        return entry[1] if entry is not None else None

    def unstyled(self, profile: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
        """:func:`unstyled` of a profile kept in an :class:`Info`,
        remembered as :meth:`template_features` is."""
        entry = self._unstyled.get(id(profile))
        if entry is None:
            entry = (profile, unstyled(profile))
            self._unstyled[id(profile)] = entry
        return entry[1]

    def template_features(self, profile: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
        """:func:`template_features` of a profile kept in an :class:`Info`,
        remembered: alignment asks for it once per pair of nodes compared.
        (Keyed by identity, holding the profile, as the nodes are.)"""
        entry = self._features.get(id(profile))
        if entry is None:
            entry = (profile, template_features(profile))
            self._features[id(profile)] = entry
        return entry[1]


def elem_label(tag: str, attrs: dict[str, str | None]) -> str:
    cls = attrs.get("class")
    return f"{tag}.{' '.join(sorted(cls.split()))}" if cls else tag


def profile_of(
    scratch: Scratch, label: str, children: Iterable[TNode]
) -> frozenset[tuple[str, ...]]:
    """``label`` itself and ``label`` prefixed to the children's features
    (sets and optionals are transparent)."""
    features: set[tuple[str, ...]] = {(label,)}
    for child in children:
        features.update((label, *f) for f in scratch[child].profile if len(f) < PROFILE_DEPTH)
    return frozenset(features)


def refresh(scratch: Scratch, node: TNode) -> None:
    """Recompute a node's :class:`Info` from its children's."""
    if isinstance(node, Elem):
        label = elem_label(node.tag, node.attrs)
        scratch[node] = Info(
            profile_of(scratch, label, node.children),
            1 + sum(scratch[c].size for c in node.children),
            label=label,
            shape=_elem_shape(scratch, node),
        )
    elif isinstance(node, (Set, Opt)):
        children = node.children if isinstance(node, Set) else [node.child]
        profile: set[tuple[str, ...]] = set()
        for child in children:
            profile |= scratch[child].profile
        scratch[node] = Info(
            frozenset(profile),
            sum(scratch[c].size for c in children),
            label=scratch[children[0]].label if children else "",
        )


def text_shape(value: str, label: str) -> int:
    """The :attr:`Info.shape` of a fixed text."""
    return hash(("#", value, label)) or 1


def _elem_shape(scratch: Scratch, node: Elem) -> int:
    shapes = []
    for child in node.children:
        shape = scratch[child].shape
        if not shape:
            return 0
        shapes.append(shape)
    return hash((node.tag, tuple(sorted(node.attrs.items())), tuple(shapes))) or 1


def same_shape(scratch: Scratch, a: TNode, b: TNode) -> bool:
    """Whether two nodes are the very same subtree of elements and fixed
    texts (equal hashes of tags, attributes, texts and their labels):
    alignment pairs them before anything else could (see
    :func:`._merge.merge_hedges`)."""
    shape = scratch[a].shape
    return bool(shape) and shape == scratch[b].shape


def content_sig(scratch: Scratch, nodes: Sequence[TNode]) -> tuple[Any, ...]:
    """The content of a hedge of template nodes as one flat tuple (no
    recursion), to tell whether two hedges are the very same. A set counts
    as the hedge it was folded from, while it has one."""
    out: list[Any] = []
    stack: list[tuple[TNode, int]] = [(node, 0) for node in reversed(nodes)]
    while stack:
        node, depth = stack.pop()
        item, below = _sig_item(scratch, node)
        out.append((depth, *item))
        stack.extend((child, depth + 1) for child in reversed(below))
    return tuple(out)


def _sig_item(scratch: Scratch, node: TNode) -> tuple[tuple[Any, ...], list[TNode]]:
    """One node's entry in :func:`content_sig` (after its depth), and the
    nodes below it."""
    if isinstance(node, Elem):
        return (node.tag, tuple(sorted(node.attrs.items(), key=lambda kv: kv[0]))), node.children
    if isinstance(node, Text):
        return ("#", tuple(node.parts)), []
    if isinstance(node, Set):
        info = scratch.get(node)
        raw = info.raw if info is not None else None
        return ("set", raw is None), raw or node.children
    if isinstance(node, Opt):
        return ("opt",), [node.child]
    return ("blob",), []


def unstyled(profile: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """A profile with its elements' classes left out (texts kept): how two
    lists compare whose rows differ in style only (see :mod:`._styles`)."""
    return frozenset(
        tuple(label if label.startswith("#") else label.split(".", 1)[0] for label in feature)
        for feature in profile
    )


def template_features(profile: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The features that end in a template text (textual symbols)."""
    return frozenset(f for f in profile if len(f[-1]) > 1 and f[-1][0] == "#")


def dice(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> float:
    if not a or not b:
        return 0.0
    return 2.0 * len(a & b) / (len(a) + len(b))
