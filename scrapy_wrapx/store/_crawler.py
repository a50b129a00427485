"""One store per crawl, shared by every scrapy-wrapx component of it."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.utils.misc import build_from_crawler, load_object

from scrapy_wrapx.settings import wrapx_setting
from scrapy_wrapx.store._shapes import SHAPES
from scrapy_wrapx.store.base import WrapxStore

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

_STORES: weakref.WeakKeyDictionary[Crawler, WrapxStore] = weakref.WeakKeyDictionary()


def open_store(crawler: Crawler) -> WrapxStore:
    """A new store of ``crawler``'s ``WRAPX_STORE``, checking the shape of
    the records of scrapy-wrapx's namespaces (:data:`~._shapes.SHAPES`)."""
    path = wrapx_setting(crawler.settings, "WRAPX_STORE")
    store_cls = load_object(path) if isinstance(path, str) else path
    store = build_from_crawler(store_cls, crawler)
    if not isinstance(store, WrapxStore):
        raise ValueError(f"WRAPX_STORE {path!r} is not a WrapxStore")
    store.shapes = SHAPES
    return store


def crawler_store(crawler: Crawler) -> WrapxStore:
    """The store of ``crawler`` (``WRAPX_STORE``), opened on first use and
    closed when the engine stops.

    The store counts the records it refuses and the corrupt files it
    replaced (it has no crawler to count them in); they go to the crawl's
    stats when the spider closes."""
    store = _STORES.get(crawler)
    if store is None:
        store = _STORES[crawler] = open_store(crawler)
        opened = store

        def publish_counts(spider: Any = None) -> None:
            publish_store_stats(crawler, opened)

        def close_store() -> None:
            _STORES.pop(crawler, None)
            opened.close()

        crawler.signals.connect(publish_counts, signal=signals.spider_closed, weak=False)
        crawler.signals.connect(close_store, signal=signals.engine_stopped, weak=False)
    return store


def publish_store_stats(crawler: Crawler, store: WrapxStore) -> None:
    """Set the store's counts in ``crawler``'s stats (those above zero)."""
    if crawler.stats is None:
        return
    counts = {
        "wrapx/store/invalid_count": store.invalid_count,
        "wrapx/store/corrupt_count": store.corrupt_count,
    }
    for key, count in counts.items():
        if count:
            crawler.stats.set_value(key, count)
