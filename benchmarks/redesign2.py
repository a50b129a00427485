"""A second redesign generator, for *reporting only*.

The locator's rules and its confidence model were tuned against
:func:`tests.mutate.mutate`. A benchmark measured only on the generator it
was tuned on measures the tuning; this one is built differently and is
never used to tune anything (not by :mod:`benchmarks.calibrate`, not in a
test threshold chosen by looking at it). Its idioms:

* runs of two or three sibling elements wrapped together in a new
  ``<section>`` with a new class (``mutate`` wraps one element in a div);
* *every* table turned into a grid of ``div`` rows and ``span`` cells,
  header cells becoming ``strong`` (``mutate`` turns the largest table into
  divs);
* adjacent sibling blocks swapped;
* attributes renamed: ``class`` words prefixed, ``id`` moved to
  ``data-id``;
* look-alikes: a new element of a text holder's tag inserted before or
  after it, its text made of words and numbers of the same shape;
* optional blocks dropped: a small element that holds none of the texts
  the caller protects (the page's data) is removed.

Texts of the page are never changed, so the ground truth of a page holds
on its redesign as long as the caller protects its values.

>>> html = '<html><body><table><tr><th>A:</th><td>1</td></tr></table></body></html>'
>>> redesign(html, "heavy", seed=2) == redesign(html, "heavy", seed=2)
True
>>> "<table" in redesign(html, "heavy", seed=2)
False
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

_PARSER = lxml_html.HTMLParser(encoding="utf-8")

__all__ = ["LEVELS", "Level", "redesign"]


@dataclass(frozen=True)
class Level:
    """How many changes of each kind a level applies."""

    sections: int
    grids: bool
    swaps: int
    renames: int
    lookalikes: int
    drops: int


LEVELS = {
    "light": Level(sections=2, grids=False, swaps=1, renames=3, lookalikes=1, drops=1),
    "medium": Level(sections=4, grids=False, swaps=2, renames=10, lookalikes=3, drops=2),
    "heavy": Level(sections=8, grids=True, swaps=4, renames=25, lookalikes=6, drops=4),
}

_NOUNS = ("Offer", "Members", "Shipping", "Gift", "Club", "Deal", "News", "Club", "Points")
_LOWER = ("save", "free", "today", "only", "with", "your", "card", "order", "extra", "now")
_CONTAINERS = frozenset({"table", "tbody", "thead", "tr", "ul", "ol", "dl", "select"})
_SKIP = frozenset({"script", "style", "noscript", "br", "hr", "meta", "link", "head", "title"})
_HOLDERS = ("h1", "h2", "h3", "h4", "li", "td", "th", "dd", "dt", "p", "span", "b", "a", "div")


def redesign(html: str, level: str, seed: int = 0, keep: frozenset[str] = frozenset()) -> str:
    """``html`` redesigned at ``level`` ("light", "medium", "heavy"), by a
    random generator seeded with ``seed``; no element holding one of the
    ``keep`` texts (after stripping) is dropped."""
    if level not in LEVELS:
        raise ValueError(f"Unknown redesign level: {level!r}")
    plan = LEVELS[level]
    rng = random.Random(f"redesign2/{seed}")
    # Bytes: lxml refuses text that carries an XML declaration
    # (``<?xml version="1.0" encoding="UTF-8"?>``), as some pages do.
    document = lxml_html.document_fromstring(html.encode("utf-8"), parser=_PARSER)
    body = document.find("body")
    if body is None:
        return html
    steps: list[tuple[int, Callable[[random.Random, etree._Element], None]]] = [
        (plan.drops, lambda r, b: _drop(r, b, keep)),
        (plan.lookalikes, _lookalike),
        (plan.swaps, _swap),
        (1 if plan.grids else 0, _grids),
        (plan.renames, _rename),
        (plan.sections, _section),
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


def _section(rng: random.Random, body: etree._Element) -> None:
    """Wrap two or three adjacent siblings in a new ``<section>``."""
    parents = [
        element
        for element in [body, *_elements(body)]
        if element.tag not in _CONTAINERS and len(element) >= 2
    ]
    if not parents:
        return
    parent = rng.choice(parents)
    size = min(len(parent), rng.choice((2, 3)))
    start = rng.randrange(len(parent) - size + 1)
    run = list(parent)[start : start + size]
    section = etree.Element("section", {"class": f"blk-{rng.randrange(16**4):04x}"})
    run[0].addprevious(section)
    for element in run:
        section.append(element)  # moves it, with its tail


def _grids(rng: random.Random, body: etree._Element) -> None:
    """Every table becomes a grid of div rows and span cells."""
    names = {"table": "div", "tr": "div", "td": "span", "th": "strong", "caption": "div"}
    for table in list(body.iter("table")):
        for element in list(table.iter()):
            if element.tag in ("tbody", "thead", "tfoot"):
                element.drop_tag()  # type: ignore[attr-defined]  # lxml.html elements
            elif isinstance(element.tag, str) and element.tag in names:
                role = element.tag
                element.tag = names[role]
                for name in ("cellpadding", "cellspacing", "border", "width", "valign"):
                    if name in element.attrib:
                        del element.attrib[name]
                element.set("data-role", f"grid-{role}")


def _swap(rng: random.Random, body: etree._Element) -> None:
    """Swap two adjacent sibling elements that both hold text."""
    pairs = [
        (element, nxt)
        for element in _elements(body)
        if (nxt := element.getnext()) is not None
        and isinstance(nxt.tag, str)
        and _text_of(element)
        and _text_of(nxt)
    ]
    if not pairs:
        return
    first, second = rng.choice(pairs)
    first.tail, second.tail = second.tail, first.tail
    second.addnext(first)


def _rename(rng: random.Random, body: etree._Element) -> None:
    """Prefix an element's class words, or move its id to ``data-id``."""
    choices = [element for element in _elements(body) if element.get("class") or element.get("id")]
    if not choices:
        return
    element = rng.choice(choices)
    identifier = element.get("id")
    if identifier and rng.random() < 0.5:
        del element.attrib["id"]
        element.set("data-id", identifier)
    elif element.get("class"):
        words = str(element.get("class") or "").split()
        element.set("class", " ".join(f"x{rng.randint(1, 9)}-{word}" for word in words))


