"""A crawl killed (SIGKILL) in the middle of emitting buffered pages, then
run again on the same store, loses no page: real processes, a real kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.conftest import DemoEndpoint

_CRAWL = """
import json, os, signal, sys
from urllib.parse import urlsplit
import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import HtmlResponse
from scrapy_wrapx.signals import page_captured

store, out, kill_after = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = sys.argv[4]


class Follow(scrapy.Spider):
    name = "follow"
    start_urls = [start]

    def parse(self, response):
        if isinstance(response, HtmlResponse):
            for href in response.css("a::attr(href)").getall():
                if urlsplit(href).scheme in ("", "http", "https"):
                    yield response.follow(href)


def _write(file, url):
    file.write(json.dumps({"url": url}) + "\\n")
    file.flush()
    os.fsync(file.fileno())


class Record:
    # Each item is on disk before the next one is made: what a kill spares.
    def open_spider(self, spider):
        self.file = open(out, "a", encoding="utf-8")
        captured = open(out + ".captured", "a", encoding="utf-8")
        spider.crawler.signals.connect(
            lambda request, **_: _write(captured, request.url), signal=page_captured, weak=False
        )

    def process_item(self, item, spider):
        _write(self.file, item["url"])
        self.count = getattr(self, "count", 0) + 1
        if self.count == kill_after:  # all items come from the buffer here
            os.kill(os.getpid(), signal.SIGKILL)
        return item


process = CrawlerProcess({
    "ADDONS": {"scrapy_wrapx.Addon": 0},
    "ITEM_PIPELINES": {Record: 100},
    "WRAPX_STORE_SQLITE_PATH": store,
    "WRAPX_SEED_PAGES": 1000,
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
})
process.crawl(Follow)
process.start()
"""


def _crawl(tmp_path: Path, start: str, kill_after: int) -> subprocess.CompletedProcess[str]:
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root)
    args = [str(tmp_path / "s.sqlite3"), str(tmp_path / "items.jl"), str(kill_after), start]
    return subprocess.run(
        [sys.executable, "-c", _CRAWL, *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _urls(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["url"] for line in lines]


def test_a_kill_in_the_flush_loses_no_page(demo_server: DemoEndpoint, tmp_path: Path) -> None:
    # All pages wait in the buffer until the crawl ends (the seed count is
    # never reached); the crawl is killed after 5 of them came out.
    killed = _crawl(tmp_path, demo_server.url, kill_after=5)
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
    captured = set(_urls(tmp_path / "items.jl.captured"))
    first = _urls(tmp_path / "items.jl")
    assert len(captured) > 20 and 5 <= len(first) < len(captured)
    # The next crawl, of other pages of the site (the redesign), emits
    # what the killed one had left in the buffer.
    done = _crawl(tmp_path, demo_server.v2("/"), kill_after=0)
    assert done.returncode == 0, done.stderr[-2000:]
    second = _urls(tmp_path / "items.jl")[len(first) :]
    assert captured - set(first) <= set(second)
    assert any("/v2/" in url for url in second)
