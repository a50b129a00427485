"""One crawl's state in the unsupervised mode, built when the spider opens.

Everything the seeds middleware works with — the store, the templates it
has seen, the kinds router, the seed collector, the item buffer and the
page workers — is built together in :meth:`CrawlState.open`, so none of it
is ever half set up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from scrapy.utils.misc import load_object

from scrapy_wrapx.settings import wrapx_setting
from scrapy_wrapx.store._crawler import crawler_store
from scrapy_wrapx.unsupervised.items import VariantItems
from scrapy_wrapx.unsupervised.kinds import KindIndex
from scrapy_wrapx.unsupervised.offline import OfflinePages
from scrapy_wrapx.unsupervised.routing import KindRouter
from scrapy_wrapx.unsupervised.seeds import SeedCollector
from scrapy_wrapx.unsupervised.templates import TemplateCache
from scrapy_wrapx.unsupervised.typed import require_libraries
from scrapy_wrapx.workers.pool import crawler_workers

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from scrapy_wrapx.store import WrapxStore
    from scrapy_wrapx.workers.pool import WorkerPool


@dataclass
class CrawlState:
    """What the unsupervised mode keeps for one crawl."""

    crawler: Crawler
    store: WrapxStore
    templates: TemplateCache
    router: KindRouter
    seeds: SeedCollector
    #: None with ``WRAPX_ITEMS_ENABLED=False``: seeds only, no items.
    items: VariantItems | None
    #: Pages held in memory while the store is unreachable.
    offline: OfflinePages
    _workers: WorkerPool | None = field(default=None, init=False)
    _workers_tried: bool = field(default=False, init=False)

    @classmethod
    def open(
        cls, crawler: Crawler, refetch: Callable[[str], Any], store_back: Callable[[], None]
    ) -> CrawlState:
        """The state of ``crawler``'s crawl, on its store; ``refetch`` makes
        the request that downloads a page buffered without its HTML again,
        ``store_back`` is called when a store that went away answers again."""
        settings = crawler.settings
        store = crawler_store(crawler)
        poll = wrapx_setting(settings, "WRAPX_ITEMS_TEMPLATE_POLL")
        templates = TemplateCache(
            store,
            poll_interval=poll,
            max_templates=wrapx_setting(settings, "WRAPX_ITEMS_TEMPLATE_CACHE"),
        )
        index = KindIndex(
            threshold=wrapx_setting(settings, "WRAPX_KINDS_THRESHOLD"),
            url_weight=wrapx_setting(settings, "WRAPX_KINDS_URL_WEIGHT"),
        )
        send, count = partial(send_signal, crawler), partial(count_stat, crawler)
        seeds = SeedCollector(store, wrapx_setting(settings, "WRAPX_SEED_PAGES"), send, count)
        items = None
        if wrapx_setting(settings, "WRAPX_ITEMS_ENABLED"):
            item_class = wrapx_setting(settings, "WRAPX_ITEMS_CLASS")
            languages = tuple(wrapx_setting(settings, "WRAPX_ITEMS_TYPED_VALUES"))
            if languages:
                require_libraries(languages)
            items = VariantItems(
                store,
                templates,
                item_class=load_object(item_class) if isinstance(item_class, str) else item_class,
                buffer_pages=wrapx_setting(settings, "WRAPX_ITEMS_BUFFER_PAGES"),
                flush_pages=wrapx_setting(settings, "WRAPX_ITEMS_FLUSH_PAGES"),
                seeds=seeds,
                stats=crawler.stats,
                send=send,
                refetch=refetch,
                owner=crawler.spider.name if crawler.spider is not None else None,
                typed=languages or None,
            )
        offline = OfflinePages(
            store,
            wrapx_setting(settings, "WRAPX_ITEMS_BUFFER_PAGES"),
            wrapx_setting(settings, "WRAPX_STORE_RETRY_TIMEOUT"),
            count,
            store_back,
        )
        router = KindRouter(
            store,
            index,
            count,
            wrapx_setting(settings, "WRAPX_KINDS_CACHE_SITES"),
            on_forget=(templates.forget, seeds.forget),
        )
        return cls(crawler, store, templates, router, seeds, items, offline)

    def workers(self) -> WorkerPool | None:
        """The running page workers, spawned on the first page that needs
        them (so components used without a reactor spawn none)."""
        if not self._workers_tried:
            self._workers_tried = True
            self._workers = crawler_workers(self.crawler)
        return self._workers if self._workers is not None and self._workers.running else None

    def pending(self) -> list[str]:
        """Kinds with buffered pages on the sites this crawl visits."""
        return self.router.own(self.items.pending_kinds()) if self.items is not None else []

    def count(self, key: str, by: int = 1) -> None:
        count_stat(self.crawler, key, by)


def send_signal(crawler: Crawler, signal: object, **kwargs: Any) -> None:
    """Send one of :mod:`scrapy_wrapx.signals` with the crawl's spider."""
    crawler.signals.send_catch_log(signal, spider=crawler.spider, **kwargs)


def count_stat(crawler: Crawler, key: str, by: int = 1) -> None:
    """Increment stat ``wrapx/<key>``."""
    if crawler.stats is not None:
        crawler.stats.inc_value(f"wrapx/{key}", by)
