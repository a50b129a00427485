"""Pages held in memory while the store is unreachable (a Redis outage).

A page whose processing fails with
:class:`~scrapy_wrapx.store.base.StoreUnavailable` is held here, up to
``WRAPX_ITEMS_BUFFER_PAGES`` pages, while the store is tried again with a
growing delay; once it answers, the held pages are processed as if they had
just arrived. Pages beyond the cap, and pages still held when the store has
been away for ``WRAPX_STORE_RETRY_TIMEOUT`` seconds, cannot be kept: they
are counted (``wrapx/items/lost_count``) and the crawl closes with the
finish reason ``wrapx_store_unavailable``.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from twisted.internet import task

from scrapy_wrapx.store.base import StoreUnavailable
from scrapy_wrapx.unsupervised.templates import TEMPLATE_VERSIONS

if TYPE_CHECKING:
    from scrapy_wrapx.store import WrapxStore

logger = logging.getLogger(__name__)

#: First and longest delay, in seconds, between two tries of an away store.
FIRST_RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 30.0
#: Finish reason of a crawl that could not keep pages for want of a store.
FINISH_REASON = "wrapx_store_unavailable"


class OfflinePages:
    """The held pages, the retry loop and what was lost."""

    def __init__(
        self,
        store: WrapxStore,
        cap: int,
        retry_timeout: float,
        count: Callable[..., None],
        back: Callable[[], None],
    ) -> None:
        self.store = store
        self.cap = cap
        self.retry_timeout = retry_timeout
        self._count = count
        #: Called once the store answers again, with pages held.
        self._back = back
        self.pages: deque[tuple[str, str]] = deque()
        #: When the store was first found away (None: it is not).
        self.away_since: float | None = None
        self.lost = 0
        self._delay = FIRST_RETRY_DELAY
        self._retry: task.LoopingCall | None = None

    def away(self, error: StoreUnavailable) -> None:
        """The store failed: note since when, and start trying it again."""
        if self.away_since is not None:
            return
        self.away_since = time.monotonic()
        logger.warning(
            "The store is unavailable (%s); holding pages in memory (at most %d) "
            "and trying again for up to %gs",
            error,
            self.cap,
            self.retry_timeout,
        )
        self._schedule()

    def hold(self, url: str, html: str, error: StoreUnavailable) -> None:
        """Keep a page the store could not take."""
        self.away(error)
        if len(self.pages) >= self.cap:
            self._lose(1, "the in-memory buffer is full")
            return
        self.pages.append((url, html))
        self._count("items/held_in_memory_count")

    def take(self) -> list[tuple[str, str]]:
        """The held pages, to process again (the store is back)."""
        pages = list(self.pages)
        self.pages.clear()
        return pages

    def gave_up(self) -> bool:
        """Whether the store stayed away too long: the held pages are then
        counted as lost (with an error), and the crawl should close."""
        if self.away_since is None or time.monotonic() - self.away_since < self.retry_timeout:
            return False
        if self.pages:
            self._lose(len(self.pages), f"the store stayed away for {self.retry_timeout:g}s")
            self.pages.clear()
        self.stop()
        return True

    def stop(self) -> None:
        if self._retry is not None and self._retry.running:
            self._retry.stop()

    def _schedule(self) -> None:
        self._retry = task.LoopingCall(self._try)
        self._retry.start(self._delay, now=False)

    def _try(self) -> None:
        try:
            self.store.get(TEMPLATE_VERSIONS, "")
        except StoreUnavailable:
            self._delay = min(2 * self._delay, MAX_RETRY_DELAY)
            self.stop()
            self._schedule()
            return
        logger.info("The store is back; processing the %d pages held meanwhile", len(self.pages))
        self.away_since, self._delay = None, FIRST_RETRY_DELAY
        self.stop()
        self._back()

    def _lose(self, pages: int, why: str) -> None:
        self.lost += pages
        logger.error("%d pages could not be kept: %s", pages, why)
        self._count("items/lost_count", pages)
