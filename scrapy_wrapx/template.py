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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scrapy_wrapx._versioned import load_json
from scrapy_wrapx.dom import TEXT, PageTree

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node

__all__ = [
    "FORMAT",
    "READABLE_VERSIONS",
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
    "assign_sets",
    "enclosing_sets",
    "normalized_form",
]

#: Bumped whenever the JSON layout changes; :meth:`Template.from_json`
#: refuses other versions than these instead of misreading them. Version 3
#: added each field's enclosing set (:attr:`FieldInfo.set`), which a
#: version 2 template gets from its tree when it is read. Version 4 added
#: whether a field's label is an element of its own
#: (:attr:`FieldInfo.label_element`), false in an older template.
TEMPLATE_VERSION = 4
#: The versions :meth:`Template.from_json` reads.
READABLE_VERSIONS = (2, 3, 4)
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

    __slots__ = ("_pieces", "latent", "names", "parts", "uid", "weight")
    kind = "text"

    def __init__(self, parts: list[str | None]) -> None:
        self.parts = parts
        self.uid = -1
        #: One field name per slot.
        self.names: list[str] = []
        #: For a fixed text that may be data, the name it takes on a page
        #: where it differs (see :func:`latent_fields`).
        self.latent = ""
        self.weight = 0
        self._pieces: tuple[list[str | None], _Pieces, bool] | None = None

    @property
    def fixed(self) -> bool:
        return None not in self.parts

    @property
    def slots(self) -> int:
        return self.parts.count(None)

    def split(self, value: str) -> tuple[str | None, ...] | None:
        """The slot values of ``value``, or None when it does not fit.

        The values are those of the leftmost-shortest assignment: each slot
        as short as it can be, the first slot first (what a regular
        expression of a lazy ``(.*?)`` per slot would give), found in time
        linear in the text (see :func:`split_slots`). A text of labelled
        fields ("Height: _ | College: _ | Weight: _") fits a value that
        lacks some of them too: their slots are None, absent (see
        :func:`split_present`).
        """
        if self.fixed:
            return () if value == self.parts[0] else None
        pieces, labelled = self._split_pieces()
        slots = split_slots(pieces, value)
        if slots is None:
            slots = split_folded(pieces, value)
        if labelled and (slots is None or _unknown_label(slots)):
            return split_present(pieces, value)
        return slots

    def foreign_label(self, value: str) -> bool:
        """Whether ``value``, which does not fit this text, opens with a
        label other than the one this text opens with: "Our price: $9"
        where the seeds read "List price: {}" is another field's text, not
        this field's value whole.

        >>> Text(["List price: ", None]).foreign_label("Our price: $23.99")
        True
        >>> Text(["List price: ", None]).foreign_label("List price $23.99")
        False
        """
        (head, _, _), _ = self._split_pieces()
        own = _OPENING_LABEL.match(head)
        if own is None:
            return False
        other = _OPENING_LABEL.match(value)
        return other is not None and other.group(1) != own.group(1)

    def join(self, slots: tuple[str | None, ...]) -> str:
        """The text of slot values (:meth:`split`'s inverse): an absent
        slot goes with the labelled separator before it."""
        pieces, _ = self._split_pieces()
        return join_pieces(pieces, slots)

    def _split_pieces(self) -> tuple[_Pieces, bool]:
        """The text's pieces, and whether it is a run of labelled fields
        (every separator ends in a label), worked out once per parts."""
        found = self._pieces
        if found is None or found[0] is not self.parts:
            pieces = _pieces(self.parts)
            found = self._pieces = (self.parts, pieces, bool(pieces[1]) and _labelled(pieces))
        return found[1], found[2]


#: A text with slots as ``(head, separators, tail)``: the fixed text before
#: the first slot, between consecutive slots and after the last one.
_Pieces = tuple[str, tuple[str, ...], str]


def _pieces(parts: list[str | None]) -> _Pieces:
    """Adjacent fixed parts joined, one separator between two slots (empty
    between adjacent slots)."""
    runs: list[str] = []
    run: list[str] = []
    for part in parts:
        if part is None:
            runs.append("".join(run))
            run = []
        else:
            run.append(part)
    return runs[0], tuple(runs[1:]), "".join(run)


