"""The one template model of scrapy-wrapx (DESIGN.md, "One template model").

FiVaTech's pattern tree, SYNTHIA's layout tree and EXALG's template are one
object seen three ways, so this module has one set of node types:

* :class:`Elem` — a *fixed* element: a tag with its fixed attributes; an
  attribute whose value differs between pages is a variant slot (``None``);
* :class:`Text` — a text node: fully fixed, fully variant, or *partly* fixed
  (EXALG tokens), as ``"Price: " + variant``;
* :class:`Opt` — SYNTHIA's ``if``: its one child is present or absent;
* :class:`Set` — SYNTHIA's ``for``: one or more repetitions of a child
  sequence; sets nest (records with sub-lists);
* :class:`Blob` — a variant *hedge*, kept as data as a whole: induction cuts
  pathologically deep pages with it, so that no algorithm recurses without
  bound.

A :class:`Template` extracts an :class:`Extraction` from a page (the matching
lives in :mod:`scrapy_wrapx.extraction`) and *renders* it back: on every seed
page ``render(extract(page)) == normalized_form(page)``, the lossless property
of SYNTHIA, which cannot hold by accident and so is the strongest check the
induction has. Templates are stored as versioned JSON, never pickled.

The comparable form of a tree is flat: one tuple per node in pre-order,
``(depth, tag, attributes)`` for an element and ``(depth, "#text", text)`` for
a text leaf. A flat form compares without recursion, even on 2,000-deep pages.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scrapy_wrapx._versioned import load_versioned
from scrapy_wrapx.dom import TEXT, PageTree

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node

__all__ = [
    "FORMAT",
    "TEMPLATE_VERSION",
    "Blob",
    "Elem",
    "Extraction",
    "FieldInfo",
    "Opt",
    "Set",
    "TNode",
    "Template",
    "Text",
    "normalized_form",
]

#: Bumped whenever the JSON layout changes; :meth:`Template.from_json`
#: refuses other versions instead of misreading them.
TEMPLATE_VERSION = 2
#: The ``format`` key of a template's JSON, so foreign JSON is refused.
FORMAT = "scrapy-wrapx-template"

#: One node of the comparable form (see the module docstring).
FormItem = tuple[int, str, Any]


class Elem:
    """A fixed element. ``attrs`` maps names to fixed values, or to ``None``
    for a variant attribute (a slot; absent on a page is a value too).

    ``sigs`` (on fully fixed subtrees only) are digests of the seed
    elements' serializations: a page element with one of them is that
    subtree exactly, so extraction takes it without walking it."""

    __slots__ = ("attrs", "children", "names", "sigs", "tag", "uid", "weight")
    kind = "elem"

    def __init__(self, tag: str, attrs: dict[str, str | None], children: list[TNode]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.children = children
        self.uid = -1
        #: Field name per variant attribute that carries data (``href``...).
        self.names: dict[str, str] = {}
        self.sigs: tuple[str, ...] = ()
        self.weight = 0

    @property
    def variant_attrs(self) -> list[str]:
        return sorted(name for name, value in self.attrs.items() if value is None)


class Text:
    """A text node: ``parts`` are fixed strings and ``None`` slots, e.g.
    ``["Price: ", None]``; ``("Home",)`` is fixed, ``(None,)`` all data."""

    __slots__ = ("_regex", "names", "parts", "uid", "weight")
    kind = "text"

    def __init__(self, parts: list[str | None]) -> None:
        self.parts = parts
        self.uid = -1
        #: One field name per slot.
        self.names: list[str] = []
        self.weight = 0
        self._regex: re.Pattern[str] | None = None

    @property
    def fixed(self) -> bool:
        return None not in self.parts

    @property
    def slots(self) -> int:
        return self.parts.count(None)

    @property
    def regex(self) -> re.Pattern[str]:
        """Fixed parts literally, a lazy group per slot, whole text."""
        if self._regex is None:
            pattern = "".join("(.*?)" if part is None else re.escape(part) for part in self.parts)
            self._regex = re.compile(pattern, re.DOTALL)
        return self._regex

    def split(self, value: str) -> tuple[str, ...] | None:
        """The slot values of ``value``, or None when it does not fit."""
        if self.fixed:
            return () if value == self.parts[0] else None
        match = self.regex.fullmatch(value)
        return match.groups() if match is not None else None


class Opt:
    """An optional node (SYNTHIA ``if``): ``child`` is present or absent."""

    __slots__ = ("child", "uid", "weight")
    kind = "opt"

    def __init__(self, child: TNode) -> None:
        self.child = child
        self.uid = -1
        self.weight = 0


class Set:
    """One or more repetitions of ``children`` (SYNTHIA ``for``)."""

    __slots__ = ("children", "name", "uid", "weight")
    kind = "set"

    def __init__(self, children: list[TNode]) -> None:
        self.children = children
        self.uid = -1
        self.name = ""
        self.weight = 0


class Blob:
    """Any hedge, kept whole as data (only below induction's depth cap)."""

    __slots__ = ("name", "uid", "weight")
    kind = "blob"

    def __init__(self) -> None:
        self.uid = -1
        self.name = ""
        self.weight = 0


TNode = Elem | Text | Opt | Set | Blob


@dataclass
class FieldInfo:
    """Where a field lives and what named it: the keys that keep names stable
    when a template is re-induced (see ``induce_template(previous=...)``)."""

    name: str
    uid: int
    slot: str  # slot index of a text ("0", "1"...) or the attribute name
    label: str = ""
    hint: str = ""
    path: str = ""

    @property
    def key(self) -> tuple[str, str, str, str]:
        kind = "text" if self.slot.isdigit() else self.slot
        return (kind, self.label, self.hint, self.path)


@dataclass
class Extraction:
    """What a template extracted from one page.

    ``fields`` holds every variant field under its stable name, values in
    page order; ``records`` the records of every set (nested sets nest);
    ``score`` the share of the template that matched, ``coverage`` the
    share of the page's leaves the template explained, ``matched`` whether
    both reach their thresholds (:attr:`Template.match_threshold`,
    :attr:`Template.coverage_threshold`). ``data`` is the raw
    environment (SYNTHIA's) that :func:`~scrapy_wrapx.extraction.render` needs.
    """

    fields: dict[str, list[str]]
    records: dict[str, list[dict[str, Any]]]
    score: float
    matched: bool
    url: str | None = None
    data: dict[int, Any] = field(default_factory=dict, repr=False)
    #: Share of the page's leaves the template explained.
    coverage: float = 1.0


def iter_nodes(root: TNode) -> Iterator[TNode]:
    """Pre-order over a template, without recursion."""
    stack: list[TNode] = [root]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (Elem, Set)):
            stack.extend(reversed(node.children))
        elif isinstance(node, Opt):
            stack.append(node.child)


