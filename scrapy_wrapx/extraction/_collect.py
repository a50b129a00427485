"""Gathering fields and records from a match's environment.

A template is compiled into a *collection program*: its data nodes (those
with a field at or below them; fixed chrome is most of a page) as a flat
list of steps in page order. Running the program on an environment gives
the fields, in page order, and the records of every set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scrapy_wrapx.dom import TEXT
from scrapy_wrapx.template import Blob, Elem, Opt, Set, Template, Text, TNode

#: One step of a collection program: ``(kind, uid, ...)``.
Step = tuple[Any, ...]
#: A collection program (see :func:`program`).
Program = list[Step]
#: The fields gathered so far, by name.
Fields = dict[str, list[str]]
#: The records gathered so far, by set name.
Records = dict[str, list[dict[str, Any]]]
#: The record being filled (inside a set), or None.
Row = dict[str, Any] | None

#: Steps of a collection program: a text's slots, an element's variant
#: attributes, a set's repetitions, a blob's texts.
TEXT_STEP, ATTRS_STEP, SET_STEP, BLOB_STEP = 0, 1, 2, 3


def _has_data(node: TNode, data: set[int], extra: frozenset[int]) -> bool:
    """Whether ``node`` holds a field, given which of its children do (or
    is one of ``extra``, a dropped copy of a field)."""
    if node.uid in extra:
        return True
    if isinstance(node, Elem):
        return bool(node.names) or any(child.uid in data for child in node.children)
    if isinstance(node, Text):
        return any(node.names)
    if isinstance(node, Opt):
        return node.child.uid in data
    if isinstance(node, Set):
        return any(child.uid in data for child in node.children)
    return bool(node.name)


def data_nodes(template: Template, extra: frozenset[int] = frozenset()) -> frozenset[int]:
    """Uids of the nodes with a field at or below them (or one of the
    nodes ``extra``): the only ones :func:`collect` needs to visit, and
    the ones a match must not take whole."""
    data: set[int] = set()
    for node in reversed(template.nodes):
        if _has_data(node, data, extra):
            data.add(node.uid)
    return frozenset(data)


def _steps(item: TNode, data: frozenset[int]) -> Program:
    if isinstance(item, Elem):
        steps: Program = []
        if item.names:
            fields = tuple(
                (index, item.names[name])
                for index, name in enumerate(item.variant_attrs)
                if item.names.get(name)
            )
            steps.append((ATTRS_STEP, item.uid, fields))
        steps.extend(program(item.children, data))
        return steps
    if isinstance(item, Text):
        return [(TEXT_STEP, item.uid, tuple(item.names))]
    if isinstance(item, Opt):
        return program([item.child], data)
    if isinstance(item, Set):
        return [(SET_STEP, item.uid, item.name, program(item.children, data))]
    assert isinstance(item, Blob)
    return [(BLOB_STEP, item.uid, item.name)]


def program(items: list[TNode], data: frozenset[int]) -> Program:
    """The data nodes below ``items`` as a flat list of steps, in page
    order. Elements and optionals need no step of their own: the
    environment is flat within a record (keyed by uid) and holds nothing
    for an absent optional, so only sets, which open a record each, nest."""
    steps: Program = []
    for item in items:
        if item.uid in data:
            steps.extend(_steps(item, data))
    return steps


def _collect_text(step: Step, value: Any, fields: Fields, record: Row) -> None:
    """A text's slots; a text that did not fit its tokens is kept whole
    under the first slot's name."""
    names = step[2]
    if isinstance(value, str):
        if names and names[0] and value:
            _add(fields, record, names[0], value)
        return
    for name, slot in zip(names, value, strict=True):
        if name and slot:
            _add(fields, record, name, slot)


def attribute_value(attr: str | None) -> str | None:
    """An attribute's value as a browser reads a URL: without the white
    space around it (``href="\n    http://..."``; the environment keeps it
    whole for rendering). None for none, and for a ``javascript:``
    "address": code a click runs (a bookmark or tab script), nothing a
    reader can follow."""
    if not attr or attr.isspace():
        return None
    attr = attr.strip()
    return None if attr[:11].lower() == "javascript:" else attr


def _collect_attrs(step: Step, value: Any, fields: Fields, record: Row) -> None:
    for index, name in step[2]:
        attr = attribute_value(value[index])
        if attr is not None:
            _add(fields, record, name, attr)


def _collect_set(step: Step, value: Any, fields: Fields, record: Row, records: Records) -> None:
    """One record per repetition, also gathered into the enclosing record
    when the set is nested."""
    rows: list[dict[str, Any]] = []
    for rep in value:
        row: dict[str, Any] = {}
        collect(step[3], rep, fields, {}, row)
        rows.append(row)
    target = records if record is None else record
    target.setdefault(step[2], []).extend(rows)


def _collect_blob(step: Step, value: Any, fields: Fields, record: Row) -> None:
    texts = [str(label) for _, tag, label in value if tag == TEXT]
    if texts and step[2]:
        _add(fields, record, step[2], " ".join(texts))


#: The collector of each kind of step but sets (which also take the records).
_COLLECTORS: dict[int, Callable[[Step, Any, Fields, Row], None]] = {
    TEXT_STEP: _collect_text,
    ATTRS_STEP: _collect_attrs,
    BLOB_STEP: _collect_blob,
}


def collect(
    steps: Program, env: dict[int, Any], fields: Fields, records: Records, record: Row
) -> None:
    """Run a collection program on an environment, gathering field values
    in page order; inside a set, also into the current record."""
    get = env.get
    for step in steps:
        value = get(step[1])
        if value is None:
            continue
        if step[0] == SET_STEP:
            _collect_set(step, value, fields, record, records)
        else:
            _COLLECTORS[step[0]](step, value, fields, record)


def _add(fields: Fields, record: Row, name: str, value: str) -> None:
    fields.setdefault(name, []).append(value)
    if record is not None:
        if name in record:
            record[name] = f"{record[name]} {value}"
        else:
            record[name] = value
