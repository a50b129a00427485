"""Seeded page mutations: synthetic redesigns for the relocation benchmark.

Real redesigns wrap content in new containers, insert blocks and table
cells, rename or drop classes and ids, and turn layout tables into divs
(DESIGN.md, "Benchmarks"); the heavy severity also inserts *look-alikes*:
a copy of a heading, row, cell or list item, its texts replaced by random
texts of the same shape, right before the original — the promo heading
before the title, the new row above the ISBN row. :func:`mutate` applies a mix of those to a page
at one of three severities, deterministically for a given seed, and never
touches text: the page's data stays what it was, only the markup around it
changes, so the ground truth of the original page still holds.

>>> html = '<html><body><div id="a" class="box"><p>Hi</p><p>there</p></div></body></html>'
>>> mutate(html, "heavy", seed=1) == mutate(html, "heavy", seed=1)
True
>>> "Hi" in mutate(html, "heavy", seed=1)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

_PARSER = lxml_html.HTMLParser(encoding="utf-8")

__all__ = [
    "LOOKALIKE_TAGS",
    "SEVERITIES",
    "Severity",
    "insert_lookalike",
    "look_alike_text",
    "mutate",
]


@dataclass(frozen=True)
class Severity:
    """How many changes of each kind a severity applies."""

    wrappers: int
    blocks: int
    cells: int
    attributes: int
    tables_to_divs: int
    #: Look-alikes inserted right before an element of their own tag.
    lookalikes: int = 0


SEVERITIES = {
    "light": Severity(wrappers=2, blocks=1, cells=1, attributes=2, tables_to_divs=0),
    "medium": Severity(wrappers=5, blocks=3, cells=2, attributes=8, tables_to_divs=0),
    "heavy": Severity(
        wrappers=10, blocks=6, cells=4, attributes=20, tables_to_divs=1, lookalikes=6
    ),
}

_WORDS = [
    "lorem",
    "ipsum",
    "dolor",
    "sit",
    "amet",
    "consectetur",
    "adipiscing",
    "elit",
    "sed",
    "do",
    "eiusmod",
    "tempor",
    "incididunt",
    "labore",
    "dolore",
    "magna",
    "aliqua",
    "enim",
    "minim",
    "veniam",
    "quis",
    "nostrud",
    "exercitation",
    "ullamco",
    "laboris",
    "nisi",
    "aliquip",
    "commodo",
    "consequat",
]
_TABLE_PARTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption"})
_LIST_PARTS = frozenset({"ul", "ol", "dl", "select", "optgroup", "li", "dt", "dd", "option"})
_NO_WRAP_PARENTS = _TABLE_PARTS | _LIST_PARTS | frozenset({"p", "a", "span", "button", "label"})
_SKIP = frozenset({"script", "style", "noscript", "head", "title", "meta", "link", "br", "hr"})


def mutate(html: str, severity: str, seed: int = 0) -> str:
    """``html`` with the changes of ``severity`` ("light", "medium" or
    "heavy") applied, chosen by a random generator seeded with ``seed``."""
    if severity not in SEVERITIES:
        raise ValueError(f"Unknown mutation severity: {severity!r}")
    plan = SEVERITIES[severity]
    rng = random.Random(seed)
    # Bytes: lxml refuses text that carries an XML declaration
    # (``<?xml version="1.0" encoding="UTF-8"?>``), as some pages do.
    document = lxml_html.document_fromstring(html.encode("utf-8"), parser=_PARSER)
    body = document.find("body")
    if body is None:
        return html
    steps: list[tuple[int, Callable[[random.Random, etree._Element], None]]] = [
        (plan.lookalikes, insert_lookalike),
        (plan.tables_to_divs, _table_to_divs),
        (plan.attributes, _change_attribute),
        (plan.cells, _insert_cell),
        (plan.blocks, _insert_block),
        (plan.wrappers, _wrap),
    ]
    for count, step in steps:
        for _ in range(count):
            step(rng, body)
    return str(lxml_html.tostring(document, encoding="unicode", method="html"))


def _elements(body: etree._Element) -> list[etree._Element]:
    return [
        element
        for element in body.iter()
        if isinstance(element.tag, str) and element.tag not in _SKIP and element is not body
    ]


def _parent_tag(element: etree._Element) -> object:
    parent = element.getparent()
    return None if parent is None else parent.tag


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high)))


def _wrap(rng: random.Random, body: etree._Element) -> None:
    """Wrap an element in a new ``<div>`` (a new container layer)."""
    choices = [
        element
        for element in _elements(body)
        if element.tag not in _TABLE_PARTS | _LIST_PARTS
        and _parent_tag(element) not in _NO_WRAP_PARENTS
    ]
    if not choices:
        return
    element = rng.choice(choices)
    parent = element.getparent()
    assert parent is not None  # body's descendants all have one
    wrapper = etree.Element("div", {"class": f"wrap-{rng.randint(100, 999)}"})
    wrapper.tail, element.tail = element.tail, None
    parent.replace(element, wrapper)
    wrapper.append(element)


def _insert_block(rng: random.Random, body: etree._Element) -> None:
    """Insert a new block of content (text and a link) next to an element."""
    choices = [
        element for element in _elements(body) if _parent_tag(element) not in _NO_WRAP_PARENTS
    ] or [body]
    anchor = rng.choice(choices)
    block = etree.Element("div", {"class": f"promo-{rng.randint(100, 999)}"})
    span = etree.SubElement(block, "span")
    span.text = _words(rng, 2, 6).capitalize()
    link = etree.SubElement(block, "a", {"href": f"/promo/{rng.randint(1000, 9999)}"})
    link.text = _words(rng, 1, 3)
    if anchor is body:
        body.insert(rng.randint(0, len(body)), block)
    else:
        anchor.addprevious(block)


def _insert_cell(rng: random.Random, body: etree._Element) -> None:
    """Insert a table cell into a row (or a list item into a list)."""
    rows = [element for element in body.iter("tr")]
    if rows:
        row = rng.choice(rows)
        cell = etree.Element("td")
        cell.text = _words(rng, 1, 4)
        row.insert(rng.randint(0, len(row)), cell)
        return
    lists = [element for element in body.iter("ul", "ol")]
    if lists:
        target = rng.choice(lists)
        item = etree.Element("li")
        item.text = _words(rng, 1, 4)
        target.insert(rng.randint(0, len(target)), item)


def _change_attribute(rng: random.Random, body: etree._Element) -> None:
    """Rename or drop a class or an id."""
    choices = [element for element in _elements(body) if element.get("class") or element.get("id")]
    if not choices:
        return
    element = rng.choice(choices)
    name = rng.choice([name for name in ("class", "id") if element.get(name)])
    if rng.random() < 0.5:
        del element.attrib[name]
    else:
        element.set(name, f"{rng.choice(_WORDS)}-{rng.choice(_WORDS)}{rng.randint(1, 99)}")


def _table_to_divs(rng: random.Random, body: etree._Element) -> None:
    """Turn the table holding the most content into nested divs, the way
    sites replace layout tables with CSS layouts."""
    tables = list(body.iter("table"))
    if not tables:
        return
    table = max(tables, key=lambda element: sum(1 for _ in element.iter()))
    for element in list(table.iter()):
        if not isinstance(element.tag, str) or element.tag not in _TABLE_PARTS:
            continue
        if element.tag in ("tbody", "thead", "tfoot") and element is not table:
            element.drop_tag()  # type: ignore[attr-defined]  # lxml.html elements
            continue
        css = {"table": "layout", "tr": "row", "td": "cell", "th": "cell head"}.get(
            element.tag, element.tag
        )
        for name in (
            "cellpadding",
            "cellspacing",
            "border",
            "valign",
            "colspan",
            "rowspan",
        ):
            if name in element.attrib:
                del element.attrib[name]
        element.tag = "div"
        existing = element.get("class")
        element.set("class", f"{existing} {css}" if existing else css)


#: Tags whose elements get look-alikes: headings, rows, cells, list items
#: and the small inline or block elements that hold one value.
LOOKALIKE_TAGS = frozenset(
    {"h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "li", "dt", "dd", "p", "span", "b", "a"}
)
#: A look-alike copies an element of at most this many descendants.
_LOOKALIKE_SIZE = 12


def look_alike_text(text: str, rng: random.Random) -> str:
    """A random text of the same shape: every digit, lower- and upper-case
    letter replaced by a random one of its kind; the rest kept.

    >>> look_alike_text("ISBN-13: 978", random.Random(1))
    'ESZY-14: 177'
    """
    out = []
    for char in text:
        if char.isdigit():
            out.append(str(rng.randint(0, 9)))
        elif char.isalpha() and char.isascii():
            letter = chr(ord("a") + rng.randrange(26))
            out.append(letter.upper() if char.isupper() else letter)
        else:
            out.append(char)
    return "".join(out)


def insert_lookalike(rng: random.Random, body: etree._Element) -> None:
    """Insert a look-alike of a random small element with text right
    before it: the same tags, the texts replaced by
    :func:`look_alike_text`."""
    choices = [
        element
        for element in body.iter(*LOOKALIKE_TAGS)
        if _has_text(element) and sum(1 for _ in element.iter()) <= _LOOKALIKE_SIZE
    ]
    if not choices:
        return
    element = rng.choice(choices)
    copy = deepcopy(element)
    _reshape_texts(copy, rng)
    copy.tail = element.tail if element.tail and not element.tail.strip() else None
    if "id" in copy.attrib:
        del copy.attrib["id"]  # ids stay unique
    element.addprevious(copy)


def _reshape_texts(copy: etree._Element, rng: random.Random) -> None:
    """Replace every text inside ``copy`` by a look-alike text."""
    for node in copy.iter():
        if node.text:
            node.text = look_alike_text(node.text, rng)
        if node.tail and node is not copy:
            node.tail = look_alike_text(node.tail, rng)


def _has_text(element: etree._Element) -> bool:
    return any(text.strip() for text in element.itertext())
