"""Folding repeated records inside one page into sets (MDR, NET, SYNTHIA).

MDR finds *data regions*: runs of adjacent generalized nodes (1 to
:data:`MAX_PERIOD` siblings each) that are similar to each other; NET walks
the tree bottom-up so that nested lists are collapsed before their parents
are compared, which makes records with sub-lists of different lengths look
alike. :func:`fold_children` is called on the way up (see
:func:`._instance.instance`), so both hold here: a run of at least two
similar groups is replaced by a :class:`~scrapy_wrapx.template.Set` whose
body is the merge of all the groups (SYNTHIA's fold).

Similar means alike as trees, not merely the same tag: the same coarse
symbols (tag and class; a template text, or a text that opens with a label
such as "Price:", is its own symbol), a template text in common below, and
profiles whose Dice overlap reaches the peer threshold (simple tree matching
made graded, as MDR and FiVaTech compare generalized nodes). So a menu of
fixed labels does not fold into "records", nor ``<p>by X</p><p>Price:
Y</p>``, while a list of authors does, whatever their names.

Lists written inline, ``by <a>A</a>, <a>B</a> and <a>C</a>``, are
repetitions of ``[separator,] <a>``: alike elements with short texts between
them. They fold into one set whose body is an optional separator and the
element, so all the names land in one field; the separators are marked
(:attr:`._info.Info.sep`) and never become fields.
"""

from __future__ import annotations

import re

from scrapy_wrapx.induction._info import (
    SEPARATOR_CHARS,
    Scratch,
    content_sig,
    dice,
    punctuation,
    refresh,
    template_features,
)
from scrapy_wrapx.induction._labels import opening_label
from scrapy_wrapx.induction._merge import merge_hedges, optional
from scrapy_wrapx.induction._peers import PEER_THRESHOLD
from scrapy_wrapx.induction._styles import MARK_WORDS, STRIPED_TAGS, skeleton, unify_styles
from scrapy_wrapx.template import (
    ROW_LABEL_TAGS,
    Elem,
    Opt,
    Set,
    Text,
    TNode,
    colon_label,
    iter_nodes,
)

#: Longest generalized node (number of adjacent siblings in one record).
MAX_PERIOD = 3
#: Most siblings in one record that its first element opens, where
#: records differ in length (see :func:`_fold_headed`).
MAX_HEADED = 4
#: A separator between inline repetitions is short: a few characters
#: (:data:`._info.SEPARATOR_CHARS`) and at most this many words (", ", " and ", " & ", " / ", "; ").
SEPARATOR_WORDS = 2
#: Fewest nodes of an inline list: an element, a separator, an element.
MIN_SEPARATED_RUN = 3
#: Rows of a table searched for its header row (title rows may come
#: first; :func:`table_key`, :mod:`._tables`), and the fewest cells of one
#: (one ``<th>`` is a caption).
HEADER_SCAN_ROWS = 4
MIN_HEADER_CELLS = 2


def _text_symbol(scratch: Scratch, node: Text) -> str:
    """A text's symbol for folding: its label (:func:`._labels.text_label`),
    and for data the label it opens with even when only this page shows it:
    "Availability: In Stock" after an ISBN is no repetition of the ISBN,
    though neither is template text on pages that say "Availability:" apart
    (a lone label, "UPC:", is a label as well)."""
    label = scratch[node].label
    if label != "#" or not node.fixed:
        return label
    opening = opening_label(node.parts[0] or "")
    return f"#:{opening}" if opening else label


def _symbol(scratch: Scratch, node: TNode) -> tuple[str, ...]:
    if isinstance(node, Text):
        return ("#text", _text_symbol(scratch, node))
    if isinstance(node, Elem):
        return ("elem", scratch[node].label)
    if isinstance(node, Set):
        return ("set", *[_symbol(scratch, child)[1] for child in node.children[-1:]])
    if isinstance(node, Opt):
        return ("opt", *_symbol(scratch, node.child))
    return ("blob",)


def _group_profile(scratch: Scratch, group: list[TNode]) -> frozenset[tuple[str, ...]]:
    profile: set[tuple[str, ...]] = set()
    for node in group:
        profile |= scratch[node].profile
    return frozenset(profile)


