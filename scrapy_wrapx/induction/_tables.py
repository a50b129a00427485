"""Tables with a header row: records keyed by their header cells.

A ``<table>`` whose first row is all ``<th>`` (in a ``<thead>`` or the
table's first ``<tr>``) is a list of records whose columns the header names:
Size, Color, In stock. Its cells are *columns*, never a list: a row's cells
are not folded into a set (:meth:`PageTables.keeps_cells`, on each seed), so the
template keeps one cell per column and each column's field is named after
its header (:mod:`._naming`); and its body rows are a list, even when every
seed shows one row (:func:`widen_rows`, as :func:`._sets.widen_bylines`
generalizes a byline), so a page with three rows fits the template seeded
with pages of one; and its body cells are slots, even those the seeds
agree on (:func:`open_cells`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_wrapx.induction._fold import fold_run
from scrapy_wrapx.template import Elem, Opt, Set, Text, TNode, iter_nodes

if TYPE_CHECKING:
    from lxml import etree

    from scrapy_wrapx.induction._info import Scratch

#: Fewest header cells of a header row (one ``<th>`` is a caption).
MIN_COLUMNS = 2
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


def _is_header(row: etree._Element) -> bool:
    cells = [cell for cell in row if isinstance(cell.tag, str)]
    return len(cells) >= MIN_COLUMNS and all(cell.tag == "th" for cell in cells)


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


class PageTables:
    """What induction asks of one page's tables, worked out once per
    table: every row and every text of a table asks, so reading all its
    rows on each question would be quadratic in them.

    Tables are remembered by identity, each with its element, so an
    identity is not reused while this lives (one page's induction)."""

    def __init__(self) -> None:
        self._facts: dict[int, tuple[etree._Element, bool, bool]] = {}

    def _of(self, table: etree._Element) -> tuple[etree._Element, bool, bool]:
        found = self._facts.get(id(table))
        if found is None:
            rows = _rows(table)
            widths = {sum(isinstance(cell.tag, str) for cell in row) for row in rows}
            grid = len(rows) >= GRID_ROWS and len(widths) == 1 and min(widths) >= GRID_COLUMNS
            found = (table, bool(rows) and _is_header(rows[0]), grid)
            self._facts[id(table)] = found
        return found

    def has_header(self, element: etree._Element) -> bool:
        """Whether ``element`` is a table, or a row group of one, whose
        first row is a header row."""
        table = _table_of(element)
        return table is not None and self._of(table)[1]

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
        return table is not None and self._of(table)[2]

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
                return row is not None and self.keeps_cells(row) and not _is_header(row)
            if ancestor.tag in ("table", "body"):
                return False
        return False


def fold_rows(scratch: Scratch, children: list[TNode]) -> list[TNode]:
    """The children of a header table (or its row group) with every run of
    body rows folded into one set: rows under a header are records,
    however their values differ."""
    out: list[TNode] = []
    run: list[TNode] = []
    for child in [*children, None]:
        if isinstance(child, Elem) and child.tag == "tr" and header_texts(child) is None:
            run.append(child)
            continue
        if len(run) > 1:
            out.append(fold_run(scratch, run, 1))
        else:
            out.extend(run)
        run = []
        if child is not None:
            out.append(child)
    return out


def header_texts(row: Elem) -> list[str] | None:
    """The header cells' texts of a template row that is a header row
    (every cell a ``<th>`` with fixed text only), else None."""
    cells = [child for child in row.children if not isinstance(child, Text) or not child.fixed]
    if len(cells) < MIN_COLUMNS or not all(
        isinstance(cell, Elem) and cell.tag == "th" for cell in cells
    ):
        return None
    texts = [_fixed_text(cell) for cell in cells]
    return [text for text in texts if text is not None] if None not in texts else None


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
        if isinstance(node, Elem) and node.tag == "table" and _template_header(node):
            for group in [node, *_row_groups(node)]:
                group.children = [_widened(scratch, child) for child in group.children]


def _row_groups(table: Elem) -> list[Elem]:
    """The table's ``thead``/``tbody``/``tfoot`` (optional ones too)."""
    cores = [child.child if isinstance(child, Opt) else child for child in table.children]
    return [core for core in cores if isinstance(core, Elem) and core.tag in ROW_GROUPS]


def _template_header(table: Elem) -> bool:
    for group in [table, *_row_groups(table)]:
        for child in group.children:
            if isinstance(child, Elem) and child.tag == "tr":
                return header_texts(child) is not None
    return False


def _widened(scratch: Scratch, node: TNode) -> TNode:
    """A body row as a set of one; an optional body row as an optional
    set; anything else as it is."""
    inner = node.child if isinstance(node, Opt) else node
    if not isinstance(inner, Elem) or inner.tag != "tr" or header_texts(inner) is not None:
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
        if isinstance(node, Elem) and node.tag == "table" and _template_header(node):
            for group in [node, *_row_groups(node)]:
                for child in group.children:
                    texts.extend(_body_texts(child))
    for text in texts:
        if text.fixed:
            text.parts = [None]
    return texts


def _body_texts(node: TNode) -> list[Text]:
    """The texts inside the cells of a body row (bare, optional or a set)."""
    inner = node.child if isinstance(node, Opt) else node
    rows = inner.children if isinstance(inner, Set) else [inner]
    texts: list[Text] = []
    for row in rows:
        core = row.child if isinstance(row, Opt) else row
        if isinstance(core, Elem) and core.tag == "tr" and header_texts(core) is None:
            texts.extend(text for text in iter_nodes(core) if isinstance(text, Text))
    return texts
