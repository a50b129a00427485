"""Template texts and labels: the textual symbols alignment compares.

*Template text* follows EXALG's occurrence vectors, reduced to what a handful
of seeds can support: a text value that occurs on every seed page is
template (data values do repeat across pages — tags, reviewers, prices —
but rarely on all of them). Template texts are what keeps a menu of fixed labels from folding into
a set of "records", and "Publisher" from aligning with "ISBN-13".

A text every seed shows is still data in a *varying place*
(:func:`varying_places`): a place (its element and the one above, with
their classes and ids) that holds one text on every seed, not the same
one, where the page names the place: by a label right before the text, a
class or id of its element, or as its ``<h1>``. Five seeds of one make
each list "2010 Hyundai Accent" among related models, and four of them
head their page with it too: the heading's text is still data, which a
page of another model fills, and alignment must pair it with the fifth
seed's "2011 Hyundai Accent" rather than take the two for different
blocks.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence

from scrapy_wrapx.dom import TEXT, Node, PageTree
from scrapy_wrapx.induction._info import SEPARATOR_CHARS
from scrapy_wrapx.template import LABEL

#: A text that opens with a label (:data:`~scrapy_wrapx.template.LABEL`),
#: then a space ("Price: $12"), or is one: a page whose field is empty
#: shows its label alone ("Price:").
_LABEL_PREFIX = re.compile(rf"({LABEL})(?:\s|$)")
#: A label before a dash or a bar ("Phone - (212) 555-0100", "Type | Public"):
#: a template label only where it opens a text on every seed page (see
#: :func:`text_label`), as "Kansas City - Downtown" never does.
SEPARATED_LABEL = re.compile(r"([^\W\d_][^-|\u2013:]{0,30}? [-|\u2013])\s")

#: Marks a label among the template texts, so that no text value can
#: collide with it.
_LABEL_MARK = "\x00"

#: How many steps of a text's tag path make its place (see
#: :func:`varying_places`): its own ``text()``, its element and the one
#: above, enough to tell a heading's span from a menu's link.
PLACE_STEPS = 3

#: Where a text is on its page: the last :data:`PLACE_STEPS` steps of its
#: tag path, elements with their classes and ids.
Place = tuple[str, ...]


def template_texts(trees: Sequence[PageTree]) -> frozenset[str]:
    """Text values that occur on every page (EXALG's root occurrence
    vector, ``<1, 1, ...>``, read as "at least once")."""
    if len(trees) < 2:
        return frozenset()
    need = len(trees)
    counts: dict[str, int] = {}
    for tree in trees:
        for value in _page_symbols(tree):
            counts[value] = counts.get(value, 0) + 1
    return frozenset(value for value, count in counts.items() if count >= need)


def varying_places(trees: Sequence[PageTree], places: Sequence[list[Place]]) -> frozenset[Place]:
    """The places, named by the site's markup, that hold exactly one text
    on every page, and not the same text on all of them (see the module's
    docstring); ``places`` are the pages' :func:`text_places`."""
    if len(trees) < 2:
        return frozenset()
    values: dict[Place, set[str]] = {}
    pages: dict[Place, int] = {}
    for tree, tree_places in zip(trees, places, strict=True):
        seen: dict[Place, int] = {}
        for leaf in tree.leaves:
            if leaf.tag == TEXT:
                place = tree_places[leaf.index]
                seen[place] = seen.get(place, 0) + 1
                values.setdefault(place, set()).add(leaf.value)
        for place, count in seen.items():
            if count == 1:
                pages[place] = pages.get(place, 0) + 1
    return frozenset(
        place
        for place, count in pages.items()
        if count == len(trees) and len(values[place]) > 1 and _named(place)
    )


#: A place holds a list of links that varies (see :func:`list_places`)
#: when the seeds show there, in the median, at most this share of the link
#: texts all of them show there: a menu, or a page's tabs, shows most of
#: its links on every page (all but the current one, or those a page has
#: no content for), a list of genres a few of many.
LIST_SHARE = 0.5


