"""What the matcher asks of a template on every page, computed once.

A template is compiled on its first extraction and the result kept, keyed
by the template object itself, in a weak table: the template stays plain
data (:mod:`scrapy_wrapx.template` knows nothing of extraction), and a
compiled program goes when its template goes. Field names are compiled in,
so renaming a template's fields (re-induction keeps old names) compiles it
anew.
"""

from __future__ import annotations

import hashlib
import weakref
from typing import Any

from lxml import etree

from scrapy_wrapx.dom import HEADINGS, TEXT
from scrapy_wrapx.extraction._collect import Program, data_nodes, program
from scrapy_wrapx.extraction._plan import First, first, plan_of
from scrapy_wrapx.extraction._tables import varying_header_tables
from scrapy_wrapx.template import (
    COPY_FALLBACKS,
    LATENT_LABEL,
    ROW_LABEL_TAGS,
    Elem,
    Opt,
    Set,
    Template,
    Text,
    TNode,
    block_versions,
    decimal_number,
    latent_fields,
    latent_notes,
    opening_elements,
)

#: The environment a match fills, keyed by template node ``uid`` (see
#: :mod:`scrapy_wrapx.extraction`).
Env = dict[int, Any]

#: What a shallow fit checks of a template element: its tag, fixed
#: attributes, most attributes and their names, whether it follows a label
#: of its own (a term, a heading), whether it is a version of a block, the
#: fixed text every page's element opens with, if any (its *anchor*), and
#: where that is a latent text with a label of its own, that label: a
#: page's text that starts with it fits.
ShallowFacts = tuple[
    str, tuple[tuple[str, str], ...], int, frozenset[str], bool, bool, str | None, str
]

#: Fewest template nodes below an element of chrome (see
#: :attr:`Compiled.chrome`) for comparing its texts to pay: a smaller one
#: is walked as quickly.
MIN_CHROME_NODES = 4

#: Corrections of a hedge's shallow parse after which it is parsed by
#: exact fit first (see :meth:`Compiled.exact_first`).
EXACT_FIRST_AFTER = 2

#: How deep below an element a fixed first text still names a *row*
#: (``<b>ISBN:</b>``, ``<tr><td><b>Pages:</b>``) rather than the first part
#: of a block, which a page may lack ("Also Available" atop a table that
#: every seed had): see :meth:`.Fits.other_label`.
ROW_LABEL_DEPTH = 3
#: Elements that hold rows, never a row themselves (see
#: :meth:`.Fits.other_label`): a ``<dl>`` whose first term a page lacks is
#: still the list of terms. So is any element that opens with a fixed
#: label and holds two labelled rows or more (a ``<div>`` of "Label -
#: value" rows).
ROW_CONTAINERS = frozenset({"dl", "table", "tbody", "thead", "ul", "ol"})


def digest(element: etree._Element) -> str:
    """Digest of an element's serialization, tail left out (the same as
    induction's :func:`~scrapy_wrapx.induction._induce.subtree_digest`)."""
    data = etree.tostring(element, with_tail=False)
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def first_leaf(item: Elem, depth: int | None = None) -> str | None:
    """The fixed text that every page's element of ``item`` starts with, if
    the template says so (no optional, set or slot before it), found at
    most ``depth`` levels down if given."""
    text = _first_text(item, depth)
    return text.parts[0] if text is not None else None


def _row_labels(item: Elem) -> list[str]:
    """The fixed labels the child elements of ``item`` open with (see
    :func:`first_leaf`), optional ones too."""
    labels = []
    for child in item.children:
        child = child.child if isinstance(child, Opt) else child
        if isinstance(child, Elem):
            label = first_leaf(child, ROW_LABEL_DEPTH)
            if label is not None:
                labels.append(label)
    return labels


def _first_text(item: Elem, depth: int | None = None, fixed: bool = True) -> Text | None:
    node: TNode = item
    levels = 0
    while isinstance(node, Elem):
        if not node.children or (depth is not None and levels == depth):
            return None
        node = node.children[0]
        levels += 1
    return node if isinstance(node, Text) and (node.fixed or not fixed) else None


