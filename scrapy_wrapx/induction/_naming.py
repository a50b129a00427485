"""Stable field names (DESIGN.md): a nearby fixed label first ("Publisher:"
-> ``publisher``), then an attribute hint (``class="price"``), then a name
derived from the path.

Names come from the template's content, never from counters over the seeds,
so re-inducing from other seed pages of the same site names the same data the
same way; with ``previous``, a field whose (label, hint, path) key equals a
field of the older template takes over its name outright.

A label is the last fixed text before the slot in page order, when it is
short and label-like and both it and the slot are at most
:data:`LABEL_REACH` levels below their common ancestor, styling elements
(``<font>``, ``<span>``...) not counted (``<b>Vendor:</b>
Value Books``, ``<dt>Pages</dt><dd>96</dd>``, ``<th>`` and ``<td>``): a
fixed text far away ("Additional Views" before a title) is layout, not a
label. Nor is a fixed text that closes the element of the slot before it, as
"out of 5" in ``Rated <span>3.0</span> out of 5``: that is a unit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from scrapy_wrapx.dom import DATA_ATTRIBUTES as LEAF_ATTRIBUTES
from scrapy_wrapx.dom import DESCRIBING_ATTRIBUTES, HEADINGS
from scrapy_wrapx.induction._tables import table_header
from scrapy_wrapx.template import ROW_LABEL_TAGS, Blob, Elem, FieldInfo, Opt, Set, Text, TNode, slug

#: How many levels a label and its slot may lie below their common
#: ancestor (see the module docstring).
LABEL_REACH = 1
#: Attributes whose variant values are data fields (the rest vary, but are
#: layout: ids, styles, tracking parameters).
DATA_ATTRIBUTES = frozenset({"href", "src", "data-src", "value", "data"})
#: Inputs whose ``value`` no reader sees as data: the codes of boxes to
#: tick, the captions of buttons. (A hidden input may hold a product's id:
#: only its form tokens are template, see :func:`._pagetokens.form_token`.)
CONTROL_INPUTS = frozenset({"checkbox", "radio", "submit", "reset", "button", "image"})
#: A label is short: at most this many words and characters.
_MAX_LABEL_WORDS = 5
_MAX_LABEL_CHARS = 40

#: Words that join a label to its value but name nothing ("by" in "by
#: Paul Kent", "of" in "2 of 5"): a label made of them only is no name.
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "at",
        "by",
        "for",
        "from",
        "in",
        "of",
        "on",
        "or",
        "out",
        "per",
        "the",
        "to",
        "with",
    ]
)
#: How many levels a label's cell and a value's cell, wrapped alike, may
#: reach below their row (see :meth:`_Namer._alike_cells`).
CELL_REACH = 3
#: Elements whose fixed text labels a value further away than
#: :data:`LABEL_REACH` (``<tr><td><b>Publisher:</b></td><td>X</td></tr>``);
#: a section heading labels the value or list right under it
#: (``<h3>Type of School</h3><ul><li>Private</li>...``).
LEAD_TAGS = ROW_LABEL_TAGS | HEADINGS
#: How many levels a lead label (see :data:`LEAD_TAGS`) may lie below the
#: common ancestor of label and slot.
LEAD_REACH = 2

#: A label ending in a capital letter of its own ("FGM-A", made-attempted)
#: ends in an abbreviation, not in the article "a".
_LAST_CAPITAL = re.compile(r"(?:^|[^A-Za-z])[A-Z]\W*$")
#: How a text says it is a label: a colon at its end, or a dash after a
#: space ("Check in - 3 pm"; "T-" ends no label).
_LABEL_END = re.compile(r"(?::|\s[-\u2013\u2014])\s*$")


def label_name(label: str, element: bool = False) -> str:
    """The name a label gives: its slug, unless it ends with a function
    word: then it leads into its value ("by", "Reviews for") and names
    nothing; but a label that has a word of its own before the function
    word names the role where it says it is a label: by a colon or a
    dash after it ("Directed by:", "Check in - "), or by being an
    ``element`` of its own, the whole text of a ``th``, ``dt`` or
    ``span`` ("<dt>Made in</dt>"; see :attr:`FieldInfo.label_element`).

    >>> label_name("Publication Date:"), label_name("by"), label_name("Reviews for")
    ('publication_date', '', '')
    >>> label_name("Directed by:"), label_name("By:"), label_name("Check in - ")
    ('directed_by', '', 'check_in')
    >>> label_name("Made in", element=True), label_name("by", element=True)
    ('made_in', '')
    >>> label_name("FGM-A"), label_name("3PM-A")
    ('fgm_a', 'f_3pm_a')
    """
    name = slug(label)
    words = name.split("_")
    if words[-1] not in FUNCTION_WORDS or _LAST_CAPITAL.search(label):
        return name
    said = element or _LABEL_END.search(label) is not None
    return name if said and any(w not in FUNCTION_WORDS for w in words) else ""


def field_label_name(info: FieldInfo) -> str:
    """:func:`label_name` of a field's label."""
    return label_name(info.label, info.label_element)


