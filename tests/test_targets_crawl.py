"""End to end: real crawls of the demo site on 127.0.0.1 with targets.

The first crawl sees the original design and stores references in a real
SQLite file; the second crawl, in a new crawler sharing that file, sees the
redesign, where the declared selectors break.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import pytest_twisted
import scrapy
from scrapy.crawler import CrawlerRunner

from scrapy_wrapx import Target
from scrapy_wrapx.demo import DemoSite
from tests.conftest import DemoEndpoint
from tests.crawling import collect_items, crawl_settings


class DemoBooksSpider(scrapy.Spider):
    """Follows the catalogue to every detail page; fields come from targets."""

    name = "demo_books"
    custom_settings: ClassVar[dict[str, Any]] = {"ADDONS": {"scrapy_wrapx.Addon": 0}}
    wrapx_targets: ClassVar[dict[str, Any]] = {
        # Single values: these selectors could select several nodes.
        "title": Target(xpath="//h1/text()", many=False),
        "price": Target(css="p.price::text", many=False),
        "publisher": Target(xpath="//table[@class='details']//tr[1]/td/text()", many=False),
        "isbn": Target(example="9784876475933"),
    }

    def __init__(self, base_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = [base_url + "catalogue/page-1.html"]

    def parse(self, response: scrapy.http.Response) -> Iterator[Any]:
        for href in response.css("a::attr(href)").getall():
            if "/book/" in href:
                yield response.follow(href, self.parse_book)
            elif "page-" in href:
                yield response.follow(href, self.parse)
            elif href.endswith((".json", ".png")):
                yield response.follow(href, self.parse_other)

    def parse_book(self, response: scrapy.http.Response) -> Iterator[dict[str, Any]]:
        yield {"url": response.url}

    def parse_other(self, response: scrapy.http.Response) -> Iterator[dict[str, Any]]:
        yield {"url": response.url, "kind": "other"}


class BrokenSpider(DemoBooksSpider):
    name = "broken"
    wrapx_targets: ClassVar[dict[str, Any]] = {"price": "//span[@class='price'"}


def _truth(site: DemoSite, url: str, prefix: str) -> dict[str, str]:
    path = "/" + url.split(prefix, 1)[1].lstrip("/")
    return {name: site.truth[path][name][0] for name in DemoBooksSpider.wrapx_targets}


def _runner(tmp_path: Path) -> CrawlerRunner:
    return CrawlerRunner(
        crawl_settings(
            tmp_path / "wrapx.sqlite3", WRAPX_TARGETS_REPAIR_AFTER=2, CONCURRENT_REQUESTS=4
        )
    )


@pytest_twisted.inlineCallbacks
def test_crawls_fill_targets_then_heal_them_on_the_redesign(
    tmp_path: Path, demo_server: DemoEndpoint, demo_site: DemoSite, demo_site_v2: DemoSite
) -> Iterator[Any]:
    runner = _runner(tmp_path)

    original = runner.create_crawler(DemoBooksSpider)
    items = collect_items(original)
    yield runner.crawl(original, base_url=demo_server.url)
    books = [item for item in items if "kind" not in item]
    assert len(books) == len(demo_site.detail_pages)
    for item in books:
        # Items of pages crawled before the example's page are held, then
        # filled: every field, whatever the crawl order.
        expected = _truth(demo_site, item["url"], demo_server.url.rstrip("/"))
        assert {name: item.get(name) for name in expected} == expected
    others = [item for item in items if item.get("kind") == "other"]
    assert others and all(set(item) == {"url", "kind"} for item in others)

    redesigned = runner.create_crawler(DemoBooksSpider)
    items = collect_items(redesigned)
    yield runner.crawl(redesigned, base_url=demo_server.v2("/"))
    books = [item for item in items if "kind" not in item]
    assert len(books) == len(demo_site_v2.detail_pages)
    filled = 0
    for item in books:
        expected = _truth(demo_site_v2, item["url"], demo_server.v2("/").rstrip("/"))
        for name, value in expected.items():
            if name in item:
                assert item[name] == value, (item["url"], name)
                filled += 1
    assert filled >= 0.9 * len(books) * len(DemoBooksSpider.wrapx_targets)
    stats = redesigned.stats.get_stats()
    assert stats["wrapx/targets/relocated_count"] > 0
    assert stats["wrapx/targets/repaired_count"] > 0


@pytest_twisted.inlineCallbacks
def test_invalid_target_stops_the_spider_at_start(
    tmp_path: Path, demo_server: DemoEndpoint
) -> Iterator[Any]:
    runner = _runner(tmp_path)
    crawler = runner.create_crawler(BrokenSpider)
    items = collect_items(crawler)
    # Declared on the class, the bad target stops the crawl before it starts.
    with pytest.raises(ValueError, match="price"):
        yield runner.crawl(crawler, base_url=demo_server.url)
    assert items == []
