"""Capture and seeds middlewares, called directly on a test crawler."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_wrapx.middlewares.seeds import WrapxCaptureMiddleware, WrapxSeedsMiddleware
from scrapy_wrapx.signals import seed_collected
from scrapy_wrapx.unsupervised.capture import CAPTURE_META
from scrapy_wrapx.unsupervised.templates import KINDS, PENDING, SEEDS, seeds_key
from tests.crawling import open_stats


class _Spider(Spider):
    name = "t"


def _crawler(tmp_path: Path, **settings: Any) -> Any:
    crawler = get_crawler(
        _Spider, {"WRAPX_STORE_SQLITE_PATH": str(tmp_path / "s.sqlite3"), **settings}
    )
    crawler.spider = crawler._create_spider()
    return crawler


def _html(url: str, body: str, status: int = 200, **meta: Any) -> HtmlResponse:
    return HtmlResponse(
        url,
        body=body.encode(),
        encoding="utf-8",
        status=status,
        headers={"Content-Type": "text/html; charset=utf-8"},
        request=Request(url, meta=meta),
    )


def test_capture_rules(tmp_path: Path) -> None:
    crawler = _crawler(tmp_path, WRAPX_SEEDS_MAX_BODY_SIZE=100)
    mw = build_from_crawler(WrapxCaptureMiddleware, crawler)
    open_stats(crawler)
    cases = {
        "ok": _html("http://s/1", "<body><p>x</p></body>"),
        "big": _html("http://s/2", "<body>" + "x" * 200 + "</body>"),
        "json": TextResponse(
            "http://s/f.json",
            body=b"{}",
            encoding="utf-8",
            headers={"Content-Type": "application/json"},
            request=Request("http://s/f.json"),
        ),
        "png": Response(
            "http://s/c.png",
            body=b"\x89PNG",
            headers={"Content-Type": "image/png"},
            request=Request("http://s/c.png"),
        ),
        "404": _html("http://s/3", "<body>gone</body>", status=404),
        "out": _html("http://s/4", "<body>x</body>", wrapx=False),
    }
    requests = {}
    for name, response in cases.items():
        # As in a crawl: the engine sets response.request after the
        # downloader middlewares.
        requests[name], response.request = response.request, None
        assert mw.process_response(requests[name], response) is response
    assert {name: r.meta[CAPTURE_META] for name, r in requests.items()} == {
        "ok": True,
        "big": False,
        "json": False,
        "png": False,
        "404": False,
        "out": False,
    }
    stats = crawler.stats.get_stats()
    assert stats["wrapx/seeds/captured_count"] == 1
    assert stats["wrapx/seeds/skipped_count/non_html"] == 2
    assert stats["wrapx/seeds/skipped_count/too_large"] == 1
    assert stats["wrapx/seeds/skipped_count/http_status"] == 1
    assert stats["wrapx/seeds/skipped_count/opted_out"] == 1


def test_disabled(tmp_path: Path) -> None:
    crawler = _crawler(tmp_path, WRAPX_SEEDS_ENABLED=False)
    for cls in (WrapxCaptureMiddleware, WrapxSeedsMiddleware):
        with pytest.raises(NotConfigured):
            build_from_crawler(cls, crawler)


def _book(n: int) -> str:
    return (
        f"<body><div class='nav'><a href='/'>Home</a></div><h1>Book {n}</h1>"
        f"<p>Price: {n}.99</p><ul>{'<li>tag</li>' * (n % 3 + 1)}</ul></body>"
    )


def _list(n: int) -> str:
    rows = "".join(
        f"<tr><td><a href='/book/{i}.html'>B{i}</a></td><td>{i}</td></tr>" for i in range(n)
    )
    return f"<body><div class='nav'><a href='/'>Home</a></div><table>{rows}</table></body>"


def _opened(tmp_path: Path, **settings: Any) -> tuple[Any, WrapxSeedsMiddleware, list[Any]]:
    crawler = _crawler(tmp_path, **settings)
    mw = build_from_crawler(WrapxSeedsMiddleware, crawler)
    seen: list[Any] = []
    crawler.signals.connect(lambda **kw: seen.append(kw), signal=seed_collected, weak=False)
    open_stats(crawler)
    mw.spider_opened(crawler.spider)
    return crawler, mw, seen


def test_routes_pages_collects_seeds_and_buffers(tmp_path: Path) -> None:
    crawler, mw, seen = _opened(tmp_path, WRAPX_SEED_PAGES=3)
    spider_output = [{"own": 1}]
    for n in range(5):
        url = f"http://shop.test/book/{n}.html"
        out = list(mw.process_spider_output(_html(url, _book(n)), iter(spider_output)))
        assert out == spider_output  # no template yet: the spider's output only
    for n in range(2):
        url = f"http://shop.test/list/page-{n}.html"
        list(mw.process_spider_output(_html(url, _list(n + 3)), iter([])))
    store = mw.state.store
    kinds = store.get_list(KINDS, "shop.test")
    assert sorted(k["url_pattern"] for k in kinds) == ["/book/*.html", "/list/page-*.html"]
    book = next(k for k in kinds if k["url_pattern"] == "/book/*.html")
    key = f"shop.test/{book['id']}"
    assert store.list_length(SEEDS, seeds_key(key, 1)) == 3  # capped at WRAPX_SEED_PAGES
    assert store.list_length(PENDING, key) == 5
    assert [s["count"] for s in seen if s["kind_key"] == key] == [1, 2, 3]
    assert crawler.stats.get_value("wrapx/kinds/created_count") == 2


def test_processes_sharing_a_store_agree_on_kinds(tmp_path: Path) -> None:
    _, first, _ = _opened(tmp_path)
    list(first.process_spider_output(_html("http://shop.test/book/1.html", _book(1)), iter([])))
    _, second, _ = _opened(tmp_path)
    list(second.process_spider_output(_html("http://shop.test/book/2.html", _book(2)), iter([])))
    assert [k.key for k in first.state.router.index.kinds()] == [
        k.key for k in second.state.router.index.kinds()
    ]
    assert second.crawler.stats.get_value("wrapx/kinds/created_count") is None


def test_without_the_capture_middleware_non_html_is_ignored(tmp_path: Path) -> None:
    _, mw, _ = _opened(tmp_path)
    response = TextResponse(
        "http://shop.test/f.json",
        body=b"{}",
        encoding="utf-8",
        headers={"Content-Type": "application/json"},
        request=Request("http://shop.test/f.json"),
    )
    assert list(mw.process_spider_output(response, iter([1]))) == [1]
    assert mw.state.store.keys(KINDS) == []


def test_closing_says_what_stays_buffered_and_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    crawler, mw, _ = _opened(tmp_path, WRAPX_SEED_PAGES=3, WRAPX_INDUCTION_MIN_PAGES=2)
    list(mw.process_spider_output(_html("http://shop.test/book/1.html", _book(1)), iter([])))
    list(mw.process_spider_output(_html("http://other.test/a/1.html", _list(3)), iter([])))
    list(mw.process_spider_output(_html("http://other.test/a/2.html", _list(4)), iter([])))
    with caplog.at_level(logging.WARNING):
        mw.spider_idle(crawler.spider)  # no template: nothing to flush, may close
        mw.spider_closed(crawler.spider)
    lines = [r.getMessage() for r in caplog.records if "stay buffered" in r.getMessage()]
    assert lines == [
        "1 pages of 1 kinds stay buffered for a later crawl: their kind has too few pages "
        "for a template (under WRAPX_INDUCTION_MIN_PAGES=2) (e.g. shop.test/"
        + lines[0].rsplit("shop.test/", 1)[1],
        "2 pages of 1 kinds stay buffered for a later crawl: their kind's template could not "
        "be induced (see the errors above) (e.g. other.test/"
        + lines[1].rsplit("other.test/", 1)[1],
    ]
    assert crawler.stats.get_value("wrapx/items/left_buffered_count") == 3
