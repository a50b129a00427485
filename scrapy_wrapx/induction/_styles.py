"""Lists whose repetitions differ in style only.

Sites stripe the rows of a table in two styles (``class="odd"`` and
``"even"``, cells ``datacell`` and ``datacell-hi``) or highlight some rows
of a list, and one page may show only one of the styles. Such rows are one
kind of row: alike in everything but their classes (the same elements with
the same attributes, :func:`skeleton`), so the classes where they differ
are made variant attributes (:func:`unify_styles`) before they are merged,
and the rows merge as one. A variant attribute keeps each page's own class,
so rendering stays lossless.
"""

from __future__ import annotations

from scrapy_wrapx.induction._info import Scratch, refresh
from scrapy_wrapx.template import Elem, Text, TNode

#: Words of the classes that mark one repetition of a list among the
#: others (``class="item first"``, ``"card featured"``, ``"is-active"``):
#: its place or its state, not what it is.
MARK_WORDS = frozenset(
    {
        "first",
        "last",
        "odd",
        "even",
        "alt",
        "active",
        "current",
        "selected",
        "featured",
        "highlight",
        "highlighted",
        "top",
        "bottom",
        "new",
        "is",
        "has",
    }
)

#: Elements whose lists compare without classes when one seed shows them
#: in one style and another in the other (see ``._peers``): table rows
#: and list items. Two ``<div>`` alike but for their classes are as often
#: the two parts of one record (a title and a summary) as two records.
STRIPED_TAGS = frozenset({"tr", "li"})


def skeleton(elem: Elem) -> tuple[list[Elem], tuple[object, ...]]:
    """An element's elements in pre-order, and its skeleton: their tags and
    attribute names and the kinds of their children but texts (data may be
    there or not: "@" before an away game), classes left out."""
    elems: list[Elem] = []
    shape: list[object] = []
    stack: list[TNode] = [elem]
    while stack:
        node = stack.pop()
        if isinstance(node, Elem):
            elems.append(node)
            shape.append((node.tag, tuple(sorted(a for a in node.attrs if a != "class"))))
            shape.append(
                tuple(
                    type(child).__name__ for child in node.children if not isinstance(child, Text)
                )
            )
            stack.extend(reversed(node.children))
    return elems, tuple(shape)


def _restyled_places(members: list[list[Elem]]) -> list[int]:
    """Where (pre-order places) the classes of members of one skeleton
    differ (other attributes may differ too: a link's address is data)."""
    return [
        place
        for place, elems in enumerate(zip(*members, strict=True))
        if len({elem.attrs.get("class") for elem in elems}) > 1
    ]


def unify_styles(scratch: Scratch, run: list[TNode]) -> bool:
    """Make the classes in which repetitions of one list differ variant
    attributes, where the repetitions have one skeleton (the same
    elements with the same attributes): rows striped in two
    styles (``class="odd"``/``"even"``, cells ``datacell``/``datacell-hi``)
    are one kind of row, and merge as one. The classes stay on the page
    (a variant attribute keeps each row's own), so rendering stays
    lossless. Whether anything changed."""
    skeletons = [skeleton(node) for node in run if isinstance(node, Elem)]
    if len(skeletons) < 2 or len({shape for _, shape in skeletons}) != 1:
        return False
    members = [elems for elems, _ in skeletons]
    places = _restyled_places(members)
    if not places:
        return False
    for elems in members:
        for place in places:
            elems[place].attrs["class"] = None
        for elem in reversed(elems):  # children before their parents
            sources = scratch[elem].sources
            refresh(scratch, elem)
            scratch[elem].sources = sources
    return True
