"""A value right after its label is data, even when every seed shows the
same one.

Seeds come from one listing, so they often share a value: five players of
one team ("Team: Boston Celtics"), five cameras of one brand, three jobs
of one type ("Type: Full time"). Compared across the seeds alone, such a
value is template text; on the next page ("Type: Part time") it does not
fit, and the value is lost. Where the page itself says the text is a value,
because a label introduces it, the text stays a slot:

* ``<b>Type:</b> Full time``: a lead element (:data:`._naming.LEAD_TAGS`)
  or one holding a text that ends with a colon, then a text;
* ``<th>Team</th><td>Celtics</td>``, ``<dt>Team</dt><dd>Celtics</dd>``,
  ``<td>Team:</td><td>Celtics</td>``: a label cell, then a cell holding
  one text;
* ``<td>Brand Name</td><td>Canon</td>`` in a table (or a grid of
  ``div`` rows) of such rows where other rows' values vary between the
  seeds (:func:`_label_column_values`): it is a specification, its first
  column labels, its second values, even where a cell has neither colon
  nor a label's element.

Values are short (:data:`MAX_VALUE_WORDS`) and no sentences: one after
"Note:" is the page's wording, not a value. Table columns are handled apart
(:func:`._tables.open_cells`). A labelled value among the site's chrome,
the header's "Order By Phone: 800-806-1115" beside its menus, stays
template (see :class:`_Chrome`).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

from scrapy_wrapx.dom import HEADINGS
from scrapy_wrapx.induction._naming import LEAD_TAGS, STYLE_TAGS, label_like, sentence_tail
from scrapy_wrapx.induction._peers import core
from scrapy_wrapx.template import (
    LATENT_LABEL,
    Elem,
    Opt,
    Set,
    Text,
    TNode,
    colon_label,
    element_look,
    iter_nodes,
)

#: Most words of a fixed text taken for a value after a label.
MAX_VALUE_WORDS = 8
#: A value may end with a period only this short ("Acme Inc."): longer,
#: it is a sentence.
MAX_ABBREVIATION_WORDS = 3
#: A label's colon or dash that opens the value's text.
_LEAD_SEPARATOR = re.compile(r"[:\-\u2013|]\s+")
#: Cells that hold the value of the cell before them.
VALUE_CELLS = frozenset({"td", "dd"})
#: Rows of a label column whose values vary between the seeds that make
#: its rows' other values data too (see :func:`_label_column_values`).
MIN_VARYING_ROWS = 2


def open_labelled_values(root: Elem) -> list[Text]:
    """Make every fixed text right after its label a slot, in the parts
    every seed shows and in optional ones (an optional row may be one
    seed's alone, every text of it fixed for want of a second sample: the
    next page's director is another), outside lists, unless it is the
    page's chrome (:class:`_Chrome`); returns them."""
    found, own, parents = _labelled_texts(root)
    paired = {id(text) for value, label, _ in found for text in (value, *iter_nodes(label))}
    paired.update(id(text) for text, _, _ in own)
    chrome = _Chrome(parents, _varying(root), paired)
    opened = [value for value, _, node in found if not chrome.holds(node)]
    for value in opened:
        # The colon or dash of a label outside its element stays template:
        # "<b>Age Range</b>: Ages 8-12" is "Ages 8-12".
        text = value.parts[0] or ""
        lead = _LEAD_SEPARATOR.match(text)
        value.parts = [lead.group(), None] if lead and lead.end() < len(text) else [None]
    for value, label, node in own:
        if not chrome.holds(node):
            value.parts = [label, None]
            opened.append(value)
    return opened


def _labelled_texts(
    root: Elem,
) -> tuple[list[tuple[Text, Elem, Elem]], list[tuple[Text, str, Elem]], dict[int, Elem]]:
    """The fixed values right after their labels (value, label, their
    element), the optional rows of one labelled text (text, its label, its
    element), and each element's parent by id, outside lists."""
    found: list[tuple[Text, Elem, Elem]] = []
    own: list[tuple[Text, str, Elem]] = []
    parents: dict[int, Elem] = {}
    stack: list[Elem] = [root]
    while stack:
        node = stack.pop()
        children = [core(child) for child in node.children]
        for before, after in itertools.pairwise(children):
            value = _value_after(before, after)
            if value is not None:
                assert isinstance(before, Elem)  # _value_after's label
                found.append((value, before, node))
        found.extend(_label_column_values(children))
        for child, inner in zip(node.children, children, strict=True):
            if isinstance(inner, Elem):
                parents[id(inner)] = node
                stack.append(inner)
                row = _own_labelled(inner) if isinstance(child, Opt) else None
                if row is not None:
                    own.append((*row, inner))
    return found, own, parents


def _label_column_values(rows: list[TNode]) -> list[tuple[Text, Elem, Elem]]:
    """The fixed values of a run of rows of a label cell and a value cell
    (value, label cell, row): rows of one tag, each two cells, of one
    tag each across the rows (``<tr><td>Brand Name</td><td>Canon</td>``,
    ``<div><span>Brand Name</span><span>Canon</span></div>``), the first
    one fixed text. Where at least :data:`MIN_VARYING_ROWS` of them hold
    a value that varies between the seeds, the run is a specification
    and its fixed values are data too: the seeds of one brand's listing
    all say "Canon", the next page another. Its labels need no colon or
    label element; a run of fixed rows only (a layout, a menu) opens
    nothing."""
    fixed: dict[tuple[str, str, str], list[tuple[Text, Elem, Elem]]] = {}
    varying: Counter[tuple[str, str, str]] = Counter()
    for row in rows:
        if not isinstance(row, Elem) or len(row.children) != 2:
            continue
        label, cell = (core(child) for child in row.children)
        if not (isinstance(label, Elem) and isinstance(cell, Elem)):
            continue
        words = _only_text(label)
        if words is None or not words.fixed or not label_like(words.parts[0] or ""):
            continue
        if _value_after(label, cell) is not None:
            continue  # a label that says so: found as a pair
        shape = (row.tag, label.tag, cell.tag)
        value = _only_text(cell)
        if value is not None and _value_like(value):
            fixed.setdefault(shape, []).append((value, label, row))
        elif any(isinstance(text, Text) and not text.fixed for text in iter_nodes(cell)):
            varying[shape] += 1
    return [
        found
        for shape, values in fixed.items()
        if varying[shape] >= MIN_VARYING_ROWS
        for found in values
    ]


def _own_labelled(elem: Elem) -> tuple[Text, str] | None:
    """The text of an optional row that is one text opening with its own
    label and a value (``<li>Director: Ed Wood</li>``), and that label;
    else None: seen on one seed only, the text is fixed for want of a
    second sample, and the next page's director is another."""
    if len(elem.children) != 1 or not isinstance(elem.children[0], Text):
        return None
    text = elem.children[0]
    value = text.parts[0] or ""
    label = LATENT_LABEL.match(value) if text.fixed else None
    if label is None or not _value_like(Text([value[label.end() :]])):
        return None
    return text, label.group()


def _varying(root: Elem) -> set[int]:
    """The ids of the nodes whose subtree varies between seeds: a text
    with a slot, an optional or a repeated part, or an ancestor of one."""
    found: set[int] = set()
    for node in reversed(list(iter_nodes(root))):  # children before parents
        varies = isinstance(node, (Set, Opt)) or (isinstance(node, Text) and not node.fixed)
        if varies or (isinstance(node, Elem) and any(id(c) in found for c in node.children)):
            found.add(id(node))
    return found


class _Chrome:
    """Whether a labelled value the seeds agree on is the site's chrome:
    the largest part of the page around it that no seed varies holds more
    than labelled values and headings, as a header's phone line sits among
    its menus ("Order By Phone: 800-806-1115"). Then it stays template,
    latent (:mod:`._latent`): a page where it differs shows it. A box of
    labelled values alone ("Team: Boston Celtics" of five seeds of one
    team) is data. Each fixed part is looked at once, however many values
    it holds."""

    def __init__(self, parents: dict[int, Elem], varying: set[int], paired: set[int]) -> None:
        self.parents = parents
        self.varying = varying
        self.paired = paired
        self.seen: dict[int, bool] = {}

    def holds(self, node: Elem) -> bool:
        """Whether the chrome holds the value in ``node``."""
        top = self._fixed_top(node)
        if top is None:
            return False
        if id(top) not in self.seen:
            self.seen[id(top)] = self._more_than_labels(top)
        return self.seen[id(top)]

    def _fixed_top(self, node: Elem) -> Elem | None:
        """The largest subtree around ``node`` that is the same on every
        seed; None where ``node``'s own subtree varies."""
        if id(node) in self.varying:
            return None
        parents = self.parents
        while id(node) in parents and id(parents[id(node)]) not in self.varying:
            node = parents[id(node)]
        return node

    def _more_than_labels(self, top: Elem) -> bool:
        stack: list[tuple[TNode, bool]] = [(top, False)]
        while stack:
            node, heading = stack.pop()
            if isinstance(node, Text):
                if id(node) not in self.paired and not heading:
                    return True
            elif isinstance(node, Elem):
                inside = heading or node.tag in HEADINGS
                stack.extend((child, inside) for child in node.children)
        return False


def _value_after(before: TNode, after: TNode) -> Text | None:
    """The fixed value text ``after`` holds when ``before`` is its label."""
    if not isinstance(before, Elem):
        return None
    label = _only_text(before)
    if label is None or not label.fixed:
        return None
    words = label.parts[0] or ""
    if not label_like(words):
        return None
    colon = words.rstrip().endswith(":")
    if isinstance(after, Text):
        value = after if colon or before.tag in LEAD_TAGS else None
    elif isinstance(after, Elem) and after.tag in VALUE_CELLS:
        value = _only_text(after) if colon or before.tag in ("th", "dt") else None
    else:
        value = None
    return value if value is not None and _value_like(value) else None


def _only_text(elem: Elem) -> Text | None:
    """The one text an element holds, through styling wrappers
    (``<td><font><b>Team:</b></font></td>``)."""
    node: TNode = elem
    while isinstance(node, Elem):
        if len(node.children) != 1:
            return None
        node = node.children[0]
        if isinstance(node, Elem) and node.tag not in STYLE_TAGS | LEAD_TAGS:
            return None
    return node if isinstance(node, Text) else None


def _value_like(text: Text) -> bool:
    if not text.fixed:
        return False
    value = (text.parts[0] or "").strip()
    words = len(value.split())
    sentence = (value.endswith(".") and words > MAX_ABBREVIATION_WORDS) or sentence_tail(value)
    return bool(value) and not value.endswith(":") and words <= MAX_VALUE_WORDS and not sentence


def open_label_alternatives(root: Elem) -> list[Text]:
    """In the records of lists, make a run of optional labels one label
    slot; returns the slots.

    A list of "Label: value" rows (``<p><b>Phone:</b> 555-0100</p>``) whose
    rows differ between the seeds aligns as one record of alternative
    labels, each an optional ``<b>`` of its fixed text, and one value
    slot: the records held the values without their labels, under one
    name (``price`` for the phone, the hours and the price). Where a
    record's element holds two optional elements or more that look the
    same (tag and attributes), each of one fixed text ending with a colon,
    and then the value's text, and nothing else, the labels are one label
    whose text varies: the first keeps its place with a slot, so that the
    rows read as labels and values (see :mod:`._keyvalue`). Outside
    lists, such labels and the value after them are a list of one record
    (:func:`_wrap_label_alternatives`)."""
    opened: list[Text] = []
    stack: list[tuple[TNode, bool]] = [(root, False)]
    while stack:
        node, in_list = stack.pop()
        if isinstance(node, Elem | Set):
            _drop_lead_labels(node)
            _join_lead_rows(node)
            if isinstance(node, Elem):
                _wrap_label_alternatives(node, in_list)
            inside = in_list or isinstance(node, Set)
            if isinstance(node, Set):
                _collapse_label_runs(node)
            if inside and _label_row(node.children):
                opened.append(_merge_labels(node))
            stack.extend((child, inside) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, in_list))
    return opened