def join_pieces(pieces: _Pieces, slots: Sequence[str | None]) -> str:
    """The text of ``pieces`` with ``slots`` in them; an absent (None) slot
    goes with the separator before it."""
    head, separators, tail = pieces
    out = [head, slots[0] or ""]
    for separator, slot in zip(separators, slots[1:], strict=True):
        if slot is not None:
            out.extend((separator, slot))
    out.append(tail)
    return "".join(out)


def split_slots(pieces: _Pieces, value: str) -> tuple[str, ...] | None:
    """The slot values of ``value`` for ``head slot (separator slot)* tail``.

    Each separator is taken at its first occurrence after the previous one
    that leaves room for the tail: if any assignment exists, this one does
    (a later occurrence leaves less room for the rest), and it is the one
    that makes each slot in turn as short as it can be. So it is the match
    of a lazy regular expression, without its backtracking, which is cubic
    in the text when the separators repeat and the tail is missing.

    >>> split_slots(("Dims: ", (" / ", " / "), " in"), "Dims: 5 / 8 / 1 / 2 in")
    ('5', '8', '1 / 2')
    >>> split_slots(("Dims: ", (" / ", " / "), " in"), "Dims: 5 / 8 / 1 cm") is None
    True
    """
    head, separators, tail = pieces
    stop = len(value) - len(tail)
    if stop < len(head) or not value.startswith(head) or not value.endswith(tail):
        return None
    values: list[str] = []
    begin = len(head)
    for separator in separators:
        at = value.find(separator, begin, stop)
        if at < 0:
            return None
        values.append(value[begin:at])
        begin = at + len(separator)
    values.append(value[begin:stop])
    return tuple(values)


def split_folded(pieces: _Pieces, value: str) -> tuple[str, ...] | None:
    """The slot values of ``value`` where an empty slot took the blank
    beside it: a page's text is whitespace-folded, so "Code: " with no code
    reads "Code:", and "Height:  | Weight: 9" reads "Height: | Weight: 9".
    The pieces are matched without their edge blanks and the values
    stripped, so the empty slot is "" (no value), not the text whole (the
    label, as a value). Only where no separator is blank alone: stripped,
    it would match anywhere.

    >>> split_folded(("Code: ", (), ""), "Code:")
    ('',)
    >>> split_folded(("Height: ", (" | Weight: ",), " lbs"), "Height: | Weight: 9 lbs")
    ('', '9')
    >>> split_folded(("", (" ",), ""), "5") is None
    True
    >>> split_folded(("- ", (), ""), "-Note-") is None
    True
    """
    head, separators, tail = pieces
    stripped = tuple(separator.strip() for separator in separators)
    if not all(stripped):
        return None
    found = split_slots((head.strip(), stripped, tail.strip()), value)
    if found is None:
        return None
    slots = tuple(slot.strip() for slot in found)
    if "" not in slots:
        return None
    # Only blanks may differ: "-Note-" is no "- {slot}" with its blank folded.
    return slots if " ".join(join_pieces(pieces, slots).split()) == value else None


#: Elements a row's label stands in: a bold lead-in, a term, a header
#: cell, a form label (headings name sections, not the value after them;
#: see :data:`.induction._naming.LEAD_TAGS`). Induction reads labels by
#: them, and extraction the values after them (see
#: :func:`.extraction._compiled.labelled_value`).
ROW_LABEL_TAGS = frozenset({"th", "dt", "label", "b", "strong"})

#: Most digits of a number read from a page or a template's meta (a page
#: number, an index): more is no such number, and a number of thousands of
#: digits is more than ``int`` reads.
MAX_NUMBER_DIGITS = 9


def decimal_number(text: str, digits: int = MAX_NUMBER_DIGITS) -> int | None:
    """The number ``text`` is, in decimal digits only ("²" is a digit that
    ``int`` rejects) and at most ``digits`` of them; else None.

    >>> decimal_number("12"), decimal_number("²"), decimal_number("1" * 10), decimal_number("3", 0)
    (12, None, None, None)
    """
    return int(text) if text.isdecimal() and len(text) <= digits else None


#: A label: words ending in a colon ("Price:", "ISBN-13:"); "12:30" and
#: "http://x" are none.
LABEL = r"[^\W\d_][^:]{0,30}:"
#: A label a text opens with, a space after it: "Price:" of "Price: $12".
_OPENING_LABEL = re.compile(rf"({LABEL})\s")

