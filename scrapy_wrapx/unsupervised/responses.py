"""What the Scrapy components know about a response: is it a page, and its
page tree — built once, on the lxml document ``response.selector`` already
holds, and shared by every component (and the spider's own selectors)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from scrapy.http import HtmlResponse, TextResponse

from scrapy_wrapx import dom

if TYPE_CHECKING:
    from scrapy.http import Response

_TREES: weakref.WeakKeyDictionary[Response, dom.PageTree] = weakref.WeakKeyDictionary()


def is_html(response: Response) -> bool:
    """HTML responses only: binary and JSON bodies pass through untouched."""
    if isinstance(response, HtmlResponse):
        return True
    if not isinstance(response, TextResponse):
        return False
    content_type = response.headers.get(b"Content-Type", b"") or b""
    return b"html" in content_type.lower()


def response_tree(response: TextResponse) -> dom.PageTree:
    """The page tree of ``response``; :class:`ValueError` if it has none."""
    tree = _TREES.get(response)
    if tree is None:
        try:
            document = response.selector.root
        except (AttributeError, ValueError) as exc:
            raise ValueError(f"Cannot parse {response.url!r}: {exc}") from exc
        tree = dom.build_tree(document, response.url)
        _TREES[response] = tree
    return tree