def list_places(
    trees: Sequence[PageTree], places: Sequence[list[Place]]
) -> dict[Place, frozenset[str]]:
    """The places of links whose texts make a list that varies from page to
    page (genres, tags, a breadcrumb), each with the texts it holds on every
    seed page (its fixed items: "Home"). A text there that is template
    elsewhere is data all the same: "Comedy" among a film's genres is no
    less a genre for being in the site's menu too (see :func:`text_label`).
    Only places the page names by a class or id (of the link or of the
    element around it), only links (a label is never a link), only links
    side by side, and not the links of a paragraph (:func:`_in_prose`),
    whose words are its own."""
    if len(trees) < 2:
        return {}
    shown, unlisted = _link_texts(trees, places)
    found: dict[Place, frozenset[str]] = {}
    for place, pages in shown.items():
        every = set().union(*pages)
        if len(pages) < 2 or len(every) < 2 or place in unlisted:
            continue
        if statistics.median(len(values) for values in pages) > LIST_SHARE * len(every):
            continue  # a menu, or the same list on every page
        fixed = set.intersection(*pages) if len(pages) == len(trees) else set()
        found[place] = frozenset(fixed)
    return found


def _link_texts(
    trees: Sequence[PageTree], places: Sequence[list[Place]]
) -> tuple[dict[Place, list[set[str]]], set[Place]]:
    """The texts of each link place (:func:`_link_place`) on each seed that
    shows it, and the places that are no list: in a paragraph on some seed,
    or never two links side by side (one link per level of a nested tree,
    which a template can only read level by level)."""
    shown: dict[Place, list[set[str]]] = {}
    prose: set[Place] = set()
    side_by_side: set[Place] = set()
    for tree, tree_places in zip(trees, places, strict=True):
        seen: dict[Place, set[str]] = {}
        containers: dict[tuple[Place, int], int] = {}
        lengths = _text_lengths(tree)
        in_prose: dict[int, bool] = {}  # by the index of a link's parent
        for leaf in tree.leaves:
            if leaf.tag != TEXT:
                continue
            place = tree_places[leaf.index]
            if not _link_place(place):
                continue
            seen.setdefault(place, set()).add(leaf.value)
            link = leaf.parent
            parent = link.parent if link is not None else None
            if parent is not None:
                if parent.index not in in_prose:
                    in_prose[parent.index] = _in_prose(parent, lengths)
                if in_prose[parent.index]:
                    prose.add(place)
            # The list around its items, whether or not each link has an
            # item of its own (``<span><a>Comedy</a></span>``).
            above = parent.parent if parent is not None else None
            key = (place, above.index if above is not None else -1)
            containers[key] = containers.get(key, 0) + 1
        side_by_side.update(place for (place, _), count in containers.items() if count > 1)
        for place, values in seen.items():
            shown.setdefault(place, []).append(values)
    return shown, prose | (set(shown) - side_by_side)


def _text_lengths(tree: PageTree) -> list[int]:
    """The characters of the page's texts before each leaf (and after the
    last): a subtree's text length is a difference of two of them."""
    lengths = [0]
    for leaf in tree.leaves:
        lengths.append(lengths[-1] + (len(leaf.value) if leaf.tag == TEXT else 0))
    return lengths


def _in_prose(parent: Node, lengths: list[int]) -> bool:
    """Whether the links in ``parent`` are in a paragraph: it holds more
    text of its own (not counting separators) than in its elements."""
    own = inside = 0
    for child in parent.children:
        if child.tag == TEXT:
            if len(child.value) > SEPARATOR_CHARS:
                own += len(child.value)
        elif child.first_leaf >= 0:
            inside += lengths[child.last_leaf + 1] - lengths[child.first_leaf]
    return own > inside


def _link_place(place: Place) -> bool:
    """Whether a place is a link's text, named by the link's or its
    parent's class or id."""
    if len(place) < 3 or place[-1] != TEXT:
        return False
    link, above = place[-2], place[-3]
    if re.split(r"[.#]", link, maxsplit=1)[0] != "a":
        return False
    return any(mark in step for step in (link, above) for mark in ".#")


