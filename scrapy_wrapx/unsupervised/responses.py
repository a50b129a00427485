"""What the Scrapy components know about a response: is it a page, and its
page tree — built once, on the lxml document ``response.selector`` already
holds, and shared by every component (and the spider's own selectors)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from scrapy.http import HtmlResponse, TextResponse
from w3lib.encoding import http_content_type_encoding, read_bom

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


def utf8_body(response: TextResponse) -> bytes:
    """``response.text`` as UTF-8, to send to a page worker: the body itself
    when it is UTF-8 without a byte order mark (decoded with undecodable
    bytes replaced, it is the text, as :attr:`TextResponse.text` decodes
    it), else the text encoded. Most pages are UTF-8: they are neither
    encoded again nor copied."""
    body = response.body
    encoding = http_content_type_encoding(f"charset={response.encoding}")
    if encoding == "utf-8" and read_bom(body)[0] is None:
        return body
    return response.text.encode("utf-8")
