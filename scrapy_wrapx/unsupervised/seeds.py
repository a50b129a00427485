"""The one seed collector: pages stored for a kind's next induction.

Template version 1 of a kind is induced from its first ``WRAPX_SEED_PAGES``
pages; version ``n + 1`` from pages that failed to match version ``n`` (a
redesign), of which twice as many are kept, so the re-induction can pick
pages of the new design among failures of other causes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from scrapy_wrapx.signals import seed_collected
from scrapy_wrapx.unsupervised.templates import SEEDS, seeds_key

if TYPE_CHECKING:
    from scrapy_wrapx.store import WrapxStore

logger = logging.getLogger(__name__)

#: Seeds kept for a re-induction, as a multiple of ``WRAPX_SEED_PAGES``.
REINDUCTION_SEEDS_FACTOR = 2


class SeedCollector:
    """Stores seed pages in the store's ``seeds`` namespace, up to each
    version's cap, and announces each one
    (:data:`~scrapy_wrapx.signals.seed_collected`) through ``send``."""

    def __init__(
        self,
        store: WrapxStore,
        seed_pages: int,
        send: Callable[..., Any],
        count: Callable[[str], None],
    ) -> None:
        if seed_pages < 1:
            raise ValueError(f"WRAPX_SEED_PAGES must be >= 1, not {seed_pages!r}")
        self.store = store
        self.seed_pages = seed_pages
        self._send = send
        self._count = count
        #: Seeds stored per kind key and version, as last seen (a cache of
        #: the store's counts, dropped with the kinds of a site: see
        #: :meth:`forget`).
        self._counts: dict[str, dict[int, int]] = {}

    def cap(self, version: int) -> int:
        """How many seeds template ``version`` of a kind is induced from."""
        return self.seed_pages if version == 1 else REINDUCTION_SEEDS_FACTOR * self.seed_pages

    def collect(self, kind_key: str, version: int, url: str, html: str) -> None:
        """Keep the page as a seed of template ``version`` of ``kind_key``,
        unless that version has its seeds already."""
        key = seeds_key(kind_key, version)
        counts = self._counts.setdefault(kind_key, {})
        count = counts.get(version)
        if count is None:
            count = self.store.list_length(SEEDS, key)
        if count >= self.cap(version):
            counts[version] = count
            return
        count = counts[version] = self.store.append(SEEDS, key, {"url": url, "html": html})
        self._count("seeds/collected_count")
        logger.debug(
            "Seed page %d/%d of kind %s v%d: %s", count, self.cap(version), kind_key, version, url
        )
        self._send(seed_collected, kind_key=kind_key, version=version, count=count)

    def forget(self, kind_keys: list[str]) -> None:
        """Drop the counts of ``kind_keys`` (a site the router no longer
        keeps); the store's are read again if their pages come back."""
        for kind_key in kind_keys:
            self._counts.pop(kind_key, None)