def _similar(scratch: Scratch, a: list[TNode], b: list[TNode]) -> bool:
    marked = False
    if [_symbol(scratch, x) for x in a] != [_symbol(scratch, y) for y in b]:
        if not _marked(a, b):
            return False
        marked = True
    if all(isinstance(x, Text) for x in a):
        return True
    pa, pb = _group_profile(scratch, a), _group_profile(scratch, b)
    if marked:
        # Compared without classes: every feature starts with the
        # element's own label, classes included.
        pa, pb = scratch.unstyled(pa), scratch.unstyled(pb)
    # Records with template texts must share one (seed 000's textual
    # symbols, and the peer rule of merging): "Publisher: x" and "ISBN: y"
    # rows are no repetitions, while two products that both say "Add to
    # Cart" are, even if one says "(Hardcover)" and the other "(Paperback)".
    if not _texts_agree(pa, pb):
        return False
    if _table_keys(scratch, a) != _table_keys(scratch, b):
        return False
    if (
        _cells(a)
        and _cells(b)
        and (_deep_texts_differ(scratch, a, b) or _label_cell(pa) != _label_cell(pb))
    ):
        return False
    return dice(pa, pb) >= PEER_THRESHOLD


def _marked(a: list[TNode], b: list[TNode]) -> bool:
    """Whether two single elements are one kind of repetition, marked by
    classes of their own: the first or last item of a list (``class="item
    first"``, ``"item last"``), a featured card (``"card featured"``), the
    current entry. The same elements with the same attributes (their
    :func:`~._styles.skeleton`), a class in common, and the others words
    of place or state only (:data:`~._styles.MARK_WORDS`): a title and an
    author in ``"field title"`` and ``"field author"`` are no list. Table
    rows and list items (:data:`~._styles.STRIPED_TAGS`) need only the
    words of place or state, whatever their skeletons."""
    if len(a) != 1 or len(b) != 1:
        return False
    x, y = a[0], b[0]
    if not (isinstance(x, Elem) and isinstance(y, Elem)) or x.tag != y.tag:
        return False
    classes_x = set((x.attrs.get("class") or "").split())
    classes_y = set((y.attrs.get("class") or "").split())
    marks = {word for token in classes_x ^ classes_y for word in _CLASS_WORD.split(token) if word}
    if not marks <= MARK_WORDS:
        return False
    if x.tag in STRIPED_TAGS and classes_x ^ classes_y:
        # Rows striped "odd"/"even", an item "featured": a table's row or
        # a list's item is no part of a record, whatever optional parts it
        # shows (profiles still decide, compared without classes).
        return True
    return bool(classes_x & classes_y) and skeleton(x)[1] == skeleton(y)[1]


#: What separates the words of a class token ("is-active", "item--first").
_CLASS_WORD = re.compile(r"[-_]+")


def _cells(group: list[TNode]) -> bool:
    """Whether a group is table cells only."""
    return all(isinstance(node, Elem) and node.tag in ("td", "th") for node in group)


def _label_cell(profile: frozenset[tuple[str, ...]]) -> bool:
    """Whether a profile's texts all lie in the elements a row's label
    stands in (:data:`._labels.ROW_LABEL_TAGS`): a label's cell. A label
    cell and a cell of data are no repetitions of one cell, even where
    the label is one no other seed shows (an optional row's):
    ``<td><span><b>Location</b></span></td>`` and
    ``<td><span>Midtown</span></td>``. A product's cell with a bold
    "Sale" badge beside its name and price is data like the others.
    Every part of a feature but its last is an element's label; a text's
    label starts with ``#``."""
    texts = [feature for feature in profile if feature[-1].startswith("#")]
    return bool(texts) and all(
        any(part.split(".", 1)[0] in ROW_LABEL_TAGS for part in feature[:-1]) for feature in texts
    )