def _wrap_label_alternatives(node: Elem, in_list: bool) -> None:
    """Make each run of two or more optional labels alike and the value
    right after them a set of that one record: ``<b>Pages:</b>`` on some
    seeds and ``<b>Language:</b>`` on others, then one value, held the
    value under one label's name whatever label the page showed
    ("pages": the language). As a record of a list, the labels become one
    label slot and the value is keyed by the page's own label. An
    element that is such a row whole, in a list, is a record already.
    Outside lists, so is a term whose text varies and its definition,
    and a table row of such a header cell and its value cell: its value
    was under a name of markup (``specs_4``), its label beside it."""
    children = node.children
    if in_list and _label_row(children):
        return
    out: list[TNode] = []
    at = 0
    while at < len(children):
        end = at
        while end < len(children) and _optional_label(children[end]) is not None:
            end += 1
        value = children[end] if end < len(children) else None
        if value is not None and end - at >= 2 and _label_row([*children[at:end], core(value)]):
            rows = Set([*children[at:end], core(value)])
            out.append(Opt(rows) if isinstance(value, Opt) else rows)
            at = end + 1
        elif (
            not in_list and at + 1 < len(children) and _variant_term(children[at], children[at + 1])
        ):
            out.append(_one_record([children[at], children[at + 1]]))
            at += 2
        elif not in_list and _variant_row(children[at]):
            out.append(_one_record([children[at]]))
            at += 1
        else:
            out.append(children[at])
            at += 1
    node.children = out