def label_like(text: str) -> bool:
    return (
        len(text) <= _MAX_LABEL_CHARS
        and len(text.split()) <= _MAX_LABEL_WORDS
        and any(ch.isalpha() for ch in text)
    )


def sentence_tail(text: str) -> bool:
    """Whether a text is the end of a sentence that an inline element
    interrupted ("click the <b>Buy</b> button below."): it opens in lower
    case and ends with a full stop, so it is wording, neither a label of
    the text after it nor a value of the element before it ("Item No."
    opens in upper case).

    >>> sentence_tail("button below."), sentence_tail("Item No."), sentence_tail("in stock")
    (True, False, False)
    """
    stripped = text.strip()
    return stripped[:1].islower() and stripped.endswith((".", "!", "?"))


def _hint(ancestors: list[Elem], reach: int = 1) -> str:
    """The first word of a naming attribute of the nearest of the last
    ``reach`` elements of ``ancestors``. Only the text's own element (or,
    for an attribute field, the element and its parent) names it: a class
    further up names a whole block ("module details" around a title and
    everything else), not this field."""
    for elem in reversed(ancestors[-reach:]):
        for attr in ("class", "id", "itemprop", "name"):
            value = elem.attrs.get(attr)
            if value:
                words = [w for w in re.split(r"[\s]+", value) if slug(w)]
                if words:
                    return slug(words[0])
    return ""


#: The alternative text of an icon that labels the value after it: a few
#: words, letters only ("Phone", "E-mail", "Opening hours:").
_ICON_WORD = r"[^\W\d_](?:[^\W\d_]|['&/-])*"
_ICON_LABEL = re.compile(rf"{_ICON_WORD}(?: {_ICON_WORD}){{0,3}}:?$")


def _titled(elem: Elem) -> bool:
    """Whether an element's ``title`` names the value it holds: the same
    few words on every seed (:data:`_ICON_LABEL`), over a text that
    varies. A link's title that varies with the link is data; one with a
    number ("Rated 4.5 of 5") is no label."""
    title = elem.attrs.get("title")
    if not title or not _ICON_LABEL.match(title):
        return False
    return any(isinstance(child, Text) and not child.fixed for child in elem.children)