#: What may stand between a field and the label of the next one in a text
#: of labelled fields: whitespace and separator punctuation, never a
#: bracket, unit or full stop of the value.
LABEL_SEPARATORS = " \t\n,;|/\u2022\u00b7\u2013\u2014-"
#: A separator ending in a label of its own: " | Weight: ", ", Born: ".
_LABELLED_SEPARATOR = re.compile(
    r"(?:^|[\s,;|/\u2022\u00b7\u2013\u2014-])([^\W\d_][\w.'-]*(?: [\w.'-]+)*: )$"
)
#: A label inside a slot's value, where a text of labelled fields holds one
#: the template does not know.
_SLOT_LABEL = re.compile(r"(?:^|(?<=[\s,;|/\u2022\u00b7]))[^\W\d_a-z][\w.'-]*: ")


def _labelled(pieces: _Pieces) -> bool:
    """Whether every separator between slots ends in a label of its own."""
    return all(_LABELLED_SEPARATOR.search(separator) for separator in pieces[1])


def _unknown_label(slots: tuple[str | None, ...]) -> bool:
    """Whether a slot holds a label: a field the template does not know."""
    return any(slot and _SLOT_LABEL.search(slot) for slot in slots)


def split_present(pieces: _Pieces, value: str) -> tuple[str | None, ...] | None:
    """The slot values of ``value`` for ``head slot (separator slot)* tail``
    where every separator ends in a label and some are missing: each
    separator found is taken at its first occurrence, in order, and the
    slot after one that is missing is None, absent.

    Wrong values are worse than none, so this gives up (None) where a
    missing label is there with another separator before it, or a slot
    holds a label the template does not know: that slot could hold two
    fields.

    >>> pieces = ("Height: ", (" | Weight: ", " | Born: "), "")
    >>> split_present(pieces, "Height: 6-8 | Born: May 3, 1990")
    ('6-8', None, 'May 3, 1990')
    >>> split_present(pieces, "Height: 6-8, Weight: 220 lbs | Born: May 3, 1990") is None
    True
    >>> split_present(pieces, "Height: 6-8 | College: Duke | Born: May 3, 1990") is None
    True
    """
    head, separators, tail = pieces
    stop = len(value) - len(tail)
    if stop < len(head) or not value.startswith(head) or not value.endswith(tail):
        return None
    slots: list[str | None] = [None] * (len(separators) + 1)
    current, begin = 0, len(head)
    for index, separator in enumerate(separators):
        at = value.find(separator, begin, stop)
        if at < 0:
            if separator.lstrip(LABEL_SEPARATORS) in value:
                return None  # its label, after another separator
            continue
        slots[current] = value[begin:at]
        current, begin = index + 1, at + len(separator)
    slots[current] = value[begin:stop]
    return None if _unknown_label(tuple(slots)) else tuple(slots)


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
    #: The name of the innermost set the slot is under, "" for none: the
    #: template, not one page's count, says whether a field is one value
    #: (a scalar) or a repeat (a list, inside its set's records).
    set: str = ""
    #: Whether the label is the whole text of an element of its own (a
    #: ``th``, a ``dt``, a ``span``), not a lead-in in the value's own
    #: element ("by <a>Paul Kent</a>"): such a label names its value even
    #: where it ends with a particle ("Check in", "Made in"; see
    #: :func:`.induction._naming.label_name`).
    label_element: bool = False

    @property
    def repeated(self) -> bool:
        return bool(self.set)

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
        text: dict[str, Any] = {"k": "t", "p": node.parts, "n": node.names}
        if node.latent:
            text["l"] = node.latent
        return text
    if isinstance(node, Opt):
        return {"k": "o", "c": _node_to_json(node.child)}
    if isinstance(node, Set):
        return {"k": "s", "n": node.name, "c": [_node_to_json(child) for child in node.children]}
    return {"k": "b", "n": node.name}


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _children_from_json(data: dict[str, Any]) -> list[TNode]:
    children = data.get("c", [])
    if not isinstance(children, list):
        raise ValueError(f"Invalid template children: {children!r:.60}")
    return [_node_from_json(child) for child in children]


