"""Make a fetched page safe to open as a report: no active content.

``scrapy wrapx report`` writes a page of an arbitrary site to a local file
that a person opens in a browser, so everything that could run is removed,
whatever the page's markup: elements that run or embed code (``<script>``,
``<iframe>``, ``<object>``...), event-handler attributes (``on*``),
``srcdoc``, URLs with an executable scheme (``javascript:``, ``data:``,
``vbscript:``, however spaced or cased) and ``<meta http-equiv>`` (a
refresh can navigate anywhere). What is left is markup and styles.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from lxml import etree

#: Elements removed with their content.
ACTIVE_ELEMENTS = frozenset(
    {
        "applet",
        "base",
        "embed",
        "frame",
        "frameset",
        "iframe",
        "noscript",
        "object",
        "portal",
        "script",
    }
)
#: Attributes that hold a URL a browser may load or navigate to.
URL_ATTRIBUTES = frozenset(
    {
        "action",
        "background",
        "cite",
        "codebase",
        "data",
        "dynsrc",
        "formaction",
        "href",
        "lowsrc",
        "manifest",
        "ping",
        "poster",
        "src",
        "xlink:href",
    }
)
#: Attributes removed whatever their value.
ACTIVE_ATTRIBUTES = frozenset({"srcdoc"})
#: Schemes of URLs that run code or carry a document of their own.
_ACTIVE_SCHEME = re.compile(r"^(?:javascript|vbscript|data):")
#: Browsers ignore ASCII whitespace and control characters inside a scheme.
_IGNORED_IN_SCHEME = re.compile(r"[\x00-\x20\x7f]+")


def active_url(value: str) -> bool:
    """Whether a browser would run ``value`` (or open it as a document of its own).

    >>> active_url(" Java\\tScript:alert(1)"), active_url("DATA:text/html,x")
    (True, True)
    >>> active_url("/book/1.html"), active_url("https://example.com/a:b")
    (False, False)
    """
    return bool(_ACTIVE_SCHEME.match(_IGNORED_IN_SCHEME.sub("", value).lower()))


def _local_name(name: str) -> str:
    """``xlink:href`` and ``{namespace}href`` are ``href``-like too."""
    return name.rsplit("}", 1)[-1].lower()


def _active_attribute(name: str, value: str) -> bool:
    local = _local_name(name)
    if local.startswith("on") or local in ACTIVE_ATTRIBUTES:
        return True
    plain = local.rsplit(":", 1)[-1]
    return (local in URL_ATTRIBUTES or plain in URL_ATTRIBUTES) and active_url(value)


def _active_element(element: Any) -> bool:
    tag = element.tag if isinstance(element.tag, str) else ""
    local = _local_name(tag)
    if local in ACTIVE_ELEMENTS:
        return True
    return local == "meta" and element.get("http-equiv") is not None


def _remove(element: Any) -> None:
    """Remove ``element`` and its content, keeping the text after it."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def sanitize(document: etree._Element) -> None:
    """Remove the active content of ``document`` in place (see the module doc)."""
    elements = list(cast("list[Any]", document.iter()))
    for element in elements:
        if _active_element(element):
            _remove(element)
            continue
        for name, value in list(element.attrib.items()):
            if _active_attribute(name, value):
                del element.attrib[name]