#: How many latent texts on each side of one are its neighbours (see
#: :attr:`Compiled.latent_neighbours`).
LATENT_NEIGHBOURS = 2


def _latent_label(item: Elem, depth: int | None = None) -> str:
    """The own label ("Posted: ") of a latent text that ``item`` starts
    with (see :func:`first_leaf`), else "": where the rest of the text
    differs, it is that page's data, and the element is still itself."""
    text = _first_text(item, depth)
    return _own_label(text.parts[0] or "") if text is not None and text.latent else ""


class Compiled:
    """Per-template facts the matcher asks for on every page."""

    def __init__(self, template: Template) -> None:
        self.sigs: dict[int, frozenset[str]] = {}
        #: Per element: the fixed text it opens with near enough to the top
        #: to be a row's label (see :func:`first_leaf`).
        self.row_label: dict[int, str | None] = {}
        #: Where the row label is a latent text with a label of its own,
        #: that label: a page's text that starts with it fits.
        self.row_label_prefix: dict[int, str] = {}
        #: Where an element opens with a text of data after a label of its
        #: own ("List price: {}"), near enough to the top to be its row's,
        #: that text (see :meth:`.Fits.other_label`).
        self.row_text: dict[int, Text | None] = {}
        #: For elements whose children are all elements and texts: their tags.
        self.tags: dict[int, tuple[str, ...] | None] = {}
        #: Per element: what :meth:`.Matcher.elem` reads, in one lookup.
        self.elems: dict[int, tuple[Any, ...]] = {}
        #: Per set: the plan of one repetition's hedge.
        self.plans: dict[int, int] = {}
        #: Per hedge of optional elements only (by ``id`` of its item
        #: list): those elements (see :meth:`.Fits.rows_ends`).
        self.optional_rows: dict[int, tuple[Elem, ...]] = {}
        #: Per hedge with values right after labels of their own (by ``id``
        #: of its item list): those values' positions (see
        #: :func:`labelled_value`).
        self.labelled_values: dict[int, frozenset[int]] = {}
        #: Per list of rows (see :data:`ROW_CONTAINERS`): the fixed labels
        #: its rows open with (see :meth:`.Fits.other_label`).
        self.row_labels: dict[int, frozenset[str]] = {}
        #: Per section right after a fixed heading in a hedge of several
        #: (by uid): the heading's tag and the hedge's other headings, under
        #: which a page's element is another section (see :meth:`.Fits.shallow`).
        self.other_headings: dict[int, tuple[str, frozenset[str]]] = {}
        #: Per definition right after its term (a ``<dd>`` after a fixed
        #: ``<dt>``, by uid): the texts of the terms it may follow (see
        #: :func:`_terms` and :meth:`.Fits.shallow`).
        self.terms: dict[int, tuple[str, ...]] = {}
        #: Per optional and set: the tags and the items its content starts
        #: with (see :meth:`.Fits.starts`).
        self.first: dict[int, tuple[frozenset[str], tuple[TNode, ...]]] = {}
        #: Per fully fixed text: its text.
        self.fixed_text: dict[int, str] = {}
        #: Per element: the tags of the elements it may hold as children
        #: (optional and repeated ones too), and of those it must hold (see
        #: :func:`._lenient.content_share`).
        self.child_tags: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        #: Per version of a block (see
        #: :func:`~scrapy_wrapx.template.block_versions`): all the block's
        #: versions, and the elements each opens with.
        groups = block_versions(template.root)
        self.versions: dict[int, tuple[Elem, ...]] = {
            elem.uid: group for group in groups for elem in group
        }
        self.openings = {elem.uid: opening_elements(elem) for group in groups for elem in group}
        for node in template.nodes:
            if isinstance(node, Elem):
                self._add_elem(node)
            elif isinstance(node, Set):
                self._add_set(node)
            elif isinstance(node, Opt):
                self.first[node.uid] = _starts(first(node.child))
            elif isinstance(node, Text) and node.fixed:
                self.fixed_text[node.uid] = node.parts[0] or ""
        #: Per field with copies that induction dropped: where they are
        #: (see :data:`~scrapy_wrapx.template.COPY_FALLBACKS`).
        self.fallbacks: list[tuple[str, list[tuple[int, int]]]] = _fallbacks(template)
        #: Uids of nodes with a field (or a dropped copy of one) at or
        #: below them.
        self.data: frozenset[int] = data_nodes(
            template, frozenset(uid for _, copies in self.fallbacks for uid, _ in copies)
        )
        #: The elements of chrome and their shapes.
        self.chrome = Chrome(template, self.data)
        #: Per element: what :meth:`.Fits.shallow` reads, in one lookup
        #: (it is asked of nearly every page element, often of several).
        self.shallow_facts: dict[int, ShallowFacts] = {
            node.uid: self._shallow_facts(node) for node in template.nodes if isinstance(node, Elem)
        }
        #: How to gather fields from an environment.
        self.program: Program = program(template.root.children, self.data)
        #: Latent fields (fixed texts that may be data): uid to name, and
        #: to the label their text opens with, left out of a value that
        #: keeps it ("Team: " of "Team: Boston Celtics").
        self.latent = latent_fields(template)
        #: Tables read by the page's own header (see :mod:`._tables`):
        #: table uid -> the name of the set of their body rows, and the
        #: fields of their header row.
        self.header_tables = varying_header_tables(template)
        #: What induction noted of the latent texts' places, which their
        #: names depend on (see :func:`latent_notes`).
        self.latent_notes = latent_notes(template)
        headed = _heading_texts(template)
        self.latent_labels = {
            uid: "" if uid in headed else _own_label(self.fixed_text[uid]) for uid in self.latent
        }
        #: Per latent text, the seed texts of the latent ones around it in
        #: page order (:data:`LATENT_NEIGHBOURS` on each side): a page whose
        #: text there is one of them shows a menu with an item more or
        #: less, shifted, not data of its own.
        order = list(self.latent)
        self.latent_neighbours = {
            uid: {
                self.fixed_text[other]
                for other in order[max(0, i - LATENT_NEIGHBOURS) : i + LATENT_NEIGHBOURS + 1]
                if other != uid
            }
            for i, uid in enumerate(order)
        }
        #: Per hedge of the template (by ``id`` of its item list, which the
        #: template holds as long as this lives): how many searches ran,
        #: and how many an exact parse corrected (see :meth:`exact_first`).
        self.searches: dict[int, tuple[int, int]] = {}
        #: The field names compiled in (see :func:`compiled`).
        self.field_names = template.field_names
        self.set_names = template.set_names

    def _shallow_facts(self, node: Elem) -> ShallowFacts:
        uid = node.uid
        return (
            node.tag,
            tuple((k, v) for k, v in node.attrs.items() if v is not None),
            len(node.attrs),
            frozenset(node.attrs),
            uid in self.terms or uid in self.other_headings,
            uid in self.versions,
            first_leaf(node),
            _latent_label(node),
        )

    def exact_first(self, items: list[TNode]) -> bool:
        """Whether a hedge's shallow parse was corrected by an exact one on
        most earlier pages (:meth:`.Matcher.search`): at least
        :data:`EXACT_FIRST_AFTER` times, and more often than not."""
        searches, corrected = self.searches.get(id(items), (0, 0))
        return corrected >= EXACT_FIRST_AFTER and 2 * corrected > searches

    def note_search(self, items: list[TNode], corrected: bool) -> None:
        searches, count = self.searches.get(id(items), (0, 0))
        self.searches[id(items)] = (searches + 1, count + corrected)

    def _add_elem(self, node: Elem) -> None:
        uid = node.uid
        self.sigs[uid] = frozenset(node.sigs)
        # A list of rows opens with its first row's label, which is no
        # label of the list: a page may lack that row.
        anchor = first_leaf(node, ROW_LABEL_DEPTH)
        labels = _row_labels(node) if anchor is not None else []
        row = node.tag not in ROW_CONTAINERS and len(labels) < 2
        self.row_label[uid] = anchor if row else None
        self.row_label_prefix[uid] = _latent_label(node, ROW_LABEL_DEPTH) if row else ""
        self.row_text[uid] = _first_text(node, ROW_LABEL_DEPTH, fixed=False) if row else None
        if not row:
            self.row_labels[uid] = frozenset(labels)
        self.tags[uid] = _tags(node.children)
        self._add_rows(node.children)
        self.child_tags[uid] = _child_tags(node.children)
        self.elems[uid] = (
            tuple(node.variant_attrs),
            self.sigs[uid],
            plan_of(node.children, first_leaf),
            self.tags[uid],
        )

    def _add_set(self, node: Set) -> None:
        self.tags[node.uid] = _tags(node.children)
        self._add_rows(node.children)
        self.plans[node.uid] = plan_of(node.children, first_leaf)
        self.first[node.uid] = _starts(first(node))

    def _add_rows(self, items: list[TNode]) -> None:
        rows = [item.child for item in items if isinstance(item, Opt)]
        elems = [row for row in rows if isinstance(row, Elem)]
        if len(items) > 1 and len(elems) == len(items):
            self.optional_rows[id(items)] = tuple(elems)
        values = frozenset(
            i for i in range(1, len(items)) if labelled_value(items[i - 1], items[i])
        )
        if values:
            self.labelled_values[id(items)] = values
        headed = _headed(items)
        texts = frozenset().union(*(own for _, own in headed.values()))
        for i, (tag, own) in headed.items():
            item = items[i]
            item = item.child if isinstance(item, Opt) else item
            if texts - own:
                self.other_headings[item.uid] = (tag, texts - own)
        for i in values:
            item = items[i]
            item = item.child if isinstance(item, Opt) else item
            if isinstance(item, Elem):
                terms = _terms(items, i)
                if terms:
                    self.terms[item.uid] = terms