class _Namer:
    def __init__(self, previous: list[FieldInfo] | None) -> None:
        self.fields: list[FieldInfo] = []
        self.used: set[str] = set()
        self.previous: dict[tuple[str, str, str, str], list[str]] = {}
        for info in previous or []:
            self.previous.setdefault(info.key, []).append(info.name)
        #: The last label and the last lead label (see :meth:`label_for`):
        #: its text, its elements' uids, whether it is an element's own.
        self.last_label: tuple[str, list[int], bool] | None = None
        self.last_lead: tuple[str, list[int], bool] | None = None
        self.last_slot: list[int] = []
        self.sets: list[Set] = []
        #: The header row and texts of the tables seen so far, by the
        #: table's uid; the tables whose header row was walked; the header
        #: of the column being walked.
        self.headers: dict[int, tuple[Elem, list[str]] | None] = {}
        self.below_header: set[int] = set()
        self.column = ""
        self.separators: set[int] | frozenset[int] = frozenset()
        #: Uids of the styling elements seen (:data:`STYLE_TAGS`): they
        #: add no distance between a label and its value.
        self.styling: set[int] = set()
        #: Uids of the links seen (see :meth:`label_for`).
        self.links: set[int] = set()
        #: The uids of list items (``<li>``): peers, not labels of each other.
        self.list_items: set[int] = set()
        #: The tag of every element seen, by uid (see :meth:`_alike_cells`).
        self.tags: dict[int, str] = {}
        #: Fixed texts that may be data (see :mod:`._latent`), each with
        #: the label before it and its elements.
        self.latent: list[tuple[Text, str, list[Elem]]] = []
        #: How many sets the walk is inside.
        self.set_depth = 0
        #: Uids of the tables' header rows: their texts are labels.
        self.header_rows: set[int] = set()

    def unique(self, base: str, context: Sequence[str] = ()) -> str:
        """``base``, or when taken, ``base`` qualified by the nearest
        ancestor hint that makes it unique (``details_copy`` inside
        ``reviews`` becomes ``reviews_details_copy``), and only then a
        counter: qualified names do not shift when a block of the page
        appears or disappears, counters do."""
        base = base or "field"
        name = base
        for word in context:
            if name not in self.used:
                break
            if word not in base:
                name = f"{word}_{base}"
        if name in self.used:
            name = base
        count = 1
        while name in self.used:
            count += 1
            name = f"{base}_{count}"
        self.used.add(name)
        return name

    def add(
        self,
        uid: int,
        slot: str,
        label: str,
        hint: str,
        path: str,
        fallback: str,
        context: Sequence[str] = (),
        element: bool = False,
    ) -> str:
        info = FieldInfo("", uid, slot, label, hint, path, label_element=element)
        reused = [n for n in self.previous.get(info.key, []) if n not in self.used]
        if reused:
            info.name = reused[0]
            self.used.add(info.name)
        else:
            named = field_label_name(info)
            base = (named or hint or fallback) if info.slot.isdigit() else fallback
            info.name = self.unique(base, context)
        self.fields.append(info)
        return info.name

    def attributes(self, item: Elem, chain: list[Elem]) -> bool:
        """Name the element's variant data attributes, or, on an element
        with no content and none of them, its describing ones; whether it
        had data attributes."""
        variant = [a for a in item.variant_attrs if a in DATA_ATTRIBUTES and not _control(item, a)]
        if not variant:
            self.described(item, chain)
            return False
        base = _hint(chain, 2) or item.tag
        path = _path(chain)
        context = _context(chain[:-1])
        for attr in variant:
            item.names[attr] = self.add(
                item.uid, attr, "", base, path, f"{base}_{slug(attr)}", context
            )
        return True

    def described(self, item: Elem, chain: list[Elem]) -> None:
        """Name the describing attributes of an element with no content
        and no data attribute that varies (see :func:`described_attributes`):
        by the element's own class or id word ("rating"), else its tag and
        the attribute. Induction keeps the first one whose values a person
        can read (:func:`._pagetokens.template_fields`)."""
        attrs = described_attributes(item)
        if not attrs:
            return
        hint = _hint(chain, 1)
        path, context = _path(chain), _context(chain[:-1])
        for attr in attrs:
            fallback = hint or f"{item.tag}_{slug(attr)}"
            item.names[attr] = self.add(item.uid, attr, "", hint, path, fallback, context)

    def label_for(self, ancestors: list[Elem]) -> tuple[str, bool]:
        """The last label if near enough, else the last lead label (in a
        ``th``, ``b``...) if within :data:`LEAD_REACH`; and whether it is
        an element's own text (see :func:`label_name`)."""
        uids = [e.uid for e in ancestors]
        for last, reach in ((self.last_label, LABEL_REACH), (self.last_lead, LEAD_REACH)):
            if last is None:
                continue
            text, chain, element = last
            common = _common(chain, uids)
            # A link around a value ("Directed by: <a>Joel Schumacher</a>")
            # is no farther from a label with a colon than the bare value;
            # a short text without one ("Home", a breadcrumb's "Acura") is
            # no label for the link after it.
            links = text.rstrip().endswith(":")
            if last is self.last_label and not links and self._peer_items(chain, uids, common):
                continue
            if (
                self._levels(uids[common:], links) <= reach
                and self._levels(chain[common:], links) <= reach
            ) or self._alike_cells(chain, uids, common):
                return text, element
        return "", False

    def _alike_cells(self, chain: list[int], uids: list[int], common: int) -> bool:
        """Whether a label and a slot are in two cells of one row, each
        wrapped alike (``<td><div class="s">Cuisine</div></td><td><div
        class="s">American</div></td>``): the cell before names the value,
        as a bare one does, however deep the site wraps both."""
        if not 0 < common <= min(len(chain), len(uids)) or self.tags.get(chain[common - 1]) != "tr":
            return False
        label = [self.tags.get(uid) for uid in chain[common:] if uid not in self.styling]
        value = [self.tags.get(uid) for uid in uids[common:] if uid not in self.styling]
        return label == value and len(label) <= CELL_REACH and label[:1] in (["td"], ["th"])

    def _peer_items(self, chain: list[int], uids: list[int], common: int) -> bool:
        """Whether a text and a slot are in two items of one list (``<li>5
        speed manual</li><li>27 mpg city</li>``): items of a list are
        peers, the one before no label of the next without a colon."""
        return (
            common < len(chain)
            and common < len(uids)
            and chain[common] in self.list_items
            and uids[common] in self.list_items
        )

    def _latent_label(self, ancestors: list[Elem]) -> str:
        """The label of a latent text (see :mod:`._latent`): its column's
        header, or a label that says so by its colon or its lead element.
        The texts around a latent one are mostly others like it (a menu's
        items), each label-like and none its label."""
        if self.column:
            return self.column
        label, _ = self.label_for(ancestors)
        lead = self.last_lead is not None and self.last_lead[0] == label
        return label if label.rstrip().endswith(":") or lead else ""

    def _levels(self, uids: list[int], links: bool = False) -> int:
        """Levels between a label or slot and their common ancestor:
        styling elements (and links, with ``links``) add none."""
        return sum(uid not in self.styling and not (links and uid in self.links) for uid in uids)

    def walk(self, items: list[TNode], ancestors: list[Elem]) -> None:
        for index, item in enumerate(items):
            if isinstance(item, Elem):
                self.elem(item, ancestors)
            elif isinstance(item, Text):
                self.text(item, ancestors)
            elif isinstance(item, Opt):
                following = items[index + 1] if index + 1 < len(items) else None
                self.optional(item, ancestors, isinstance(following, Opt))
            elif isinstance(item, Set):
                self.sets.append(item)
                self.set_depth += 1
                self.walk(item.children, ancestors)
                self.set_depth -= 1
            elif isinstance(item, Blob):
                # Free-form text (see ._prose): named by its element, else
                # what a page's running text is.
                hint = _hint(ancestors)
                item.name = self.add(
                    item.uid, "0", "", hint, _path(ancestors), hint or "description"
                )

    def optional(self, item: Opt, ancestors: list[Elem], before_optional: bool = False) -> None:
        """Walk an optional part; a label it holds labels its own slots
        only. An optional sibling's text (a "Sale" badge on some cards) is
        no label for the field after it: on a card without the badge the
        field would be nameless, on one with it, named after the badge."""
        label, lead, named = self.last_label, self.last_lead, len(self.fields)
        self.walk([item.child], ancestors)
        if len(self.fields) > named:
            # Its slots took the labels before it.
            label = lead = None
        elif before_optional and _label_alone(item.child):
            # An optional row's label alone ("<dt>Director</dt>", "<b>Director:</b>"),
            # its value in the optional part right after it: the label names
            # that value (not a value every page shows, as a badge would).
            return
        if self.last_label is not None and self.last_label is not label:
            self.last_label = label
        if self.last_lead is not None and self.last_lead is not lead:
            self.last_lead = lead

    def elem(self, item: Elem, ancestors: list[Elem]) -> None:
        """Name the element's data attributes (``href``, ``src``...), then
        what is inside it."""
        chain = [*ancestors, item]
        self.tags[item.uid] = item.tag
        if item.tag in STYLE_TAGS:
            self.styling.add(item.uid)
        elif item.tag == "a":
            self.links.add(item.uid)
        elif item.tag == "li":
            self.list_items.add(item.uid)
        variant = self.attributes(item, chain)
        icon = (item.attrs.get("alt") or item.attrs.get("title")) if item.tag == "img" else None
        if icon and not variant and _ICON_LABEL.match(icon):
            # An icon before a value names it as a text would ("<img
            # alt='Phone'> (212) 555-0100"); one whose image varies is data,
            # and a file name ("1ptrans.gif (807 bytes)") says nothing.
            self.fixed_text(icon, ancestors)
        elif item.tag != "img" and _titled(item):
            # The element's own title names the value inside it
            # ("<span title='Director'>Ang Lee</span>"), as a label would.
            self.fixed_text(item.attrs["title"] or "", chain)
        columns = self.columns(item, ancestors) if item.tag == "tr" else None
        if columns is None:
            self.walk(item.children, chain)
            return
        cells = [child for child in item.children if isinstance(child, Elem)]
        for child in item.children:
            self.column = columns[cells.index(child)] if child in cells[: len(columns)] else ""
            self.walk([child], chain)
        self.column = ""

    def columns(self, row: Elem, ancestors: list[Elem]) -> list[str] | None:
        """The column headers a table row's cells are named by: none for
        the header row itself (it is remembered for the rows below)."""
        table = next((e for e in reversed(ancestors) if e.tag == "table"), None)
        if table is None:
            return None
        if table.uid not in self.headers:
            self.headers[table.uid] = table_header(table)
        header = self.headers[table.uid]
        if header is None:
            return None
        if header[0] is row:
            self.below_header.add(table.uid)
            self.header_rows.add(row.uid)
            return None
        return header[1] if table.uid in self.below_header else None

    def text(self, item: Text, ancestors: list[Elem]) -> None:
        if id(item) in self.separators:
            return
        if item.fixed:
            self.fixed_text(item.parts[0] or "", ancestors, item)
        else:
            self.variant_text(item, ancestors)

    def fixed_text(self, value: str, ancestors: list[Elem], item: Text | None = None) -> None:
        """A fixed text labels the slots after it, when it is label-like;
        but one right in the element that holds the previous slot closes
        that slot ("out of 5") and labels nothing after it. Outside sets and
        header rows, a fixed text that is no label may be data every seed
        agreed on (see :mod:`._latent`): it is noted with its label, if it
        has one (:meth:`_latent_label`)."""
        chain = [e.uid for e in ancestors]
        closing = bool(self.last_slot) and _common(chain, self.last_slot) == len(chain)
        # An icon's text or an element's title is its element's own, and
        # so is a text alone in its element.
        own = ancestors[-1].children if ancestors else []
        element = item is None or (len(own) == 1 and own[0] is item)
        if (
            item is not None
            and not closing
            and not self.set_depth
            and not any(e.uid in self.header_rows for e in ancestors)
            and latent_text(value, ancestors)
        ):
            self.latent.append((item, self._latent_label(ancestors), list(ancestors)))
        if closing:
            self.last_label = None
        elif _link_text(value, ancestors):
            # A link's words name where it leads ("Bookmark", "Reviews"),
            # not the value after it; one with a colon still labels it.
            self.last_label = None
        elif sentence_tail(value):
            # The sentence an inline element interrupted goes on: that
            # element ("click the <b>Buy</b> button below.") led nothing.
            self.last_label = None
            self.last_lead = None
        elif label_like(value):
            self.last_label = (value, chain, element)
            if _in_lead(ancestors):
                self.last_lead = (value, chain, element)

    def variant_text(self, item: Text, ancestors: list[Elem]) -> None:
        """Name each slot of a text, by its own opening label or the label
        before it, its element's hint, its path."""
        first = item.parts[0]
        own = first if isinstance(first, str) and label_like(first) else ""
        label, element = (own, False) if own else (self.column, True)
        if not label:
            label, element = self.label_for(ancestors)
        hint = _hint(ancestors)
        path = _path(ancestors)
        fallback = ancestors[-1].tag if ancestors else "text"
        context = _context(ancestors[:-1])
        item.names = [
            self.add(
                item.uid,
                str(slot),
                inner or label,
                hint,
                path,
                fallback,
                context,
                element=element and not inner,
            )
            for slot, inner in enumerate(_slot_labels(item))
        ]
        self.last_label = None
        self.last_lead = None
        self.last_slot = [e.uid for e in ancestors]


