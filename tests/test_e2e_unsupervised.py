"""End to end: the unsupervised mode in real crawls of the demo site.

A spider that only follows links crawls the demo bookstore on 127.0.0.1 with
nothing but the add-on; variant-data items come out for every page, with a
real SQLite file in ``tmp_path``. Then two crawler processes share a real
redis-server: they crawl at the same time, one of them induces each
template, and both use it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import pytest_twisted
import scrapy
from scrapy import signals
from scrapy.crawler import Crawler, CrawlerRunner
from scrapy.http import HtmlResponse
from twisted.internet import reactor

from scrapy_wrapx.demo import DemoSite
from scrapy_wrapx.dom import fold_whitespace
from scrapy_wrapx.extensions.induction import induce_from_pages
from scrapy_wrapx.signals import page_captured, seed_collected
from scrapy_wrapx.store.sqlite import SqliteStore
from scrapy_wrapx.unsupervised.templates import (
    CLAIMS,
    SEEDS,
    TemplateRecord,
    save_template,
    seeds_key,
)
from tests.conftest import DemoEndpoint
from tests.crawling import collect_items, crawl_settings
from tests.values import canon


class FollowSpider(scrapy.Spider):
    """Follows every HTML link of the site and yields nothing itself."""

    name = "follow"
    custom_settings = {"ADDONS": {"scrapy_wrapx.Addon": 0}}  # noqa: RUF012

    def __init__(self, start_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = [start_url]

    def parse(self, response: scrapy.http.Response) -> Iterator[Any]:
        if not isinstance(response, HtmlResponse):
            return
        for href in response.css("a::attr(href)").getall():
            if urlsplit(href).scheme in ("", "http", "https"):
                yield response.follow(href)


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def _fields_found(item: dict[str, Any], truth: dict[str, list[str]]) -> dict[str, bool]:
    """Per true field: is every true value among the item's values (compared
    as the induction benchmark compares them)?"""
    have: set[str] = set()
    stack: list[Any] = [value for key, value in item.items() if key != "url"]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            have.add(canon(value))
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
    return {name: all(canon(v) in have for v in values) for name, values in truth.items() if values}


# A backlog of one page: nearly every request waits for the page worker
# before it is downloaded, and none is lost or held for ever. A worker
# replaced every 10 pages: none is lost either.
@pytest.mark.parametrize(("backlog", "max_pages"), [(32, 0), (1, 0), (32, 10)])
@pytest_twisted.inlineCallbacks
def test_demo_crawl_emits_one_item_per_page(
    demo_server: DemoEndpoint, demo_site: DemoSite, tmp_path: Path, backlog: int, max_pages: int
) -> Iterator[Any]:
    runner = CrawlerRunner(
        crawl_settings(
            tmp_path / "wrapx.sqlite3",
            WRAPX_ITEMS_WORKER_BACKLOG=backlog,
            WRAPX_ITEMS_WORKER_MAX_PAGES=max_pages,
        )
    )
    crawler = runner.create_crawler(FollowSpider)
    items = collect_items(crawler)
    captured: list[str] = []
    crawler.signals.connect(
        lambda request, **_: captured.append(request.url), signal=page_captured, weak=False
    )
    yield runner.crawl(crawler, start_url=demo_server.url)
    stats = crawler.stats.get_stats()  # type: ignore[union-attr]

    assert stats["finish_reason"] == "finished"
    assert stats.get("wrapx/workers/recycled_count", 0) >= len(captured) // (max_pages or 10**9)
    assert stats["wrapx/seeds/skipped_count/non_html"] >= 1  # /feed.json
    assert len(captured) == stats["wrapx/seeds/captured_count"]
    # One item per captured response ("/index.html" redirects to "/", so
    # the home page is downloaded twice), none lost.
    assert len(items) == stats["wrapx/seeds/captured_count"]
    detail = [item for item in items if _path(item["url"]) in demo_site.truth]
    assert sorted(_path(item["url"]) for item in detail) == sorted(demo_site.detail_pages)
    assert len({item["kind"] for item in detail}) == 1
    assert {item["template_version"] for item in items} == {1}
    assert stats["wrapx/induction/induced_count"] == len({item["kind"] for item in items})
    # Every detail page: its item is shaped by the one template (a key is
    # a string on every page or a list on every page; empty slots are left
    # out, so the keys themselves may differ), and the data is there.
    shapes = {(k, isinstance(v, list)) for item in detail for k, v in item.items()}
    assert len(shapes) == len({key for key, _ in shapes})
    assert all(item["partial"] is False for item in detail)
    found = Counter()
    total = Counter()
    for item in detail:
        for name, ok in _fields_found(item, demo_site.truth[_path(item["url"])]).items():
            total[name] += 1
            found[name] += ok
    # The fields the induction recovers exactly on the fixture (see the
    # induction benchmark) are recovered on every page in the crawl too.
    for name in ("isbn", "publisher", "publication_date", "image", "description"):
        assert found[name] == total[name], (name, found[name], total[name])


@pytest_twisted.inlineCallbacks
def test_second_crawl_uses_stored_templates(
    demo_server: DemoEndpoint, tmp_path: Path
) -> Iterator[Any]:
    runner = CrawlerRunner(crawl_settings(tmp_path / "wrapx.sqlite3"))
    first = runner.create_crawler(FollowSpider)
    first_items = collect_items(first)
    yield runner.crawl(first, start_url=demo_server.url)
    second = runner.create_crawler(FollowSpider)
    second_items = collect_items(second)
    yield runner.crawl(second, start_url=demo_server.url)
    stats = second.stats.get_stats()  # type: ignore[union-attr]
    assert "wrapx/induction/started_count" not in stats
    assert "wrapx/items/buffered_count" not in stats
    assert sorted(i["url"] for i in second_items) == sorted(i["url"] for i in first_items)
    assert {i["kind"] for i in second_items} == {i["kind"] for i in first_items}


class _Rival:
    """Another crawler process on the same store, seen from this one: it
    claims each kind's induction on the kind's first seed, and only once
    this crawl has gone idle saves the template and drops the claim."""

    def __init__(self, crawler: Crawler, store_path: Path) -> None:
        self.store = SqliteStore(store_path)
        self.kinds: set[str] = set()
        self.idle = False
        # Connected before the crawl builds its components: runs first.
        crawler.signals.connect(self.seed_collected, signal=seed_collected, weak=False)
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle, weak=False)

    def seed_collected(self, kind_key: str, version: int, **_: Any) -> None:
        if kind_key not in self.kinds:
            self.kinds.add(kind_key)
            claim = {"owner": "rival:1", "at": time.time()}
            assert self.store.add(CLAIMS, seeds_key(kind_key, version), claim)

    def spider_idle(self, **_: Any) -> None:
        if not self.idle:
            self.idle = True
            reactor.callLater(0.5, self.induce)

    def induce(self) -> None:
        for kind_key in self.kinds:
            pages = self.store.get_list(SEEDS, seeds_key(kind_key, 1))
            record = TemplateRecord.induced(
                induce_from_pages(pages, previous=None), kind_key, 1, []
            )
            save_template(self.store, record)
            self.store.delete(CLAIMS, seeds_key(kind_key, 1))


@pytest_twisted.inlineCallbacks
def test_crawl_waits_for_templates_another_process_induces(
    demo_server: DemoEndpoint, tmp_path: Path
) -> Iterator[Any]:
    store = tmp_path / "wrapx.sqlite3"
    runner = CrawlerRunner(crawl_settings(store, WRAPX_ITEMS_TEMPLATE_POLL=0.2))
    crawler = runner.create_crawler(FollowSpider)
    rival = _Rival(crawler, store)
    items = collect_items(crawler)
    yield runner.crawl(crawler, start_url=demo_server.url)
    rival.store.close()
    stats = crawler.stats.get_stats()  # type: ignore[union-attr]

    assert rival.idle and rival.kinds
    assert "wrapx/induction/started_count" not in stats  # the rival induced all
    assert len(items) == stats["wrapx/seeds/captured_count"], "no page is lost"
    assert {item["kind"] for item in items} == rival.kinds


# Two processes sharing a real redis-server ----------------------------------


_CRAWLER = """
import json, sys
from tests.linkcrawl import run_crawl
spec = json.loads(sys.argv[1])
stats = run_crawl(spec["start_urls"], True, spec["settings"], spec["output"])
print(json.dumps({k: v for k, v in stats.items() if k.startswith(("wrapx/", "item_"))}))
"""


def test_two_processes_share_templates_through_redis(
    demo_server: DemoEndpoint, demo_site: DemoSite, redis_url: str, tmp_path: Path
) -> None:
    settings = {
        "WRAPX_STORE": "scrapy_wrapx.store.redis.RedisStore",
        "WRAPX_STORE_REDIS_URL": redis_url,
        "WRAPX_STORE_REDIS_PREFIX": "e2e",
        "LOG_LEVEL": "INFO",
        "CONCURRENT_REQUESTS": 4,
        "WRAPX_ITEMS_TEMPLATE_POLL": 0.2,
    }
    processes = []
    for name in ("a", "b"):
        spec = {
            "start_urls": [demo_server.urljoin("/catalogue/page-1.html")],
            "settings": {**settings, "LOG_FILE": str(tmp_path / f"{name}.log")},
            "output": str(tmp_path / f"{name}.jl"),
        }
        processes.append(
            subprocess.Popen(
                [sys.executable, "-c", _CRAWLER, json.dumps(spec)],
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    outputs = []
    for process in processes:
        out, _ = process.communicate(timeout=120)
        assert process.returncode == 0
        outputs.append(json.loads(out.strip().splitlines()[-1]))
    logs = [(tmp_path / f"{name}.log").read_text() for name in ("a", "b")]
    induced = [
        line
        for log in logs
        for line in log.splitlines()
        if re.search(r"Induced template v1 of kind \S+/book-", line)
    ]
    assert len(induced) == 1, "the book template is induced by one process only"
    items = [
        [json.loads(line) for line in (tmp_path / f"{name}.jl").read_text().splitlines()]
        for name in ("a", "b")
    ]
    books = [[i for i in its if "/book/" in i["url"]] for its in items]
    # Which process emits a page depends on timing: a page one of them
    # buffered, either may emit (both run the same spider), so one of them
    # may emit all the books. Together they emit every book page.
    emitted = {_path(i["url"]) for its in books for i in its}
    assert emitted == set(demo_site.detail_pages), "every book page is emitted"
    assert len({i["kind"] for its in books for i in its}) == 1, "one shared book kind"
    assert {i["template_version"] for its in books for i in its} == {1}
    # An item leaves out its empty optional slots (a book without reviews
    # has no "rated"): the key sets may differ, but every item holds the
    # fields every book has, and no key has two shapes across the processes.
    assert all({"title", "price"} <= set(i) for its in books for i in its), "one template"
    shapes = {(k, isinstance(v, list)) for its in books for i in its for k, v in i.items()}
    assert len(shapes) == len({key for key, _ in shapes}), "both shape items by it"
    for its in items:
        assert all(fold_whitespace(str(i["url"])) for i in its)
