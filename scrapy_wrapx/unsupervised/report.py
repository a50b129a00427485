"""What a crawl leaves in the buffer when it closes, and why: one log line
per reason, and a stat, so that pages waiting for a later crawl are never
a silent loss."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy_wrapx.settings import wrapx_setting
from scrapy_wrapx.unsupervised.templates import SEEDS, seeds_key

if TYPE_CHECKING:
    from scrapy_wrapx.unsupervised.state import CrawlState

logger = logging.getLogger(__name__)


def report_left_buffered(state: CrawlState) -> dict[str, int]:
    """Log the pages of ``state``'s spider that stay buffered, by reason;
    the pages per reason."""
    assert state.items is not None
    left = state.items.left_buffered(state.pending())
    min_pages = wrapx_setting(state.crawler.settings, "WRAPX_INDUCTION_MIN_PAGES")
    by_reason: dict[str, list[str]] = {}
    for kind_key in left:
        by_reason.setdefault(_reason(state, kind_key, min_pages), []).append(kind_key)
    pages: dict[str, int] = {}
    for reason, kinds in sorted(by_reason.items()):
        pages[reason] = sum(left[kind] for kind in kinds)
        logger.warning(
            "%d pages of %d kinds stay buffered for a later crawl: %s (e.g. %s)",
            pages[reason],
            len(kinds),
            reason,
            ", ".join(kinds[:3]),
        )
    total = sum(pages.values())
    if total and state.crawler.stats is not None:
        state.crawler.stats.set_value("wrapx/items/left_buffered_count", total)
    return pages


def _reason(state: CrawlState, kind_key: str, min_pages: int) -> str:
    if state.templates.get(kind_key) is not None:
        return "their items did not come through the item pipelines before the crawl ended"
    seeds = state.store.list_length(SEEDS, seeds_key(kind_key, 1))
    if seeds < min_pages:
        return f"their kind has too few pages for a template (under WRAPX_INDUCTION_MIN_PAGES={min_pages})"
    return "their kind's template could not be induced (see the errors above)"