def _deep_texts_differ(scratch: Scratch, a: list[TNode], b: list[TNode]) -> bool:
    """Whether two groups of cells hold template texts and share none,
    however deep they lie: the three columns of a player's details, each
    a cell holding a table of "Height"/"Weight" rows, are no records of
    one list, though their labels lie deeper than a profile reaches
    (:data:`._info.PROFILE_DEPTH`)."""
    ta, tb = _deep_texts(scratch, a), _deep_texts(scratch, b)
    return bool(ta) and bool(tb) and not ta & tb


def _deep_texts(scratch: Scratch, group: list[TNode]) -> frozenset[str]:
    """The template texts anywhere below a group (labels of
    :func:`._labels.text_label` that name a text), kept on each node: a
    row's first cell is compared with every cell after it."""
    texts: set[str] = set()
    for top in group:
        info = scratch[top]
        if info.deep is None:
            info.deep = frozenset(
                scratch[node].label
                for node in iter_nodes(top)
                if isinstance(node, Text) and _template_label(scratch[node].label)
            )
        texts |= info.deep
    return frozenset(texts)


def _table_keys(scratch: Scratch, group: list[TNode]) -> list[tuple[str, ...] | None]:
    """The header key of each table in a group (None for other nodes)."""
    return [
        table_key(scratch, node) if isinstance(node, Elem) and node.tag == "table" else None
        for node in group
    ]


def table_key(scratch: Scratch, table: Elem) -> tuple[str, ...] | None:
    """The template texts of a table's header row: its first row (among
    the first :data:`HEADER_SCAN_ROWS`, a title row before it allowed) of
    at least two cells that hold template texts only, ``<th>`` or
    ``<td>``; None when it has none.

    Tables under different headers are different tables, not records of
    one list, however alike their markup: a player's season totals, game
    log and splits share a class and half their columns, and folded into
    one list every row became a record of optional cells of all three.
    """
    rows = 0
    for node in iter_nodes(table):
        if not isinstance(node, Elem) or node.tag != "tr" or node is table:
            continue
        rows += 1
        if rows > HEADER_SCAN_ROWS:
            return None
        cells = [cell for cell in node.children if isinstance(cell, Elem)]
        labels = [scratch[text].label for text in iter_nodes(node) if isinstance(text, Text)]
        if len(cells) >= MIN_HEADER_CELLS and labels and all(map(_template_label, labels)):
            return tuple(labels)
    return None


def _template_label(label: str) -> bool:
    """Whether a text's label (:func:`._labels.text_label`) is a template
    text's: ``#`` is data, ``#:Price:`` data after a label."""
    return len(label) > 1 and not label.startswith("#:")


def _texts_agree(pa: frozenset[tuple[str, ...]], pb: frozenset[tuple[str, ...]]) -> bool:
    """Whether two groups' template texts let them be one record: they
    share one, or neither has any, or only one has and all of them lie in
    a part the other lacks (an optional badge, "Sale", on some cards) and
    both have data texts or neither has: a block of images and a block of
    labelled ratings are no two records of one list.

    >>> card = frozenset({("div",), ("div", "a"), ("div", "a", "#")})
    >>> badge = card | {("div", "span"), ("div", "span", "#Sale")}
    >>> _texts_agree(card, badge)
    True
    >>> _texts_agree(card | {("div", "#Price:")}, card)
    False
    >>> images = frozenset({("div",), ("div", "img")})
    >>> _texts_agree(images, badge)
    False
    """
    ta, tb = template_features(pa), template_features(pb)
    if ta & tb or not (ta or tb):
        return True
    if (ta and tb) or _has_data(pa) != _has_data(pb):
        return False
    return _in_optional_parts(ta or tb, pb if ta else pa)


def _has_data(profile: frozenset[tuple[str, ...]]) -> bool:
    """Whether a profile holds a data text (a text that is no template's)."""
    return any(feature[-1] == "#" for feature in profile)


def _in_optional_parts(
    features: frozenset[tuple[str, ...]], other: frozenset[tuple[str, ...]]
) -> bool:
    """Whether every feature runs through an element ``other`` lacks: it
    belongs to a part only one side has, not to a text both share."""
    return all(
        any(feature[:end] not in other for end in range(2, len(feature))) for feature in features
    )


