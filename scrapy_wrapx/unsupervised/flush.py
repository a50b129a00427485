"""The end of a crawl: emitting what is still buffered, and waiting for a
store that went away (or closing for want of it).

Items can only leave through the spider output, so buffered pages are
emitted in the output of one local ``data:`` request (the flush request),
scheduled when the spider is idle — or earlier, when the template a waiting
crawl needs arrives, or when a store that went away answers again. One flush
request emits at most ``WRAPX_ITEMS_FLUSH_PAGES`` pages; once its output is
out, the next one is scheduled, until the buffer has nothing more to emit.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.http import HtmlResponse

from scrapy_wrapx.store.base import StoreUnavailable
from scrapy_wrapx.unsupervised.capture import FLUSH_META, OPT_OUT_META, no_output
from scrapy_wrapx.unsupervised.offline import FINISH_REASON

if TYPE_CHECKING:
    from twisted.python.failure import Failure

    from scrapy_wrapx.unsupervised.pages import PageProcessor
    from scrapy_wrapx.unsupervised.state import CrawlState

logger = logging.getLogger(__name__)

#: The flush request's URL: answered by the seeds middleware, never fetched
#: from the network.
FLUSH_URL = "data:text/plain,wrapx-flush"


class Flusher:
    """Schedules the flush request and makes its output."""

    def __init__(
        self, state: CrawlState, pages: PageProcessor, crawl: Callable[[Request], None]
    ) -> None:
        self.state = state
        self.pages = pages
        self._crawl = crawl
        #: A flush request is on its way.
        self.flushing = False
        #: True from a ``spider_idle`` until the next page: the crawl would
        #: end but for buffered pages and running inductions.
        self.idle = False

    def schedule(self) -> None:
        """Send the flush request (once at a time)."""
        if self.flushing:
            return
        self.flushing = True
        self._crawl(
            Request(
                FLUSH_URL,
                callback=no_output,
                errback=self._failed,
                dont_filter=True,
                priority=1000,
                meta={FLUSH_META: True, OPT_OUT_META: False},
            )
        )

    def on_idle(self) -> None:
        """The spider is idle: raise :class:`DontCloseSpider` while there is
        something to emit or a store to wait for, :class:`CloseSpider` once
        pages could not be kept."""
        if self.flushing:
            raise DontCloseSpider
        offline = self.state.offline
        if offline.gave_up():
            raise CloseSpider(FINISH_REASON)
        if offline.pages or offline.away_since is not None:
            raise DontCloseSpider
        if self.state.items is None:
            return
        self.idle = True
        try:
            pending = self.state.pending()
            for kind_key in pending:
                self.state.templates.expire(kind_key)
            flushable = self.state.items.flushable(pending)
        except StoreUnavailable as exc:
            offline.away(exc)
            raise DontCloseSpider from None
        if flushable:
            self.schedule()
            raise DontCloseSpider
        if offline.lost:
            raise CloseSpider(FINISH_REASON)

    def output(self) -> Iterator[Any]:
        """The flush request's output, extracted here."""
        self.flushing = False
        yield from self._replayed()
        if self.state.items is not None:
            yield from _counted(self.state.items.flush(self.state.pending()))
            yield from self._next()

    async def output_async(self) -> Iterable[Any]:
        """:meth:`output` with the pages extracted in the workers."""
        self.flushing = False
        replayed = list(self._replayed())
        if self.state.items is None:
            return replayed
        batches = self.state.items.flush_batches(self.state.pending())
        output = _counted(await self.pages.batches_output(batches))
        return itertools.chain(replayed, output, self._next())

    def _next(self) -> Iterator[Any]:
        """Once a flush's output is out, schedule the next flush if that one
        stopped at ``WRAPX_ITEMS_FLUSH_PAGES`` (at the end of the output, so
        that one batch of pages at a time is in memory)."""
        items = self.state.items
        if items is not None and items.more_to_flush:
            items.more_to_flush = False
            self.schedule()
        yield from ()

    def _replayed(self) -> Iterator[Any]:
        """The output of the pages held while the store was away."""
        for url, html in self.state.offline.take():
            response = HtmlResponse(
                url, body=html.encode("utf-8"), encoding="utf-8", request=Request(url)
            )
            try:
                yield from self.pages.page_output(response)
            except StoreUnavailable as exc:
                self.state.offline.hold(url, html, exc)

    def _failed(self, failure: Failure) -> None:
        self.flushing = False
        logger.error("Could not flush buffered pages: %s", failure.value)


def _counted(flushed: Iterable[Any]) -> Iterator[Any]:
    """The flush's output, logged once it is all out."""
    count = 0
    for output in flushed:
        count += 1
        yield output
    if count:
        logger.info("Flushed %d buffered pages as variant-data items", count)
