"""Page capture and the unsupervised mode's spider output.

:class:`WrapxCaptureMiddleware` (a downloader middleware) decides which
responses are *pages* worth learning from (:mod:`scrapy_wrapx.unsupervised.capture`).
It sits below ``HttpCompressionMiddleware`` so it measures decompressed
bodies, and after redirects, so it sees final responses only.

:class:`WrapxSeedsMiddleware` (a spider middleware) hands each captured page
to the crawl's :class:`~scrapy_wrapx.unsupervised.pages.PageProcessor`
(routed to its kind, kept as a seed, extracted, made an item or buffered)
and yields the resulting items after the spider's own output. Without the
capture middleware it applies the same capture rules itself. At the end of
the crawl it emits what is still buffered through one local ``data:``
request.

A request with ``meta["wrapx"] = False`` is never captured.
"""

from __future__ import annotations

import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse
from scrapy.utils.defer import maybe_deferred_to_future

from scrapy_wrapx.settings import check_settings, wrapx_setting
from scrapy_wrapx.signals import page_captured, template_ready
from scrapy_wrapx.store.base import StoreUnavailable
from scrapy_wrapx.unsupervised.capture import (
    CAPTURE_META,
    FLUSH_META,
    OPT_OUT_META,
    CapturePolicy,
    is_flush,
    no_output,
)
from scrapy_wrapx.unsupervised.flush import Flusher
from scrapy_wrapx.unsupervised.pages import PageProcessor, WorkerJob
from scrapy_wrapx.unsupervised.report import report_left_buffered
from scrapy_wrapx.unsupervised.state import CrawlState
from scrapy_wrapx.workers.pool import running_workers

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from typing_extensions import Self

    from scrapy_wrapx.unsupervised.templates import TemplateRecord

logger = logging.getLogger(__name__)


class WrapxCaptureMiddleware:
    """Downloader middleware: marks which responses are captured pages, and
    announces each one (:data:`~scrapy_wrapx.signals.page_captured`), so
    that its work in a page worker starts before the spider's callback."""

    def __init__(self, crawler: Crawler) -> None:
        if not wrapx_setting(crawler.settings, "WRAPX_SEEDS_ENABLED"):
            raise NotConfigured("WrapxCaptureMiddleware requires WRAPX_SEEDS_ENABLED=True")
        check_settings(crawler.settings)
        self.crawler = crawler
        self.policy = CapturePolicy(crawler.settings)
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        """Hold a request while too many captured pages wait for a page
        worker (``WRAPX_ITEMS_WORKER_BACKLOG``): it keeps its place among
        ``CONCURRENT_REQUESTS``, so Scrapy downloads no faster than the
        workers parse. The end-of-crawl flush, and a request kept out of
        the unsupervised mode (``meta["wrapx"] = False``), are never held."""
        if request.meta.get(FLUSH_META) or request.meta.get(OPT_OUT_META) is False:
            return
        workers = running_workers(self.crawler)
        wait = workers.room() if workers is not None else None
        if wait is not None:
            if self.stats is not None:
                self.stats.inc_value("wrapx/workers/backlog_wait_count")
            await maybe_deferred_to_future(wait)

    def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        if request.meta.get(FLUSH_META):
            return response
        reason = self.policy.reason_to_skip(response, request)
        request.meta[CAPTURE_META] = reason is None
        if self.stats is not None:
            if reason is None:
                self.stats.inc_value("wrapx/seeds/captured_count")
            else:
                self.stats.inc_value(f"wrapx/seeds/skipped_count/{reason}")
        if reason is None:
            self.crawler.signals.send_catch_log(
                page_captured, response=response, request=request, spider=self.crawler.spider
            )
        return response


