"""Sets whose records are sections of the page, not items of a list.

Induction finds a set wherever siblings look alike, and blocks of a page
often do: the panels of an old table layout (``<font>`` in ``<font>``),
a price box's rows (list price, our price, you save), a details column
whose rows are phone, hours and cuisine. Their records hold different
data each, and an item that nests them (``price_list: [{"price": ...},
{"you_save": ...}]``) hides a page's scalars in a list whose order is the
layout's; after a redesign that wraps blocks differently, a field moved
in or out of such a list and its key changed.

A set is noted as *sections* (``Template.meta["sections"]``, by set uid)
when the seed pages show it so: no field of its records, and no set in
them, is shown by two records of one list on any seed, and at least
:data:`MIN_SECTIONED` seeds show two records or more (each with data), so
that a list that happened to hold one record per seed (a review, a tag)
is never taken for one. Its records have two fields or sets at least: a
list of one field is a list of values. The item then holds the records'
data in the record or item around the set (see
:func:`scrapy_wrapx.unsupervised.items.item_data`).

So are the rows of a grid of cards, whose records hold one set and nothing
else: the cards of all rows are one list, as a person reads them; a last
row partly filled, or a page of one row, changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from scrapy_wrapx.dom import PageTree
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction._keyvalue import key_value_sets, record_lists
from scrapy_wrapx.template import Set, Template, set_parents

#: Key of :attr:`Template.meta`: the uids of the sets that are sections.
SECTIONS = "sections"
#: Fewest seeds that must show two records or more of a set of sections.
MIN_SECTIONED = 2


def note_sections(template: Template, trees: Sequence[PageTree]) -> None:
    """Find the sets of ``template`` that are sections on its seed
    ``trees`` (see the module doc) and note them in its meta."""
    sets = {node.name: node for node in template.nodes if isinstance(node, Set)}
    members: dict[str, list[str]] = {name: [] for name in sets}
    for info in template.fields:
        if info.set in members:
            members[info.set].append(info.name)
    for name, parent in set_parents(template).items():
        if parent in members:
            members[parent].append(name)
    keyed = key_value_sets(template)
    candidates = [name for name in sets if name not in keyed and len(members[name]) > 1]
    # Rows of a grid: records that hold one list and nothing else.
    found = [
        sets[name].uid
        for name in sets
        if name not in keyed and _rows_of_one_list(members[name], sets)
    ]
    if candidates:
        pages = [extract(template, tree).records for tree in trees]
        for name in candidates:
            lists = [rows for records in pages for rows in record_lists(records, name)]
            if _sectioned(lists, members[name]):
                found.append(sets[name].uid)
    if found:
        template.meta[SECTIONS] = found
    else:
        template.meta.pop(SECTIONS, None)


def _rows_of_one_list(members: list[str], sets: dict[str, Set]) -> bool:
    """Whether a set's records hold one set and no field: the rows of a
    grid of cards (``<tr>`` of ``<td>``, ``<div class=row>`` of ``<div
    class=col>``), which say where the cards sit, not what they are. Their
    cards make one list (see :func:`note_sections`)."""
    return len(members) == 1 and members[0] in sets


def section_sets(template: Template) -> set[str]:
    """The names of the sets noted as sections; what an older or foreign
    template says is checked."""
    noted = template.meta.get(SECTIONS)
    if not isinstance(noted, list):
        return set()
    names = {node.uid: node.name for node in template.nodes if isinstance(node, Set)}
    return {names[uid] for uid in noted if isinstance(uid, int) and uid in names}


def listed_fields(template: Template) -> set[str]:
    """The names of the fields an item holds in a list: under a set that
    is not sections (a field of a sections set inside a list of records is
    in each record once)."""
    sections = section_sets(template)
    parent = set_parents(template)
    listed = set()
    for info in template.fields:
        name = info.set
        while name in sections:
            name = parent.get(name, "")
        if name:
            listed.add(info.name)
    return listed


def _sectioned(lists: list[list[dict[str, Any]]], members: list[str]) -> bool:
    """Whether no member is shown by two records of one list, and enough
    lists have two records with data. (A set that no seed repeats may
    still be a list: a book's authors, one on every seed, two on the next
    page.)"""
    several = 0
    for rows in lists:
        shown = [[name for name in members if row.get(name)] for row in rows]
        shown = [names for names in shown if names]
        if any(count > 1 for count in Counter(n for names in shown for n in names).values()):
            return False
        several += len(shown) > 1
    return several >= MIN_SECTIONED