def _make_set(
    scratch: Scratch, body: list[TNode], raw: list[TNode], reps: list[list[TNode]]
) -> Set:
    folded = Set(body)
    refresh(scratch, folded)
    info = scratch[folded]
    info.raw = raw
    info.sig = content_sig(scratch, raw)
    info.pages = frozenset((scratch.page,))
    info.instances = [reps]
    return folded


def _separator(node: TNode) -> bool:
    if not isinstance(node, Text) or not node.fixed:
        return False
    value = (node.parts[0] or "").strip()
    return len(value) <= SEPARATOR_CHARS and len(value.split()) <= SEPARATOR_WORDS


def _fold_separated(scratch: Scratch, children: list[TNode]) -> list[TNode]:
    """Fold runs ``E (sep E)+`` of alike elements with separator texts."""
    out: list[TNode] = []
    i = 0
    while i < len(children):
        end = _separated_run_end(scratch, children, i)
        if end - i < MIN_SEPARATED_RUN:
            out.append(children[i])
            i += 1
            continue
        out.append(_fold_separated_run(scratch, children[i:end]))
        i = end
    return out


def _separated_run_end(scratch: Scratch, children: list[TNode], start: int) -> int:
    """Where the run ``E (sep E)*`` from ``start`` ends."""
    head = children[start]
    end = start + 1
    if not isinstance(head, Elem) or colon_label(head):
        # "<b>Pages:</b> 320 <b>Format:</b> Paperback": the short texts
        # between labels are their values, no separators of a list.
        return end
    while (
        end + 1 < len(children)
        and _separator(children[end])
        and isinstance(children[end + 1], Elem)
        and _similar(scratch, [head], [children[end + 1]])
    ):
        end += 2
    return end


def _fold_separated_run(scratch: Scratch, run: list[TNode]) -> Set:
    """The set of ``[separator,] element`` that ``E (sep E)+`` repeats."""
    head = run[0]
    for sep in run[1::2]:
        # A separator is no label: every list of linked names has its
        # commas, so rows that share only those ("Directed by:", "Written
        # by:") are no records of one list.
        info = scratch[sep]
        info.sep, info.label, info.profile = True, "#", frozenset({("#",)})
    body: list[TNode] = [head]
    for start in range(1, len(run), 2):
        body = merge_hedges(scratch, body, run[start : start + 2])
    # The first repetition has no separator: make it optional whatever
    # the alignment did.
    body = [optional(scratch, node) if _separator_slot(scratch, node) else node for node in body]
    reps = [[head], *(run[start : start + 2] for start in range(1, len(run), 2))]
    return _make_set(scratch, body, run, reps)


def _separator_slot(scratch: Scratch, node: TNode) -> bool:
    inner = node.child if isinstance(node, Opt) else node
    return isinstance(inner, Text) and scratch[inner].sep


def _with_separator(scratch: Scratch, head: TNode, node: TNode) -> bool:
    """Whether ``node`` is an item like ``head`` that opens with a
    separator ``head`` lacks: ``<span><span>,</span><a>Action</a></span>``
    after ``<span><a>Sci-Fi</a></span>``, the list's first item. The
    element and its attributes are the same, and after the separator its
    children are of the same kinds: the separator is evidence enough that
    these are items of one list, whatever their texts."""
    return (
        isinstance(head, Elem)
        and isinstance(node, Elem)
        and node.tag == head.tag
        and node.attrs == head.attrs
        and len(node.children) == len(head.children) + 1
        and punctuation(node.children[0])
        and [_symbol(scratch, x) for x in head.children]
        == [_symbol(scratch, y) for y in node.children[1:]]
    )


