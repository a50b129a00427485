"""Page capture and routing: the entry of the unsupervised mode.

:class:`WrapxCaptureMiddleware` (a downloader middleware) decides which
responses are *pages* worth learning from: HTML only
(``WRAPX_SEEDS_CONTENT_TYPES``) and not oversized
(``WRAPX_SEEDS_MAX_BODY_SIZE``). It sits below ``HttpCompressionMiddleware``
so it measures decompressed bodies, and after redirects, so it sees final
responses only. It marks its decision in ``request.meta["wrapx_capture"]``.

:class:`WrapxSeedsMiddleware` (a spider middleware) routes each captured
page to its page kind (:mod:`scrapy_wrapx.unsupervised.kinds`), stores the first
``WRAPX_SEED_PAGES`` pages of a kind as its seeds (the induction extension
induces the kind's template from them), and runs the variant-data pipeline
(:mod:`scrapy_wrapx.pipelines`), yielding its items after the spider's own
output. Without the capture middleware it applies the same capture rules
itself. The page is parsed once: the tree is built on ``response.selector``'s
lxml document, which the spider's own selectors reuse.

A request with ``meta["wrapx"] = False`` is never captured.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.http import TextResponse
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.misc import load_object

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.middlewares._responses import is_html, response_tree
from scrapy_wrapx.pipelines import BufferedBatch, VariantPipeline
from scrapy_wrapx.settings import wrapx_setting
from scrapy_wrapx.signals import page_captured, seed_collected, template_ready
from scrapy_wrapx.store._crawler import crawler_store
from scrapy_wrapx.unsupervised.kinds import (
    KindIndex,
    PageKind,
    PageSignature,
    domain_of,
    kind_domain,
    new_kind,
    page_signature,
    url_pattern,
)
from scrapy_wrapx.unsupervised.templates import (
    KINDS,
    SEEDS,
    TemplateCache,
    TemplateRecord,
    seeds_key,
)
from scrapy_wrapx.workers.pool import WorkerPage, WorkerUnavailable, crawler_workers

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.internet.defer import Deferred
    from twisted.python.failure import Failure
    from typing_extensions import Self

    from scrapy_wrapx.store import WrapxStore
    from scrapy_wrapx.template import Extraction
    from scrapy_wrapx.workers.pool import WorkerPool

logger = logging.getLogger(__name__)

#: ``request.meta`` key holding the capture decision (True/False).
CAPTURE_META = "wrapx_capture"
#: ``request.meta`` key a user sets to False to keep a request out.
OPT_OUT_META = "wrapx"
#: ``request.meta`` key of the end-of-crawl flush request.
FLUSH_META = "wrapx_flush"


class _CapturePolicy:
    """The capture rules, shared by both middlewares."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
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
        if not is_html(response):
            return "non_html"
        content_type = (response.headers.get(b"Content-Type") or b"").split(b";")[0]
        content_type = content_type.strip().lower()
        if content_type and self.content_types and content_type not in self.content_types:
            return "non_html"
        if self.max_size and len(response.body) > self.max_size:
            return "too_large"
        return None