def node_form(node: Node, depth: int, out: list[FormItem]) -> None:
    """Append the comparable form of ``node``'s subtree (iteratively)."""
    stack: list[tuple[Node, int]] = [(node, depth)]
    while stack:
        current, level = stack.pop()
        if current.tag == TEXT:
            out.append((level, TEXT, current.value))
            continue
        out.append((level, current.tag, tuple(sorted(current.element.attrib.items()))))
        stack.extend((child, level + 1) for child in reversed(current.children))


def normalized_form(page: PageTree | Node) -> tuple[FormItem, ...]:
    """The comparable form of a page's normalized tree (what
    :func:`~scrapy_wrapx.extraction.render` returns for an extraction of that page)."""
    out: list[FormItem] = []
    node_form(page.root if isinstance(page, PageTree) else page, 0, out)
    return tuple(out)


def _node_to_json(node: TNode) -> dict[str, Any]:
    if isinstance(node, Elem):
        data: dict[str, Any] = {"k": "e", "t": node.tag, "a": node.attrs}
        if node.names:
            data["n"] = node.names
        if node.sigs:
            data["h"] = list(node.sigs)
        data["c"] = [_node_to_json(child) for child in node.children]
        return data
    if isinstance(node, Text):
        return {"k": "t", "p": node.parts, "n": node.names}
    if isinstance(node, Opt):
        return {"k": "o", "c": _node_to_json(node.child)}
    if isinstance(node, Set):
        return {"k": "s", "n": node.name, "c": [_node_to_json(child) for child in node.children]}
    return {"k": "b", "n": node.name}


def _elem_from_json(data: dict[str, Any]) -> Elem:
    attrs = data.get("a", {})
    if not isinstance(data.get("t"), str) or not isinstance(attrs, dict):
        raise ValueError(f"Invalid template element: {data.get('t')!r}")
    elem = Elem(data["t"], dict(attrs), [_node_from_json(c) for c in data.get("c", [])])
    elem.names = dict(data.get("n", {}))
    sigs = data.get("h", [])
    if not isinstance(sigs, list) or not all(isinstance(h, str) for h in sigs):
        raise ValueError(f"Invalid template element digests: {sigs!r}")
    elem.sigs = tuple(sigs)
    return elem