def _fold_inner_separated(scratch: Scratch, children: list[TNode]) -> list[TNode]:
    """Fold a first item and the items like it after it that each open
    with a separator inside (genres "Sci-Fi, Action" as
    ``<span><a>…</a></span><span><span>,</span><a>…</a></span>``) into one
    set, the separator optional. Two items are a list too: seeds that all
    show two genres would otherwise make a template of a first and a
    second genre, and a page with three would lose one."""
    out: list[TNode] = []
    i = 0
    while i < len(children):
        end = i + 1
        while end < len(children) and _with_separator(scratch, children[i], children[end]):
            end += 1
        if end - i < 2:
            out.append(children[i])
            i += 1
            continue
        run = children[i:end]
        body: list[TNode] = [run[0]]
        for node in run[1:]:
            body = merge_hedges(scratch, body, [node])
        out.append(_make_set(scratch, body, run, [[node] for node in run]))
        i = end
    return out


def fold_children(scratch: Scratch, children: list[TNode]) -> list[TNode]:
    """Replace runs of repeated sibling groups by sets."""
    if len(children) >= 2:
        children = _fold_inner_separated(scratch, children)
    if len(children) >= MIN_SEPARATED_RUN:
        children = _fold_separated(scratch, children)
        children = _fold_headed(scratch, children)
    for period in range(1, MAX_PERIOD + 1):
        if len(children) < 2 * period:
            break
        children = _fold_period(scratch, children, period)
    return children


def _fold_period(scratch: Scratch, children: list[TNode], period: int) -> list[TNode]:
    """Fold the runs of at least two similar groups of ``period`` siblings."""
    out: list[TNode] = []
    i = 0
    while i < len(children):
        end = _run_end(scratch, children, i, period)
        if end - i >= 2 * period:
            run = children[i:end]
            if period == 1:
                unify_styles(scratch, run)  # rows alike, but some highlighted
            out.append(fold_run(scratch, run, period))
            i = end
        else:
            out.append(children[i])
            i += 1
    return out


def _run_end(scratch: Scratch, children: list[TNode], start: int, period: int) -> int:
    """Where the run of groups similar to the group at ``start`` ends;
    ``start`` when no group starts there (too few siblings left, or
    ``period`` alike siblings, which are shorter periods' to fold, unless
    the second is the same divider after every record: a spacer row
    after each of a table's rows)."""
    first = children[start : start + period]
    divided = period == 2 and _divider(first[-1])
    if len(first) < period or (
        period > 1 and len({_symbol(scratch, n) for n in first}) == 1 and not divided
    ):
        return start
    if period > 1 and start and _value_of(children[start - 1], first):
        return start
    end = start + period
    divider = content_sig(scratch, first[1:]) if divided else None
    while (
        end + period <= len(children)
        and _similar(scratch, first, children[end : end + period])
        and (divider is None or content_sig(scratch, children[end + 1 : end + 2]) == divider)
    ):
        end += period
    return end


def _value_of(label: TNode, group: list[TNode]) -> bool:
    """Whether ``group`` pairs the value of the label just before it with
    the next label: a ``<dd>`` after its ``<dt>`` and the next ``<dt>``,
    the text after ``<b>Author:</b>`` or ``<span class="k">Author:</span>``
    and the next label. Records of labelled values open with their label;
    a ``<dl>`` whose first terms every seed shows (template text, each a
    symbol of its own) was folded from the first value on, so every value
    was under the label before it. A list after one label ("Tags: <a>A</a>,
    <a>B</a>") holds no label and opens at its first item."""
    return _labels(label) and not _labels(group[0]) and any(map(_labels, group[1:]))


def _labels(node: TNode) -> bool:
    """Whether a node is a label of the value after it: a term, or an
    element of one fixed text ending with a colon."""
    return isinstance(node, Elem) and (node.tag == "dt" or bool(colon_label(node)))


def _divider(node: TNode) -> bool:
    """Whether an element is a divider between records: no text below it,
    no attribute that varies and no form field, only fixed images at most
    (a row of spacer images between a table's rows)."""
    if not isinstance(node, Elem):
        return False
    return all(
        isinstance(inner, Elem) and inner.tag != "input" and None not in inner.attrs.values()
        for inner in iter_nodes(node)
    )


def fold_run(scratch: Scratch, run: list[TNode], period: int) -> Set:
    """The set of the groups of ``period`` siblings that ``run`` repeats."""
    body = run[:period]
    for start in range(period, len(run), period):
        body = merge_hedges(scratch, body, run[start : start + period])
    reps = [run[start : start + period] for start in range(0, len(run), period)]
    return _make_set(scratch, body, run, reps)