def _label_alone(node: TNode) -> bool:
    """Whether ``node`` is a row's label and nothing else: one fixed text
    with no number, in a row label's element (:data:`ROW_LABEL_TAGS`) or
    ending in a colon, in no heading. A badge's "Sale" is none, nor a
    block with a bold word inside, nor "Club Price: $15.11", data every
    seed that showed it agreed on."""
    texts: list[str] = []
    tags: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Text) and current.fixed:
            texts.append(current.parts[0] or "")
        elif isinstance(current, Elem):
            tags.add(current.tag)
            stack.extend(current.children)
        else:
            return False
    if len(texts) != 1 or tags & HEADINGS or any(char.isdigit() for char in texts[0]):
        return False
    return label_like(texts[0]) and (bool(tags & ROW_LABEL_TAGS) or texts[0].rstrip().endswith(":"))


def _slot_labels(item: Text) -> list[str]:
    """Per slot of a text, the label inside the text right before it
    ("Height: 6-8, Weight: 220 lbs" labels its second slot "Weight"), or
    "" where the text's own label or the one before the text names it."""
    labels: list[str] = []
    before = ""
    for part in item.parts:
        if part is None:
            labels.append(before if labels and label_like(before) else "")
            before = ""
        else:
            before += part
    return labels


#: Inline elements that only style a text: a label wrapped in them
#: (``<b><font size="2">Cuisine:</font></b>``) is still its lead's.
STYLE_TAGS = frozenset({"font", "span", "small", "big", "i", "em", "u", "tt", "sup", "sub"})


