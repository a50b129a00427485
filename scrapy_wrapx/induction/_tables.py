"""Tables with a header row: records keyed by their header cells.

A ``<table>`` whose header row is all ``<th>`` (in a ``<thead>`` or among
the table's first rows, after title rows of one cell), or all ``<td>`` that
hold template text only above body rows of its width (a player's game log:
``<tr class=colhead><td>DATE</td><td>OPP</td>...``), is a list of records
whose columns the header names: Size, Color, In stock. Its cells are
*columns*, never a list: a row's cells are not folded into a set
(:meth:`PageTables.keeps_cells`, on each seed), so the template keeps one
cell per column and each column's field is named after its header
(:mod:`._naming`); and its body rows are a list, even when every seed shows
one row (:func:`widen_rows`, as :func:`._sets.widen_bylines` generalizes a
byline), so a page with three rows fits the template seeded with pages of
one; and its body cells are slots, even those the seeds agree on
(:func:`open_cells`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from scrapy_wrapx.induction._fold import HEADER_SCAN_ROWS, MIN_HEADER_CELLS, fold_run
from scrapy_wrapx.induction._peers import core
from scrapy_wrapx.induction._styles import unify_styles
from scrapy_wrapx.template import Elem, Opt, Set, Text, TNode, iter_nodes

if TYPE_CHECKING:
    from lxml import etree

    from scrapy_wrapx.induction._info import Scratch

#: Elements no cell of a data table holds: a "table" whose cells hold
#: these lays out a page, and its first row of menu links is no header.
LAYOUT_TAGS = frozenset(
    {"table", "div", "ul", "ol", "dl", "p", "form", "section", "article", "aside", "nav"}
    | {"h1", "h2", "h3", "h4", "h5", "h6", "iframe"}
)
#: Elements between a table and its rows.
ROW_GROUPS = frozenset({"thead", "tbody", "tfoot"})


def _rows(table: etree._Element) -> list[etree._Element]:
    """The table's own rows, in order (not those of nested tables)."""
    rows: list[etree._Element] = []
    for child in table:
        if child.tag == "tr":
            rows.append(child)
        elif child.tag in ROW_GROUPS:
            rows.extend(row for row in child if row.tag == "tr")
    return rows


def _cells(row: etree._Element) -> list[etree._Element]:
    return [cell for cell in row if isinstance(cell.tag, str)]


def _header_index(rows: list[etree._Element], template: frozenset[str]) -> int | None:
    """The index of a table's header row among its first
    :data:`HEADER_SCAN_ROWS` rows, or None: a row of ``<th>``, or of
    ``<td>`` that hold template text only (:func:`_td_header`), above body
    rows of its width (:func:`_heads_columns`)."""
    for index, row in enumerate(rows[:HEADER_SCAN_ROWS]):
        cells = _cells(row)
        if len(cells) < MIN_HEADER_CELLS or not _heads_columns(rows, index):
            continue
        if _th_row(row) or _td_header(row, rows[index + 1 :], template):
            return index
    return None


def _th_row(row: etree._Element) -> bool:
    """Whether a row is a row of :data:`MIN_HEADER_CELLS` ``<th>`` or more."""
    cells = _cells(row)
    return len(cells) >= MIN_HEADER_CELLS and all(cell.tag == "th" for cell in cells)


def _heads_columns(rows: list[etree._Element], index: int) -> bool:
    """Whether the rows below the row at ``index`` are columns under it:
    there are some, none is wider, most are as wide (a row of one spanning
    cell, a total or a note, may come between). A table of rows of one to
    four cells, a ``<th>`` row among them, is no table of records."""
    width = len(_cells(rows[index]))
    widths = [len(_cells(row)) for row in rows[index + 1 :]]
    return bool(widths) and max(widths) == width and 2 * widths.count(width) > len(widths)


