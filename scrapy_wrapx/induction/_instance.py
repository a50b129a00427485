"""Seed pages as fully fixed templates.

Each seed page becomes a template that accepts exactly that page: elements
with all their attributes fixed, texts fixed. Merging such templates (see
:mod:`._merge`) generalizes them. Every node gets its
:class:`~._info.Info` (profile, size, samples) on the way.
"""

from __future__ import annotations

from collections.abc import Mapping

from scrapy_wrapx.dom import TEXT, Node, PageTree
from scrapy_wrapx.induction._fold import fold_children
from scrapy_wrapx.induction._info import Info, Scratch, refresh, text_shape
from scrapy_wrapx.induction._labels import Place, text_label
from scrapy_wrapx.induction._tables import PageTables, fold_rows
from scrapy_wrapx.template import Blob, Elem, Text, TNode

#: Nodes deeper than this become a :class:`~scrapy_wrapx.template.Blob`:
#: templates stay shallow enough for the recursive matcher on any page.
DEPTH_CAP = 80


def instance(
    scratch: Scratch,
    tree: PageTree,
    template: frozenset[str],
    varying: frozenset[Place],
    places: list[Place],
    lists: Mapping[Place, frozenset[str]] | None = None,
) -> Elem:
    """The fully fixed template of one page (no recursion; children are
    finished before their parent, so each node's profile can be built from
    theirs, and folding of repeats (:mod:`._fold`) runs on the way up).
    ``template`` and ``varying`` are the seeds' template texts and the
    places where texts are data all the same, ``lists`` the places of
    lists of links that vary, with their fixed items, ``places`` this
    page's (see :mod:`._labels`)."""
    made: dict[int, TNode] = {}
    tables = PageTables(template)
    nodes = tree.nodes
    for node in reversed(nodes):
        if node.depth > DEPTH_CAP:
            continue
        if node.tag == TEXT:
            if tables.in_body_cell(node.element):
                label = text_label(node.value, frozenset(), frozenset(), ())
            else:
                label = text_label(node.value, template, varying, places[node.index], lists)
            made[node.index] = _text(scratch, node.value, label)
        else:
            made[node.index] = _elem(scratch, node, made, tables)
    root = made[nodes[0].index]
    assert isinstance(root, Elem)
    return root


def _folded(scratch: Scratch, node: Node, children: list[TNode], tables: PageTables) -> list[TNode]:
    """An element's children, repetitions folded: a header table's body
    rows are records and its cells columns (:mod:`._tables`)."""
    if tables.keeps_cells(node.element):
        return children
    if tables.has_header(node.element):
        return fold_rows(scratch, children, tables)
    return fold_children(scratch, children)


def _text(scratch: Scratch, value: str, label: str) -> Text:
    text = Text([value])
    scratch[text] = Info(frozenset({(label,)}), 1, [value], label, shape=text_shape(value, label))
    return text


def _elem(scratch: Scratch, node: Node, made: dict[int, TNode], tables: PageTables) -> Elem:
    """The template of one element, its children's (in ``made``) folded
    into it, or a blob for them at the depth cap."""
    attrs: dict[str, str | None] = {str(k): str(v) for k, v in node.element.attrib.items()}
    elem = Elem(node.tag, attrs, [])
    if node.depth == DEPTH_CAP and node.children:
        blob = Blob()
        scratch[blob] = Info(frozenset({("*",)}), 1, label="*")
        elem.children = [blob]
    else:
        children = [made.pop(child.index) for child in node.children]
        elem.children = _folded(scratch, node, children, tables)
    refresh(scratch, elem)
    scratch[elem].sources = [node.element]
    return elem
