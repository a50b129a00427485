"""Targets after a site redesign: references from one crawl of the shop of
:mod:`tests.test_targets_shop`, then crawls of its redesigned pages (new
classes, the old price struck through before the price, a promo heading of
the title's tag, a country row before the brand, variants and reviews as
divs, no review block when there are none).

What a user may trust: nearly every value right, a wrong or invented value
rarer than one in a hundred, and none with a confidence of 0.9 or more; a
field the locator cannot place stays unset.
"""

from __future__ import annotations

import functools
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_wrapx.middlewares.targets import WrapxTargetsMiddleware
from tests.shop import PAGES, Product, build_shop, shop_spider

CONFIDENCE = "_confidence"


def _middleware(store: Path, spidercls: type[Any]) -> WrapxTargetsMiddleware:
    crawler = get_crawler(
        spidercls,
        settings_dict={
            "WRAPX_STORE_SQLITE_PATH": str(store),
            "WRAPX_TARGETS_CONFIDENCE_FIELD": CONFIDENCE,
            "WRAPX_TARGETS_HOLD_ITEMS": 0,
        },
    )
    crawler.spider = crawler._create_spider(base_url="http://127.0.0.1")
    middleware = build_from_crawler(WrapxTargetsMiddleware, crawler)
    middleware.spider_opened(crawler.spider)
    return middleware


def crawl(store: Path, spidercls: type[Any], products: dict[str, Product]) -> list[dict[str, Any]]:
    """One crawl of ``products`` (in path order) through the middleware."""
    middleware = _middleware(store, spidercls)
    items = []
    for path, product in products.items():
        url = f"http://127.0.0.1{path}"
        response = HtmlResponse(url=url, body=product.html.encode(), encoding="utf-8")
        items.append(middleware.get_processed_item({"url": url}, response))
    spider = middleware.crawler.spider
    assert spider is not None
    middleware.spider_closed(spider)
    return items


def verdicts(
    items: list[dict[str, Any]], products: dict[str, Product]
) -> list[tuple[str, str, float | None]]:
    """Per (item, field): ``right``, ``unset`` (a value was there),
    ``wrong`` or ``invented`` (there was none), and its confidence."""
    found = []
    for item in items:
        truth = products[item["url"].removeprefix("http://127.0.0.1")].truth
        confidences = item.get(CONFIDENCE) or {}
        for name, want in truth.items():
            got = item.get(name)
            found.append((_verdict(got, want), name, confidences.get(name)))
    return found


def _verdict(got: Any, want: Any) -> str:
    if got == want or (got is None and want is None):
        return "right"
    if not got:
        return "unset"
    return "wrong" if want else "invented"


@functools.cache
def redesign_run(seed: int) -> tuple[tuple[tuple[str, str, float | None], ...], ...]:
    """Verdicts of three crawls of the redesigned shop after one of the
    original one (a fresh store each time this runs)."""
    original, _ = build_shop(seed)
    redesigned, _ = build_shop(seed, redesigned=True)
    late = list(original.values())[PAGES - 3]
    spidercls = shop_spider(late.truth["sku"], late.truth["brand"])
    with tempfile.TemporaryDirectory() as directory:
        store = Path(directory) / "wrapx.sqlite3"
        crawl(store, spidercls, original)
        return tuple(
            tuple(verdicts(crawl(store, spidercls, redesigned), redesigned)) for _ in range(3)
        )


def _summary(found: tuple[tuple[str, str, float | None], ...]) -> tuple[float, float, list[Any]]:
    """The share of right values, of wrong or invented ones, and the wrong
    or invented ones with a confidence of 0.9 or more."""
    counts = Counter(verdict for verdict, _, _ in found)
    bad = [(v, n, c) for v, n, c in found if v in ("wrong", "invented")]
    confident = [b for b in bad if b[2] is not None and b[2] >= 0.9]
    print(dict(counts), Counter((v, n) for v, n, _ in found if v != "right"))
    return counts["right"] / len(found), len(bad) / len(found), confident


#: Seeds 1 and 2 are the shop tests' (and were looked at while building the
#: rules); so were 7, 11, 12 and 13 later. None of them is a calibration
#: seed; seeds from 31 on are kept for reporting.
SEEDS = [1, 2, 7]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_redesign_gives_mostly_right_values(seed: int) -> None:
    """What the locator reaches today on this redesign."""
    for found in redesign_run(seed):
        right, bad, _ = _summary(found)
        assert right >= 0.92
        assert bad <= 0.04


@pytest.mark.parametrize("seed", [*SEEDS, 11, 12, 13])
def test_a_redesign_meets_the_goal(seed: int) -> None:
    """The goal: 95% right, at most 1% wrong or invented, none of them with
    a confidence of 0.9 or more."""
    for found in redesign_run(seed):
        right, bad, confident = _summary(found)
        assert not confident, confident[:5]
        assert bad <= 0.01
        assert right >= 0.95


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_no_node_is_the_value_of_two_targets(seed: int) -> None:
    """A redesigned page without variants or reviews: their relocations land
    on the price, the badge or another list's members, which other targets
    hold; they stay empty instead (see scrapy_wrapx.locate.exclusive)."""
    first = redesign_run(seed)[0]
    bad = [(name, c) for v, name, c in first if v in ("wrong", "invented")]
    lists = [b for b in bad if b[0] in ("variant_prices", "variant_colours", "reviewers")]
    assert len(lists) <= 4, lists  # 9 to 17 before
    invented = [name for verdict, name, _ in first if verdict == "invented"]
    assert invented.count("variant_prices") == 0
    assert invented.count("variant_colours") == 0