def _collapse_label_runs(rows: Set) -> None:
    """Make a set's record of several runs of optional labels alike, each
    followed by a value (the rows of "<i>Engine:</i> 300 hp<br>" runs,
    merged into one record as runs of alternatives), one run of all the
    labels and its first value: the records are rows of one label and one
    value each, which :func:`_merge_labels` then reads so."""
    labels: list[TNode] = []
    values: list[TNode] = []
    after_label = False
    for item in rows.children:
        if _optional_label(item) is not None:
            labels.append(item)
            after_label = True
            continue
        inner = core(item)
        if not after_label or not _value_slot(inner):
            return
        values.append(inner)
        after_label = False
    if len(values) < 2 or len(labels) < 2 or after_label:
        return
    looks = {element_look(label) for label in map(_optional_label, labels) if label is not None}
    if len(looks) == 1:
        rows.children = [*labels, values[0]]


def _variant_term(term: TNode, definition: TNode) -> bool:
    """Whether ``term`` is a ``<dt>`` whose text varies (the seeds showed
    other terms there) and ``definition`` the ``<dd>`` after it."""
    term = core(term)
    definition = core(definition)
    if not isinstance(term, Elem) or term.tag != "dt" or len(term.children) != 1:
        return False
    text = term.children[0]
    return (
        isinstance(text, Text)
        and text.parts == [None]
        and isinstance(definition, Elem)
        and definition.tag == "dd"
    )