def _td_header(row: etree._Element, body: list[etree._Element], template: frozenset[str]) -> bool:
    """Whether a row of ``<td>`` heads columns: every cell holds text, all
    of it template text (on every seed: "MIN", "PTS"), and the body rows
    hold no layout (:data:`LAYOUT_TAGS`): a layout table's first row of
    menu links is no header."""
    texts = [[" ".join(str(text).split()) for text in cell.itertext()] for cell in _cells(row)]
    if not all(any(cell) for cell in texts):
        return False
    if not all(text in template for cell in texts for text in cell if text):
        return False
    return not any(element.tag in LAYOUT_TAGS for row in body for element in row.iterdescendants())


def _table_of(element: etree._Element) -> etree._Element | None:
    """The table ``element`` is, or whose row group it is; None for
    anything else."""
    table = element.getparent() if element.tag in ROW_GROUPS else element
    return table if table is not None and table.tag == "table" else None


#: Fewest rows, and fewest cells in each, of a grid (see :meth:`PageTables.grid`).
#: Narrower tables are left to folding: a specs table's label, value and
#: unit cells are named fields, not columns of records.
GRID_ROWS = 3
GRID_COLUMNS = 6


class _TableFacts(NamedTuple):
    """What :class:`PageTables` worked out about one table: the table (so
    its identity is not reused), whether it has a header row, the
    identities of its heading rows (:meth:`PageTables.heading_row`), and
    whether it is a grid (:meth:`PageTables.grid`)."""

    element: etree._Element
    header: bool
    heads: frozenset[int]
    grid: bool


class PageTables:
    """What induction asks of one page's tables, worked out once per
    table: every row and every text of a table asks, so reading all its
    rows on each question would be quadratic in them.

    Tables are remembered by identity, each with its element, so an
    identity is not reused while this lives (one page's induction)."""

    def __init__(self, template: frozenset[str] = frozenset()) -> None:
        self._template = template
        self._facts: dict[int, _TableFacts] = {}

    def _of(self, table: etree._Element) -> _TableFacts:
        found = self._facts.get(id(table))
        if found is None:
            rows = _rows(table)
            widths = {len(_cells(row)) for row in rows}
            header = _header_index(rows, self._template)
            above = rows[: header + 1] if header is not None else []
            heads = {id(row) for row in above} | {id(row) for row in rows if _th_row(row)}
            found = _TableFacts(
                table,
                header is not None,
                frozenset(heads),
                len(rows) >= GRID_ROWS and len(widths) == 1 and min(widths) >= GRID_COLUMNS,
            )
            self._facts[id(table)] = found
        return found

    def has_header(self, element: etree._Element) -> bool:
        """Whether ``element`` is a table, or a row group of one, with a
        header row."""
        table = _table_of(element)
        return table is not None and self._of(table).header

    def heading_row(self, row: etree._Element) -> bool:
        """Whether ``row`` is a header row, a title row above one, or a row
        of ``<th>`` further down (a section's heading in a key/value
        table): no body row."""
        group = row.getparent()
        table = _table_of(group) if group is not None else None
        return table is not None and id(row) in self._of(table).heads

    def grid(self, element: etree._Element) -> bool:
        """Whether ``element`` is a table, or a row group of one, whose
        rows all have the same number of cells, at least
        :data:`GRID_COLUMNS` in at least :data:`GRID_ROWS` rows: a grid of
        columns (a player's stats by season, a header row of ``<td>``
        included), whose cells alike in markup are no list within a row.
        Folding them made each row a different run of "lists", merged into
        dozens of optional cells that fit no page.

        >>> from lxml import html
        >>> row = "<tr>" + "<td>1</td>" * 6 + "</tr>"
        >>> PageTables().grid(html.fromstring(f"<table>{row * 3}</table>"))
        True
        >>> PageTables().grid(html.fromstring(f"<table>{row * 2}<tr><td>x</td></tr></table>"))
        False
        """
        table = _table_of(element)
        return table is not None and self._of(table).grid

    def keeps_cells(self, element: etree._Element) -> bool:
        """Whether ``element`` is a row of a table with a header row, or of
        a grid: its cells are columns, not repetitions.

        >>> from lxml import html
        >>> table = html.fromstring(
        ...     "<table><tr><th>Size</th><th>Color</th></tr><tr><td>M</td><td>Red</td></tr></table>"
        ... )
        >>> [PageTables().keeps_cells(row) for row in table.iter("tr")]
        [True, True]
        """
        parent = element.getparent()
        return (
            element.tag == "tr"
            and parent is not None
            and (self.has_header(parent) or self.grid(parent))
        )

    def in_body_cell(self, element: etree._Element) -> bool:
        """Whether ``element`` is, or is inside, a body cell of a table
        whose cells are columns (:meth:`keeps_cells`): its texts are data
        whatever they repeat ("yes" in an "In stock" column on every seed
        is a value, not a label)."""
        for ancestor in (element, *element.iterancestors()):
            if ancestor.tag in ("td", "th"):
                row = ancestor.getparent()
                return row is not None and self.keeps_cells(row) and not self.heading_row(row)
            if ancestor.tag in ("table", "body"):
                return False
        return False


