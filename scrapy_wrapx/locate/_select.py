"""Evaluating a user's selector (XPath, or CSS written ``css:...``) on a
page tree and turning the results into tree nodes and extracted values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree
from parsel.csstranslator import HTMLTranslator

from scrapy_wrapx.dom import fold_whitespace

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node, PageTree

__all__ = ["Pick", "evaluate", "output_of", "to_xpath"]

_translator = HTMLTranslator()


@dataclass(frozen=True)
class Pick:
    """One selected thing: a node, and the attribute when the selector
    selected an attribute (``.../@href``)."""

    node: Node
    attribute: str | None


def to_xpath(selector: str) -> str:
    """The XPath of a selector; ``css:`` selectors are translated the way
    parsel translates them (``::text`` and ``::attr(name)`` included)."""
    if not isinstance(selector, str) or not selector.strip():
        raise ValueError(f"Invalid selector: {selector!r}")
    if selector.startswith("css:"):
        try:
            return str(_translator.css_to_xpath(selector[4:].strip()))
        except Exception as exc:  # cssselect raises several error types
            raise ValueError(f"Invalid CSS selector: {selector!r} ({exc})") from exc
    return selector


def evaluate(tree: PageTree, selector: str) -> list[Pick]:
    """The nodes ``selector`` selects in ``tree``, in document order, without
    duplicates; results the normalized tree dropped (scripts, blank text)
    are left out. Raises :class:`ValueError` for an invalid selector."""
    xpath = to_xpath(selector)
    try:
        results = tree.document.xpath(xpath)
    except (etree.XPathError, TypeError, ValueError) as exc:
        raise ValueError(f"Invalid XPath selector: {selector!r} ({exc})") from exc
    if not isinstance(results, list):
        # A number or a string is a valid XPath result, but not a target.
        raise ValueError(f"Selector {selector!r} does not select nodes")
    picks: list[Pick] = []
    seen: set[tuple[int, str | None]] = set()
    for result in results:
        attribute = None
        if isinstance(result, etree._ElementUnicodeResult) and result.is_attribute:
            attribute = str(result.attrname)
        node = tree.node_for(result)
        if node is None:
            continue
        key = (node.index, attribute)
        if key not in seen:
            seen.add(key)
            picks.append(Pick(node, attribute))
    picks.sort(key=lambda pick: pick.node.index)
    return picks


def output_of(tree: PageTree, node: Node, attribute: str | None) -> tuple[str, str]:
    """``(xpath, value)`` of a selected node as a user would extract it:
    a text's text, an attribute's value, an element's text (or, for an
    element leaf such as ``<img>``, its data attribute)."""
    if attribute is not None:
        return f"{node.xpath}/@{attribute}", fold_whitespace(node.element.get(attribute) or "")
    if node.is_text or node.is_leaf:
        return node.xpath, node.value
    return node.xpath, tree.text_of(node)
