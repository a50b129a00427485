"""Sets of label/value records: a specs table whose rows differ from product
to product (``<tr><th>Weight</th><td>358 g</td></tr>``), a ``<dl>`` of terms,
"Label:" rows. The induction aligns such rows as one set of two variant
slots, since the labels differ between pages; a person reads the rows as
one record keyed by the labels, ``{"weight": "358 g", "zoom": "4x"}``.

A set is noted as such (``Template.meta["key_value_sets"]``, set name ->
where its labels and values are) when the seed pages show it:

* its records hold exactly two text fields, and no set of their own
  (``<th>`` and ``<td>``); or one text field whose texts open with a
  label of their own (``<li>Weight: 358 g</li>``: a list of such rows
  whose labels differ from product to product, so that no label is fixed
  text); or one set of cells of one field, two cells in
  every record (``<td>`` and ``<td>``, ``<span>`` and ``<span>``); or a
  label in a lead element and values of several markups, one per record
  (a text on most rows, a link on the "Web site" row);
* the first is a label by its markup: it is in a ``th``, ``dt``, ``label``,
  ``b``, ``strong`` or a heading, or in the first cell of a row whose second
  cell holds the value, or it ends in a colon on most rows; or, where
  classes alone tell the two apart (``<span class=k>``, ``<span class=v>``),
  nearly all the first texts recur from seed to seed
  (:data:`STRONG_RECURRENCE`) and the values mostly do not;
* its texts look like labels (short, with letters), never repeat within a
  page's set, and recur: most rows' labels are found on another seed page
  too. Data does not recur that way: a list of products whose names sit in
  ``<b>`` has other names on every page.

The item then holds the set as one mapping (see
:func:`scrapy_wrapx.unsupervised.items.item_data`).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from scrapy_wrapx.dom import PageTree
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction._naming import LEAD_TAGS, label_like, label_name
from scrapy_wrapx.induction._rename import fresh_name
from scrapy_wrapx.template import (
    LATENT_LABEL,
    Elem,
    FieldInfo,
    Opt,
    Set,
    Template,
    enclosing_sets,
    slug,
)

#: Key of :attr:`Template.meta` naming the key/value sets.
KEY_VALUE_SETS = "key_value_sets"
#: Share of a set's rows whose label must be found on another seed page.
RECURRENCE = 0.5
#: That share where no markup and no colon says the texts are labels; the
#: values must then recur no more than :data:`RECURRENCE`.
STRONG_RECURRENCE = 0.8


@dataclass(frozen=True)
class KeyValueSet:
    """Where a key/value set's labels and values are: two fields of its
    records (``label``, ``value``, or where a record's ``value`` is
    empty the first of the fields ``others`` it fills: the value in
    another markup), one field that holds both (``label`` is ``value``:
    "Weight: 358 g"), or the first and second cell of the set ``cells``
    in each record, one field (``value``) each."""

    label: str
    value: str
    cells: str = ""
    others: tuple[str, ...] = ()

    def pairs(self, rows: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
        """The (label, value) of each record."""
        if not self.cells and self.label == self.value:
            return [_split_label(row.get(self.value)) for row in rows]
        if not self.cells:
            return [(row.get(self.label), self._value(row)) for row in rows]
        pairs = []
        for row in rows:
            cells = row.get(self.cells)
            if isinstance(cells, list) and len(cells) == 2:
                pairs.append((cells[0].get(self.value), cells[1].get(self.value)))
            else:
                pairs.append((None, None))
        return pairs

    def _value(self, row: dict[str, Any]) -> Any:
        value = row.get(self.value)
        for other in self.others:
            if value:
                break
            value = row.get(other)
        return value

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "value": self.value,
            "cells": self.cells,
            "others": list(self.others),
        }


def _split_label(text: Any) -> tuple[Any, Any]:
    """A "Label: value" text as its label (with the colon) and value; a
    text without a label is a value alone.

    >>> _split_label("Screen size: 15.6 in"), _split_label("15.6 in")
    (('Screen size:', '15.6 in'), (None, '15.6 in'))
    """
    if not isinstance(text, str):
        return None, None
    label = LATENT_LABEL.match(text)
    if label is None:
        return None, text
    return text[: label.end()].strip(), text[label.end() :].strip()


def note_key_value_sets(template: Template, trees: Sequence[PageTree]) -> None:
    """Find the key/value sets of ``template`` on its seed ``trees`` and
    note them in its meta (see the module doc)."""
    candidates = _candidates(template)
    found: dict[str, dict[str, Any]] = {}
    if candidates:
        pages = [extract(template, tree).records for tree in trees]
        shown = [{_bare(leaf.value).lower() for leaf in tree.leaves} for tree in trees]
        texts = {info.name for info in template.fields if info.slot.isdigit()}
        unseen: dict[str, KeyValueSet] = {}
        for set_name, (kv, by_markup) in candidates.items():
            rows = [list(_rows(records, set_name)) for records in pages]
            values = [name for name in (kv.value, *kv.others) if name in texts]
            if any(sum(bool(row.get(n)) for n in values) > 1 for page in rows for row in page):
                continue  # records of several values each (a link's target aside)
            pairs = [kv.pairs(page) for page in rows]
            if _reads_as_labels(pairs, by_markup, shown):
                found[set_name] = kv.to_json()
            elif by_markup and _reads_as_labels(pairs, by_markup, shown, recurrence=False):
                unseen[set_name] = kv
        found.update(_alike_sections(template, found, unseen))
    if found:
        template.meta[KEY_VALUE_SETS] = found
    else:
        template.meta.pop(KEY_VALUE_SETS, None)


def key_value_sets(template: Template) -> dict[str, KeyValueSet]:
    """The noted key/value sets of ``template`` by set name; what an older
    or foreign template says is checked."""
    noted = template.meta.get(KEY_VALUE_SETS)
    if not isinstance(noted, dict):
        return {}
    found = {}
    for name, where in noted.items():
        if isinstance(where, dict) and all(
            isinstance(where.get(k), str) for k in ("label", "value")
        ):
            cells, others = where.get("cells", ""), where.get("others", [])
            found[str(name)] = KeyValueSet(
                where["label"],
                where["value"],
                cells if isinstance(cells, str) else "",
                tuple(o for o in others if isinstance(o, str)) if isinstance(others, list) else (),
            )
    return found


def keyed_record(rows: list[dict[str, Any]], kv: KeyValueSet) -> dict[str, str]:
    """The rows of a key/value set as one mapping, keyed by the slug of each
    label (a key a page shows twice, or that slugs to nothing, is numbered)."""
    keyed: dict[str, str] = {}
    used: set[str] = set()
    for text, data in kv.pairs(rows):
        if not isinstance(text, str) or not isinstance(data, str) or not data:
            continue
        keyed[fresh_name(label_name(_bare(text)) or slug(text) or "field", used)] = data
    return keyed


def _candidates(template: Template) -> dict[str, tuple[KeyValueSet, bool]]:
    """Sets of the shapes of the module doc, and whether the label's
    markup says it is one."""
    members: dict[str, list[FieldInfo]] = {}
    for info in template.fields:
        if info.set:
            members.setdefault(info.set, []).append(info)
    children = _nested_sets(template)
    found: dict[str, tuple[KeyValueSet, bool]] = {}
    sets = Counter(node.name for node in template.nodes if isinstance(node, Set))
    for name, count in sets.items():
        # Sets that share a name (the versions of one list in two
        # optional parts) hold other fields each: no one label and value.
        shape = _candidate(name, members, children) if count == 1 else None
        if shape is not None:
            found[name] = shape
    return found


def _nested_sets(template: Template) -> dict[str, list[str]]:
    """The names of the sets in each set (by name) that hold data: a set
    with no field at or below it (a row's spacer cells) is decoration."""
    inside = enclosing_sets(template.root)
    # Uids number the template in pre-order: a subtree is the run of uids
    # from its node to its last descendant, found in one pass from the end.
    nodes = template.nodes
    last = list(range(len(nodes)))
    for node in reversed(nodes):
        kids = node.children if isinstance(node, Elem | Set) else []
        kids = [node.child] if isinstance(node, Opt) else kids
        if kids:
            last[node.uid] = last[kids[-1].uid]
    fielded = sorted(info.uid for info in template.fields)
    children: dict[str, list[str]] = {}
    for node in nodes:
        if isinstance(node, Set):
            at = bisect.bisect_left(fielded, node.uid)
            if at < len(fielded) and fielded[at] <= last[node.uid]:
                children.setdefault(inside[node.uid], []).append(node.name)
    return children


def _candidate(
    name: str, members: dict[str, list[FieldInfo]], children: dict[str, list[str]]
) -> tuple[KeyValueSet, bool] | None:
    infos, nested = members.get(name, []), children.get(name, [])
    if not nested and len(infos) == 2 and all(i.slot.isdigit() for i in infos):
        label, value = infos
        return KeyValueSet(label.name, value.name), _by_markup(label, value)
    if not nested and len(infos) > 2:
        kv = _label_and_values(infos)
        return (kv, True) if kv is not None else None
    if not nested and len(infos) == 1 and infos[0].slot.isdigit():
        # One text a row: its labels are the colons' (_split_label).
        return KeyValueSet(infos[0].name, infos[0].name), False
    if not infos and len(nested) == 1 and not children.get(nested[0]):
        cell = members.get(nested[0], [])
        if len(cell) == 1 and cell[0].slot.isdigit():
            # Label and value cells are alike: the cell's markup says it.
            return KeyValueSet("", cell[0].name, nested[0]), _by_markup(cell[0], cell[0])
    return None


def _label_and_values(infos: list[FieldInfo]) -> KeyValueSet | None:
    """The key/value shape of records whose first text field is in a lead
    element (``<b>Web site</b>``) and whose other fields hold its value in
    one markup or another: the texts first, then the links' targets."""
    label = infos[0]
    if not label.slot.isdigit() or label.path.split("/")[-1] not in LEAD_TAGS:
        return None
    texts = [info.name for info in infos[1:] if info.slot.isdigit()]
    links = [info.name for info in infos[1:] if not info.slot.isdigit()]
    if not texts:
        return None
    return KeyValueSet(label.name, texts[0], others=(*texts[1:], *links))


def _by_markup(label: FieldInfo, value: FieldInfo) -> bool:
    """Whether the label field's markup says it is a label (module doc)."""
    tags = label.path.split("/")
    if tags[-1] in LEAD_TAGS:
        return True
    return tags[-2:] == ["tr", "td"] and value.path.split("/")[-2:] == ["tr", "td"]


def _rows(records: dict[str, list[dict[str, Any]]], name: str) -> Iterator[dict[str, Any]]:
    """The records of the set ``name`` wherever it nests in ``records``."""
    for rows in record_lists(records, name):
        yield from rows


def record_lists(
    records: dict[str, list[dict[str, Any]]], name: str
) -> Iterator[list[dict[str, Any]]]:
    """Each list of records of the set ``name`` wherever it nests in
    ``records`` (one per record of the set around it)."""
    stack = [records]
    while stack:
        current = stack.pop()
        for set_name, rows in current.items():
            if set_name == name:
                yield rows
            for row in rows:
                stack.append({k: v for k, v in row.items() if isinstance(v, list)})


def _alike_sections(
    template: Template, found: dict[str, dict[str, Any]], unseen: dict[str, KeyValueSet]
) -> dict[str, dict[str, Any]]:
    """The sets of ``unseen`` (label-like rows whose labels no other seed
    shows: a section of a sheet that one seed had) whose labels and values
    sit in the markup of a key/value set ``found``: another section of the
    same sheet ("Warranty" beside "Display", each a list of "<strong>
    Label:</strong> value" rows)."""
    paths = {info.name: info.path for info in template.fields}

    def shape(kv: KeyValueSet) -> tuple[str, ...]:
        label = paths.get(kv.label, "").split("/")[-SHAPE_TAGS:]
        value = paths.get(kv.value, "").split("/")[-SHAPE_TAGS:]
        return (*label, "|", *value)

    known = set()
    for where in found.values():
        if not where.get("cells"):
            known.add(shape(KeyValueSet(where["label"], where["value"])))
    return {
        name: kv.to_json() for name, kv in unseen.items() if not kv.cells and shape(kv) in known
    }


#: Tags at the end of a field's path that tell a sheet's row markup.
SHAPE_TAGS = 3


def _reads_as_labels(
    pages: list[list[tuple[Any, Any]]],
    by_markup: bool,
    shown: list[set[str]],
    recurrence: bool = True,
) -> bool:
    """Whether the (label, value) pairs of a set on each seed page read as
    labels (module doc); ``shown`` holds each seed page's texts. A
    label recurs where another seed shows it in the set or anywhere else:
    a row that most seeds show is template text there, in a row of its
    own, and only the seeds without it have it in the set. Without
    ``recurrence``, labels need not recur (see :func:`_alike_sections`)."""
    texts_per_page: list[list[str]] = []
    for page in pages:
        # A row with neither label nor value (a spacer row between the
        # pairs, as table layouts draw rules) is no pair.
        pairs = [(t, value) for t, value in page if t is not None or value is not None]
        if not all(isinstance(t, str) and label_like(t.strip()) for t, _ in pairs):
            return False
        # Most labels have their value in the pair's text (a "Web site"
        # row's may be a link of its own).
        if pairs and sum(isinstance(value, str) for _, value in pairs) * 2 <= len(pairs):
            return False
        labels = [_bare(str(t)).lower() for t, _ in pairs]
        if len(set(labels)) < len(labels):
            return False
        texts_per_page.append([str(t).strip() for t, _ in pairs])
    rows_seen = [t for texts in texts_per_page for t in texts]
    if len(texts_per_page) < 2 or len(rows_seen) < 2:
        return False
    colons = sum(t.endswith(":") for t in rows_seen)
    if not by_markup and colons * 2 <= len(rows_seen):
        # No markup or colon says "label": only labels that nearly all
        # recur, beside values that mostly do not (``<span class=k>Phone
        # </span><span class=v>555-0100</span>``, the markup of sites
        # that style their specifications with classes alone).
        values = [[str(v) for _, v in page if isinstance(v, str)] for page in pages]
        return _recurring(texts_per_page) >= STRONG_RECURRENCE * len(rows_seen) and _recurring(
            values
        ) <= RECURRENCE * sum(map(len, values))
    return not recurrence or _recurring(texts_per_page, shown) >= RECURRENCE * len(rows_seen)


def _recurring(texts_per_page: list[list[str]], shown: list[set[str]] | None = None) -> int:
    """How many of the texts are found on another page too: in the same
    place, or where ``shown`` (each page's texts) is given, anywhere."""
    pages_of = Counter(_bare(t).lower() for texts in texts_per_page for t in set(texts))
    count = 0
    for page, texts in enumerate(texts_per_page):
        for text in texts:
            key = _bare(text).lower()
            if pages_of[key] >= 2 or (
                shown is not None
                and any(key in other for at, other in enumerate(shown) if at != page)
            ):
                count += 1
    return count


def _bare(label: str) -> str:
    """A label without its colon and edge spaces."""
    return label.strip().rstrip(":").strip()