def _fold_headed(scratch: Scratch, children: list[TNode]) -> list[TNode]:
    """Fold runs of records that each open with the same element and run
    to the next one, where records differ in length: a title row, a row
    of details and, on some, a note row, with no element around each.

    Groups of a fixed length (:func:`_fold_period`) cut such a run at
    every record that has the optional part: the template became a few
    records of fixed length, a note, a few more, and a page's records
    landed in several lists and in top-level fields. A run whose records
    are all as long is left whole to :func:`_fold_period` (not tried
    again from its second element, which would open records of its own)."""
    symbols = [_symbol(scratch, node) if isinstance(node, Elem) else _LOOSE for node in children]
    out: list[TNode] = []
    i = 0
    while i < len(children):
        records = _headed_run(scratch, children, symbols, i)
        if len(records) < 2:
            out.append(children[i])
            i += 1
            continue
        end = i + sum(map(len, records))
        if len({len(record) for record in records}) > 1:
            body = records[0]
            for record in records[1:]:
                body = merge_hedges(scratch, body, record)
            out.append(_make_set(scratch, body, children[i:end], records))
        else:
            out.extend(children[i:end])
        i = end
    return out


#: The kind of a loose text among siblings: it ends a run of records
#: (:func:`_fold_headed` folds records of elements only).
_LOOSE = ("loose",)


def _headed_run(
    scratch: Scratch, children: list[TNode], symbols: list[tuple[str, ...]], start: int
) -> list[list[TNode]]:
    """The records of the run that opens at ``start`` (see
    :func:`_fold_headed`): the opening element and what follows it up to
    the next element of its kind (at most :data:`MAX_HEADED` siblings),
    for as long as each record is alike with the first
    (:func:`_joins`). The last one takes the longest sequence of kinds an
    earlier record showed in its order, so what follows the list stays
    out of it. Found record by record, so a run that is no list costs
    the scan of its first records only."""
    opening = symbols[start]
    records: list[list[TNode]] = []
    if opening[0] != "elem":
        return records
    begin, j = start, start + 1
    while j < len(symbols) and j - begin <= MAX_HEADED and symbols[j] != _LOOSE:
        if symbols[j] == opening:
            if not _joins(scratch, records, children[begin:j]):
                return records
            records.append(children[begin:j])
            begin = j
        j += 1
    if records:
        seen = [[_symbol(scratch, node) for node in record] for record in records]
        last = max(
            length
            for length in range(1, MAX_HEADED + 1)
            if _LOOSE not in symbols[begin : begin + length]
            and any(_in_order(symbols[begin : begin + length], kinds) for kinds in seen)
        )
        if _joins(scratch, records, children[begin : begin + last]):
            records.append(children[begin : begin + last])
    return records


def _joins(scratch: Scratch, records: list[list[TNode]], record: list[TNode]) -> bool:
    """Whether ``record`` goes on a run of ``records``: it is more than its
    opening element, and alike with the first record
    (:func:`_alike_records`). Blocks of a layout (a table, a table and a
    note, a table) are no records."""
    return len(record) >= 2 and (not records or _alike_records(scratch, records[0], record))


def _in_order(part: list[tuple[str, ...]], whole: list[tuple[str, ...]]) -> bool:
    """Whether ``part`` is a subsequence of ``whole``."""
    rest = iter(whole)
    return all(kind in rest for kind in part)


def _alike_records(scratch: Scratch, a: list[TNode], b: list[TNode]) -> bool:
    """Whether two records are alike: the shorter one's kinds come in the
    longer one's order, and each of its elements is a repetition of the
    one it pairs with (:func:`_similar`: the rows of "Director:" and of
    "Year:" are none). What only the longer one shows (a note row) is its
    optional part."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    rest = iter(long)
    for node in short:
        kind = _symbol(scratch, node)
        match = next((other for other in rest if _symbol(scratch, other) == kind), None)
        if match is None or not _similar(scratch, [node], [match]):
            return False
    return True