def _variant_row(row: TNode) -> bool:
    """Whether ``row`` is a table row of a header cell whose text varies
    (the seeds showed other labels there) and a value cell; or any row of
    such a label's element, a colon, and a value
    (``<li><span class="k">{label}</span>: <span class="v">…</span></li>``)."""
    row = core(row)
    if not isinstance(row, Elem) or len(row.children) not in (2, 3):
        return False
    items = [core(child) for child in row.children]
    label, value = items[0], items[-1]
    if not _slot_element(label) or not _value_slot(value):
        return False
    if len(items) == 3:
        colon = items[1]
        return isinstance(colon, Text) and colon.fixed and (colon.parts[0] or "").strip() == ":"
    assert isinstance(label, Elem)
    return row.tag == "tr" and label.tag == "th" and isinstance(value, Elem) and value.tag == "td"


def _slot_element(node: TNode) -> bool:
    """Whether ``node`` is an element of one text that is all a slot."""
    return (
        isinstance(node, Elem)
        and len(node.children) == 1
        and isinstance(node.children[0], Text)
        and node.children[0].parts == [None]
    )


def _one_record(items: list[TNode]) -> TNode:
    """A set of one record of ``items``, optional where one of them was."""
    record = [core(item) for item in items]
    rows = Set(record)
    return Opt(rows) if any(isinstance(item, Opt) for item in items) else rows


def _drop_lead_labels(node: Elem | Set) -> None:
    """Drop the label right before a set of label rows when it looks like
    the rows' labels: ``<b>Pages:</b>`` that most seeds show, aligned
    apart, before the set of the rows the seeds differ in. Its value was
    the set's first record, without a label, so the set read as no
    labels and values; the set's labels take it in now."""
    children = node.children
    for at in range(len(children) - 1, 0, -1):
        item, before = children[at], children[at - 1]
        rows = core(item)
        if not isinstance(rows, Set) or not _label_row(rows.children):
            continue
        lead = _label_element(core(before))
        first = _optional_label(rows.children[0])
        if lead is not None and first is not None and element_look(lead) == element_look(first):
            del children[at - 1]


