"""Revising the sets of a merged template, where all seeds can be seen.

Folding (:mod:`._fold`) sees one page at a time; once the seeds are merged,
a set is known better: a list that never varies is template
(:func:`unfold_constant_sets`), a list of a fixed length may be a tuple, and
a line that ends with one name (:func:`widen_bylines`) or a list element
with one item (:func:`widen_lists`) may be a list of one, and one list
that seeds cut in two differently is one (:func:`join_split_sets`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from scrapy_wrapx.dom import HEADINGS
from scrapy_wrapx.induction._info import (
    Info,
    Scratch,
    dice,
    elem_label,
    punctuation,
    refresh,
    unstyled,
)
from scrapy_wrapx.induction._labels import opening_label
from scrapy_wrapx.induction._merge import merge_hedges, merge_nodes, optional
from scrapy_wrapx.induction._peers import PEER_THRESHOLD
from scrapy_wrapx.induction._shapes import unit_quantity, value_role
from scrapy_wrapx.template import (
    ROW_LABEL_TAGS,
    Elem,
    Opt,
    Set,
    Text,
    TNode,
    iter_nodes,
    opening_elements,
)

#: A repetition's label paths (see :func:`_shape`).
Shape = frozenset[tuple[str, ...]]
#: Inline elements that may hold one item of an inline list.
INLINE_TAGS = frozenset({"a", "span", "b", "strong", "em", "i", "cite"})
#: Instances with the very same content that make a set template.
CONSTANT_INSTANCES = 2
#: A table's rows: a row of its own beside a list of rows has a place (a
#: grid's rows are columns of values, see :meth:`._tables.PageTables.grid`).
TABLE_ROWS = frozenset({"tr"})


def join_split_sets(scratch: Scratch, root: Elem) -> None:
    """Join every run of adjacent sets that repeat one kind of item
    (:func:`_same_list`), with the single items of that kind beside them
    (:func:`_card_of`), into one set.

    Each seed's lists are folded on that page alone, where cards with an
    optional part (a badge, a rating) may fold into runs of their own; the
    merge then lines up one seed's two runs against another's one, and the
    template holds two sets of one card side by side, a page's cards split
    between two fields at random. A card that two seeds both show (the
    same product among related products) is paired as the same subtree
    before anything else, and stands between the sets as an optional
    item of its own: its copies on other pages went to positional fields,
    or nowhere."""
    stack: list[TNode] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Elem | Set):
            node.children = _joined_lists(scratch, node.children)
            if isinstance(node, Set) and len(node.children) == 1:
                _merge_card_parts(scratch, node.children[0])
            stack.extend(node.children)
        elif isinstance(node, Opt):
            stack.append(node.child)


def _merge_card_parts(scratch: Scratch, card: TNode) -> None:
    """Merge the optional parts of a list's card that are one part shown
    apart: optional elements of one tag and class that no seed card shows
    together (their seed elements never share a parent). Cards the seeds
    share keep fixed texts (a title, a rating), and merging lined up
    such a card's title against another's as two optional titles, its
    price as two optional prices: a record would hold ``title`` on one
    card and ``title_2`` on the next."""
    if not isinstance(card, Elem):
        return
    kinds: dict[tuple[str, str | None], list[tuple[int, Elem]]] = {}
    for index, child in enumerate(card.children):
        part = child.child if isinstance(child, Opt) else None
        if isinstance(part, Elem) and part.tag not in TABLE_ROWS and not _opens_row(part):
            kinds.setdefault(_elem_kind(part), []).append((index, part))
    replaced: dict[int, TNode] = {}
    dropped: set[int] = set()
    for found in kinds.values():
        parts = [part for _, part in found]
        if len(parts) < 2 or not _apart(scratch, parts):
            continue
        if not all(_same_build(scratch, parts[0], part) for part in parts[1:]):
            continue
        joined: TNode = parts[0]
        for part in parts[1:]:
            joined = merge_nodes(scratch, joined, part)
        replaced[found[0][0]] = optional(scratch, joined)
        dropped.update(index for index, _ in found[1:])
    children = [
        replaced.get(index, child)
        for index, child in enumerate(card.children)
        if index not in dropped
    ]
    if replaced and _in_order(scratch, card, children):
        card.children = children
        refresh(scratch, card)


def _in_order(scratch: Scratch, card: Elem, children: list[TNode]) -> bool:
    """Whether every seed card shows its parts in the order of
    ``children``: a part merged into the place of its first copy must not
    come before a part that some card shows ahead of it."""
    order = [_kind(child) for child in children]
    known = {kind for kind in order if kind is not None}
    for element in scratch[card].sources:
        shown = [kind for child in element if (kind := (child.tag, child.get("class"))) in known]
        position = 0
        for kind in shown:
            while position < len(order) and order[position] != kind:
                position += 1
            if position == len(order):
                return False
            position += 1
    return True


def _kind(node: TNode) -> tuple[str, str | None] | None:
    """The :func:`_elem_kind` of an element, optional or not; None for
    anything else."""
    inner = node.child if isinstance(node, Opt) else node
    return _elem_kind(inner) if isinstance(inner, Elem) else None


def _elem_kind(elem: Elem) -> tuple[str, str | None]:
    """An element's tag and class: what kind of item of a list it is."""
    return elem.tag, elem.attrs.get("class")


