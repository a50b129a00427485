"""A Redis store that goes away mid-crawl: pages are held in memory and
processed once it is back, or counted as lost, with a finish reason that
says so. A real redis-server, stopped and started again by the crawl."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from scrapy import signals
from scrapy.crawler import CrawlerRunner

from scrapy_wrapx.signals import page_captured as page_captured_signal
from tests.conftest import DemoEndpoint, _free_port
from tests.crawling import collect_items, crawl_settings
from tests.test_e2e_unsupervised import FollowSpider


class _Redis:
    """A redis-server that keeps its data across a stop (append-only file)."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (.ci/ensure-redis installs it)")
        self.binary, self.workdir, self.port = binary, workdir, _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        options = ["--save", "", "--appendonly", "yes", "--appendfsync", "always"]
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.workdir),
                *options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(host="127.0.0.1", port=self.port)
        for _ in range(400):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.025)
        client.close()

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def _outage(crawler: Any, server: _Redis, down_at: int, restart: bool) -> None:
    """Stop the server when the ``down_at``-th page is captured (so that
    page needs the store while it is away: no page of this crawl reaches a
    template, see ``WRAPX_SEED_PAGES`` below); with ``restart``, start it
    again once pages are held, or when the crawl goes idle waiting for it."""
    seen = {"pages": 0}

    def page_captured(**_: Any) -> None:
        seen["pages"] += 1
        if seen["pages"] == down_at:
            server.stop()

    def maybe_restart(**_: Any) -> None:
        held = crawler.stats.get_value("wrapx/items/held_in_memory_count") or 0
        if restart and server.process is None and seen["pages"] >= down_at and held >= 3:
            server.start()

    def idle(**_: Any) -> None:
        if restart and server.process is None and seen["pages"] >= down_at:
            server.start()

    crawler.signals.connect(page_captured, signal=page_captured_signal, weak=False)
    crawler.signals.connect(maybe_restart, signal=signals.response_received, weak=False)
    crawler.signals.connect(idle, signal=signals.spider_idle, weak=False)


def _settings(tmp_path: Path, server: _Redis, **more: Any) -> dict[str, Any]:
    return crawl_settings(
        tmp_path / "unused.sqlite3",
        WRAPX_STORE="scrapy_wrapx.store.redis.RedisStore",
        WRAPX_STORE_REDIS_URL=server.url,
        WRAPX_STORE_REDIS_TIMEOUT=2.0,
        # Every page needs the store: no kind reaches a template before the
        # crawl ends, so each page is stored as a seed and buffered.
        WRAPX_SEED_PAGES=1000,
        LOG_LEVEL="WARNING",
        **more,
    )


@pytest_twisted.inlineCallbacks
def test_pages_seen_while_the_store_is_away_become_items(
    demo_server: DemoEndpoint, tmp_path: Path
) -> Iterator[Any]:
    server = _Redis(tmp_path)
    server.start()
    try:
        runner = CrawlerRunner(_settings(tmp_path, server))
        crawler = runner.create_crawler(FollowSpider)
        items = collect_items(crawler)
        captured: list[str] = []
        crawler.signals.connect(
            lambda response, **_: captured.append(response.url),
            signal=signals.response_received,
            weak=False,
        )
        _outage(crawler, server, down_at=5, restart=True)
        yield runner.crawl(crawler, start_url=demo_server.url)
        stats = crawler.stats.get_stats()  # type: ignore[union-attr]
    finally:
        server.stop()
    assert stats["finish_reason"] == "finished"
    assert stats["wrapx/items/held_in_memory_count"] > 0
    assert "wrapx/items/lost_count" not in stats
    # Every captured page has its item: none lost to the outage.
    assert stats["wrapx/seeds/captured_count"] > 20
    assert {item["url"] for item in items} >= {
        url for url in captured if url.endswith(".html") and "/author/" not in url
    }


@pytest_twisted.inlineCallbacks
def test_a_store_that_stays_away_ends_the_crawl_with_a_reason(
    demo_server: DemoEndpoint, tmp_path: Path
) -> Iterator[Any]:
    server = _Redis(tmp_path)
    server.start()
    try:
        runner = CrawlerRunner(_settings(tmp_path, server, WRAPX_STORE_RETRY_TIMEOUT=1.0))
        crawler = runner.create_crawler(FollowSpider)
        _outage(crawler, server, down_at=5, restart=False)
        yield runner.crawl(crawler, start_url=demo_server.url)
        stats = crawler.stats.get_stats()  # type: ignore[union-attr]
    finally:
        server.stop()
    assert stats["finish_reason"] == "wrapx_store_unavailable"
    assert stats["wrapx/items/lost_count"] == stats["wrapx/items/held_in_memory_count"] > 0
