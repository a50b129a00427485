"""Helpers for the tests that run real crawls against the demo server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler


def crawl_settings(store: Path, **overrides: Any) -> dict[str, Any]:
    """Fast local crawls with the store in ``store`` (a SQLite file)."""
    return {
        "WRAPX_STORE_SQLITE_PATH": str(store),
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "CONCURRENT_REQUESTS": 8,
        **overrides,
    }


def collect_items(crawler: Crawler) -> list[dict[str, Any]]:
    """The items ``crawler`` will scrape, in scrape order."""
    items: list[dict[str, Any]] = []
    crawler.signals.connect(
        lambda item, **_: items.append(item), signal=signals.item_scraped, weak=False
    )
    return items


def open_stats(crawler: Crawler) -> None:
    """Open the crawler's stats as the engine does: Scrapy 2.13 wants the
    spider, later versions deprecate passing it."""
    assert crawler.stats is not None
    try:
        crawler.stats.open_spider()
    except TypeError:
        crawler.stats.open_spider(crawler.spider)


def run_wrapx(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``scrapy wrapx ARGS`` run as a user runs it, outside any project."""
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "wrapx", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "SCRAPY_SETTINGS_MODULE": ""},
    )
