"""Tables whose columns vary from page to page, read by their header.

A variants table shows Size, Color, Price and Stock on one page and Size,
Price, Stock on the next. Induction aligns the seeds' header rows into one
row of ``<th>`` cells, some optional, some slots (the first header reads
"Size" on one seed and "Color" on another), and the body rows into a set
of positional cells: the third cell is the price on one page and the stock
on the next, so records were keyed by place and their keys were wrong
(``price: "L"``). Where the template says so, the records of such a table
are read from the page itself instead, each row's cells keyed by the
page's own header cells (:func:`header_records`), as a person reads the
table; a table whose header every seed shows the same is keyed by the
induction already (:func:`scrapy_wrapx.induction._tables.table_header`).
"""

from __future__ import annotations

from lxml import etree

from scrapy_wrapx.template import (
    Elem,
    Opt,
    Set,
    Template,
    Text,
    TNode,
    decimal_number,
    iter_nodes,
    slug,
)

#: Fewest header cells of a template table read by its header (a page's
#: may show fewer: the one column of a variant that only has a price).
MIN_HEADER_CELLS = 2
#: Row groups a table's rows may sit in.
_ROW_GROUPS = ("thead", "tbody", "tfoot")
_CELLS = ("th", "td")


def varying_header_tables(template: Template) -> dict[int, tuple[str, list[str]]]:
    """The template tables whose first row is a header of ``<th>`` cells
    that vary between the seeds (an optional cell, or a slot) and whose
    body is a set of rows: table uid -> the name of that set, and the
    fields of the header row (its slots are headers, not data)."""
    found: dict[int, tuple[str, list[str]]] = {}
    for node in iter_nodes(template.root):
        if isinstance(node, Elem) and node.tag == "table":
            slots = _row_slots(node)
            if len(slots) < 2 or not isinstance(slots[0], Elem):
                continue
            body = next((slot for slot in slots[1:] if isinstance(slot, Set)), None)
            if body is not None and _varying_header(slots[0]):
                texts = [text for text in iter_nodes(slots[0]) if isinstance(text, Text)]
                names = [name for text in texts for name in text.names if name]
                found[node.uid] = (body.name, names)
    return found


def _row_slots(table: Elem) -> list[TNode]:
    """The table's rows and sets of rows, in row groups or not, each
    optional one by its content."""
    slots: list[TNode] = []
    for child in table.children:
        inner = child.child if isinstance(child, Opt) else child
        if isinstance(inner, Elem) and inner.tag in _ROW_GROUPS:
            slots.extend(c.child if isinstance(c, Opt) else c for c in inner.children)
        else:
            slots.append(inner)
    return [
        slot
        for slot in slots
        if (isinstance(slot, Elem) and slot.tag == "tr") or isinstance(slot, Set)
    ]


def _varying_header(row: Elem) -> bool:
    """Whether a row is ``<th>`` cells, some optional or holding a slot."""
    cells = [child.child if isinstance(child, Opt) else child for child in row.children]
    if len(cells) < MIN_HEADER_CELLS or not all(
        isinstance(cell, Elem) and cell.tag == "th" for cell in cells
    ):
        return False
    optional = any(isinstance(child, Opt) for child in row.children)
    slotted = any(
        isinstance(text, Text) and not text.fixed for cell in cells for text in iter_nodes(cell)
    )
    return optional or slotted


def header_records(table: etree._Element) -> list[dict[str, str]] | None:
    """The body rows of a page's table as records keyed by its header
    cells (a link's target under ``<key>_url``), or None where its first
    row is no header of ``<th>`` cells. A row of one cell that spans the
    table heads the rows below it, whose records hold it under
    ``section``; a row of another width is no record."""
    rows = _page_rows(table)
    head = [cell for cell in rows[0] if cell.tag in _CELLS] if rows else []
    if not head or not all(cell.tag == "th" for cell in head):
        return None
    keys = _keys([folded_text(cell) for cell in head])
    section_key = _keys([*keys, "section"])[-1]
    records = []
    section = ""
    for row in rows[1:]:
        cells = [cell for cell in row if cell.tag in _CELLS]
        if len(cells) == len(keys):
            record = _record(keys, cells)
            if record and section:
                record[section_key] = section
        else:
            record = None
            if len(cells) == 1 and _span(cells[0]) >= len(keys) > 1:
                section = folded_text(cells[0])  # a heading across the table
        if record:
            records.append(record)
    return records


def _page_rows(table: etree._Element) -> list[etree._Element]:
    """A page table's rows, in row groups or not."""
    rows: list[etree._Element] = []
    for child in table:
        if child.tag == "tr":
            rows.append(child)
        elif child.tag in _ROW_GROUPS:
            rows.extend(row for row in child if row.tag == "tr")
    return rows


def _record(keys: list[str], cells: list[etree._Element]) -> dict[str, str]:
    """A body row's cells by their header's keys: the text, and the
    target of the cell's one link."""
    record: dict[str, str] = {}
    for key, cell in zip(keys, cells, strict=True):
        text = folded_text(cell)
        if text:
            record[key] = text
        links = [link.get("href", "").strip() for link in cell.iter("a")]
        if len(links) == 1 and links[0]:
            record[f"{key}_url"] = links[0]
    return record


def _span(cell: etree._Element) -> int:
    """How many columns a cell spans."""
    # Few digits: browsers cap a span at 1000 columns.
    span = decimal_number(cell.get("colspan", "1").strip(), MAX_SPAN_DIGITS)
    return span if span is not None else 1


#: Most digits of a cell's column span.
MAX_SPAN_DIGITS = 4


def _keys(headers: list[str]) -> list[str]:
    """A key per header cell: its slug, ``column_N`` for one that slugs to
    nothing, a counter for one seen before."""
    keys: list[str] = []
    for number, header in enumerate(headers, 1):
        key = slug(header) or f"column_{number}"
        base, count = key, 1
        while key in keys:
            count += 1
            key = f"{base}_{count}"
        keys.append(key)
    return keys


def folded_text(element: etree._Element) -> str:
    """An element's text (a cell's, a term's), whitespace folded."""
    return " ".join(
        etree.tostring(element, method="text", encoding="unicode", with_tail=False).split()
    )
