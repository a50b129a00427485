"""The demo bookstore: a generated site, its ground truth and an HTTP server.

The README's first command crawls this site with ``example_project``, and the
tests use the same pages as fixtures; see :mod:`.site` and :mod:`.server`.
"""

from __future__ import annotations

from scrapy_wrapx.demo.server import DemoServer
from scrapy_wrapx.demo.site import DETAIL_FIELDS, Book, DemoSite, Review, build_site

__all__ = ["DETAIL_FIELDS", "Book", "DemoServer", "DemoSite", "Review", "build_site"]