#: Elements whose fixed text is never data: a label's own (``th``, ``dt``),
#: a choice among others (``option``), or no text a reader sees.
_NO_DATA_TAGS = frozenset({"th", "dt", "label", "legend", "option", "script", "style", "title"})
#: Longest fixed text that may still be a value (see :func:`latent_text`).
_MAX_LATENT_CHARS = 120


def latent_text(value: str, ancestors: list[Elem]) -> bool:
    """Whether a fixed text may be data that every seed agreed on (one
    team's players, one city's restaurants; see :mod:`._latent`): a short
    text with a letter or digit, no label (no closing colon, not in a
    label's element) and no markup shown as text."""
    text = value.strip()
    return (
        0 < len(text) <= _MAX_LATENT_CHARS
        and not text.endswith(":")
        and "<" not in text
        and any(char.isalnum() for char in text)
        and not any(elem.tag in _NO_DATA_TAGS for elem in ancestors[-2:])
    )


def _link_text(value: str, ancestors: list[Elem]) -> bool:
    """Whether a fixed text is a link's own (in an ``<a>``, styling and
    bold elements aside) and has no colon of a label."""
    if value.rstrip().endswith(":"):
        return False
    for elem in reversed(ancestors):
        if elem.tag == "a":
            return True
        if elem.tag not in STYLE_TAGS and elem.tag not in ("b", "strong"):
            return False
    return False