def text_places(tree: PageTree) -> list[Place]:
    """Every node's place (see :data:`Place`), by its pre-order index; a
    text right after a label beside it ("<th>Model:</th><td>..", "<b>Model:</b>
    ..") has the label before its steps, marked with :data:`_LABELLED`."""
    places: list[Place] = [()] * len(tree.nodes)
    for node in tree.nodes:
        parent: Node | None = node.parent
        above = places[parent.index] if parent is not None else ()
        step = node.tag
        if step != TEXT:
            classes, name = node.element.get("class"), node.element.get("id")
            if classes:
                step = f"{step}.{'.'.join(sorted(classes.split()))}"
            if name:
                step = f"{step}#{name}"
        places[node.index] = (*above, step)[-PLACE_STEPS:]
    before: Node | None = None
    for leaf in tree.leaves:
        if leaf.tag != TEXT:
            before = None
            continue
        if before is not None and label_only(before.value) and _beside(before, leaf):
            places[leaf.index] = (_LABELLED + before.value, *places[leaf.index])
        before = leaf
    return places


#: Marks the label that names a text's place (see :func:`text_places`).
_LABELLED = "@"


def _beside(label: Node, text: Node) -> bool:
    """Whether ``label``'s element is a sibling of ``text``'s, or a child
    of it: a row's label cell and its value, a bold lead-in and the text
    after it."""
    owner, holder = label.parent, text.parent
    assert owner is not None and holder is not None  # texts are never the root
    above = owner.parent
    return above is holder or (above is not None and above is holder.parent)


def _named(place: Place) -> bool:
    """Whether a text's place is one the page names: by a label right
    before it, by its element's class or id, or as the page's ``<h1>``,
    where a page states what it is. Not a bare ``<div><strong>`` that
    holds one section's heading on every seed, a different section's on
    some: those are different blocks."""
    if len(place) < 2:
        return False
    element = place[-2]
    return place[0].startswith(_LABELLED) or "." in element or "#" in element or element == "h1"


def _page_symbols(tree: PageTree) -> set[str]:
    """A page's distinct text values, and the labels that open them:
    labels that open a text on every page ("Price: 12", "Price: 9") are
    template too."""
    values = {leaf.value for leaf in tree.leaves if leaf.tag == TEXT}
    labels = {_LABEL_MARK + prefix for prefix in map(label_prefix, values) if prefix}
    return values | labels


def opening_label(value: str) -> str:
    """The label a text opens with or is ("Price:" of "Price: $12", "UPC:"
    of "UPC:"), or "", whether or not other pages share it."""
    match = _LABEL_PREFIX.match(value.strip())
    return match.group(1) if match is not None else ""


def label_prefix(value: str) -> str:
    """The label a text opens with ("Price:" of "Price: $12" or of
    "Price:", "Phone -" of "Phone - (212) 555-0100"), or ""."""
    match = _LABEL_PREFIX.match(value) or SEPARATED_LABEL.match(value)
    return match.group(1) if match is not None else ""


def text_label(
    value: str,
    template: frozenset[str],
    varying: frozenset[Place],
    place: Place,
    lists: Mapping[Place, frozenset[str]] | None = None,
) -> str:
    """The symbol of a text: the text itself when it is template text, and
    not what may be data in a varying place or in a list that varies
    (``lists``, see :func:`list_places`) without being one of its fixed
    items; the label it opens with when that label opens a text on every
    seed page, marked ``#:``, so that "Price: 12" and "ISBN: 3" are
    different symbols although both carry data (a title such as "Dune:
    Part One" opens with no *template* label); else ``#``. Punctuation and
    labels are never data."""
    listed = lists.get(place) if lists else None
    in_data = place in varying or (listed is not None and value not in listed)
    if value in template and not (in_data and _may_be_data(value)):
        return f"#{value}"
    prefix = label_prefix(value)
    return f"#:{prefix}" if prefix and _LABEL_MARK + prefix in template else "#"


def _may_be_data(value: str) -> bool:
    """Whether a text has a word or number, and is no label alone."""
    return any(char.isalnum() for char in value) and not label_only(value)


def label_only(value: str) -> bool:
    """Whether a text is a label and nothing else ("Dimensions:")."""
    opening = opening_label(value)
    return bool(opening) and opening == value.strip()
