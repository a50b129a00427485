"""What happens to one captured page: routed to its kind, kept as a seed
while the kind has no template, extracted with the kind's template and
turned into an item (or buffered) — in the crawl's process, or with the
parsing and extraction in a page worker.

A page goes to a worker with the template of the kind its URL shape was
routed to last, so most pages need one round trip: a page that matches that
template is of that kind, and its reply carries no tag paths to route by.
A worker that fails a request leaves the work to the crawl's process: no
page is lost to a worker.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy.http import TextResponse
from scrapy.utils.defer import maybe_deferred_to_future

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.unsupervised.capture import CAPTURE_META, FLUSH_META
from scrapy_wrapx.unsupervised.kinds import (
    PageKind,
    PageSignature,
    domain_of,
    page_signature,
    url_pattern,
)
from scrapy_wrapx.unsupervised.responses import response_tree, utf8_body
from scrapy_wrapx.workers.pool import TreeMissing, WorkerPage, WorkerUnavailable

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response
    from twisted.internet.defer import Deferred
    from twisted.python.failure import Failure

    from scrapy_wrapx.template import Extraction
    from scrapy_wrapx.unsupervised.capture import CapturePolicy
    from scrapy_wrapx.unsupervised.items import BufferedBatch, VariantItems
    from scrapy_wrapx.unsupervised.state import CrawlState
    from scrapy_wrapx.unsupervised.templates import TemplateHandle
    from scrapy_wrapx.workers.pool import WorkerPool

logger = logging.getLogger(__name__)


class PageProcessor:
    """Turns captured pages into output (items, re-download requests) with
    the crawl's :class:`~scrapy_wrapx.unsupervised.state.CrawlState`."""

    def __init__(self, state: CrawlState, policy: CapturePolicy) -> None:
        self.state = state
        self.policy = policy

    # In the crawl's process -------------------------------------------------

    def page_output(self, response: TextResponse) -> Iterable[Any]:
        """The output of one captured page, processed here."""
        try:
            tree = response_tree(response)
        except ValueError as exc:
            return self.unparsable(response, exc)
        kind = self.route_page(page_signature(tree, response.url), response)
        items = self.state.items
        if items is None:
            return []
        return items.process_page(kind.key, tree, response.url, response.text)

    def route_page(self, signature: PageSignature, response: Response) -> PageKind:
        """Route a page to its kind, and keep it as a seed while the kind
        has no template."""
        kind = self.state.router.route(signature)
        if self.state.templates.get(kind.key) is None:
            self.state.seeds.collect(kind.key, 1, response.url, response.text)
        return kind

    def unparsable(self, response: Response, exc: ValueError) -> list[Any]:
        logger.warning("Skipping page %s: %s", response.url, exc)
        self.state.count("seeds/unparsable_count")
        return []

    # In a page worker -------------------------------------------------------

    def send_to_worker(self, response: Response, request: Request | None) -> WorkerJob | None:
        """Send a page to a worker, with the template of the kind its URL
        pattern's pages were routed to last; None when it is not a page to
        process or there are no workers."""
        workers = self.state.workers()
        if workers is None or request is None or not isinstance(response, TextResponse):
            return None
        meta = request.meta
        if meta.get(FLUSH_META) or meta.get(CAPTURE_META) is False:
            return None
        if meta.get(CAPTURE_META) is None and self.policy.reason_to_skip(response, request):
            return None
        url = response.url
        domain, pattern = domain_of(url), url_pattern(url)
        expected = self.state.router.expected(domain, pattern)
        handle = self.state.templates.handle(expected) if expected is not None else None
        html = utf8_body(response)
        if handle is None:
            return WorkerJob(workers.parse(url, html), domain, pattern, None)
        parsing = workers.parse(url, html, handle)
        return WorkerJob(parsing, domain, pattern, handle.kind_key)

    async def worker_page_output(self, response: TextResponse, job: WorkerJob) -> Iterable[Any]:
        """:meth:`page_output` with the page parsed and extracted in a worker."""
        workers = self.state.workers()
        if workers is None:
            job.release(None)
            return self.page_output(response)
        try:
            page = await job.page()
        except WorkerUnavailable:
            return self.page_output(response)
        except ValueError as exc:
            return self.unparsable(response, exc)
        kind_key = self._kind_of(response, job, page)
        handle = self.state.templates.handle(kind_key)
        items = self.state.items
        if items is None or handle is None:
            workers.release(page)
            if items is None:
                return []
            url, html = response.url, response.text
            return await self._with_ready(items.process_extraction(kind_key, None, url, html, None))
        try:
            extraction = await self._extraction(workers, response, page, handle)
        except ValueError as exc:
            return self.unparsable(response, exc)
        output = items.process_extraction(kind_key, handle, response.url, response.text, extraction)
        return await self._with_ready(output)

    def _kind_of(self, response: Response, job: WorkerJob, page: WorkerPage) -> str:
        if page.paths is None:
            # It matched the template of the kind expected for its URL shape.
            self.state.count("kinds/pages_count")
            return job.expected or ""
        signature = PageSignature(response.url, job.domain, job.pattern, page.paths)
        return self.route_page(signature, response).key

    async def _extraction(
        self, workers: WorkerPool, response: TextResponse, page: WorkerPage, handle: TemplateHandle
    ) -> Extraction:
        """The page's extraction with ``handle``'s template: the worker's own
        if it used that template, else a new one (in the worker if it can)."""
        if page.extraction is not None and page.template_key == handle.key:
            return page.extraction
        try:
            if page.extraction is None:
                try:
                    return await maybe_deferred_to_future(workers.extract(page, handle))
                except TreeMissing:
                    pass  # parsed again, in a worker still
            return await maybe_deferred_to_future(
                workers.extract_html(response.url, response.text, handle)
            )
        except WorkerUnavailable:
            template = self.state.templates.record(handle).template
            return extract(template, response_tree(response), url=response.url)

    async def _with_ready(self, output: list[Any]) -> Iterator[Any]:
        """``output`` after the items of buffered pages that became ready."""
        items = self.state.items
        ready = await self.batches_output(items.ready_batches() if items is not None else [])
        return itertools.chain(ready, output)

    async def batches_output(self, batches: list[BufferedBatch]) -> Iterator[Any]:
        """Items of buffered pages, extracted in the workers (each batch's
        pages sent at once, so the workers never wait for the crawl); the
        pages leave the buffer once their items are taken from the iterator."""
        items, workers = self.state.items, self.state.workers()
        if items is None:
            return iter(())
        extracted = []
        for batch in batches:
            if workers is None:
                extractions = [items.extract_entry(batch, entry) for entry in batch.pages]
            else:
                # Sent by its handle where that is the batch's template: not
                # serialized again for the workers.
                handle = self.state.templates.handle(batch.kind_key)
                source = (
                    handle
                    if handle is not None and handle.key == batch.record.key
                    else batch.record.template
                )
                requests = [workers.extract_html(e["url"], e["html"], source) for e in batch.pages]
                extractions = [
                    await _buffered_extraction(items, batch, entry, request)
                    for entry, request in zip(batch.pages, requests, strict=True)
                ]
            extracted.append((batch, extractions))
        return _finished(items, extracted)


def _finished(
    items: VariantItems, extracted: list[tuple[BufferedBatch, list[Extraction | None]]]
) -> Iterator[Any]:
    for batch, extractions in extracted:
        yield from items.finish_batch(batch, extractions)
        items.acknowledge([batch])


async def _buffered_extraction(
    items: VariantItems,
    batch: BufferedBatch,
    entry: dict[str, Any],
    request: Deferred[Extraction],
) -> Extraction | None:
    """A buffered page's extraction from a worker, else from here; None
    when it cannot be parsed."""
    try:
        extraction: Extraction = await maybe_deferred_to_future(request)
    except WorkerUnavailable:
        return items.extract_entry(batch, entry)
    except ValueError as exc:
        logger.warning("Dropping buffered page %s: %s", entry["url"], exc)
        return None
    return extraction


class WorkerJob:
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

    def release(self, workers: WorkerPool | None) -> None:
        """Free what the worker keeps of the page, once it has answered."""

        def release(page: WorkerPage | Exception) -> None:
            if workers is not None and isinstance(page, WorkerPage):
                workers.release(page)

        self.parsing.addCallback(release)


def _exception(failure: Failure) -> Exception:
    assert isinstance(failure.value, Exception)
    return failure.value