def fold_rows(scratch: Scratch, children: list[TNode], tables: PageTables) -> list[TNode]:
    """The children of a header table (or its row group) with every run of
    body rows folded into one set: rows under a header are records,
    however their values differ. Header rows, the title rows above the
    first, and rows of ``<th>`` further down (a section's heading in a
    key/value table) end a run."""
    out: list[TNode] = []
    run: list[TNode] = []
    for child in [*children, None]:
        if isinstance(child, Elem) and child.tag == "tr" and not _head(scratch, child, tables):
            run.append(child)
            continue
        if len(run) > 1:
            unify_styles(scratch, run)
            out.append(fold_run(scratch, run, 1))
        else:
            out.extend(run)
        run = []
        if child is not None:
            out.append(child)
    return out


def _head(scratch: Scratch, row: Elem, tables: PageTables) -> bool:
    """Whether a seed's row template stands for a header row, a title row
    above one, or a row of ``<th>`` further down."""
    sources = scratch[row].sources
    return bool(sources) and tables.heading_row(sources[0])


def header_texts(row: Elem, below: TNode | None = None) -> list[str] | None:
    """The header cells' texts of a template row that is a header row,
    else None: every cell holds fixed text only, and is a ``<th>``, or a
    ``<td>`` above ``below``, a list of body rows of the same width, or
    one with data in every cell (the template's trace of
    :func:`_td_header`)."""
    cells = [child for child in row.children if not isinstance(child, Text) or not child.fixed]
    if len(cells) < MIN_HEADER_CELLS or not all(isinstance(cell, Elem) for cell in cells):
        return None
    if not all(isinstance(cell, Elem) and cell.tag == "th" for cell in cells) and (
        _body_width(below) != len(cells)
    ):
        return None
    texts = [_fixed_text(cell) for cell in cells]
    return [text for text in texts if text is not None] if None not in texts else None


def _body_width(node: TNode | None) -> int | None:
    """The number of cells of the rows of a set of ``<tr>`` (optional or
    not, as are rows of two styles alternating), or of one row with data
    in every cell (seeds that all show one row), or None for anything
    else."""
    inner = core(node) if node is not None else None
    if isinstance(inner, Elem) and inner.tag == "tr":
        cells = [cell for cell in map(core, inner.children) if isinstance(cell, Elem)]
        data = all(
            any(isinstance(text, Text) and not text.fixed for text in iter_nodes(cell))
            for cell in cells
        )
        return len(cells) if cells and data else None
    if not isinstance(inner, Set):
        return None
    rows = [row for row in map(core, inner.children) if isinstance(row, Elem) and row.tag == "tr"]
    if len(rows) != len(inner.children):
        return None
    widths = {sum(isinstance(core(cell), Elem) for cell in row.children) for row in rows}
    return widths.pop() if len(widths) == 1 else None