def _elem_from_json(data: dict[str, Any]) -> Elem:
    tag, attrs, names = data.get("t"), data.get("a", {}), data.get("n", {})
    if not isinstance(tag, str) or not isinstance(attrs, dict):
        raise ValueError(f"Invalid template element: {tag!r:.60}")
    if not all(value is None or isinstance(value, str) for value in attrs.values()):
        raise ValueError(f"Invalid attributes of template element {tag!r}: {attrs!r:.60}")
    if not isinstance(names, dict) or not all(isinstance(n, str) for n in names.values()):
        raise ValueError(f"Invalid field names of template element {tag!r}: {names!r:.60}")
    elem = Elem(tag, dict(attrs), _children_from_json(data))
    elem.names = dict(names)
    sigs = data.get("h", [])
    if not _strings(sigs):
        raise ValueError(f"Invalid template element digests: {sigs!r:.60}")
    elem.sigs = tuple(sigs)
    return elem


def _text_from_json(data: dict[str, Any]) -> Text:
    parts, names = data.get("p"), data.get("n", [])
    if not isinstance(parts, list) or not parts:
        raise ValueError(f"Invalid template text parts: {parts!r:.60}")
    if not all(part is None or isinstance(part, str) for part in parts):
        raise ValueError(f"Invalid template text parts: {parts!r:.60}")
    if not _strings(names):
        raise ValueError(f"Invalid template text names: {names!r:.60}")
    text = Text(list(parts))
    text.names = list(names)
    if len(text.names) != text.slots:
        raise ValueError(f"Template text {parts!r:.60} has names {text.names!r:.60}")
    latent = data.get("l", "")
    if not isinstance(latent, str) or (latent and not text.fixed):
        raise ValueError(f"Invalid latent name of template text {parts!r:.60}: {latent!r:.60}")
    text.latent = latent
    return text


def _opt_from_json(data: dict[str, Any]) -> Opt:
    return Opt(_node_from_json(data.get("c")))


def _name_from_json(data: dict[str, Any]) -> str:
    name = data.get("n", "")
    if not isinstance(name, str):
        raise ValueError(f"Invalid template node name: {name!r:.60}")
    return name


def _set_from_json(data: dict[str, Any]) -> Set:
    node = Set(_children_from_json(data))
    node.name = _name_from_json(data)
    return node


def _blob_from_json(data: dict[str, Any]) -> Blob:
    blob = Blob()
    blob.name = _name_from_json(data)
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


def _fields_from_json(data: Any) -> list[FieldInfo]:
    if not isinstance(data, list):
        raise ValueError(f"Invalid template fields: {data!r:.60}")
    fields = []
    for info in data:
        texts = ("name", "slot", "label", "hint", "path", "set")
        if (
            not isinstance(info, dict)
            or set(info) - {"uid", "label_element", *texts}
            or not all(isinstance(info.get(key, ""), str) for key in texts)
            or not isinstance(info.get("label_element", False), bool)
            or not isinstance(info.get("uid"), int)
            or isinstance(info.get("uid"), bool)
        ):
            raise ValueError(f"Invalid template field: {info!r:.60}")
        fields.append(FieldInfo(**info))
    return fields