class WrapxSeedsMiddleware:
    """Spider middleware: emits variant-data items of captured pages (see
    the module doc)."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not wrapx_setting(settings, "WRAPX_SEEDS_ENABLED"):
            raise NotConfigured("WrapxSeedsMiddleware requires WRAPX_SEEDS_ENABLED=True")
        check_settings(settings)
        self.crawler = crawler
        self.policy = CapturePolicy(settings)
        #: Pages sent to a worker as they were captured, before the spider
        #: saw them (a response that never reaches the spider drops out).
        self._early: weakref.WeakKeyDictionary[Response, WorkerJob] = weakref.WeakKeyDictionary()
        #: Scrapy runs the async output method (always from 2.19 on; before,
        #: only after an async callback or middleware): only its pages wait
        #: for a worker, so only then are pages sent at capture.
        self._output_async = False
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.template_ready, signal=template_ready)
        crawler.signals.connect(self.page_captured, signal=page_captured)
        for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(self.item_done, signal=signal)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_opened(self, spider: Spider) -> None:
        self.state = CrawlState.open(
            self.crawler, refetch=_refetch_request, store_back=self._store_back
        )
        self.pages = PageProcessor(self.state, self.policy)
        self.flush = Flusher(self.state, self.pages, self._crawl)

    def template_ready(self, kind_key: str, record: TemplateRecord, spider: Spider) -> None:
        self.state.templates.put(record)
        waited_for = False
        with self._store_errors():
            items = self.state.items
            if items is not None:
                items.template_arrived(kind_key, record.version)
            waited_for = items is not None and bool(items.flushable([kind_key]))
        if self.flush.idle and waited_for:
            # The crawl is waiting for this template to end: flush now rather
            # than at the engine's next idle check, seconds later.
            self.flush.schedule()

    def item_done(self, item: Any) -> None:
        """An item left the item pipelines: if it came from the buffer, its
        page may leave it."""
        if self.state.items is not None:
            with self._store_errors():  # the page stays buffered: at least once
                self.state.items.confirm(item)

    def _store_back(self) -> None:
        """The store answers again: process the pages held meanwhile."""
        self.flush.schedule()

    @contextlib.contextmanager
    def _store_errors(self) -> Iterator[None]:
        try:
            yield
        except StoreUnavailable as exc:
            self.state.offline.away(exc)

    def _hold(self, response: Response, error: StoreUnavailable) -> None:
        """Keep a page the store could not take, to process it once it is back."""
        if self._is_page(response):
            assert isinstance(response, TextResponse)
            self.state.offline.hold(response.url, response.text, error)
        else:
            self.state.offline.away(error)

    def _is_page(self, response: Response) -> bool:
        request = response.request
        return (
            isinstance(response, TextResponse)
            and request is not None
            and not is_flush(request)
            and self.policy.is_captured(response, request)
        )

    def page_captured(self, response: Response, request: Request) -> None:
        """Send the page to a worker now: by the time the spider is done
        with it, the worker has mostly answered, and the output need not
        wait (a wait costs the crawl's process more than it seems: Scrapy
        then switches between the tasks that handle the spider's output)."""
        if not self._output_async:
            return
        job = self.pages.send_to_worker(response, request)
        if job is not None:
            self._early[response] = job

    # Spider output ----------------------------------------------------------

    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        early = self._early.pop(response, None)
        if early is not None:  # sent at capture, but processed here after all
            early.release(self.state.workers())
        yield from result
        try:
            skipped = self._not_a_page(response)
            if skipped is not None:
                yield from skipped
            else:
                assert isinstance(response, TextResponse)
                yield from self.pages.page_output(response)
        except StoreUnavailable as exc:
            self._hold(response, exc)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        # The page went to a worker when it was captured, else it goes now,
        # to be parsed while the spider runs.
        self._output_async = True
        job = self._early.pop(response, None) or self.pages.send_to_worker(
            response, response.request
        )
        try:
            async for output in result:
                yield output
        except BaseException:
            if job is not None:
                job.release(self.state.workers())
            raise
        try:
            for output in await self._page_output_async(response, job):
                yield output
        except StoreUnavailable as exc:
            self._hold(response, exc)

    async def _page_output_async(self, response: Response, job: WorkerJob | None) -> Iterable[Any]:
        if is_flush(response.request) and job is None and self.state.workers() is not None:
            return await self.flush.output_async()
        skipped = self._not_a_page(response)
        if skipped is not None:
            if job is not None:
                job.release(self.state.workers())
            return skipped
        assert isinstance(response, TextResponse)
        if job is None:
            return self.pages.page_output(response)
        return await self.pages.worker_page_output(response, job)

    def _not_a_page(self, response: Response) -> Iterable[Any] | None:
        """None if ``response`` is a page to process, else what to output
        instead (the flush request's items, or buffered pages now ready)."""
        request = response.request
        if request is None:
            return []
        if is_flush(request):
            return self.flush.output()
        self.flush.idle = False
        if not self.policy.is_captured(response, request):
            items = self.state.items
            return items.ready() if items is not None else []
        if not isinstance(response, TextResponse):
            return []
        return None

    # End of the crawl -------------------------------------------------------

    def spider_idle(self, spider: Spider) -> None:
        """Emit what is still buffered before the spider closes (see
        :mod:`scrapy_wrapx.unsupervised.flush`)."""
        self.flush.on_idle()

    def spider_closed(self, spider: Spider) -> None:
        """Say what stays buffered for a later crawl, and why."""
        self.state.offline.stop()
        if self.state.items is not None:
            with self._store_errors():
                report_left_buffered(self.state)

    def _crawl(self, request: Request) -> None:
        engine = self.crawler.engine
        if engine is not None:
            engine.crawl(request)


def _refetch_request(url: str) -> Request:
    return Request(url, callback=no_output, dont_filter=True)