def table_header(table: Elem) -> tuple[Elem, list[str]] | None:
    """A template table's header row and its texts, or None."""
    found = _header_slot(table)
    return (found[1], found[2]) if found is not None else None


def _header_slot(table: Elem) -> tuple[int, Elem, list[str]] | None:
    """Where among :func:`_row_slots` a template table's header row is,
    the row and its texts; None without one."""
    slots = _row_slots(table)
    for number, (group, index) in enumerate(slots[:HEADER_SCAN_ROWS]):
        row = core(group.children[index])
        if isinstance(row, Elem) and row.tag == "tr":
            below = slots[number + 1] if number + 1 < len(slots) else None
            texts = header_texts(row, below[0].children[below[1]] if below else None)
            if texts is not None:
                return number, row, texts
    return None


def _row_slots(table: Elem) -> list[tuple[Elem, int]]:
    """Each place in the table and its row groups that holds rows (a row,
    a set of rows, optional or not), as (group, index), in order."""
    slots: list[tuple[Elem, int]] = []
    for group in [table, *_row_groups(table)]:
        for index, child in enumerate(group.children):
            inner = core(child)
            rows = [core(row) for row in inner.children] if isinstance(inner, Set) else [inner]
            if rows and all(isinstance(row, Elem) and row.tag == "tr" for row in rows):
                slots.append((group, index))
    return slots


def _body_slots(table: Elem) -> list[tuple[Elem, int]]:
    """The row places below a template table's header row (none without
    one)."""
    found = _header_slot(table)
    return _row_slots(table)[found[0] + 1 :] if found is not None else []


def _fixed_text(cell: TNode) -> str | None:
    parts: list[str] = []
    for node in iter_nodes(cell):
        if isinstance(node, Text):
            if not node.fixed:
                return None
            parts.append(node.parts[0] or "")
        elif not isinstance(node, Elem):
            return None
    return " ".join(" ".join(parts).split())


def widen_rows(scratch: Scratch, root: Elem) -> None:
    """Make every body row of a header table a set of rows (a list of one
    on seeds that all show one row)."""
    for node in list(iter_nodes(root)):
        if isinstance(node, Elem) and node.tag == "table":
            for group, index in _body_slots(node):
                group.children[index] = _widened(scratch, group.children[index])


def _row_groups(table: Elem) -> list[Elem]:
    """The table's ``thead``/``tbody``/``tfoot`` (optional ones too)."""
    cores = [core(child) for child in table.children]
    return [group for group in cores if isinstance(group, Elem) and group.tag in ROW_GROUPS]


def _widened(scratch: Scratch, node: TNode) -> TNode:
    """A body row as a set of one; an optional body row as an optional
    set; a set as it is."""
    inner = core(node)
    if not isinstance(inner, Elem):
        return node
    rows = Set([inner])
    scratch[rows] = scratch[inner]
    if isinstance(node, Opt):
        node.child = rows
        return node
    return rows


def open_cells(root: Elem) -> list[Text]:
    """Make every text of a header table's body cells a slot, and return
    those texts. A column is data even when every seed shows the same value
    in it (three one-row seeds, all size "XL"): the header names it, the
    next page shows another. So neither the seeds' agreement nor
    :func:`._pagetokens.template_fields` makes it template."""
    texts: list[Text] = []
    for node in list(iter_nodes(root)):
        if isinstance(node, Elem) and node.tag == "table":
            for group, index in _body_slots(node):
                texts.extend(_body_texts(group.children[index]))
    for text in texts:
        if text.fixed:
            text.parts = [None]
    return texts


def _body_texts(node: TNode) -> list[Text]:
    """The texts inside the cells of a body row (bare, optional or a set)."""
    inner = core(node)
    rows = inner.children if isinstance(inner, Set) else [inner]
    texts: list[Text] = []
    for row in rows:
        texts.extend(text for text in iter_nodes(row) if isinstance(text, Text))
    return texts