def _template_data(data: Any) -> dict[str, Any]:
    """``data`` if it is the JSON object of a template of one of
    :data:`READABLE_VERSIONS` (:func:`~scrapy_wrapx._versioned.load_versioned`,
    for several versions)."""
    what = "scrapy-wrapx template"
    if not isinstance(data, dict):
        raise ValueError(f"Not a {what}: a JSON {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise ValueError(f"Not a {what}: format {data.get('format')!r:.60}")
    version = data.get("version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise ValueError(f"Unsupported {what} version: {version!r}")
    return data


#: Template meta key: ``"uid/slot"`` of a field -> the ``"uid/slot"`` of the
#: copies of it that induction dropped (the same values on every seed, see
#: :mod:`scrapy_wrapx.induction._copies`), in rank order: where a page does
#: not show the field's own copy (a breadcrumb without the company's link),
#: extraction takes its value from one of these (the company's labelled
#: row) rather than leave the field empty.
COPY_FALLBACKS = "copy_fallbacks"


#: Template meta key: ``[text uid, field uid]`` pairs, a latent text that
#: is the datum of a text field shown in another place on other pages (see
#: :func:`scrapy_wrapx.induction._latent.note_latent_shares`): it takes the
#: field's name, whatever the field is renamed to.
LATENT_SHARES = "latent_shares"


#: Template meta key: ``[text uid, text uid]`` pairs, a latent text that
#: is the datum of an earlier latent text in another place (see
#: :func:`scrapy_wrapx.induction._latent.note_latent_shares`): it takes
#: that text's name.
LATENT_TWINS = "latent_twins"


def latent_notes(template: Template) -> tuple[Any, Any]:
    """What the names of a template's latent texts depend on besides its
    field and set names: the notes :data:`LATENT_SHARES` and
    :data:`LATENT_TWINS`."""
    return template.meta.get(LATENT_SHARES), template.meta.get(LATENT_TWINS)


def _latent_twins(template: Template) -> dict[int, int]:
    """Latent text uid -> the uid of the earlier latent text it is the
    datum of (see :data:`LATENT_TWINS`)."""
    noted = template.meta.get(LATENT_TWINS)
    if not isinstance(noted, list):
        return {}
    return {
        pair[0]: pair[1]
        for pair in noted
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(u, int) for u in pair)
    }


def _latent_shares(template: Template) -> dict[int, str]:
    """Latent text uid -> the name of the field it is the datum of (see
    :data:`LATENT_SHARES`); pairs that no longer fit the template's
    fields are left out."""
    noted = template.meta.get(LATENT_SHARES)
    if not isinstance(noted, list):
        return {}
    names = {info.uid: info.name for info in template.fields if info.slot.isdigit()}
    shares: dict[int, str] = {}
    for pair in noted:
        if isinstance(pair, list) and len(pair) == 2 and pair[1] in names:
            shares[pair[0]] = names[pair[1]]
    return shares


_SLUG = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    """A text as a name: lower case, words joined by ``_``, at most 40
    characters, ``f_`` before a leading digit.

    >>> slug("In stock?"), slug("3PM-A")
    ('in_stock', 'f_3pm_a')
    """
    name = _SLUG.sub("_", text.lower()).strip("_")[:40].strip("_")
    if name and name[0].isdigit():
        name = f"f_{name}"
    return name


#: A label a fixed text opens with ("Team: " of "Team: Boston Celtics"):
#: it names the text's latent field and is no part of its value.
LATENT_LABEL = re.compile(rf"\s*{LABEL}\s*(?=\S)")


def latent_fields(template: Template) -> dict[int, str]:
    """The latent fields of a template (fixed texts that may be data, see
    :mod:`scrapy_wrapx.induction._latent`): uid to name, in page order,
    each name apart from every field and set name and unique among them
    but for *twins*: a latent text of the same base name and seed text as
    one before it is that one's copy in a block the seeds marked up in two
    ways (wrapped on some, not on others), and shares its name; and but for
    one in a version of a block named as a field of another version of it,
    or in an element alike (:func:`_version_field_names`), and one that
    induction found to be a field's datum shown in another place
    (:data:`LATENT_SHARES`), which is that field's datum, or an earlier
    latent text's in another place (:data:`LATENT_TWINS`), which shares
    its name."""
    used = set(template.field_names) | set(template.set_names)
    shared, placed = _version_field_names(template)
    fields = _latent_shares(template)
    places = _latent_twins(template)
    names: dict[int, str] = {}
    #: The last counter tried per base: a menu's hundred items share one
    #: base, and trying every counter from 2 again each time is quadratic.
    counters: dict[str, int] = {}
    twins: dict[tuple[str, str | None], str] = {}
    for node in template.nodes:
        if isinstance(node, Text) and node.latent:
            base = node.latent
            if base in shared.get(node.uid, ()):
                names[node.uid] = base
                continue
            if node.uid in placed:
                names[node.uid] = placed[node.uid]
                continue
            if node.uid in fields:
                names[node.uid] = fields[node.uid]
                continue
            if places.get(node.uid) in names:
                names[node.uid] = names[places[node.uid]]
                continue
            twin = twins.get((base, node.parts[0]))
            if twin is not None:
                names[node.uid] = twin
                continue
            name, count = base, counters.get(base, 1)
            while name in used:
                count += 1
                name = f"{base}_{count}"
            counters[base] = count
            used.add(name)
            names[node.uid] = twins[base, node.parts[0]] = name
    return names


#: Most versions of a block in one place: versions are few; more look-alikes
#: are rows alike by their tags (``<tr>`` without attributes), which their
#: place and content tell apart.
MAX_VERSIONS = 3
#: How many first-child levels down :func:`_opening` looks.
OPENING_DEPTH = 3


def block_versions(root: TNode) -> list[tuple[Elem, ...]]:
    """Optional elements next to each other in a hedge that look the same
    on their own (tag and fixed attributes) but open differently (see
    :func:`_opening`): versions of one block, ``<div id=price>`` around a
    ``<div id=sale>`` on some seeds and around a ``<table>`` on others.
    Extraction takes a page's block for the version that explains it
    best, and induction names a datum the same in each version.

    Only alternatives of one place, nothing between them: elements every
    page shows (a menu's items, each its own link), or optional ones with
    another part between them, are told apart by their place in the hedge,
    and a page whose menu links changed still fits them. And only outside
    lists: the alternatives of a record are the kinds of records (a
    credits table's heading rows and person rows), each seen on many
    records, which the list's parse tells apart; matching every record as
    each kind would multiply a long list's cost."""
    found: list[tuple[Elem, ...]] = []
    stack: list[TNode] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Elem):
            found.extend(_hedge_versions(node.children))
            stack.extend(node.children)
        elif isinstance(node, Opt):
            stack.append(node.child)
    return found