def _headed(items: list[TNode]) -> dict[int, tuple[str, frozenset[str]]]:
    """The elements of a hedge right after a heading of fixed text (a
    specifications table under "<h3>Display</h3>"), by position: the
    heading's tag and the texts of the headings it may follow (the one
    right before it, and the optional ones before that up to a required
    one, as for :func:`_terms`). Sections alike (each a table of rows)
    are told apart by their headings alone."""
    found: dict[int, tuple[str, frozenset[str]]] = {}
    for i in range(1, len(items)):
        item = items[i]
        item = item.child if isinstance(item, Opt) else item
        before = items[i - 1]
        before = before.child if isinstance(before, Opt) else before
        if not isinstance(item, Elem) or not isinstance(before, Elem) or before.tag not in HEADINGS:
            continue
        own = _terms(items, i, before.tag)
        if own:
            found[i] = (before.tag, frozenset(own))
    return found


def _terms(items: list[TNode], at: int, tag: str = "dt") -> tuple[str, ...]:
    """The fixed texts of the terms the definition ``items[at]`` may
    follow: the ``<dt>`` (or ``tag``) right before it, and the optional
    ones before that up to a required one (``<dt>Phone:</dt>`` or
    ``<dt>Fax:</dt>``, then the value); none where one of them is no
    fixed text with a word."""
    terms: list[str] = []
    for index in range(at - 1, -1, -1):
        item = items[index]
        inner = item.child if isinstance(item, Opt) else item
        if not isinstance(inner, Elem) or inner.tag != tag:
            break
        term = first_leaf(inner, ROW_LABEL_DEPTH)
        if not term or not any(char.isalpha() for char in term):
            return ()
        terms.append(term)
        if not isinstance(item, Opt):
            break
    return tuple(terms)