def _lookalike(rng: random.Random, body: etree._Element) -> None:
    """A new text holder of a holder's own tag, before or after it."""
    holders = [
        element
        for element in body.iter(*_HOLDERS)
        if element.text and element.text.strip() and len(element) == 0
    ]
    if not holders:
        return
    element = rng.choice(holders)
    twin = etree.Element(str(element.tag))
    if element.get("class"):
        twin.set("class", str(element.get("class")))
    twin.text = _shaped(element.text or "", rng)
    twin.tail = " "
    if rng.random() < 0.7:
        element.addprevious(twin)
    else:
        element.addnext(twin)


def _shaped(text: str, rng: random.Random) -> str:
    """Words and numbers with the shape of ``text``'s tokens."""
    out = []
    for token in text.split():
        if any(char.isdigit() for char in token):
            out.append("".join(str(rng.randint(0, 9)) if c.isdigit() else c for c in token))
        elif token[:1].isupper():
            out.append(rng.choice(_NOUNS))
        elif token[:1].isalpha():
            out.append(rng.choice(_LOWER))
        else:
            out.append(token)
    return " ".join(out) or "Offer"


def _drop(rng: random.Random, body: etree._Element, keep: frozenset[str]) -> None:
    """Remove a small element holding text, none of it in ``keep``."""
    choices = [
        element
        for element in _elements(body)
        if sum(1 for _ in element.iter()) <= 8
        and _text_of(element)
        and not any(" ".join(str(text).split()) in keep for text in element.itertext())
    ]
    if not choices:
        return
    element = rng.choice(choices)
    element.drop_tree()  # type: ignore[attr-defined]  # lxml.html elements; keeps the tail


def _text_of(element: etree._Element) -> str:
    return "".join(str(text) for text in element.itertext()).strip()