class WrapxCaptureMiddleware:
    """Downloader middleware: marks which responses are captured pages, and
    announces each one (:data:`~scrapy_wrapx.signals.page_captured`), so
    that its work in a page worker starts before the spider's callback."""

    def __init__(self, crawler: Crawler) -> None:
        if not wrapx_setting(crawler.settings, "WRAPX_SEEDS_ENABLED"):
            raise NotConfigured("WrapxCaptureMiddleware requires WRAPX_SEEDS_ENABLED=True")
        self.crawler = crawler
        self.policy = _CapturePolicy(crawler)
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

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
    """Spider middleware: routes captured pages to kinds, collects seeds and
    emits variant-data items (see the module doc)."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not wrapx_setting(settings, "WRAPX_SEEDS_ENABLED"):
            raise NotConfigured("WrapxSeedsMiddleware requires WRAPX_SEEDS_ENABLED=True")
        self.crawler = crawler
        self.stats = crawler.stats
        self.policy = _CapturePolicy(crawler)
        self.seed_pages = wrapx_setting(settings, "WRAPX_SEED_PAGES")
        if self.seed_pages < 1:
            raise NotConfigured(f"WRAPX_SEED_PAGES must be >= 1, not {self.seed_pages!r}")
        self.index = KindIndex(
            threshold=wrapx_setting(settings, "WRAPX_KINDS_THRESHOLD"),
            url_weight=wrapx_setting(settings, "WRAPX_KINDS_URL_WEIGHT"),
        )
        self.items_enabled = wrapx_setting(settings, "WRAPX_ITEMS_ENABLED")
        item_class = wrapx_setting(settings, "WRAPX_ITEMS_CLASS")
        self.item_class = load_object(item_class) if isinstance(item_class, str) else item_class
        self.buffer_pages = wrapx_setting(settings, "WRAPX_ITEMS_BUFFER_PAGES")
        self.poll = wrapx_setting(settings, "WRAPX_ITEMS_TEMPLATE_POLL")
        self.store: WrapxStore | None = None
        self.templates: TemplateCache | None = None
        self.pipeline: VariantPipeline | None = None
        self.workers: WorkerPool | None = None
        self._workers_tried = False
        #: Pages sent to a worker as they were captured, before the spider
        #: saw them (a response that never reaches the spider drops out).
        self._early: weakref.WeakKeyDictionary[Response, _WorkerJob] = weakref.WeakKeyDictionary()
        #: Scrapy runs the async output method (always from 2.19 on; before,
        #: only after an async callback or middleware): only its pages wait
        #: for a worker, so only then are pages sent at capture.
        self._output_async = False
        #: The kind that pages of a (domain, URL pattern) were routed to last.
        self._expected: dict[tuple[str, str], str] = {}
        self._domains: set[str] = set()
        self._seed_counts: dict[str, int] = {}
        self._flushing = False
        #: True from a ``spider_idle`` until the next page: the crawl would
        #: end but for buffered pages and running inductions.
        self._idle = False
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.template_ready, signal=template_ready)
        crawler.signals.connect(self.page_captured, signal=page_captured)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_opened(self, spider: Spider) -> None:
        self.store = crawler_store(self.crawler)
        self.templates = TemplateCache(self.store, poll_interval=self.poll)
        if self.items_enabled:
            self.pipeline = VariantPipeline(
                self.store,
                self.templates,
                item_class=self.item_class,
                buffer_pages=self.buffer_pages,
                seed_pages=self.seed_pages,
                stats=self.stats,
                send=self._send,
                refetch=self._refetch_request,
            )

    def template_ready(self, kind_key: str, record: TemplateRecord, spider: Spider) -> None:
        if self.templates is None:
            return
        self.templates.put(record)
        if self._idle and not self._flushing and kind_key in self._own_pending():
            # The crawl is waiting for this template to end: flush now rather
            # than at the engine's next idle check, seconds later.
            self._schedule_flush()

    def page_captured(self, response: Response, request: Request) -> None:
        """Send the page to a worker now: by the time the spider is done
        with it, the worker has mostly answered, and the output need not
        wait (a wait costs the crawl's process more than it seems: Scrapy
        then switches between the tasks that handle the spider's output)."""
        if not self._output_async:
            return
        job = self._parse_in_worker(response, request)
        if job is not None:
            self._early[response] = job

    # Spider output ----------------------------------------------------------

    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        early = self._early.pop(response, None)
        if early is not None:  # sent at capture, but processed here after all
            early.parsing.addCallback(self._release)
        yield from result
        yield from self._page_output(response)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        # The page went to a worker when it was captured, else it goes now,
        # to be parsed while the spider runs.
        self._output_async = True
        job = self._early.pop(response, None) or self._parse_in_worker(response, response.request)
        try:
            async for output in result:
                yield output
        except BaseException:
            if job is not None:
                job.parsing.addCallback(self._release)
            raise
        if job is not None:
            outputs = await self._worker_page_output(response, job)
        elif _is_flush(response) and self._workers() is not None:
            outputs = await self._flush_output_async()
        else:
            outputs = self._page_output(response)
        for output in outputs:
            yield output

    def _captured(self, response: Response) -> list[Any] | None:
        """None if ``response`` is a page to process, else what to output
        instead (the flush request's items, or buffered pages now ready)."""
        if self.store is None or response.request is None:
            return []
        meta = response.request.meta
        if meta.get(FLUSH_META):
            return list(self._flush_output())
        self._idle = False
        captured = meta.get(CAPTURE_META)
        if captured is None:  # the capture middleware is not installed
            captured = self.policy.reason_to_skip(response, response.request) is None
        if not captured:
            return list(self.pipeline.ready()) if self.pipeline is not None else []
        if not isinstance(response, TextResponse):
            return []
        return None

    def _page_output(self, response: Response) -> list[Any]:
        skipped = self._captured(response)
        if skipped is not None:
            return skipped
        assert isinstance(response, TextResponse)
        try:
            tree = response_tree(response)
        except ValueError as exc:
            return self._unparsable(response, exc)
        kind = self._route_page(page_signature(tree, response.url), response)
        if self.pipeline is None:
            return []
        return self.pipeline.process_page(kind.key, tree, response.url, response.text)

    # Page workers -----------------------------------------------------------

    def _workers(self) -> WorkerPool | None:
        """The running page workers, spawned on the first page that needs
        them (so components used without a reactor spawn none)."""
        if not self._workers_tried:
            self._workers_tried = True
            self.workers = crawler_workers(self.crawler)
        return self.workers if self.workers is not None and self.workers.running else None

    def _parse_in_worker(self, response: Response, request: Request | None) -> _WorkerJob | None:
        """Send a page to a worker, with the template of the kind its URL
        pattern's pages were routed to last, so most pages need one round
        trip; None when it is not a page to process or there are no workers."""
        workers = self._workers()
        if workers is None or self.store is None or self.templates is None:
            return None
        if request is None or not isinstance(response, TextResponse):
            return None
        meta = request.meta
        if meta.get(FLUSH_META) or meta.get(CAPTURE_META) is False:
            return None
        if meta.get(CAPTURE_META) is None and self.policy.reason_to_skip(response, request):
            return None
        url = response.url
        domain, pattern = domain_of(url), url_pattern(url)
        expected = self._expected.get((domain, pattern))
        record = self.templates.get(expected) if expected is not None else None
        if record is None:
            return _WorkerJob(workers.parse(url, response.text), domain, pattern, None)
        parsing = workers.parse(url, response.text, record.template)
        return _WorkerJob(parsing, domain, pattern, record.kind_key)

    async def _worker_page_output(self, response: Response, job: _WorkerJob) -> list[Any]:
        """:meth:`_page_output` with the page parsed and extracted in a worker."""
        skipped = self._captured(response)
        if skipped is not None:
            job.parsing.addCallback(self._release)
            return skipped
        assert isinstance(response, TextResponse) and self.workers is not None
        try:
            page = await job.page()
        except WorkerUnavailable:
            return self._page_output(response)
        except ValueError as exc:
            return self._unparsable(response, exc)
        url, html = response.url, response.text
        if page.paths is None:
            # It matched the template of the kind expected for its URL shape.
            assert job.expected is not None
            kind_key = job.expected
            self._inc("kinds/pages_count")
        else:
            signature = PageSignature(url, job.domain, job.pattern, page.paths)
            kind_key = self._route_page(signature, response).key
            self._expected[job.domain, job.pattern] = kind_key
        assert self.templates is not None
        record = self.templates.get(kind_key)
        if self.pipeline is None or record is None:
            self.workers.release(page)
            if self.pipeline is None:
                return []
            output = self.pipeline.process_extraction(kind_key, None, url, html, None, ready=False)
        else:
            if page.extraction is not None and page.template is record.template:
                extraction = page.extraction
            else:
                try:
                    extraction = await maybe_deferred_to_future(
                        self.workers.extract(page, record.template)
                        if page.extraction is None
                        else self.workers.extract_html(url, html, record.template)
                    )
                except WorkerUnavailable:
                    try:
                        extraction = extract(record.template, response_tree(response), url=url)
                    except ValueError as exc:
                        return self._unparsable(response, exc)
            output = self.pipeline.process_extraction(
                kind_key, record, url, html, extraction, ready=False
            )
        ready = await self._batches_output(self.pipeline.ready_batches())
        return ready + output

    async def _batches_output(self, batches: list[BufferedBatch]) -> list[Any]:
        """Items of buffered pages, extracted in the workers."""
        assert self.pipeline is not None and self.workers is not None
        output = []
        for batch in batches:
            template = batch.record.template
            requests = [
                self.workers.extract_html(e["url"], e["html"], template) for e in batch.pages
            ]
            extractions: list[Extraction | None] = []
            for entry, request in zip(batch.pages, requests, strict=True):
                try:
                    extraction: Extraction = await maybe_deferred_to_future(request)
                    extractions.append(extraction)
                except WorkerUnavailable:
                    extractions.append(self.pipeline.extract_entry(batch, entry))
                except ValueError as exc:
                    logger.warning("Dropping buffered page %s: %s", entry["url"], exc)
                    extractions.append(None)
            output.extend(self.pipeline.finish_batch(batch, extractions))
        return output

    async def _flush_output_async(self) -> list[Any]:
        """:meth:`_flush_output` with the pages extracted in the workers."""
        self._flushing = False
        if self.pipeline is None:
            return []
        output = await self._batches_output(self.pipeline.flush_batches(self._own_pending()))
        self._log_flushed(len(output))
        return output

    def _release(self, page: WorkerPage | Exception) -> None:
        if self.workers is not None and isinstance(page, WorkerPage):
            self.workers.release(page)

    def _unparsable(self, response: Response, exc: ValueError) -> list[Any]:
        logger.warning(
            "Skipping page %s: %s", response.url, exc, extra={"spider": self.crawler.spider}
        )
        self._inc("seeds/unparsable_count")
        return []

    def _route_page(self, signature: PageSignature, response: Response) -> PageKind:
        """Route a page to its kind, and keep it as a seed while the kind
        has no template."""
        kind = self._route(signature)
        self._inc("kinds/pages_count")
        assert self.templates is not None
        if self.templates.get(kind.key) is None:
            self._collect_seed(kind, response)
        return kind

    # Routing ----------------------------------------------------------------

    def _route(self, signature: PageSignature) -> PageKind:
        """The page's kind, agreeing with other processes through the store:
        kinds unknown here are read from the store before a new one is
        founded, and after founding one the first fitting kind in the store's
        order wins, so concurrent founders converge."""
        assert self.store is not None
        domain = signature.domain
        if domain not in self._domains:
            self._domains.add(domain)
            self._load_kinds(domain)
        kind, _ = self.index.match(signature)
        if kind is None:
            self._load_kinds(domain)
            kind, _ = self.index.match(signature)
        if kind is None:
            founded = new_kind(signature)
            self.store.append(KINDS, domain, founded.to_dict())
            self._load_kinds(domain)
            kind = next(
                (
                    k
                    for k in self.index.kinds(domain)
                    if k.score(signature, self.index.url_weight) >= self.index.threshold
                ),
                founded,
            )
            self.index.add(kind)
            if kind is founded or kind.id == founded.id:
                self._inc("kinds/created_count")
                logger.info(
                    "New page kind %s (URL pattern %s, %d tag paths), founded by %s",
                    kind.key,
                    kind.url_pattern,
                    len(kind.paths),
                    signature.url,
                    extra={"spider": self.crawler.spider},
                )
        else:
            kind.remember(signature.paths)
        return kind

    def _load_kinds(self, domain: str) -> None:
        assert self.store is not None
        for data in self.store.get_list(KINDS, domain):
            try:
                kind = PageKind.from_dict(data)
            except ValueError as exc:
                logger.warning(
                    "Skipping a stored page kind of %s: %s",
                    domain,
                    exc,
                    extra={"spider": self.crawler.spider},
                )
                continue
            if kind.domain == domain:
                self.index.add(kind)

    # Seeds ------------------------------------------------------------------

    def _collect_seed(self, kind: PageKind, response: Response) -> None:
        assert self.store is not None
        key = seeds_key(kind.key, 1)
        count = self._seed_counts.get(key)
        if count is None:
            count = self.store.list_length(SEEDS, key)
        if count >= self.seed_pages:
            self._seed_counts[key] = count
            return
        count = self.store.append(SEEDS, key, {"url": response.url, "html": response.text})
        self._seed_counts[key] = count
        self._inc("seeds/collected_count")
        logger.debug(
            "Seed page %d/%d of kind %s: %s",
            count,
            self.seed_pages,
            kind.key,
            response.url,
            extra={"spider": self.crawler.spider},
        )
        self._send(seed_collected, kind_key=kind.key, version=1, count=count)

    # End of the crawl -------------------------------------------------------

    def spider_idle(self, spider: Spider) -> None:
        """Emit what is still buffered before the spider closes, through one
        ``data:`` request whose response this middleware answers."""
        if self.pipeline is None or self._flushing:
            if self._flushing:
                raise DontCloseSpider
            return
        assert self.templates is not None
        self._idle = True
        if not any(self.templates.get(kind_key) for kind_key in self._own_pending()):
            return
        self._schedule_flush()
        raise DontCloseSpider

    def _schedule_flush(self) -> None:
        self._flushing = True
        request = Request(
            "data:text/plain,wrapx-flush",
            callback=_no_output,
            errback=self._flush_failed,
            dont_filter=True,
            priority=1000,
            meta={FLUSH_META: True, OPT_OUT_META: False},
        )
        assert self.crawler.engine is not None
        self.crawler.engine.crawl(request)

    def _flush_output(self) -> Iterator[Any]:
        self._flushing = False
        if self.pipeline is None:
            return
        count = 0
        for output in self.pipeline.flush(self._own_pending()):
            count += 1
            yield output
        self._log_flushed(count)

    def _log_flushed(self, count: int) -> None:
        if count:
            logger.info(
                "Flushed %d buffered pages as variant-data items",
                count,
                extra={"spider": self.crawler.spider},
            )

    def _flush_failed(self, failure: Any) -> None:
        self._flushing = False
        logger.error(
            "Could not flush buffered pages: %s",
            failure.value,
            extra={"spider": self.crawler.spider},
        )

    def _own_pending(self) -> list[str]:
        """Kinds with buffered pages on the sites this crawl visits (the store
        may be shared with spiders of other sites)."""
        assert self.pipeline is not None
        return [k for k in self.pipeline.pending_kinds() if kind_domain(k) in self._domains]

    def _refetch_request(self, url: str) -> Request:
        return Request(url, callback=_no_output, dont_filter=True)

    # Helpers ----------------------------------------------------------------

    def _send(self, signal: object, **kwargs: Any) -> None:
        self.crawler.signals.send_catch_log(signal, spider=self.crawler.spider, **kwargs)

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"wrapx/{key}")


class _WorkerJob:
    """A page sent to a worker, the URL shape it was sent for, and the kind
    whose template it was sent with (the kind pages of that shape were
    routed to last), if any."""

    def __init__(
        self, parsing: Deferred[WorkerPage], domain: str, pattern: str, expected: str | None
    ) -> None:
        #: Fires with the page, or with the exception instead of failing: a
        #: job whose response never reaches the spider is dropped unawaited,
        #: and a failed Deferred would be logged as an unhandled error.
        self.parsing: Deferred[WorkerPage | Exception] = parsing.addErrback(_exception)
        self.domain = domain
        self.pattern = pattern
        self.expected = expected

    async def page(self) -> WorkerPage:
        """The parsed page; raises what the worker failed with."""
        outcome = await maybe_deferred_to_future(self.parsing)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome


def _exception(failure: Failure) -> Exception:
    assert isinstance(failure.value, Exception)
    return failure.value


def _is_flush(response: Response) -> bool:
    return response.request is not None and bool(response.request.meta.get(FLUSH_META))


def _no_output(response: Response) -> None:
    """Callback of the flush and re-download requests: their items come
    from :class:`WrapxSeedsMiddleware`, not from the spider."""
    return None