#: Inline elements whose fixed text labels the text right after them
#: where it ends with a colon ("<span>Weight:</span>"), not a currency sign
#: or a badge before a value (row labels' elements always do).
INLINE_TAGS = frozenset({"span", "em", "i", "font"})


#: A label element and the element of its value right after it: a term
#: and its definition, a row's header cell and its data cell.
LABELLED_CELLS = frozenset({("dt", "dd"), ("th", "td")})


def labelled_value(before: TNode, item: TNode) -> bool:
    """Whether ``item`` is a value right after a label of its own: a
    definition after its term (``<dt>Weight</dt><dd>…</dd>``), a data cell
    after its row's header cell (``<th>Weight</th><td>…</td>``), a text
    after a bold label (``<b>Weight:</b> 230 g``). Taken only where the
    page's label is the template's (see :meth:`.Matcher._positional` and
    :func:`._lenient.lenient`): after another label, the value is that
    label's (the director is no chancellor)."""
    before = before.child if isinstance(before, Opt) else before
    item = item.child if isinstance(item, Opt) else item
    if not isinstance(before, Elem):
        return False
    label = first_leaf(before, ROW_LABEL_DEPTH)
    if label is None or not any(char.isalpha() for char in label):
        return False
    if isinstance(item, Elem):
        return (before.tag, item.tag) in LABELLED_CELLS
    if not isinstance(item, Text) or item.fixed:
        return False
    return before.tag in ROW_LABEL_TAGS or (
        before.tag in INLINE_TAGS and label.rstrip().endswith(":")
    )


