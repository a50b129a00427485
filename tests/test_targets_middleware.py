"""The targets spider middleware, called directly on real responses.

The demo site's original pages give the references; its redesigned pages
(wrapper elements, renamed classes, the layout table turned into divs,
cells inserted before values) are where the stored selectors break.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import scrapy
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_wrapx import Target
from scrapy_wrapx.demo import DemoSite
from scrapy_wrapx.middlewares.targets import WrapxTargetsMiddleware
from scrapy_wrapx.store import SqliteStore

TARGETS: dict[str, Any] = {
    # Single values: these selectors could select several nodes.
    "title": Target(xpath="//h1/text()", many=False),
    "price": Target(css="p.price::text", many=False),
    "publisher": Target(xpath="//table[@class='details']//tr[1]/td/text()", many=False),
    "isbn": Target(example="9784876475933"),
}


class BookSpider(scrapy.Spider):
    name = "books"
    wrapx_targets = TARGETS


@dataclass
class BookDataclass:
    title: str | None = None
    price: str | None = None
    publisher: str | None = None
    isbn: str | None = None
    extra: list[str] = field(default_factory=list)


class BookItem(scrapy.Item):
    title = scrapy.Field()
    price = scrapy.Field()
    publisher = scrapy.Field()
    isbn = scrapy.Field()


def make_middleware(
    tmp_path: Path, spidercls: type[scrapy.Spider] = BookSpider, **settings: Any
) -> WrapxTargetsMiddleware:
    crawler = get_crawler(
        spidercls,
        settings_dict={"WRAPX_STORE_SQLITE_PATH": str(tmp_path / "wrapx.sqlite3"), **settings},
    )
    crawler.spider = crawler._create_spider()
    middleware = build_from_crawler(WrapxTargetsMiddleware, crawler)
    middleware.spider_opened(crawler.spider)
    return middleware


def response(site: DemoSite, path: str, prefix: str = "") -> HtmlResponse:
    return HtmlResponse(
        url=f"http://127.0.0.1/{prefix}{path.lstrip('/')}",
        body=site.pages[path].encode("utf-8"),
        encoding="utf-8",
    )


def fill(middleware: WrapxTargetsMiddleware, item: Any, resp: Response) -> Any:
    return middleware.get_processed_item(item, resp)


def truth_of(site: DemoSite, path: str) -> dict[str, str]:
    truth = site.truth[path]
    return {name: truth[name][0] for name in TARGETS}


def test_fills_declared_fields_on_the_original_design(tmp_path: Path, demo_site: DemoSite) -> None:
    middleware = make_middleware(tmp_path)
    first = demo_site.detail_pages[0]
    assert fill(middleware, {}, response(demo_site, first)) == truth_of(demo_site, first)
    for path in demo_site.detail_pages[1:6]:
        item = fill(middleware, {}, response(demo_site, path))
        assert item == truth_of(demo_site, path)
    stats = middleware.stats.get_stats()
    assert stats["wrapx/targets/extracted_count/title"] == 6
    assert "wrapx/targets/relocated_count" not in stats


def test_relocates_on_the_redesign_and_repairs_the_selector(
    tmp_path: Path, demo_site: DemoSite, demo_site_v2: DemoSite
) -> None:
    middleware = make_middleware(tmp_path, WRAPX_TARGETS_REPAIR_AFTER=2)
    for path in demo_site.detail_pages[:3]:
        fill(middleware, {}, response(demo_site, path))
    filled = 0
    for path in demo_site_v2.detail_pages[3:9]:
        item = fill(middleware, {}, response(demo_site_v2, path, "v2/"))
        truth = truth_of(demo_site_v2, path)
        # Never a wrong value: a field is right or left unset.
        for name, value in item.items():
            assert value == truth[name], (path, name)
        filled += len(item)
    assert filled >= 0.9 * 6 * len(TARGETS)
    stats = middleware.stats.get_stats()
    assert stats["wrapx/targets/relocated_count"] >= 1
    assert stats.get("wrapx/targets/repaired_count", 0) >= 1
    # The repaired selector is persisted, with the old one in the history.
    store = SqliteStore(tmp_path / "wrapx.sqlite3")
    repaired = [
        state for key in store.keys("targets") if (state := store.get("targets", key))["history"]
    ]
    store.close()
    assert repaired
    assert all(state["selector"] != state["declared"] for state in repaired)


def test_a_new_crawl_resumes_from_the_stored_references(
    tmp_path: Path, demo_site: DemoSite, demo_site_v2: DemoSite
) -> None:
    first = make_middleware(tmp_path)
    fill(first, {}, response(demo_site, demo_site.detail_pages[0]))
    second = make_middleware(tmp_path)  # same SQLite file, fresh process state
    path = demo_site_v2.detail_pages[1]
    item = fill(second, {}, response(demo_site_v2, path, "v2/"))
    assert item["title"] == demo_site_v2.truth[path]["title"][0]


@pytest.mark.parametrize("item_type", [dict, BookDataclass, BookItem])
def test_item_types_and_callback_values_win(
    tmp_path: Path, demo_site: DemoSite, item_type: type
) -> None:
    middleware = make_middleware(tmp_path)
    path = demo_site.detail_pages[0]
    item = item_type(title="set by the callback")
    result = fill(middleware, item, response(demo_site, path))
    assert result is item
    values = dict(result) if not isinstance(result, BookDataclass) else vars(result)
    assert values["title"] == "set by the callback"
    assert values["isbn"] == demo_site.truth[path]["isbn"][0]
    assert values["price"] == demo_site.truth[path]["price"][0]


def test_non_html_responses_pass_through(tmp_path: Path) -> None:
    middleware = make_middleware(tmp_path)
    json_response = TextResponse(
        url="http://127.0.0.1/feed.json",
        body=b'{"title": "x"}',
        headers={"Content-Type": "application/json"},
        encoding="utf-8",
    )
    binary = Response(url="http://127.0.0.1/cover.png", body=b"\x89PNG\r\n\x1a\n\x00")
    assert fill(middleware, {}, json_response) == {}
    assert fill(middleware, {}, binary) == {}


def test_pages_over_the_size_cap_keep_the_spider_values(
    tmp_path: Path, demo_site: DemoSite
) -> None:
    first = demo_site.detail_pages[0]
    size = len(demo_site.pages[first].encode("utf-8"))
    middleware = make_middleware(tmp_path, WRAPX_TARGETS_MAX_BODY_SIZE=size - 1)
    assert fill(middleware, {"title": "mine"}, response(demo_site, first)) == {"title": "mine"}
    assert middleware.stats.get_value("wrapx/targets/skipped_count") == 1
    roomy = make_middleware(tmp_path, WRAPX_TARGETS_MAX_BODY_SIZE=size)
    assert fill(roomy, {}, response(demo_site, first)) == truth_of(demo_site, first)


def test_weak_relocation_is_refused_not_guessed(tmp_path: Path, demo_site: DemoSite) -> None:
    middleware = make_middleware(tmp_path, WRAPX_TARGETS_MIN_CONFIDENCE=0.99)
    fill(middleware, {}, response(demo_site, demo_site.detail_pages[0]))
    unrelated = HtmlResponse(
        url="http://127.0.0.1/about.html",
        body=b"<html><body><div><p>Nothing to see</p><p>here at all</p></div></body></html>",
        encoding="utf-8",
    )
    assert fill(middleware, {}, unrelated) == {}
    assert middleware.stats.get_value("wrapx/targets/refused_count") >= 1


def test_references_of_other_page_shapes_are_kept_for_relocation(
    tmp_path: Path, demo_site: DemoSite, demo_site_v2: DemoSite
) -> None:
    # The Winter Tide shows a rating and no publication date; The Lonely
    # Bridge the other way round. From the latter's reference alone the
    # price of the former's redesigned page cannot be relocated.
    with_rating, without_rating = "/book/the-winter-tide.html", "/book/the-lonely-bridge.html"
    assert demo_site.truth[with_rating]["rating"] and not demo_site.truth[without_rating]["rating"]
    target = response(demo_site_v2, with_rating, "v2/")
    price = demo_site_v2.truth[with_rating]["price"][0]

    alone = make_middleware(tmp_path / "alone")
    fill(alone, {}, response(demo_site, without_rating))
    assert "price" not in fill(alone, {}, target)

    both = make_middleware(tmp_path / "both")
    fill(both, {}, response(demo_site, with_rating))
    fill(both, {}, response(demo_site, without_rating))  # the current reference
    assert both.states["price"].alternates
    assert fill(both, {}, target)["price"] == price
