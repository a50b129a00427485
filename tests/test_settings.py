"""Settings are checked when a component starts: a bad one stops the crawl
with an error that names it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from scrapy import Spider
from scrapy.crawler import CrawlerRunner
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_wrapx.extensions.induction import WrapxInductionExtension
from scrapy_wrapx.middlewares.seeds import WrapxCaptureMiddleware, WrapxSeedsMiddleware
from scrapy_wrapx.settings import check_settings
from tests.crawling import crawl_settings


class _Spider(Spider):
    name = "t"


BAD = [
    ({"WRAPX_ITEMS_WORKERS": "two"}, "WRAPX_ITEMS_WORKERS='two'"),
    ({"WRAPX_SEEDS_MAX_BODY_SIZE": -1}, "WRAPX_SEEDS_MAX_BODY_SIZE=-1"),
    ({"WRAPX_SEED_PAGES": 0}, "WRAPX_SEED_PAGES=0"),
    ({"WRAPX_ITEMS_WORKER_TIMEOUT": "soon"}, "WRAPX_ITEMS_WORKER_TIMEOUT='soon'"),
    ({"WRAPX_ITEMS_ENABLED": "maybe"}, "WRAPX_ITEMS_ENABLED='maybe'"),
]


@pytest.mark.parametrize(("settings", "named"), BAD)
def test_a_bad_setting_is_refused_by_every_component(settings: dict[str, Any], named: str) -> None:
    crawler = get_crawler(_Spider, settings)
    with pytest.raises(ValueError, match=named.replace("(", r"\(")):
        check_settings(crawler.settings)
    for component in (WrapxCaptureMiddleware, WrapxSeedsMiddleware, WrapxInductionExtension):
        with pytest.raises(ValueError, match="WRAPX_"):
            build_from_crawler(component, crawler)


def test_good_settings_pass() -> None:
    check_settings(get_crawler(_Spider, {"WRAPX_ITEMS_WORKERS": "2"}).settings)
    check_settings(get_crawler(_Spider, {}).settings)


@pytest_twisted.inlineCallbacks
def test_a_crawl_with_a_bad_setting_does_not_start(tmp_path: Path) -> Iterator[Any]:
    settings = crawl_settings(tmp_path / "s.sqlite3", WRAPX_ITEMS_WORKERS="two")
    runner = CrawlerRunner({**settings, "ADDONS": {"scrapy_wrapx.Addon": 0}})
    with pytest.raises(ValueError, match="WRAPX_ITEMS_WORKERS='two'"):
        yield runner.crawl(_Spider)