class Chrome:
    """The elements of *chrome* of a template and their shapes.

    An element of chrome has no field at or below it, and nothing below
    but elements and fixed texts (no optional part, set or free text), at
    least :data:`MIN_CHROME_NODES` nodes in all. Such an element has no
    digests when its attributes vary between pages (a session id in every
    link of a site's header and menus), so extraction would walk it node
    by node to extract nothing. A page element that fits it shallowly and
    has its shape (the same tags in the same tree, the same texts) is
    taken whole instead (see :meth:`.Matcher.elem`).

    A subtree is a run of uids (they number the template in pre-order),
    so the shapes are three lists over the whole template, the tags (or
    :data:`~scrapy_wrapx.dom.TEXT`), the number of children and the fixed
    texts, and each element of chrome the bounds of its run in them:
    memory linear in the template however deep it nests."""

    def __init__(self, template: Template, data: frozenset[int]) -> None:
        nodes = template.nodes
        self.tags = [TEXT if isinstance(node, Text) else getattr(node, "tag", "") for node in nodes]
        self.widths = [len(node.children) if isinstance(node, Elem) else 0 for node in nodes]
        self.texts: list[str] = []
        #: Texts before each uid, one past the end included.
        before = [0] * (len(nodes) + 1)
        for node in nodes:
            if isinstance(node, Text) and node.fixed:
                self.texts.append(node.parts[0] or "")
            before[node.uid + 1] = len(self.texts)
        #: Per element of chrome: the end of its run of uids, and of its texts.
        self.ends: dict[int, tuple[int, int, int]] = {}
        end = [0] * len(nodes)  # one past each fixed subtree's last uid, 0: not fixed
        for node in reversed(nodes):
            uid = node.uid
            if isinstance(node, Text):
                end[uid] = uid + 1 if node.fixed else 0
            elif isinstance(node, Elem):
                last = uid + 1
                for child in node.children:
                    if not end[child.uid]:
                        break
                    last = end[child.uid]
                else:
                    end[uid] = last
                    if last - uid >= MIN_CHROME_NODES and uid not in data:
                        self.ends[uid] = (last, before[uid], before[last])

    def shape(self, uid: int) -> tuple[list[str], list[int], list[str]] | None:
        """The tags, numbers of children and texts of element of chrome
        ``uid`` in pre-order, or None when ``uid`` is none."""
        found = self.ends.get(uid)
        if found is None:
            return None
        last, first_text, last_text = found
        return (
            self.tags[uid:last],
            self.widths[uid:last],
            self.texts[first_text:last_text],
        )