def _join_lead_rows(node: Elem | Set) -> None:
    """Drop the row right before a set of label rows when it is one of
    them: ``<li><strong>Color:</strong> 777 in</li>`` then a set of such
    ``<li>``, where the first row's label was template text on some
    seeds and so aligned apart. Its label varies (alternatives, or a
    slot), so its value was a field beside the set under a name of
    markup; the set's records take it in."""
    children = node.children
    for at in range(len(children) - 1, 0, -1):
        item, before = children[at], children[at - 1]
        rows = core(item)
        lead = core(before)
        if not isinstance(rows, Set) or len(rows.children) != 1:
            continue
        record = rows.children[0]
        if (
            _label_value_row(record)
            and _label_value_row(lead)
            and _varying_label(lead)
            and _same_row(lead, record)
        ):
            del children[at - 1]


def _varying_label(row: TNode) -> bool:
    """Whether a label/value row's label varies: alternatives, or a slot.
    A row of one fixed label is a field named by it, and stays one."""
    assert isinstance(row, Elem)
    if _label_row(row.children):
        return True
    label = core(row.children[0])
    assert isinstance(label, Elem) and isinstance(label.children[0], Text)
    return not label.children[0].fixed


def _label_value_row(node: TNode) -> bool:
    """Whether ``node`` is an element of a label element of one text and
    a value (see :func:`_value_slot`), nothing else; or of alternative
    labels and a value (:func:`_label_row`)."""
    if not isinstance(node, Elem):
        return False
    if _label_row(node.children):
        return True
    if len(node.children) != 2:
        return False
    label, value = (core(child) for child in node.children)
    return (
        isinstance(label, Elem)
        and len(label.children) == 1
        and isinstance(label.children[0], Text)
        and _value_slot(value)
    )


def _same_row(a: TNode, b: TNode) -> bool:
    """Whether two label/value rows look the same: their element and their
    label's element."""
    assert isinstance(a, Elem) and isinstance(b, Elem)
    first_a, first_b = (core(row.children[0]) for row in (a, b))
    return (
        element_look(a) == element_look(b)
        and isinstance(first_a, Elem)
        and isinstance(first_b, Elem)
        and element_look(first_a) == element_look(first_b)
    )


def _label_row(items: list[TNode]) -> bool:
    """Whether an element's content is optional labels alike, then the
    value (see :func:`_value_slot`), and nothing else."""
    if len(items) < 3 or not _value_slot(items[-1]):
        return False
    labels = [_optional_label(item) for item in items[:-1]]
    first = labels[0]
    return first is not None and all(
        label is not None and element_look(label) == element_look(first) for label in labels
    )


def _value_slot(node: TNode | None) -> bool:
    """Whether ``node`` is a value after a label: a text with a slot, or
    an element holding only that (``<dd>``, ``<span class="v">``)."""
    if isinstance(node, Elem) and len(node.children) == 1:
        node = node.children[0]
    return isinstance(node, Text) and not node.fixed


def _merge_labels(row: Elem | Set) -> Text:
    """Keep the first of a label row's optional labels (see
    :func:`_label_row`), its text a slot, and the value; returns the
    label's text. The row is an element, or a set's record itself where
    no element holds each row (``<b>Pages:</b> 320<br><b>Format:</b>
    Paperback``)."""
    first, value = row.children[0], row.children[-1]
    label = _optional_label(first)
    assert label is not None
    text = label.children[0]
    assert isinstance(text, Text)
    text.parts = [None]
    label.sigs = ()
    row.children = [first, value]
    return text


def _optional_label(item: TNode | None) -> Elem | None:
    """The element of an optional that holds one fixed text ending with a
    colon, short and label-like, else None."""
    return _label_element(item.child) if isinstance(item, Opt) else None


def _label_element(elem: TNode) -> Elem | None:
    """``elem`` where it is an element of one fixed text ending with a
    colon, short and label-like, else None."""
    value = colon_label(elem)
    return elem if isinstance(elem, Elem) and value and label_like(value) else None
