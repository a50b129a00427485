"""The induction extension: turns a kind's seed pages into its template.

Induction is CPU work that takes from a fraction of a second to a few
seconds, so it runs off the reactor thread: in a page worker process
(``WRAPX_ITEMS_WORKERS``, started by the seeds middleware) when there is one,
else in the reactor's thread pool
(:func:`twisted.internet.threads.deferToThread`); the crawl goes on
downloading and extracting meanwhile. Progress is logged when an induction
starts, every ``WRAPX_INDUCTION_PROGRESS_INTERVAL`` seconds while any runs,
and in one line per induced or re-induced template.

**When.** A kind's first template is induced once ``WRAPX_SEED_PAGES`` of its
pages are stored. It is *re-induced* (DESIGN.md, "Wrapper verification and
repair") when, among the last ``WRAPX_INDUCTION_WINDOW`` pages of the kind,
the share that failed to match passes ``WRAPX_INDUCTION_REINDUCE_SHARE``: the
failing pages are the seeds of the new version, and the old template is
passed as ``previous`` so the fields keep their names. A new kind whose URL
pattern is an older kind's (``/v2/book/*.html`` after ``/book/*.html``) is
induced with that kind's template as ``previous`` too: it is most likely the
same template after a redesign that moved every node.

**Several processes.** Before inducing, a process *claims* the work in the
store (an atomic ``add``); the others wait for the template to appear in
the store, and take over a dead claim (:mod:`scrapy_wrapx.unsupervised.claims`:
its owner is a process of this host that ended, its time is invalid, or it
is older than ``WRAPX_INDUCTION_CLAIM_TIMEOUT`` seconds). A crawl that
would end while another process induces a template it awaits stays open
until the template is there (its buffered pages then become items), the
claim is dropped (it induces the template itself) or the claim goes stale.

At the end of a crawl, kinds with fewer seeds than ``WRAPX_SEED_PAGES`` but at
least ``WRAPX_INDUCTION_MIN_PAGES`` are induced from what there is, and the
spider is kept open until running inductions finish.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from twisted.internet import task, threads

from scrapy_wrapx.induction import MAX_SEEDS
from scrapy_wrapx.induction._pagenames import load_pins, pins_for
from scrapy_wrapx.settings import check_settings, wrapx_setting
from scrapy_wrapx.signals import page_extracted, seed_collected, template_ready
from scrapy_wrapx.store._crawler import crawler_store
from scrapy_wrapx.store.base import StoreUnavailable
from scrapy_wrapx.targets import parse_targets
from scrapy_wrapx.unsupervised.claims import dead_claim_reason, new_claim
from scrapy_wrapx.unsupervised.kinds import KindIndex, PageKind, domain_of, kind_domain
from scrapy_wrapx.unsupervised.templates import (
    CLAIMS,
    KINDS,
    PENDING,
    SEEDS,
    TemplateRecord,
    load_template,
    save_template,
    seeds_key,
)
from scrapy_wrapx.workers.pool import WorkerUnavailable, running_workers
from scrapy_wrapx.workers.worker import (
    TRIM_EVERY,
    InducedTemplate,
    Naming,
    induce_pages,
    is_seed_page,
    release_free_memory,
)

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.internet.defer import Deferred
    from twisted.python.failure import Failure
    from typing_extensions import Self

    from scrapy_wrapx.store import WrapxStore
    from scrapy_wrapx.template import Template

logger = logging.getLogger(__name__)

#: Kinds whose recent outcomes are kept (the ones with pages last): a crawl
#: of many sites moves on from a site's kinds, and a kind that comes back
#: starts its window again.
MAX_WATCHED_KINDS = 256


def induce_from_pages(
    pages: list[dict[str, Any]], previous: Template | None, naming: Naming | None = None
) -> InducedTemplate:
    """Induce a template from stored seed pages (``{"url", "html"}``), its
    fields named with ``naming`` if given, handed over as a page worker
    hands it (see :class:`InducedTemplate`); runs in a worker thread, so it
    touches nothing but its arguments."""
    return InducedTemplate.of(*induce_pages(pages, previous, naming))


class WrapxInductionExtension:
    """Induces and re-induces page-kind templates (see the module doc)."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not wrapx_setting(settings, "WRAPX_INDUCTION_ENABLED"):
            raise NotConfigured("WrapxInductionExtension requires WRAPX_INDUCTION_ENABLED=True")
        check_settings(settings)
        self.crawler = crawler
        self.stats = crawler.stats
        self.seed_pages = wrapx_setting(settings, "WRAPX_SEED_PAGES")
        self.share = wrapx_setting(settings, "WRAPX_INDUCTION_REINDUCE_SHARE")
        self.window = wrapx_setting(settings, "WRAPX_INDUCTION_WINDOW")
        self.min_pages = wrapx_setting(settings, "WRAPX_INDUCTION_MIN_PAGES")
        self.claim_timeout = wrapx_setting(settings, "WRAPX_INDUCTION_CLAIM_TIMEOUT")
        self.progress_interval = wrapx_setting(settings, "WRAPX_INDUCTION_PROGRESS_INTERVAL")
        self.pins = load_pins(wrapx_setting(settings, "WRAPX_ITEMS_FIELD_NAMES"))
        if not 0.0 < self.share <= 1.0:
            raise ValueError(
                f"Invalid setting WRAPX_INDUCTION_REINDUCE_SHARE={self.share!r}: "
                "it must be in (0, 1]"
            )
        #: (kind key, version) -> start time, for inductions running here.
        self.running: dict[tuple[str, int], float] = {}
        #: (kind key, version) whose induction this process tried already.
        self.attempted: set[tuple[str, int]] = set()
        #: (kind key, version) -> failed share, for inductions another
        #: process claimed: the template this process waits for.
        self.awaited: dict[tuple[str, int], float] = {}
        #: Sites this crawl fetched pages from: it waits for their templates
        #: only (a store may be shared with crawls of other sites).
        self.domains: set[str] = set()
        #: kind key -> outcomes (True: matched) of its recent pages, for
        #: the :data:`MAX_WATCHED_KINDS` kinds with pages last.
        self.outcomes: OrderedDict[str, deque[bool]] = OrderedDict()
        #: Templates induced in this crawl (see :meth:`_induced`).
        self.inductions = 0
        self.poll = wrapx_setting(settings, "WRAPX_ITEMS_TEMPLATE_POLL")
        #: The store failed at the last try (warned once per outage).
        self.store_away = False
        self._progress: task.LoopingCall | None = None
        self._awaiting: task.LoopingCall | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.response_received, signal=signals.response_received)
        crawler.signals.connect(self.seed_collected, signal=seed_collected)
        crawler.signals.connect(self.page_extracted, signal=page_extracted)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_opened(self, spider: Spider) -> None:
        self.store: WrapxStore = crawler_store(self.crawler)

    def spider_closed(self, spider: Spider) -> None:
        for loop in (self._progress, self._awaiting):
            if loop is not None and loop.running:
                loop.stop()

    def response_received(self, response: Response) -> None:
        self.domains.add(domain_of(response.url))

    # Triggers ---------------------------------------------------------------

    def seed_collected(self, kind_key: str, version: int, count: int, spider: Spider) -> None:
        with self._store_guard():
            if version == 1 and count >= self.seed_pages:
                self.start(kind_key, 1)
            elif version > 1:
                self._check_redesign(kind_key, version - 1)

    def page_extracted(self, kind_key: str, version: int, matched: bool, spider: Spider) -> None:
        outcomes = self.outcomes.get(kind_key)
        if outcomes is None:
            outcomes = self.outcomes[kind_key] = deque(maxlen=self.window)
            if len(self.outcomes) > MAX_WATCHED_KINDS:
                self.outcomes.popitem(last=False)
        else:
            self.outcomes.move_to_end(kind_key)
        outcomes.append(bool(matched))
        if not matched:
            with self._store_guard():
                self._check_redesign(kind_key, version)

    def _check_redesign(self, kind_key: str, version: int) -> None:
        outcomes = self.outcomes.get(kind_key)
        if not outcomes or len(outcomes) < min(self.window, 2 * self.seed_pages):
            return
        failed = outcomes.count(False) / len(outcomes)
        if failed < self.share:
            return
        fresh = self.store.list_length(SEEDS, seeds_key(kind_key, version + 1))
        if fresh >= self.seed_pages:
            self.start(kind_key, version + 1, failed_share=failed)

    def spider_idle(self, spider: Spider) -> None:
        """Induce leftovers, and keep the spider open while inductions run,
        here or in another process."""
        with self._store_guard():
            for kind_key in self.store.keys(PENDING):
                self._settle(kind_key)
        self._check_awaited()
        if self.awaited and (self._awaiting is None or not self._awaiting.running):
            # Checked between idle signals too, which come seconds apart.
            self._awaiting = task.LoopingCall(self._check_awaited)
            self._awaiting.start(self.poll, now=False)
        own = any(kind_domain(key) in self.domains for key, _ in self.awaited)
        if self.running or own:
            raise DontCloseSpider

    def _settle(self, kind_key: str) -> None:
        """A kind with buffered pages, as the crawl would end: announce its
        template if another process saved one (the seeds middleware then
        emits the pages waiting for it), else induce it from what there is."""
        if any(key == kind_key for key, _ in self.awaited):
            return  # announced when its wait ends (_check_awaited)
        record = load_template(self.store, kind_key)
        if record is not None:
            self._announce(record)
        elif (kind_key, 1) not in self.attempted and self._enough_seeds(kind_key):
            self.start(kind_key, 1, at_close=True)

    def _enough_seeds(self, kind_key: str) -> bool:
        return bool(self.store.list_length(SEEDS, seeds_key(kind_key, 1)) >= self.min_pages)

    def _check_awaited(self) -> None:
        """Announce the templates other processes induced for us; induce
        those whose claim was dropped or went stale."""
        with self._store_guard():
            for job, failed_share in list(self.awaited.items()):
                self.start(*job, failed_share=failed_share, at_close=True)
        if not self.awaited and self._awaiting is not None and self._awaiting.running:
            self._awaiting.stop()

    # Induction --------------------------------------------------------------

    def start(
        self, kind_key: str, version: int, *, failed_share: float = 0.0, at_close: bool = False
    ) -> bool:
        """Induce template ``version`` of ``kind_key`` in a worker thread,
        unless it exists, runs, or another process claimed it."""
        job = (kind_key, version)
        if job in self.running or job in self.attempted:
            return False
        current = load_template(self.store, kind_key)
        waited = self.awaited.pop(job, None) is not None
        if current is not None and current.version >= version:
            self._announce(current)
            return False
        if not self._claim(kind_key, version, quiet=waited):
            self.awaited[job] = failed_share
            return False
        # Another process may have saved the template and dropped its claim
        # between the look above and this claim: look again, now that no
        # one else can.
        current = load_template(self.store, kind_key)
        if current is not None and current.version >= version:
            self._release(kind_key, version)
            self._announce(current)
            return False
        self.attempted.add(job)
        pages = self._seed_pages(kind_key, version)
        if not pages:
            self._release(kind_key, version)
            return False
        previous, reason = self._previous(kind_key, current)
        self._log_start(kind_key, version, len(pages), failed_share, at_close, reason)
        self.running[job] = time.monotonic()
        self._inc("started_count")
        self._start_progress()
        self._induce(pages, previous, self._naming(kind_key)).addCallbacks(
            self._induced,
            self._failed,
            callbackArgs=(kind_key, version, pages),
            errbackArgs=(kind_key, version),
        )
        return True

    def _seed_pages(self, kind_key: str, version: int) -> list[dict[str, Any]]:
        pages = self.store.get_list(SEEDS, seeds_key(kind_key, version))
        return [p for p in pages if is_seed_page(p)][: min(2 * self.seed_pages, MAX_SEEDS)]

    def _log_start(
        self,
        kind_key: str,
        version: int,
        pages: int,
        failed_share: float,
        at_close: bool,
        reason: str,
    ) -> None:
        spider = self.crawler.spider
        if version > 1:
            logger.warning(
                "Re-inducing the template of kind %s: %.0f%% of its recent pages do not "
                "match version %d; inducing version %d from %d of them",
                kind_key,
                100 * failed_share,
                version - 1,
                version,
                pages,
                extra={"spider": spider},
            )
            return
        logger.info(
            "Inducing the template of kind %s from %d seed pages%s%s",
            kind_key,
            pages,
            " (crawl ending)" if at_close else "",
            reason,
            extra={"spider": spider},
        )

    def _induce(
        self, pages: list[dict[str, Any]], previous: Template | None, naming: Naming
    ) -> Deferred[InducedTemplate]:
        """Induce and name in a page worker if one runs, else in a thread
        (off the reactor either way: naming parses the seeds too)."""
        workers = running_workers(self.crawler)
        if workers is None:
            return threads.deferToThread(induce_from_pages, pages, previous, naming)
        deferred = workers.induce(pages, previous, naming)
        deferred.addErrback(self._in_thread, pages, previous, naming)
        return deferred

    def _in_thread(
        self,
        failure: Failure,
        pages: list[dict[str, Any]],
        previous: Template | None,
        naming: Naming,
    ) -> Deferred[InducedTemplate]:
        """Induce in a thread what a page worker could not."""
        if not isinstance(failure.value, WorkerUnavailable):
            return failure  # type: ignore[return-value]
        return threads.deferToThread(induce_from_pages, pages, previous, naming)

    def _naming(self, kind_key: str) -> Naming:
        """What names the fields of ``kind_key``'s template: the spider's
        targets and the names pinned for the kind."""
        kind = self._kinds(kind_key).get(kind_key)
        pinned = pins_for(self.pins, kind_key, kind.url_pattern if kind else "")
        return Naming(self._target_queries(), pinned)

    def _target_queries(self) -> dict[str, str]:
        """The spider's declared targets as XPath (name -> query)."""
        try:
            targets = parse_targets(getattr(self.crawler.spider, "wrapx_targets", None))
        except ValueError:
            return {}  # reported by the targets middleware
        return {name: t.query for name, t in targets.items() if t.query}

    def _kinds(self, kind_key: str) -> KindIndex:
        """The stored kinds of ``kind_key``'s site."""
        index = KindIndex(threshold=1.0)
        for data in self.store.get_list(KINDS, kind_domain(kind_key)):
            try:
                index.add(PageKind.from_dict(data))
            except ValueError:
                continue
        return index

    def _previous(
        self, kind_key: str, current: TemplateRecord | None
    ) -> tuple[Template | None, str]:
        """The template whose field names the new one keeps: the kind's own,
        else that of an older kind with the same URL pattern."""
        if current is not None:
            return current.template, ""
        index = self._kinds(kind_key)
        kind = index.get(kind_key)
        related = index.related(kind) if kind is not None else None
        if related is None:
            return None, ""
        record = load_template(self.store, related.key)
        if record is None:
            return None, ""
        return record.template, f", keeping the field names of kind {related.key}"

    def _induced(
        self,
        induced: InducedTemplate,
        kind_key: str,
        version: int,
        pages: list[dict[str, Any]],
    ) -> None:
        self.running.pop((kind_key, version), None)
        record = TemplateRecord.induced(induced, kind_key, version, [p["url"] for p in pages])
        try:
            save_template(self.store, record)
            self._release(kind_key, version)
        except StoreUnavailable as exc:
            # Used by this crawl all the same; induced again (and saved)
            # on a later trigger, the store back.
            logger.warning("Template v%d of kind %s is not saved: %s", version, kind_key, exc)
            self.attempted.discard((kind_key, version))
        self.outcomes.pop(kind_key, None)
        self._inc("reinduced_count" if version > 1 else "induced_count")
        self.inductions += 1
        if self.inductions % TRIM_EVERY == 0:
            # Each template's pages went through this process (bodies
            # buffered, compressed, sent to a worker): the holes they left
            # in the C heap are given back, as the workers do.
            release_free_memory()
        names = sorted(induced.shape.field_names)
        logger.info(
            "%s template v%d of kind %s from %d pages in %.2fs: %d fields (%s)",
            "Re-induced" if version > 1 else "Induced",
            version,
            kind_key,
            len(pages),
            induced.seconds,
            len(names),
            ", ".join(names[:12]) + (", ..." if len(names) > 12 else ""),
            extra={"spider": self.crawler.spider},
        )
        self._announce(record)

    def _failed(self, failure: Failure, kind_key: str, version: int) -> None:
        self.running.pop((kind_key, version), None)
        self._release(kind_key, version)
        self._inc("failed_count")
        logger.error(
            "Could not induce template v%d of kind %s: %s",
            version,
            kind_key,
            failure.getErrorMessage(),
            extra={"spider": self.crawler.spider},
        )

    def _announce(self, record: TemplateRecord) -> None:
        self.crawler.signals.send_catch_log(
            template_ready, kind_key=record.kind_key, record=record, spider=self.crawler.spider
        )

    @contextlib.contextmanager
    def _store_guard(self) -> Iterator[None]:
        """Skip the work, with one warning per outage, when the store is
        unreachable: the seeds middleware holds the pages meanwhile, and the
        next trigger after the store is back does the work."""
        try:
            yield
        except StoreUnavailable as exc:
            if not self.store_away:
                logger.warning("Induction waits for the store: %s", exc)
            self.store_away = True
        else:
            self.store_away = False

    # Claims -----------------------------------------------------------------

    def _claim(self, kind_key: str, version: int, *, quiet: bool = False) -> bool:
        """Claim the induction of template ``version`` of ``kind_key``; False
        while another process holds a live claim (logged unless ``quiet``)."""
        key = seeds_key(kind_key, version)
        if self.store.add(CLAIMS, key, new_claim()):
            return True
        claim = self.store.get(CLAIMS, key)
        reason = dead_claim_reason(claim, self.claim_timeout)
        if reason is not None:
            logger.warning(
                "Taking over the induction claim %s (%s): %r",
                key,
                reason,
                claim,
                extra={"spider": self.crawler.spider},
            )
            self.store.delete(CLAIMS, key)
            return self.store.add(CLAIMS, key, new_claim())
        if not quiet:
            logger.info(
                "Template v%d of kind %s is being induced by %s",
                version,
                kind_key,
                claim.get("owner") if isinstance(claim, dict) else "?",
                extra={"spider": self.crawler.spider},
            )
        return False

    def _release(self, kind_key: str, version: int) -> None:
        self.store.delete(CLAIMS, seeds_key(kind_key, version))

    # Progress ---------------------------------------------------------------

    def _start_progress(self) -> None:
        if self._progress is None or not self._progress.running:
            self._progress = task.LoopingCall(self._log_progress)
            self._progress.start(self.progress_interval, now=False)

    def _log_progress(self) -> None:
        if not self.running:
            assert self._progress is not None
            self._progress.stop()
            return
        now = time.monotonic()
        logger.info(
            "Inducing %d template(s): %s",
            len(self.running),
            ", ".join(
                f"{key} v{version} ({now - started:.0f}s)"
                for (key, version), started in sorted(self.running.items())
            ),
            extra={"spider": self.crawler.spider},
        )

    def _inc(self, event: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"wrapx/induction/{event}")