def _fallbacks(template: Template) -> list[tuple[str, list[tuple[int, int]]]]:
    """The dropped copies of each field, as ``(uid, index)`` pairs: where
    the copy's value is in the environment, the index of a text's slot or
    of an element's variant attribute. A template's meta that
    does not say where they are (an older template, or one edited by
    hand to something else) has none."""
    found = template.meta.get(COPY_FALLBACKS)
    if not isinstance(found, dict):
        return []
    names = {f"{info.uid}/{info.slot}": info.name for info in template.fields}
    result: list[tuple[str, list[tuple[int, int]]]] = []
    for key, copies in found.items():
        name = names.get(key)
        if name is None or not isinstance(copies, list):
            continue
        places = [place for copy in copies if (place := _place(template, copy)) is not None]
        if places:
            result.append((name, places))
    return result


def _place(template: Template, key: object) -> tuple[int, int] | None:
    """The ``(uid, index)`` of a ``"uid/slot"`` key, if the template has it."""
    if not isinstance(key, str):
        return None
    uid, _, slot = key.partition("/")
    # Decimal numbers of a few digits only: a template edited by hand, or
    # another program's, may hold anything there.
    index = decimal_number(uid)
    if index is None or index >= len(template.nodes):
        return None
    node = template.nodes[index]
    position = decimal_number(slot)
    if isinstance(node, Text) and position is not None and position < node.slots:
        return index, position
    if isinstance(node, Elem) and slot in node.variant_attrs:
        return index, node.variant_attrs.index(slot)
    return None


def _heading_texts(template: Template) -> set[int]:
    """The uids of the texts right in a main heading (``<h1>``): it states
    what the page is, no "Label: value" ("Aliens vs. Predator: Requiem" is
    a title; see :func:`~scrapy_wrapx.induction._latent.latent_base`)."""
    return {
        child.uid
        for node in template.nodes
        if isinstance(node, Elem) and node.tag == "h1"
        for child in node.children
        if isinstance(child, Text)
    }


def _own_label(text: str) -> str:
    found = LATENT_LABEL.match(text)
    return found.group() if found else ""


def _starts(found: First) -> tuple[frozenset[str], tuple[TNode, ...]]:
    if found is None:
        return frozenset(), ()
    tags = frozenset(
        TEXT if isinstance(item, Text) else item.tag  # type: ignore[union-attr]
        for item in found[0]
    )
    return tags, found[0]


def _child_tags(items: list[TNode]) -> tuple[frozenset[str], frozenset[str]]:
    """The tags of the child elements a hedge may show (through optional
    parts and repetitions) and of those it always shows."""
    may: set[str] = set()
    must: set[str] = set()
    stack: list[tuple[TNode, bool]] = [(item, True) for item in items]
    while stack:
        item, always = stack.pop()
        if isinstance(item, Elem):
            may.add(item.tag)
            if always:
                must.add(item.tag)
        elif isinstance(item, Opt):
            stack.append((item.child, False))
        elif isinstance(item, Set):
            stack.extend((child, False) for child in item.children)
    return frozenset(may), frozenset(must)


def _tags(items: list[TNode]) -> tuple[str, ...] | None:
    tags = []
    for item in items:
        if isinstance(item, Elem):
            tags.append(item.tag)
        elif isinstance(item, Text):
            tags.append(TEXT)
        else:
            return None
    return tuple(tags)


_CACHE: weakref.WeakKeyDictionary[Template, Compiled] = weakref.WeakKeyDictionary()


def compiled(template: Template) -> Compiled:
    """The compiled form of ``template``, compiled on first use and again
    after its fields or sets were renamed or induction noted where its
    latent texts are."""
    found = _CACHE.get(template)
    if (
        found is None
        or found.field_names != template.field_names
        or found.set_names != template.set_names
        or found.latent_notes != latent_notes(template)
    ):
        found = _CACHE[template] = Compiled(template)
    return found
