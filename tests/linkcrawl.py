"""A link-following crawl in this process, for tests and benchmarks.

:func:`run_crawl` runs one Scrapy crawl (a ``CrawlerProcess``: call it in a
process of its own, the reactor cannot restart) that follows every link to
a page on 127.0.0.1, with or without the scrapy-wrapx add-on, and returns
the crawl's stats. The end-to-end tests start two of them sharing a
redis-server; :mod:`benchmarks.crawl` times them on SWDE sites.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["CRAWL_SETTINGS", "run_crawl"]

_PAGE_PATH = re.compile(r"^/[^/]+/[^/]+\.html$")

#: Crawl settings shared by both modes: fast, local, no politeness delays.
CRAWL_SETTINGS: dict[str, Any] = {
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
    "DOWNLOAD_DELAY": 0,
    "COOKIES_ENABLED": False,
}


def run_crawl(
    start_urls: list[str], addon: bool, settings: dict[str, Any], output: Path | None
) -> dict[str, Any]:
    """Crawl ``start_urls`` following links on 127.0.0.1; the crawl's stats."""
    from scrapy import Request, Spider, signals
    from scrapy.crawler import CrawlerProcess
    from scrapy.http import HtmlResponse
    from scrapy.linkextractors import LinkExtractor

    extractor = LinkExtractor()

    class LinkSpider(Spider):
        """Follows every link on 127.0.0.1 and yields nothing of its own."""

        name = "wrapx_bench"

        async def start(self) -> Any:
            for url in start_urls:
                yield Request(url)

        def parse(self, response: Any) -> Any:
            if isinstance(response, HtmlResponse):
                for link in extractor.extract_links(response):
                    # Only the served pages: SWDE pages keep relative links
                    # of their original sites, which would all be 404s here
                    # (and allow_domains ignores hosts with a port).
                    url = urlsplit(link.url)
                    if url.hostname == "127.0.0.1" and _PAGE_PATH.match(url.path):
                        yield Request(link.url)

    all_settings = {**CRAWL_SETTINGS, **settings}
    if addon:
        all_settings["ADDONS"] = {"scrapy_wrapx.Addon": 0}
    if output is not None:
        all_settings["FEEDS"] = {str(output): {"format": "jsonlines", "overwrite": True}}
    process = CrawlerProcess(settings=all_settings)
    crawler = process.create_crawler(LinkSpider)
    # CPU seconds of this process between the engine's start and the
    # spider's close: the crawl's own work, startup left out.
    cpu: dict[str, float] = {}
    crawler.signals.connect(
        lambda: cpu.setdefault("start", time.process_time()), signals.engine_started, weak=False
    )
    crawler.signals.connect(
        lambda: cpu.setdefault("end", time.process_time()), signals.spider_closed, weak=False
    )
    process.crawl(crawler)
    process.start()
    assert crawler.stats is not None
    stats = crawler.stats.get_stats()
    result = {key: value for key, value in stats.items() if isinstance(value, (int, float, str))}
    result["cpu_seconds"] = cpu.get("end", 0.0) - cpu.get("start", 0.0)
    return result