def _in_lead(ancestors: list[Elem]) -> bool:
    """Whether a text's element, below any styling elements, is a lead
    element (:data:`LEAD_TAGS`)."""
    for elem in reversed(ancestors):
        if elem.tag in LEAD_TAGS:
            return True
        if elem.tag not in STYLE_TAGS:
            return False
    return False


def _path(ancestors: list[Elem]) -> str:
    """The path naming keys hold: the last four tags."""
    return "/".join(e.tag for e in ancestors[-4:])


def _context(ancestors: list[Elem]) -> list[str]:
    """Hints of the ancestors, nearest first (qualifiers for names that
    are taken)."""
    return [hint for hint in (_hint([elem]) for elem in reversed(ancestors)) if hint]


def _common(a: list[int], b: list[int]) -> int:
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common


def input_type(item: Elem) -> str:
    """The ``type`` of an ``<input>`` as a browser reads it (``" Hidden "``
    is ``hidden``), "" for other elements and a type that varies."""
    kind = item.attrs.get("type") if item.tag == "input" else None
    return kind.strip().lower() if isinstance(kind, str) else ""


def described_attributes(item: Elem) -> list[str]:
    """The variant attributes of an element with no content that may say
    what it shows (:data:`~scrapy_wrapx.dom.DESCRIBING_ATTRIBUTES`, then
    any ``data-`` attribute), in the order the page tree takes one as the
    element's data (:func:`~scrapy_wrapx.dom.leaf_attribute`): a rating
    drawn by a style, told in a title or kept for a script. None for a
    tag with a data attribute of its own (an image, a link, an input)."""
    if item.children or item.tag in LEAF_ATTRIBUTES:
        return []
    ordered = [*DESCRIBING_ATTRIBUTES, *(name for name in item.attrs if name.startswith("data-"))]
    return [name for name in ordered if name in item.attrs and item.attrs[name] is None]