def _same_build(scratch: Scratch, a: TNode, b: TNode) -> bool:
    """Whether two parts are alike as trees with their texts left out
    (:data:`._peers.PEER_THRESHOLD`): a shared card's title, a fixed text,
    is still a title."""
    return dice(_textless(scratch[a].profile), _textless(scratch[b].profile)) >= PEER_THRESHOLD


def _textless(profile: frozenset[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    return frozenset((*path[:-1], "#") if path[-1].startswith("#") else path for path in profile)


def _apart(scratch: Scratch, parts: list[Elem]) -> bool:
    """Whether no two of ``parts`` stand for elements of one parent."""
    seen: set[Any] = set()
    for part in parts:
        # lxml keeps one proxy per element while it is referenced: the set
        # holds the parents, so a parent met again is the same object.
        parents = {element.getparent() for element in scratch[part].sources}
        if not parents or parents & seen:
            return False
        seen |= parents
    return True


def _joined_lists(scratch: Scratch, children: list[TNode]) -> list[TNode]:
    """``children`` with each run of one list joined (see
    :func:`join_split_sets`): in one pass, the cards before a set are
    taken when the set comes."""
    joined: list[TNode] = []
    for child in children:
        listed = _listed(child)
        if listed is not None:
            _collapse_alternatives(scratch, listed)
        if joined and _same_list(scratch, joined[-1], child):
            joined[-1] = _join(scratch, joined[-1], child)
            continue
        if listed is not None:
            while joined and _card_of(scratch, joined[-1], listed):
                child = _join(scratch, child, joined.pop())
        elif (
            joined
            and (before := _listed(joined[-1])) is not None
            and _card_of(scratch, child, before)
        ):
            joined[-1] = _join(scratch, joined[-1], child)
            continue
        joined.append(child)
    return joined


def _listed(node: TNode) -> Set | None:
    """The set ``node`` is, optional or not."""
    inner = node.child if isinstance(node, Opt) else node
    return inner if isinstance(inner, Set) else None


def _same_list(scratch: Scratch, a: TNode, b: TNode) -> bool:
    """Whether two sets repeat one kind of item: the same elements (tag and
    class, optional or not) in the same order, one element of a named kind
    (:func:`_named_kind`) or alike as trees by the measure folding uses
    (:data:`._peers.PEER_THRESHOLD`)."""
    set_a, set_b = _listed(a), _listed(b)
    if set_a is None or set_b is None or _items(set_a) != _items(set_b):
        return False
    if _named_kind(set_a) and not (_opens_row(set_a) or _opens_row(set_b)):
        return True
    return _alike(scratch, set_a, set_b)


def _named_kind(node: Set) -> bool:
    """Whether a set repeats one element whose class names its kind
    (``li.product``): two runs of it side by side are one list, however
    their optional parts differ."""
    items = _items(node)
    return len(items) == 1 and items[0] is not None and bool(items[0][1])


def _alike(scratch: Scratch, a: TNode, b: TNode) -> bool:
    return dice(scratch[a].profile, scratch[b].profile) >= PEER_THRESHOLD


def _card_of(scratch: Scratch, node: TNode, listed: Set) -> bool:
    """Whether ``node`` is an item, optional or not, of the kind
    ``listed`` repeats: one element of its tag and class, alike (as in
    :func:`_same_list`), and no row of its own. The list's texts vary
    (cards of data: one shown on two seeds is fixed), and a row that opens
    with its own label ("<b>Format:</b> ...", "Pages: 320") is a part of a details
    list with a place and a name, whatever list of rows stands beside it."""
    card = node.child if isinstance(node, Opt) else node
    if not isinstance(card, Elem) or card.tag in TABLE_ROWS:
        return False
    if _items(listed) != [_elem_kind(card)]:
        return False
    if _opens_row(card) or _opens_row(listed) or not _varying_text(listed):
        return False
    # A card the seeds all show is still one of a list of its named kind.
    return _named_kind(listed) or (isinstance(node, Opt) and _alike(scratch, card, listed))


def _opens_row(node: TNode) -> bool:
    """Whether ``node`` opens with a label: its first text in a label's
    element (``<b>Pages:</b>``), or a fixed "Label:"."""
    opening = _first_texts([node], 1)
    if not opening:
        return False
    text, parent = opening[0]
    return parent in ROW_LABEL_TAGS or (text.fixed and bool(opening_label(text.parts[0] or "")))


def _items(node: Set) -> list[tuple[str, str | None] | None]:
    """A set's body as the tag and class of each element, None for a text."""
    return [_kind(child) for child in node.children]


def _join(scratch: Scratch, a: TNode, b: TNode) -> TNode:
    """One list of ``a``, a set, and ``b``, a set or an item of its kind;
    optional when both are."""
    set_a = _listed(a)
    assert set_a is not None
    other = b.child if isinstance(b, Opt) else b
    joined = merge_nodes(scratch, set_a, other)
    assert isinstance(joined, Set)
    _collapse_alternatives(scratch, joined)
    both_optional = isinstance(a, Opt) and isinstance(b, Opt)
    return optional(scratch, joined) if both_optional else joined


def _collapse_alternatives(scratch: Scratch, node: Set) -> None:
    """Make a set whose repetition is several elements of one kind (tag
    and class; alike as trees where no class names it), each optional or
    itself a list of them, repeat their merge. Cards that differ in a text of few
    values (a rating's "4 out of 5 stars", which other cards of the seeds
    repeat) are told apart as alternatives when seeds are merged; as a
    list they are one card, the rating its data, and every record has the
    same fields."""
    if len(node.children) < 2:
        return
    cards: list[Elem] = []
    for item in node.children:
        found = _cards(item)
        if found is None:
            return
        cards.extend(found)
    first = cards[0]
    if first.tag in TABLE_ROWS:
        return
    kind = _elem_kind(first)
    for other in cards[1:]:
        if _elem_kind(other) != kind:
            return
        if not kind[1] and not _alike(scratch, first, other):
            return
    if any(_opens_row(card) for card in cards) or not any(_varying_text(card) for card in cards):
        # Rows with labels of their own, or alternatives each the same
        # wherever shown ("Apply", "Request info"): parts, named so.
        return
    merged: TNode = first
    for other in cards[1:]:
        merged = merge_nodes(scratch, merged, other)
    node.children = [merged]
    refresh(scratch, node)


def _varying_text(node: TNode) -> bool:
    """Whether a text below ``node`` varies: a card of data, not a part."""
    return any(isinstance(item, Text) and not item.fixed for item in iter_nodes(node))


def _cards(item: TNode) -> list[Elem] | None:
    """The elements ``item`` repeats or shows: itself, or its content if
    it is an optional or a set of elements only; None for anything else."""
    if isinstance(item, Elem):
        return [item]
    if isinstance(item, Opt):
        return _cards(item.child)
    if isinstance(item, Set):
        cards: list[Elem] = []
        for child in item.children:
            found = _cards(child)
            if found is None:
                return None
            cards.extend(found)
        return cards
    return None


def unfold_constant_sets(scratch: Scratch, root: Elem) -> None:
    """Replace every set that had the very same content in at least
    :data:`CONSTANT_INSTANCES` instances (seed pages, or records of one
    page) by that content: a list that never varies is template, as EXALG
    reads a token occurring the same way on every page (social links,
    hidden form fields, a fixed menu that merely looks like a list); and
    every set that is better read as a tuple (:func:`_as_tuple`).

    The lists inside content that every seed page showed the same are
    as constant as it, though each was seen once (in the one instance the
    content was taken from): a footer of link columns, alike enough to fold
    into one set of columns, keeps every column's own links, not a set of
    them with another column's links merged in as alternatives."""
    stack: list[tuple[TNode, bool]] = [(root, False)]
    while stack:
        node, constant = stack.pop()
        if isinstance(node, Elem | Set):
            children: list[TNode] = []
            for child in node.children:
                found, inside = _unfolded(scratch, child, constant)
                children.extend(found)
                stack.extend((item, inside) for item in found)
            node.children = children
        elif isinstance(node, Opt):
            inner, inside = _unfolded(scratch, node.child, constant)
            # An optional constant list: optional as a whole, which an
            # Opt cannot hold, so it stays a set of its one content.
            if len(inner) == 1:
                node.child = inner[0]
            else:
                node.child = Set(inner)
                refresh(scratch, node.child)
            stack.append((node.child, inside))


def _unfolded(scratch: Scratch, node: TNode, constant: bool) -> tuple[list[TNode], bool]:
    """What a set becomes, and whether that is content every seed page
    showed the same: its content when it is constant (or inside such
    content), else itself or a tuple."""
    info = scratch.get(node) if isinstance(node, Set) else None
    if not isinstance(node, Set) or info is None:
        return [node], constant
    if info.raw is not None and (
        constant or (info.sig is not None and info.count >= CONSTANT_INSTANCES)
    ):
        # Content repeated on one page (two alike rows), or shared by a few
        # seeds (pages of one product line), says nothing of what its lists
        # hold on the next page.
        everywhere = scratch.pages > 1 and len(info.pages) == scratch.pages
        return list(info.raw), constant or everywhere
    return _as_tuple(scratch, node, info) or [node], constant


def _as_tuple(scratch: Scratch, node: Set, info: Info) -> list[TNode] | None:
    """A "set" that has the same number ``k`` of repetitions in every one of
    its ``n >= 2`` instances may be a tuple: positions with roles of their
    own (hidden inputs named "sku", "action"...; share links to Facebook,
    Twitter...). Positions whose shapes tell them apart (:func:`_roles`)
    are unrolled, and so are positions at least half of which are entries
    of a fixed sequence (:func:`_entries`); otherwise SYNTHIA's MDL
    decides: unrolled, the template grows by ``k - 1`` bodies, the data
    shrinks by the slots that positions fix, on every instance. Unroll when
    that saves more than it costs."""
    instances = info.instances or []
    k = _repetitions(instances)
    if not k:
        return _as_parts(scratch, instances)
    positions = [_position(scratch, instances, p) for p in range(k)]
    unrolled = [item for hedge in positions for item in hedge]
    if (
        _roles(instances)
        or _named_parts(instances)
        or _value_roles(scratch, positions)
        or _columns(scratch, node, positions)
    ):
        return unrolled
    if not _regular(instances, positions):
        # A position that varies may still be one part: a banner that
        # one seed wraps differently.
        return _as_parts(scratch, instances)
    if 2 * sum(_entries(positions)) >= k:
        # Mostly the same entries in the same places: a fixed menu with an
        # entry or two that name the page ("Bookmark <name>"), or rows
        # each with a label of its own ("Genres:", "Running Time:"); no list.
        return unrolled
    body_slots, body_size = _slots_and_size(node.children)
    tuple_slots = sum(_slots_and_size(hedge)[0] for hedge in positions)
    saved = len(instances) * (k * body_slots - tuple_slots)
    if saved <= (k - 1) * body_size:
        return None
    return unrolled


#: Least shape overlap of one position with itself across instances, and
#: most shape overlap between positions relative to it, for positions to be
#: roles rather than records (see :func:`_roles`).
ROLE_SAME = 0.8
ROLE_MARGIN = 0.25
#: Most positions compared as roles (the comparison is quadratic in them):
#: layout has a few parts; a longer list of fixed length is records.
MAX_ROLES = 12


def _roles(instances: list[list[list[TNode]]]) -> bool:
    """Whether each position is a part of its own (a layout table's banner
    row, then its content row) rather than one of ``k`` records: a
    position keeps its shape (the label paths below it) on every instance,
    and the positions' shapes differ. Records that happen to number ``k``
    everywhere are shaped alike, so they stay a set."""
    k = len(instances[0])
    if k > MAX_ROLES:
        return False
    shapes = [[_shape(rep) for rep in reps] for reps in instances]
    same = [
        dice(a[p], b[p]) for i, a in enumerate(shapes) for b in shapes[i + 1 :] for p in range(k)
    ]
    cross = [dice(reps[p], reps[q]) for reps in shapes for p in range(k) for q in range(p + 1, k)]
    same_mean = sum(same) / len(same)
    cross_mean = sum(cross) / len(cross)
    return same_mean >= ROLE_SAME and cross_mean <= same_mean - ROLE_MARGIN


#: Elements that are a table's cells: a row's cells are its columns.
CELL_TAGS = frozenset({"td", "th"})
_NUMBER = re.compile(r"[-+]?\d[\d,.]{0,15}")


def _columns(scratch: Scratch, node: Set, positions: list[list[TNode]]) -> bool:
    """Whether a set of a row's cells is the row's columns: every row shows
    as many cells, and the cells hold values of different kinds by place
    (an order line's name, quantity and price: a text, a number, a price;
    :func:`_value_kind`). Cells that hold the same kind everywhere (a
    grid of products, two names) stay a list."""
    body = node.children
    if len(body) != 1 or not isinstance(body[0], Elem) or body[0].tag not in CELL_TAGS:
        return False
    if len(positions) > MAX_ROLES:
        return False
    kinds = {_value_kind(_samples(scratch, hedge)) for hedge in positions}
    return "" not in kinds and len(kinds) > 1


def _value_kind(samples: list[str]) -> str:
    """A value's kind by its shape: its role (:func:`._shapes.value_role`),
    a number, or text; "" for no values."""
    if not samples:
        return ""
    role = value_role([[sample] for sample in samples])
    if role:
        return role
    if all(_NUMBER.fullmatch(sample.strip()) for sample in samples):
        return "number"
    return "text"


def _samples(scratch: Scratch, hedge: list[TNode]) -> list[str]:
    """The values seen of the texts with data in ``hedge``."""
    return [
        sample
        for top in hedge
        for node in iter_nodes(top)
        if isinstance(node, Text) and not node.fixed
        for sample in scratch[node].samples
    ]


def _value_roles(scratch: Scratch, positions: list[list[TNode]]) -> bool:
    """Whether each position holds data of a role of its own by the shape
    of its values (:func:`._shapes.value_role`): an address block's street
    line, city line and phone, in rows alike but for what they hold.
    Records that number the same on every seed share one role (two
    phones) or have none (two names)."""
    if len(positions) > MAX_ROLES:
        return False
    roles = []
    for hedge in positions:
        samples = [[sample] for sample in _samples(scratch, hedge)]
        role = value_role(samples) if samples else ""
        if not role or role in roles:
            return False
        roles.append(role)
    return True


def _as_parts(scratch: Scratch, instances: list[list[list[TNode]]]) -> list[TNode] | None:
    """The parts of a layout that seeds show in different numbers: a "set"
    whose instances hold ``k`` repetitions here and fewer there (a seed
    whose banner row lacks what made it fold with the content row below
    it; a notice row only some pages have; a page's sections, some of them
    optional) is a tuple when its repetitions are parts, each shown at
    most once by an instance and in one order: elements that the page
    names by ids of their own, or sections under headings of their own
    (:func:`_keyed_parts`); or, by their shapes (:func:`_parts_by_shape`),
    places every instance shows, or repetitions that are each clearly one
    of the repetitions of the fullest instance, when those are unlike each
    other (:func:`_unlike`) or one of them is the same wherever it is shown
    (a heading box above a content box it is a subset of). A part some
    instance lacks is optional."""
    if len(instances) < 2 or not any(len(reps) >= 2 for reps in instances):
        return None
    reference = max(instances, key=len)
    if len(reference) > MAX_ROLES:
        return None
    named = (
        _keyed_parts(instances, _ids)
        or _keyed_parts(instances, _heading)
        or _keyed_parts(instances, _inner_ids, recurring=True)
    )
    shown, parts = (named, []) if named else _parts_by_shape(instances, reference)
    if shown is None:
        return None
    merged = []
    for hedges in shown:
        hedge = hedges[0]
        for other in hedges[1:]:
            hedge = merge_hedges(scratch, hedge, other)
        merged.append(hedge)
    if not named and not _distinct(parts, shown, merged):
        return None
    unrolled: list[TNode] = []
    for hedges, hedge in zip(shown, merged, strict=True):
        if len(hedges) < len(instances):
            hedge = [optional(scratch, node) for node in hedge]
        unrolled.extend(hedge)
    return unrolled


def _parts_by_shape(
    instances: list[list[list[TNode]]], reference: list[list[TNode]]
) -> tuple[list[list[list[TNode]]] | None, list[Shape]]:
    """Per part, its repetitions (None if they are no parts), and the
    parts' shapes: the places, where every instance shows as many and each
    place is one part (:func:`_one_place`: spacer rows alike around a
    title row whose class some seeds dropped); else the repetitions of
    the fullest instance (:func:`_shown_parts`)."""
    if _repetitions(instances):
        places = [[reps[p] for reps in instances] for p in range(len(reference))]
        if all(_one_place(reps) for reps in places):
            return places, [frozenset().union(*(_shape(rep) for rep in reps)) for reps in places]
    parts = [_shape(rep) for rep in reference]
    return _shown_parts(parts, instances), parts


def _one_place(reps: list[list[TNode]]) -> bool:
    """Whether what the instances show in one place is one part: the same
    elements, opening with the same label where they open with one (a
    text in a label's element, a "Label:", or a first text with more
    after it). Rows of a specs table hold another label in each place
    from page to page: they are records."""
    tags = {tuple(node.tag for node in rep if isinstance(node, Elem)) for rep in reps}
    return len(tags) == 1 and len({_opening_label(rep) for rep in reps}) <= 1


def _first_texts(hedge: list[TNode], count: int) -> list[tuple[Text, str]]:
    """The first ``count`` texts of a hedge in page order, each with the
    tag of the element that holds it ("" at the top); sets and optionals
    are transparent. Stops there: a block's opening is what is read."""
    texts: list[tuple[Text, str]] = []
    stack: list[tuple[TNode, str]] = [(top, "") for top in reversed(hedge)]
    while stack and len(texts) < count:
        node, above = stack.pop()
        if isinstance(node, Text):
            texts.append((node, above))
        elif isinstance(node, Elem):
            stack.extend((child, node.tag) for child in reversed(node.children))
        elif isinstance(node, Set):
            stack.extend((child, above) for child in reversed(node.children))
        elif isinstance(node, Opt):
            stack.append((node.child, above))
    return texts


def _opening_label(hedge: list[TNode]) -> str | None:
    """The label a repetition opens with (see :func:`_one_place`), or None."""
    texts = _first_texts(hedge, 2)
    if not texts:
        return None
    first, parent = texts[0]
    text = first.parts[0] if first.fixed else None
    if text and (len(texts) > 1 or parent in ROW_LABEL_TAGS or opening_label(text)):
        return text
    return None


def _distinct(
    parts: list[Shape],
    shown: list[list[list[TNode]]],
    merged: list[list[TNode]],
) -> bool:
    """Whether every two parts are unlike each other (:func:`_unlike`) or
    one of them says the same on every instance that shows it (more than
    one)."""
    fixed = [
        len(hedges) > 1 and _fixed_entry(hedge) for hedges, hedge in zip(shown, merged, strict=True)
    ]
    return all(
        fixed[p] or fixed[q] or _unlike(parts[p], parts[q])
        for p in range(len(parts))
        for q in range(p + 1, len(parts))
    )


def _keyed_parts(
    instances: list[list[list[TNode]]],
    key: Callable[[list[TNode]], tuple[str, ...]],
    recurring: bool = False,
) -> list[list[list[TNode]]] | None:
    """Per part, its repetitions, where every repetition has a ``key`` of
    its own (its ids, :func:`_ids`, or its heading, :func:`_heading`),
    which no instance shows twice, in one order on all of them, most of
    them on more than one instance (a record's own id or title is on one
    page only), or with ``recurring`` all of them, and the keys differ in
    more than a number (``row1``, ``row2``, "Review 1", "Review 2" number
    records); else None."""
    keyed = []
    for reps in instances:
        keys = [key(rep) for rep in reps]
        if not all(keys) or len(set(keys)) != len(keys):
            return None
        keyed.append(keys)
    shows = Counter(part for keys in keyed for part in keys)
    recur = sum(count > 1 for count in shows.values())
    if len(shows) > MAX_ROLES or (recur < len(shows) if recurring else 2 * recur < len(shows)):
        return None
    order = _one_order(keyed)
    if order is None:
        return None
    if len({tuple(_DIGITS.sub("#", word) for word in part) for part in order}) != len(order):
        return None
    shown: dict[tuple[str, ...], list[list[TNode]]] = {part: [] for part in order}
    for reps, keys in zip(instances, keyed, strict=True):
        for rep, part in zip(reps, keys, strict=True):
            shown[part].append(rep)
    return list(shown.values())


#: Longest heading that names a section (see :func:`_heading`).
MAX_HEADING_CHARS = 40
#: Elements whose text heads a section.
SECTION_HEADINGS = HEADINGS | {"legend", "caption"}


def _heading(hedge: list[TNode]) -> tuple[str, ...]:
    """The heading a repetition opens with, when it is a section: its
    first text is short words in a heading element (``<h3>Delivery</h3>``,
    a ``<legend>``) and more than one text follows (rows of its own). The
    first cells of a table's rows are no headings, though their values
    recur from page to page (sizes, colours)."""
    texts = _first_texts(hedge, 3)
    if len(texts) < 3:
        return ()
    first, parent = texts[0]
    heading = (first.parts[0] or "").strip() if first.fixed else ""
    if (
        parent not in SECTION_HEADINGS
        or not heading
        or len(heading) > MAX_HEADING_CHARS
        or not any(char.isalpha() for char in heading)
    ):
        return ()
    return (heading,)


def _one_order(sequences: list[list[tuple[str, ...]]]) -> list[tuple[str, ...]] | None:
    """One order of all keys that keeps the order of every sequence (each
    key once in each), by their precedences; None when two sequences show
    two keys in two orders. Few keys (:data:`MAX_ROLES`): quadratic is
    nothing here."""
    keys = list(dict.fromkeys(key for keys in sequences for key in keys))
    before: dict[tuple[str, ...], set[tuple[str, ...]]] = {key: set() for key in keys}
    for sequence in sequences:
        for earlier, later in pairwise(sequence):
            before[later].add(earlier)
    order: list[tuple[str, ...]] = []
    while keys:
        ready = next((key for key in keys if before[key] <= set(order)), None)
        if ready is None:
            return None
        order.append(ready)
        keys.remove(ready)
    return order


def _shown_parts(
    parts: list[Shape], instances: list[list[list[TNode]]]
) -> list[list[list[TNode]]] | None:
    """Per part, the repetitions that are it; None unless each instance
    shows each part at most once and in their order."""
    shown: list[list[list[TNode]]] = [[] for _ in parts]
    for reps in instances:
        last = -1
        for rep in reps:
            part = _part_of(parts, _shape(rep))
            if part <= last:
                return None
            shown[part].append(rep)
            last = part
    return shown


def _unlike(a: Shape, b: Shape) -> bool:
    """Whether two repetitions are different parts by their shapes:
    neither holds much of the other's (:data:`PART_OVERLAP`), where records
    of a list are alike or one is the other with more optional parts, and
    they are not alike but for their classes, as a list's rows in
    alternating styles (``odd``, ``even``) are."""
    return _contained(a, b) <= PART_OVERLAP and dice(unstyled(a), unstyled(b)) < ROLE_SAME


#: Most share of the smaller part's shape that two parts of a layout
#: have in common (see :func:`_as_parts`).
PART_OVERLAP = 0.75


def _contained(a: Shape, b: Shape) -> float:
    """The share of the smaller shape's paths that the other has too."""
    smaller = min(len(a), len(b))
    return len(a & b) / smaller if smaller else 1.0


def _part_of(parts: list[Shape], shape: Shape) -> int:
    """The part a repetition is: the one its shape overlaps most, by at
    least :data:`ROLE_MARGIN`, and clearly more than any other: by
    :data:`ROLE_MARGIN` more, or twice as much (a page's own content block
    shares little with another page's, but far more than with the
    banner); -1 for none."""
    overlaps = sorted(((dice(shape, part), p) for p, part in enumerate(parts)), reverse=True)
    best, part = overlaps[0]
    runner_up = overlaps[1][0] if len(overlaps) > 1 else 0.0
    if best < ROLE_MARGIN or (best - runner_up < ROLE_MARGIN and best < 2 * runner_up):
        return -1
    return part


_DIGITS = re.compile(r"\d+")


def _named_parts(instances: list[list[list[TNode]]]) -> bool:
    """Whether each position is an element the page names with an ``id``
    of its own, the same on most instances (a page whose markup gives one
    part an id of its own, ``ctl00_x81``, is outvoted), and the names
    differ in more than a number: ``entity-address`` then
    ``entity-details`` are two parts of a page (an id names one element),
    which may hold different optional rows; ``row1``, ``row2`` number
    records."""
    names = []
    for p in range(len(instances[0])):
        (ids, count), *_ = Counter(_ids(reps[p]) for reps in instances).most_common(1)
        if not ids or 2 * count <= len(instances):
            return False
        names.append(tuple(_DIGITS.sub("#", name) for name in ids))
    return len(set(names)) == len(names)


def _inner_ids(hedge: list[TNode]) -> tuple[str, ...]:
    """The first ``id`` among the elements each element of ``hedge`` opens
    with (:func:`~scrapy_wrapx.template.opening_elements`): a layout
    table's rows are alike (``<tr><td valign=top>``), and what each holds
    says which part of the page it is (``<div id=availability>``). Weaker
    than a repetition's own id (a list's tabs hold links with ids of their
    own, ``<li><a id=aa-series>``), so parts keyed so must each recur (see
    :func:`_keyed_parts`): a tab one seed showed stays a record."""
    found = []
    for node in hedge:
        if isinstance(node, Elem):
            name = next((e.attrs["id"] for e in opening_elements(node) if e.attrs.get("id")), None)
            if name:
                found.append(name)
    return tuple(found)


def _ids(hedge: list[TNode]) -> tuple[str, ...]:
    """The ``id`` of each element of ``hedge`` that has a fixed one."""
    return tuple(
        name for node in hedge if isinstance(node, Elem) and (name := node.attrs.get("id"))
    )


def _shape(hedge: list[TNode]) -> Shape:
    """The label paths (tag and class; ``#`` for a text) of every node
    under a hedge, sets and optionals transparent, as features
    :func:`._info.dice` compares. A separator is no part of a shape: the
    first genre of "Sci-Fi, Action" lacks the comma the second opens with,
    and is no other role for that."""
    paths: set[tuple[str, ...]] = set()
    stack: list[tuple[TNode, tuple[str, ...]]] = [(node, ()) for node in hedge]
    while stack:
        node, above = stack.pop()
        if punctuation(node):
            continue
        if isinstance(node, Elem):
            path = (*above, elem_label(node.tag, node.attrs))
            paths.add(path)
            stack.extend((child, path) for child in node.children)
        elif isinstance(node, Text):
            paths.add((*above, "#"))
        elif isinstance(node, Set):
            stack.extend((child, above) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, above))
    return frozenset(paths)


def _regular(instances: list[list[list[TNode]]], positions: list[list[TNode]]) -> bool:
    """Whether every position keeps to one shape on all instances: merging
    a position's repetitions adds no optional part. A position with a role
    (the "sku" input, the Facebook link) looks the same on every page;
    records that merely recur on some pages (recommendation cards) leave a
    position that is one card here and another there, merged into
    alternatives."""
    return all(
        _optionals(hedge) <= max(_optionals(reps[p]) for reps in instances)
        for p, hedge in enumerate(positions)
    )


def _entries(positions: list[list[TNode]]) -> list[bool]:
    """Per position: whether it is an entry of a fixed sequence rather than
    a record: it says the same on every instance (:func:`_fixed_entry`), or
    it has a fixed text, the same on every instance, that no other position
    has (its label). Records share their fixed texts ("Add to cart"); a
    separator (the comma every genre but the first opens with) is no
    label."""
    fixed = [
        {
            node.parts[0]
            for top in hedge
            for node in iter_nodes(top)
            if isinstance(node, Text) and node.fixed and not punctuation(node)
        }
        for hedge in positions
    ]
    counts = Counter(text for texts in fixed for text in texts)
    return [
        _fixed_entry(hedge) or any(counts[text] == 1 for text in texts)
        for hedge, texts in zip(positions, fixed, strict=True)
    ]


def _fixed_entry(hedge: list[TNode]) -> bool:
    """Whether a position is the same on every instance, or says the same
    on every instance (its texts are all fixed, at least one; only where
    it links to may vary: "Add your menu" to ``/addmenu?id=<page>``)."""
    texts = [node for top in hedge for node in iter_nodes(top) if isinstance(node, Text)]
    if texts and all(text.fixed for text in texts):
        return True
    return _slots_and_size(hedge)[0] == 0


def _optionals(nodes: list[TNode]) -> int:
    return sum(isinstance(node, Opt) for top in nodes for node in iter_nodes(top))


def _repetitions(instances: list[list[list[TNode]]]) -> int:
    """``k`` when each of at least two instances has the same ``k >= 2``
    repetitions, else 0."""
    if len(instances) < 2:
        return 0
    k = len(instances[0])
    if k < 2 or any(len(reps) != k for reps in instances):
        return 0
    return k


def _position(scratch: Scratch, instances: list[list[list[TNode]]], p: int) -> list[TNode]:
    """The merge of repetition ``p`` of every instance."""
    hedge = instances[0][p]
    for reps in instances[1:]:
        hedge = merge_hedges(scratch, hedge, reps[p])
    return hedge


def _slots_and_size(nodes: list[TNode]) -> tuple[int, int]:
    slots = size = 0
    for top in nodes:
        for node in iter_nodes(top):
            size += 1
            if isinstance(node, Text) and not node.fixed:
                slots += 1
            elif isinstance(node, Elem):
                slots += sum(value is None for value in node.attrs.values())
    return slots, size


def _carries_data(node: Elem) -> bool:
    return any(
        (isinstance(n, Text) and not n.fixed)
        or (isinstance(n, Elem) and any(v is None for v in n.attrs.values()))
        for n in iter_nodes(node)
    )


def _ends_in_byline(node: TNode) -> bool:
    """Whether ``node`` is an element whose last child is an inline element
    with data right after a text with a word in it (a lead-in such as
    "By:"; a bullet, "» <a>Ford Mustang</a>", leads no list in)."""
    if not isinstance(node, Elem) or len(node.children) < 2:
        return False
    last, before = node.children[-1], node.children[-2]
    return (
        isinstance(last, Elem)
        and last.tag in INLINE_TAGS
        and isinstance(before, Text)
        and any(part and any(c.isalpha() for c in part) for part in before.parts)
        and _carries_data(last)
    )


def widen_bylines(scratch: Scratch, root: Elem) -> list[Text]:
    """Generalize a *byline* into a list of one: an inline element with data
    that closes its parent right after a text ("By: <a>Lynn A. Coleman</a>")
    becomes a set of ``[separator,] element``, so a page that names several
    (``By: <a>A</a>, <a>B</a>``) fits the template and every name lands in
    the one field. Seeds that happen to show one author each cannot reveal
    the list; the shape (label, then the element ending the line) is what
    bylines, "Publisher: <a>...</a>" and tag lines share. A value that is
    a quantity on every seed ("Price: <b>$9.99</b>", a date, a height) is
    one value, a scalar: no list. Returns the separator texts (never
    fields)."""
    separators: list[Text] = []
    for node in list(iter_nodes(root)):
        if not _ends_in_byline(node):
            continue
        assert isinstance(node, Elem)
        last = node.children[-1]
        if _quantity(scratch, last):
            continue
        sep = Text([None])
        scratch[sep] = Info(frozenset({("#",)}), 1, [], "#", sep=True)
        wrapped = Opt(sep)
        scratch[wrapped] = scratch[sep]
        body = Set([wrapped, last])
        scratch[body] = scratch[last]
        node.children[-1] = body
        separators.append(sep)
    return separators


def _quantity(scratch: Scratch, node: TNode) -> bool:
    """Whether every seed value of the texts with data in ``node`` is a
    quantity: a number first (a price, a count, a year, "6-9"), or a date,
    a phone number or a measure by its shape (:mod:`._shapes`)."""
    samples = [
        sample
        for text in iter_nodes(node)
        if isinstance(text, Text) and not text.fixed
        for sample in scratch[text].samples
    ]
    return bool(samples) and all(_quantity_value(sample.strip()) for sample in samples)


def _quantity_value(value: str) -> bool:
    return bool(value) and (
        value[0].isdigit()
        or value_role([[value]]) in ("date", "phone", "price")
        or bool(unit_quantity([[value]]))
    )


#: Elements whose items are a list by the markup's own word.
LIST_TAGS = frozenset({"ul", "ol"})


def widen_lists(scratch: Scratch, root: Elem) -> None:
    """Generalize a list element that shows one item with data on every
    seed (or none on some) into a list of one: seeds that happen to show
    one author each cannot reveal the list, and a page with three would
    otherwise give the first and drop the others. A ``<ul>`` or ``<ol>``
    says its items are a list; an item whose texts are fixed (a menu's
    entry, a breadcrumb's level) stays."""
    for node in list(iter_nodes(root)):
        if not isinstance(node, Elem) or node.tag not in LIST_TAGS or len(node.children) != 1:
            continue
        only = node.children[0]
        item = only.child if isinstance(only, Opt) else only
        if not isinstance(item, Elem) or item.tag != "li" or not _leaf_item(scratch, item):
            continue
        body = Set([item])
        scratch[body] = scratch[item]
        node.children = [body]


def _leaf_item(scratch: Scratch, item: Elem) -> bool:
    """Whether a list item holds a text that varies (a varying link alone
    may vary by a session id only), no list of its own (a tree of
    categories, a menu's submenu) and no label: "<li>Director: ..</li>" is
    a labelled row, one of a kind, not an item of a list."""
    inside = list(iter_nodes(item))
    return (
        any(isinstance(node, Text) and not node.fixed for node in inside)
        and not any(isinstance(node, Elem) and node.tag in LIST_TAGS for node in inside)
        and not any(_labelled(scratch, node) for node in inside)
    )


def _labelled(scratch: Scratch, node: TNode) -> bool:
    """Whether a node is a label: a text that is one, or opens with one
    every seed shows ("Director: ..", see :func:`._labels.text_label`), or
    a bold or term element of fixed text ("<b>Director</b>")."""
    if isinstance(node, Elem):
        only = node.children[0] if len(node.children) == 1 else None
        return node.tag in ROW_LABEL_TAGS and isinstance(only, Text) and only.fixed
    if not isinstance(node, Text):
        return False
    info = scratch.get(node)
    symbol = info.label if info is not None else ""
    first = node.parts[0] if node.fixed else None
    return symbol.startswith("#:") or bool(first and opening_label(first))
