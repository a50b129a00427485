"""Capture rules: which responses are *pages* the unsupervised mode learns
from, and the request-meta keys that carry the decision.

A page is a 2xx HTML response (``WRAPX_SEEDS_CONTENT_TYPES``) of at most
``WRAPX_SEEDS_MAX_BODY_SIZE`` bytes whose request did not opt out with
``meta["wrapx"] = False``. The capture downloader middleware decides it
and marks the request; the seeds spider middleware applies the same rules
itself when the capture middleware is not installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_wrapx.settings import wrapx_setting
from scrapy_wrapx.unsupervised.responses import is_html

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

#: ``request.meta`` key holding the capture decision (True/False).
CAPTURE_META = "wrapx_capture"
#: ``request.meta`` key a user sets to False to keep a request out.
OPT_OUT_META = "wrapx"
#: ``request.meta`` key of the end-of-crawl flush request.
FLUSH_META = "wrapx_flush"


class CapturePolicy:
    """The capture rules, read once from the settings."""

    def __init__(self, settings: BaseSettings) -> None:
        types = wrapx_setting(settings, "WRAPX_SEEDS_CONTENT_TYPES")
        self.content_types = tuple(t.strip().lower().encode("ascii") for t in types if t.strip())
        self.max_size = wrapx_setting(settings, "WRAPX_SEEDS_MAX_BODY_SIZE")

    def reason_to_skip(self, response: Response, request: Request | None) -> str | None:
        """Why ``response`` to ``request`` is not a page (``opted_out``,
        ``http_status``, ``non_html``, ``too_large``), or None to capture it.
        (Downloader middlewares get the request apart: the engine sets
        ``response.request`` after them.)"""
        if request is not None and request.meta.get(OPT_OUT_META) is False:
            return "opted_out"
        if not 200 <= response.status < 300:
            # Error pages come from another template than the page asked for.
            return "http_status"
        if not is_html(response) or not self._html_type(response):
            return "non_html"
        if self.max_size and len(response.body) > self.max_size:
            return "too_large"
        return None

    def is_captured(self, response: Response, request: Request) -> bool:
        """The capture middleware's decision for ``request``, or the rules'
        own when it did not see it (not installed)."""
        captured = request.meta.get(CAPTURE_META)
        if captured is None:
            return self.reason_to_skip(response, request) is None
        return bool(captured)

    def _html_type(self, response: Response) -> bool:
        content_type = (response.headers.get(b"Content-Type") or b"").split(b";")[0]
        content_type = content_type.strip().lower()
        return not (content_type and self.content_types) or content_type in self.content_types


def is_flush(request: Request | None) -> bool:
    """Whether ``request`` is the end-of-crawl flush request."""
    return request is not None and bool(request.meta.get(FLUSH_META))


def no_output(response: Response) -> None:
    """Callback of the flush and re-download requests: their items come
    from the seeds middleware, not from the spider."""
    return None