def _control(item: Elem, attr: str) -> bool:
    """Whether ``attr`` of ``item`` is a form control's value, not data
    (:data:`CONTROL_INPUTS`)."""
    return attr == "value" and input_type(item) in CONTROL_INPUTS


def name_fields(
    root: Elem,
    previous: list[FieldInfo] | None = None,
    separators: set[int] | frozenset[int] = frozenset(),
    latent: list[tuple[Text, str, list[Elem]]] | None = None,
) -> list[FieldInfo]:
    """Name every field and set of a finalized template (uids assigned).
    ``separators`` are the ``id()`` of texts between list items: never
    fields, never labels. ``latent`` receives the fixed texts that may be
    data, with their labels and elements (see :mod:`._latent`)."""
    namer = _Namer(previous)
    namer.separators = separators
    namer.walk(root.children, [root])
    if latent is not None:
        latent.extend(namer.latent)
    for node in namer.sets:
        node.name = namer.unique(f"{_set_base(node, namer.fields)}_list")
    return namer.fields


def _set_base(node: Set, fields: list[FieldInfo]) -> str:
    """What a set is named after: the hint or tag of the element it
    repeats, else its first field, else "record"."""
    head: Any = node.children[0] if node.children else None
    while isinstance(head, Opt):
        head = head.child
    base = (_hint([head]) or head.tag) if isinstance(head, Elem) else ""
    return base or next((f.name for f in fields if _inside(node, f.uid)), "") or "record"


def _inside(node: Set, uid: int) -> bool:
    stack: list[TNode] = list(node.children)
    while stack:
        item = stack.pop()
        if item.uid == uid:
            return True
        if isinstance(item, (Elem, Set)):
            stack.extend(item.children)
        elif isinstance(item, Opt):
            stack.append(item.child)
    return False
