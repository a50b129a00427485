"""One store per crawl, shared by every scrapy-wrapx component of it."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.utils.misc import build_from_crawler, load_object

from scrapy_wrapx.settings import wrapx_setting
from scrapy_wrapx.store.base import WrapxStore

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

_STORES: weakref.WeakKeyDictionary[Crawler, WrapxStore] = weakref.WeakKeyDictionary()


def crawler_store(crawler: Crawler) -> WrapxStore:
    """The store of ``crawler`` (``WRAPX_STORE``), opened on first use and
    closed when the engine stops."""
    store = _STORES.get(crawler)
    if store is None:
        path = wrapx_setting(crawler.settings, "WRAPX_STORE")
        store_cls = load_object(path) if isinstance(path, str) else path
        store = build_from_crawler(store_cls, crawler)
        if not isinstance(store, WrapxStore):
            raise ValueError(f"WRAPX_STORE {path!r} is not a WrapxStore")
        _STORES[crawler] = store

        def close_store() -> None:
            _STORES.pop(crawler, None)
            store.close()

        crawler.signals.connect(close_store, signal=signals.engine_stopped, weak=False)
    return store