def _hedge_versions(items: list[TNode]) -> list[tuple[Elem, ...]]:
    """The runs of optional elements next to each other in ``items`` that
    look the same, where they open differently."""
    found: list[tuple[Elem, ...]] = []
    run: list[Elem] = []
    for item in [*items, None]:
        head = item.child if isinstance(item, Opt) and isinstance(item.child, Elem) else None
        if head is not None and run and element_look(head) == element_look(run[0]):
            run.append(head)
            continue
        if 1 < len(run) <= MAX_VERSIONS and len({_opening(m) for m in run}) > 1:
            found.append(tuple(run))
        run = [head] if head is not None else []
    return found


def colon_label(node: TNode) -> str:
    """The text of an element that holds one fixed text only, a label
    ending with a colon ("<b>Pages:</b>"), stripped; else ``""``."""
    if not isinstance(node, Elem) or len(node.children) != 1:
        return ""
    text = node.children[0]
    if not isinstance(text, Text) or not text.fixed:
        return ""
    value = (text.parts[0] or "").strip()
    return value if value.endswith(":") else ""


def element_look(item: Elem) -> tuple[Any, ...]:
    """What a shallow fit compares of an element: tag and fixed attributes."""
    return (item.tag, tuple(sorted((k, v) for k, v in item.attrs.items() if v is not None)))


def opening_elements(item: Elem) -> list[Elem]:
    """The chain of first children below ``item`` while they are elements
    every page shows, :data:`OPENING_DEPTH` at most (see :func:`_opening`)."""
    chain: list[Elem] = []
    while len(chain) < OPENING_DEPTH and item.children and isinstance(item.children[0], Elem):
        item = item.children[0]
        chain.append(item)
    return chain


def _opening(item: Elem) -> tuple[Any, ...]:
    """The looks of the chain of first children below ``item`` while they
    are elements every page shows, :data:`OPENING_DEPTH` at most: versions
    of a block open differently (``<div id=sale>``, ``<table>``), where
    optional parts alike at the top that differ further down are the
    hedge's parse to tell apart."""
    return tuple(element_look(elem) for elem in opening_elements(item))


def _version_field_names(template: Template) -> tuple[dict[int, set[str]], dict[int, str]]:
    """For the texts in a version of a block (see :func:`block_versions`):
    the names of the text fields of the block's other versions, and the
    one such field in an element that looks like the text's own, if one
    alone. A latent text named as one of the first, or in the place of the
    second, is that field's datum where a page shows the version whose
    every seed agreed on it (two seeds of one product, or a version one
    seed alone showed: "Aliens vs. Predator: Requiem" in its ``<h1>`` is
    the title the other version's ``<h1>`` holds). Versions of a block
    differ in the markup around a datum and agree on the element that
    holds it; the texts of lists are no fields of the page."""
    fields: dict[int, str] = {}
    for info in template.fields:
        if info.slot.isdigit():
            fields.setdefault(info.uid, info.name)
    names: dict[int, set[str]] = {}
    placed: dict[int, str] = {}
    for versions in block_versions(template.root):
        holders = [
            {
                uid: element_look(chain[-1])
                for uid, chain in text_ancestors(version, lists=False).items()
            }
            for version in versions
        ]
        for index, own in enumerate(holders):
            at: dict[tuple[Any, ...], set[str]] = {}
            for other, looks in enumerate(holders):
                for uid, look in looks.items():
                    if other != index and uid in fields:
                        at.setdefault(look, set()).add(fields[uid])
            found = set().union(*at.values())
            for uid, look in own.items():
                names[uid] = found
                same = at.get(look, set())
                if len(same) == 1:
                    placed[uid] = next(iter(same))
    return names, placed