def _text_from_json(data: dict[str, Any]) -> Text:
    parts = data.get("p")
    if not isinstance(parts, list) or not parts:
        raise ValueError(f"Invalid template text parts: {parts!r}")
    text = Text(list(parts))
    text.names = list(data.get("n", []))
    if len(text.names) != text.slots:
        raise ValueError(f"Template text {parts!r} has names {text.names!r}")
    return text


def _opt_from_json(data: dict[str, Any]) -> Opt:
    return Opt(_node_from_json(data.get("c")))


def _set_from_json(data: dict[str, Any]) -> Set:
    node = Set([_node_from_json(c) for c in data.get("c", [])])
    node.name = str(data.get("n", ""))
    return node


def _blob_from_json(data: dict[str, Any]) -> Blob:
    blob = Blob()
    blob.name = str(data.get("n", ""))
    return blob


#: The reader of each node kind's JSON (the ``k`` key).
_NODE_READERS: dict[Any, Callable[[dict[str, Any]], TNode]] = {
    "e": _elem_from_json,
    "t": _text_from_json,
    "o": _opt_from_json,
    "s": _set_from_json,
    "b": _blob_from_json,
}


def _node_from_json(data: Any) -> TNode:
    if not isinstance(data, dict):
        raise ValueError(f"Invalid template node: {data!r}")
    kind = data.get("k")
    reader = _NODE_READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise ValueError(f"Unknown template node kind: {kind!r}")
    return reader(data)


class Template:
    """An induced template: extract pages with it, render extractions back,
    store it as JSON."""

    #: Least share of the template a matching page shows: more than half,
    #: the template's core. Blocks every seed had may be missing (a page
    #: without reviews); see :func:`scrapy_wrapx.extraction.extract`.
    match_threshold = 0.5
    #: Least share of a matching page's leaves the template explains: more
    #: than half, too. A page of another kind, or a redesign, is mostly
    #: content the template does not know; a page of the same kind may add
    #: a block no seed had (a category list), as it may lack one.
    coverage_threshold = 0.5

    def __init__(
        self, root: Elem, fields: list[FieldInfo] | None = None, meta: dict[str, Any] | None = None
    ) -> None:
        self.root = root
        self.version = TEMPLATE_VERSION
        self.meta: dict[str, Any] = dict(meta or {})
        self._finalize()
        self.fields = fields if fields is not None else []

    def _finalize(self) -> None:
        """Number the nodes in pre-order (``uid`` keys the environment) and
        weigh them: the weight of a node is how many required nodes it
        stands for, the denominator of :attr:`Extraction.score`."""
        order = list(iter_nodes(self.root))
        for uid, node in enumerate(order):
            node.uid = uid
        for node in reversed(order):
            if isinstance(node, Elem):
                node.weight = 1 + sum(child.weight for child in node.children)
            elif isinstance(node, Text):
                node.weight = 1
            elif isinstance(node, Set):
                node.weight = sum(child.weight for child in node.children)
            else:
                node.weight = 0
        self.nodes = order

    @property
    def field_names(self) -> list[str]:
        return [info.name for info in self.fields]

    @property
    def set_names(self) -> list[str]:
        return [n.name for n in self.nodes if isinstance(n, Set)]

    @property
    def fingerprint(self) -> str:
        """A short id of the template's structure (names left out, so a
        renamed field does not make it look like another template)."""
        structure = json.dumps(self._structure(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha1(structure.encode("utf-8")).hexdigest()[:12]

    def _structure(self) -> list[Any]:
        return [
            (
                n.kind,
                getattr(n, "tag", ""),
                sorted(n.attrs.items(), key=lambda kv: kv[0])
                if isinstance(n, Elem)
                else getattr(n, "parts", None),
            )
            for n in self.nodes
        ]

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "version": TEMPLATE_VERSION,
                "meta": self.meta,
                "fields": [info.__dict__ for info in self.fields],
                "root": _node_to_json(self.root),
            },
            sort_keys=True,
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Template:
        data = load_versioned(text, FORMAT, TEMPLATE_VERSION, "scrapy-wrapx template")
        root = _node_from_json(data.get("root"))
        if not isinstance(root, Elem):
            raise ValueError(f"Template root is not an element: {root.kind!r}")
        try:
            fields = [FieldInfo(**info) for info in data.get("fields", [])]
        except TypeError as exc:
            raise ValueError(f"Invalid template fields: {data.get('fields')!r}") from exc
        return cls(root, fields, data.get("meta"))

    def __repr__(self) -> str:
        return f"<Template {self.fingerprint} {len(self.nodes)} nodes, fields={self.field_names[:8]!r}>"
