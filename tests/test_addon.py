"""The add-on installs every component, and a project's own order wins."""

from __future__ import annotations

from scrapy import Spider
from scrapy.utils.test import get_crawler

from scrapy_wrapx.addon import SEEDS_MIDDLEWARE_ORDER, TARGETS_MIDDLEWARE_ORDER
from scrapy_wrapx.extensions.induction import WrapxInductionExtension
from scrapy_wrapx.middlewares.seeds import WrapxCaptureMiddleware, WrapxSeedsMiddleware
from scrapy_wrapx.middlewares.targets import WrapxTargetsMiddleware


class _Spider(Spider):
    name = "t"


def _settings(**project: object) -> dict[str, dict[object, int]]:
    crawler = get_crawler(_Spider, {"ADDONS": {"scrapy_wrapx.Addon": 0}, **project})
    settings = crawler.settings
    return {
        name: settings.getdict(name)
        for name in ("SPIDER_MIDDLEWARES", "DOWNLOADER_MIDDLEWARES", "EXTENSIONS")
    }


def test_the_addon_installs_every_component() -> None:
    settings = _settings()
    assert settings["SPIDER_MIDDLEWARES"][WrapxTargetsMiddleware] == TARGETS_MIDDLEWARE_ORDER
    assert settings["SPIDER_MIDDLEWARES"][WrapxSeedsMiddleware] == SEEDS_MIDDLEWARE_ORDER
    assert WrapxCaptureMiddleware in settings["DOWNLOADER_MIDDLEWARES"]
    assert WrapxInductionExtension in settings["EXTENSIONS"]


def test_a_project_entry_keeps_its_order() -> None:
    path = "scrapy_wrapx.middlewares.seeds.WrapxSeedsMiddleware"
    settings = _settings(SPIDER_MIDDLEWARES={path: 123})
    middlewares = settings["SPIDER_MIDDLEWARES"]
    assert middlewares.get(path, middlewares.get(WrapxSeedsMiddleware)) == 123
    assert middlewares.get(WrapxSeedsMiddleware, 123) == 123