def text_ancestors(root: TNode, lists: bool = True) -> dict[int, list[Elem]]:
    """Per text below ``root`` (by uid), the elements above it from
    ``root`` down; the texts of lists too, unless not ``lists``."""
    chains: dict[int, list[Elem]] = {}
    stack: list[tuple[TNode, list[Elem]]] = [(root, [])]
    while stack:
        node, chain = stack.pop()
        if isinstance(node, Text):
            chains[node.uid] = chain
        elif isinstance(node, Elem):
            inner = [*chain, node]
            stack.extend((child, inner) for child in node.children)
        elif isinstance(node, Set) and lists:
            stack.extend((child, chain) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, chain))
    return chains


def enclosing_sets(root: TNode) -> dict[int, str]:
    """The name of the innermost set above each node (by uid), "" for none."""
    inside: dict[int, str] = {}
    stack: list[tuple[TNode, str]] = [(root, "")]
    while stack:
        node, name = stack.pop()
        inside[node.uid] = name
        if isinstance(node, Set):
            stack.extend((child, node.name) for child in node.children)
        elif isinstance(node, Elem):
            stack.extend((child, name) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, name))
    return inside


def set_parents(template: Template) -> dict[str, str]:
    """The name of the set each set (by name) is in, "" for none."""
    inside = enclosing_sets(template.root)
    return {node.name: inside[node.uid] for node in template.nodes if isinstance(node, Set)}


def assign_sets(template: Template) -> None:
    """Record in each field's info the set it repeats in
    (:attr:`FieldInfo.set`), from the template's tree."""
    inside = enclosing_sets(template.root)
    for info in template.fields:
        info.set = inside.get(info.uid, "")


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
        # The sets, found once: extraction asks for their names on every
        # page (to see whether a template was renamed since it was
        # compiled), and a template has thousands of nodes but few sets.
        self._sets = [node for node in order if isinstance(node, Set)]

    @property
    def field_names(self) -> list[str]:
        return [info.name for info in self.fields]

    @property
    def set_names(self) -> list[str]:
        return [node.name for node in self._sets]

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
        """Read :meth:`to_json`'s output back; :class:`ValueError` (and
        nothing else) for any other text: it may come from a corrupt or
        hostile store, bounded in size and depth by
        :func:`~scrapy_wrapx._versioned.load_json` before it is parsed."""
        return cls.from_data(load_json(text, "scrapy-wrapx template JSON"))

    @classmethod
    def from_data(cls, data: Any) -> Template:
        """:meth:`from_json` of JSON already parsed, bounded in size and
        depth (a store record read by
        :func:`~scrapy_wrapx._versioned.load_json`): not written out and
        parsed again."""
        data = _template_data(data)
        meta = data.get("meta") or {}
        if not isinstance(meta, dict):
            raise ValueError(f"Invalid template meta: {meta!r:.60}")
        try:
            root = _node_from_json(data.get("root"))
            if not isinstance(root, Elem):
                raise ValueError(f"Template root is not an element: {root.kind!r}")
            template = cls(root, _fields_from_json(data.get("fields", [])), meta)
            clash = set(template.field_names) & set(template.set_names)
            if clash or len(set(template.set_names)) < len(template.set_names):
                raise ValueError(
                    f"Template names clash: {sorted(clash) or template.set_names!r:.80}"
                )
            if data.get("version") == 2:
                assign_sets(template)
            return template
        except (TypeError, KeyError, AttributeError, RecursionError) as exc:
            # A safety net: every shape is checked above, so this is a bug.
            raise ValueError(f"Invalid scrapy-wrapx template: {exc!r:.80}") from exc

    def __repr__(self) -> str:
        return f"<Template {self.fingerprint} {len(self.nodes)} nodes, fields={self.field_names[:8]!r}>"
