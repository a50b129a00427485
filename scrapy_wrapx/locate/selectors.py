"""Selectors a repair can keep: anchored on the page's own names, not on
positions.

A repair replaces a broken selector with one that selects what the locator
relocated. The relocated nodes' absolute XPaths select them on the page
they came from, but positions are what a page varies: on a shop where half
the pages open with a promo heading before the title, the title is
``h1[2]`` on those and ``h1`` on the others, and a repair to ``h1[2]``
breaks on every page without the promo. So a repair keeps the shortest
selector made of the nodes' own tags, ids and classes (up to
:data:`MAX_STEPS` elements from the node up) that selects exactly the
relocated nodes on the page, in order, and the absolute XPath only when
none does.

>>> from scrapy_wrapx.dom import parse
>>> tree = parse('<body><div class="head"><h1 class="promo">Save 5%</h1>'
...              '<h1 class="title">Widget 7</h1></div></body>')
>>> anchored_selector(tree, ["/html/body/div/h1[2]/text()[1]"])
"//h1[@class='title']/text()"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

from scrapy_wrapx.dom import PageTree

__all__ = ["MAX_STEPS", "anchored_selector"]

#: Elements (the node's own and its ancestors) a selector may name.
MAX_STEPS = 3
#: An id or class word with digits is a page's own (``product-12345``).
_GENERATED = re.compile(r"\d")
_LAST_STEP = re.compile(r"^(?P<path>.*)/(?P<step>text\(\)\[\d+\]|@[^/]+)$")


def anchored_selector(tree: PageTree, xpaths: Sequence[str]) -> str | None:
    """The shortest selector of tags, ids and classes that selects exactly
    ``xpaths`` (absolute XPaths of ``tree``'s nodes) on ``tree``, or None."""
    owners: list[etree._Element] = []
    suffixes: set[str] = set()
    for xpath in xpaths:
        owner, suffix = _owner(tree, xpath)
        if owner is None:
            return None
        owners.append(owner)
        suffixes.add(suffix)
    if len(suffixes) != 1:
        return None
    suffix = suffixes.pop()
    for depth in range(1, MAX_STEPS + 1):
        steps = {_steps(owner, depth) for owner in owners}
        if len(steps) != 1 or (only := steps.pop()) is None:
            continue
        if not any("[" in step for step in only):
            continue  # tags alone name nothing a redesign keeps
        selector = "//" + "/".join(only) + suffix
        if _selects(tree, selector, xpaths):
            return selector
    return None


def _owner(tree: PageTree, xpath: str) -> tuple[etree._Element | None, str]:
    """The element an XPath's node belongs to, and the step after it
    (``/text()`` with its index dropped when it is the first, ``/@href``)."""
    match = _LAST_STEP.match(xpath)
    path, suffix = (match.group("path"), "/" + match.group("step")) if match else (xpath, "")
    if suffix == "/text()[1]":
        suffix = "/text()"
    try:
        found = tree.document.xpath(path)
    except etree.XPathError:
        return None, ""
    if not isinstance(found, list) or len(found) != 1 or not isinstance(found[0], etree._Element):
        return None, ""
    return found[0], suffix


def _steps(element: etree._Element, depth: int) -> tuple[str, ...] | None:
    """``depth`` steps from ``element`` up, each a tag with its id or
    class; None when the element is not that deep or its tag is no name."""
    steps: list[str] = []
    node: etree._Element | None = element
    for _ in range(depth):
        if node is None or not isinstance(node.tag, str) or not node.tag.isidentifier():
            return None
        steps.append(node.tag + _predicate(node))
        node = node.getparent()
    steps.reverse()
    return tuple(steps)


def _predicate(element: etree._Element) -> str:
    for name in ("id", "class"):
        value = element.get(name)
        if value and "'" not in value and not _GENERATED.search(value):
            return f"[@{name}='{value}']"
    return ""


def _selects(tree: PageTree, selector: str, xpaths: Sequence[str]) -> bool:
    """Whether ``selector`` selects exactly the nodes of ``xpaths``, in order."""
    try:
        results = tree.document.xpath(selector)
    except etree.XPathError:
        return False
    if not isinstance(results, list) or len(results) != len(xpaths):
        return False
    last = selector.rpartition("/")[2]
    suffix = "/" + last if last.startswith("@") else ""  # node_for gives the element
    got = []
    for result in results:
        node = tree.node_for(result)
        if node is None:
            return False
        got.append(node.xpath + suffix)
    return got == list(xpaths)
