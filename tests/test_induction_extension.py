"""The induction extension: in a worker thread, claims, re-induction."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from scrapy import Spider
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.http import HtmlResponse
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from scrapy_wrapx.extensions import WrapxInductionExtension
from scrapy_wrapx.extensions.induction import induce_from_pages
from scrapy_wrapx.signals import template_ready
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.templates import (
    CLAIMS,
    PENDING,
    SEEDS,
    TemplateRecord,
    load_template,
    save_template,
    seeds_key,
)
from tests.crawling import open_stats

KIND = "shop.test/book-abc123"


class _Spider(Spider):
    name = "t"


def _book(title: str, price: str, label: str = "Price") -> str:
    return f"<body><h1>{title}</h1><p>{label}: {price}</p><i>Shop</i></body>"


def _extension(tmp_path: Path, **settings: Any) -> tuple[Any, WrapxInductionExtension, list]:
    crawler = get_crawler(
        _Spider,
        {"WRAPX_STORE_SQLITE_PATH": str(tmp_path / "s.sqlite3"), "WRAPX_SEED_PAGES": 3, **settings},
    )
    crawler.spider = crawler._create_spider()
    open_stats(crawler)
    ext = build_from_crawler(WrapxInductionExtension, crawler)
    ready: list[Any] = []
    crawler.signals.connect(
        lambda record, **_: ready.append(record), signal=template_ready, weak=False
    )
    ext.spider_opened(crawler.spider)
    return crawler, ext, ready


def _seed(ext: WrapxInductionExtension, version: int, pages: list[str]) -> None:
    assert ext.store is not None
    for n, html in enumerate(pages):
        count = ext.store.append(
            SEEDS,
            seeds_key(KIND, version),
            {"url": f"http://shop.test/book/{version}-{n}.html", "html": html},
        )
        ext.seed_collected(KIND, version, count, None)  # type: ignore[arg-type]


def _wait(ext: WrapxInductionExtension) -> Any:
    from twisted.internet import reactor, task

    return task.deferLater(reactor, 0.05, lambda: None)


@pytest_twisted.inlineCallbacks
def test_the_crawl_thread_stores_an_induced_template_as_induction_made_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    """The template is encoded once, where it is induced (off the reactor
    thread); the reactor thread stores it and hands it on as that JSON,
    neither encoding it again nor rebuilding it from JSON (milliseconds
    each, per template: most of what a crawl of many sites spent on its
    templates)."""
    import threading

    converted: list[tuple[str, bool]] = []
    for name in ("to_json", "from_json", "from_data"):
        original = getattr(Template, name)

        def spy(*args: Any, _name: str = name, _original: Any = original) -> Any:
            on_reactor = threading.current_thread() is threading.main_thread()
            converted.append((_name, on_reactor))
            return _original(*args)

        monkeypatch.setattr(Template, name, spy if name == "to_json" else staticmethod(spy))
    _, ext, ready = _extension(tmp_path)
    _seed(ext, 1, [_book("Dune", "9.99"), _book("Emma", "4.50"), _book("Ubik", "7.25")])
    deadline = time.monotonic() + 20
    while ext.running and time.monotonic() < deadline:
        yield _wait(ext)
    assert [r.version for r in ready] == [1]
    assert ("to_json", False) in converted  # encoded where it was induced
    assert [c for c in converted if c[1]] == []
    assert ext.store is not None
    stored = load_template(ext.store, KIND)
    assert stored is not None and stored.template.field_names == ready[0].template.field_names


@pytest_twisted.inlineCallbacks
def test_induces_in_a_thread_once_seeds_are_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    import threading

    from scrapy_wrapx.extensions import induction

    calls: list[tuple[Any, bool]] = []
    original = induction.induce_from_pages

    def spy(pages: Any, previous: Any, naming: Any = None) -> Any:
        calls.append((previous, threading.current_thread() is threading.main_thread()))
        return original(pages, previous, naming)

    monkeypatch.setattr(induction, "induce_from_pages", spy)
    crawler, ext, ready = _extension(tmp_path)
    _seed(ext, 1, [_book("Dune", "9.99"), _book("Emma", "4.50")])
    assert not ext.running
    _seed(ext, 1, [_book("Ubik", "7.25")])
    assert (KIND, 1) in ext.running
    deadline = time.monotonic() + 20
    while ext.running and time.monotonic() < deadline:
        yield _wait(ext)
    assert ext.store is not None
    record = load_template(ext.store, KIND)
    assert record is not None and record.version == 1
    assert [r.version for r in ready] == [1]
    assert ext.store.get(CLAIMS, seeds_key(KIND, 1)) is None  # released
    assert crawler.stats.get_value("wrapx/induction/induced_count") == 1
    assert calls == [(None, False)]  # off the reactor thread
    first_names = set(record.template.field_names)
    assert first_names

    # A redesign: most pages fail to match; the failing pages re-induce v2
    # with the old names kept.
    for _ in range(6):
        ext.page_extracted(KIND, 1, False, None)  # type: ignore[arg-type]
    assert not ext.running  # no fresh seeds yet
    _seed(
        ext,
        2,
        [
            _book(t, p).replace("<h1>", "<div><b>New!</b><h1>").replace("</h1>", "</h1></div>")
            for t, p in [("Solaris", "3.00"), ("Kindred", "5.10"), ("Beloved", "6.20")]
        ],
    )
    assert (KIND, 2) in ext.running
    while ext.running and time.monotonic() < deadline:
        yield _wait(ext)
    record = load_template(ext.store, KIND)
    assert record is not None and record.version == 2
    assert calls[1][0] is not None  # the old template, so names stay stable
    assert first_names & set(record.template.field_names)
    assert crawler.stats.get_value("wrapx/induction/reinduced_count") == 1


def test_another_process_claim_is_respected_until_stale(tmp_path: Path) -> None:
    _, ext, _ = _extension(tmp_path, WRAPX_INDUCTION_CLAIM_TIMEOUT=60)
    assert ext.store is not None
    ext.store.add(CLAIMS, seeds_key(KIND, 1), {"owner": "other:1", "at": time.time()})
    _seed(ext, 1, [_book("Dune", "9.99"), _book("Emma", "4.50"), _book("Ubik", "7.25")])
    assert not ext.running
    ext.store.set(CLAIMS, seeds_key(KIND, 1), {"owner": "other:1", "at": time.time() - 600})
    assert ext._claim(KIND, 1)
    assert ext.store.get(CLAIMS, seeds_key(KIND, 1))["owner"] != "other:1"


def test_idle_induces_small_kinds_and_keeps_the_spider_open(tmp_path: Path) -> None:
    _, ext, _ = _extension(tmp_path, WRAPX_INDUCTION_MIN_PAGES=2)
    assert ext.store is not None
    for n, html in enumerate([_book("Dune", "9.99"), _book("Emma", "4.50")]):
        ext.store.append(SEEDS, seeds_key(KIND, 1), {"url": f"http://shop.test/{n}", "html": html})
    ext.store.append(PENDING, KIND, {"url": "http://shop.test/0", "html": None, "version": 0})
    with pytest.raises(DontCloseSpider):
        ext.spider_idle(None)  # type: ignore[arg-type]
    assert (KIND, 1) in ext.running


def test_idle_waits_for_a_template_another_process_induces(tmp_path: Path) -> None:
    # Pages of the kind are buffered here, its seeds are in, and another
    # process holds the claim: the crawl must not end before the template is.
    _, ext, ready = _extension(tmp_path)
    assert ext.store is not None
    pages = [_book("Dune", "9.99"), _book("Emma", "4.50"), _book("Ubik", "7.25")]
    ext.store.add(CLAIMS, seeds_key(KIND, 1), {"owner": "other:1", "at": time.time()})
    _seed(ext, 1, pages)
    ext.store.append(PENDING, KIND, {"url": "http://shop.test/0", "html": None, "version": 0})
    ext.spider_idle(None)  # type: ignore[arg-type]  # another site's template: no wait
    ext.response_received(HtmlResponse("http://shop.test/0", body=b"<p>"))
    for _ in range(2):
        with pytest.raises(DontCloseSpider):
            ext.spider_idle(None)  # type: ignore[arg-type]
    assert not ext.running and not ready

    # The other process saves the template and drops its claim.
    induced = induce_from_pages(ext.store.get_list(SEEDS, seeds_key(KIND, 1)), previous=None)
    save_template(ext.store, TemplateRecord.induced(induced, KIND, 1, []))
    ext.store.delete(CLAIMS, seeds_key(KIND, 1))
    ext.spider_idle(None)  # type: ignore[arg-type]
    assert [r.version for r in ready] == [1]
    assert not ext.running and not ext.awaited


def test_idle_induces_what_another_process_gave_up(tmp_path: Path) -> None:
    _, ext, _ = _extension(tmp_path)
    assert ext.store is not None
    ext.store.add(CLAIMS, seeds_key(KIND, 1), {"owner": "other:1", "at": time.time()})
    _seed(ext, 1, [_book("Dune", "9.99"), _book("Emma", "4.50"), _book("Ubik", "7.25")])
    ext.response_received(HtmlResponse("http://shop.test/0", body=b"<p>"))
    with pytest.raises(DontCloseSpider):
        ext.spider_idle(None)  # type: ignore[arg-type]
    ext.store.delete(CLAIMS, seeds_key(KIND, 1))  # it failed, or died and was cleaned up
    with pytest.raises(DontCloseSpider):
        ext.spider_idle(None)  # type: ignore[arg-type]
    assert (KIND, 1) in ext.running and not ext.awaited


def test_bad_settings(tmp_path: Path) -> None:
    with pytest.raises(NotConfigured):
        build_from_crawler(
            WrapxInductionExtension, get_crawler(_Spider, {"WRAPX_INDUCTION_ENABLED": False})
        )
    crawler = get_crawler(_Spider, {"WRAPX_INDUCTION_REINDUCE_SHARE": 0})
    with pytest.raises(ValueError, match="WRAPX_INDUCTION_REINDUCE_SHARE"):
        build_from_crawler(WrapxInductionExtension, crawler)


def test_a_template_saved_just_before_the_claim_is_not_induced_again(tmp_path: Path) -> None:
    """The other process saves its template and drops its claim after this
    one looked for the template and before it claims: this one must use
    that template, not induce it a second time. The interleaving is made
    exact by saving the template when the claim is added."""
    _, ext, ready = _extension(tmp_path)
    store = ext.store
    assert store is not None
    pages = [_book("Dune", "9.99"), _book("Emma", "4.50"), _book("Ubik", "7.25")]
    for n, html in enumerate(pages):
        store.append(SEEDS, seeds_key(KIND, 1), {"url": f"http://shop.test/{n}", "html": html})
    induced = induce_from_pages(store.get_list(SEEDS, seeds_key(KIND, 1)), None)
    add = store.add

    def add_after_the_other_process(family: str, key: str, value: Any) -> bool:
        if family == CLAIMS:
            save_template(store, TemplateRecord.induced(induced, KIND, 1, []))
        return add(family, key, value)

    store.add = add_after_the_other_process  # type: ignore[method-assign]
    assert not ext.start(KIND, 1)
    assert not ext.running and [r.version for r in ready] == [1]
    assert store.get(CLAIMS, seeds_key(KIND, 1)) is None


def test_recent_outcomes_are_kept_for_the_kinds_with_pages_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crawl of many sites moves on from each site's kinds: the outcomes
    that decide a re-induction are kept for the kinds with pages last, so
    the extension's memory does not grow with every kind of the crawl."""
    from scrapy_wrapx.extensions import induction

    monkeypatch.setattr(induction, "MAX_WATCHED_KINDS", 3)
    _, ext, _ = _extension(tmp_path)
    for n in range(5):
        ext.page_extracted(f"site{n}.test/kind", 1, True, None)  # type: ignore[arg-type]
    ext.page_extracted("site2.test/kind", 1, False, None)  # type: ignore[arg-type]
    ext.page_extracted("site5.test/kind", 1, True, None)  # type: ignore[arg-type]
    assert list(ext.outcomes) == ["site4.test/kind", "site2.test/kind", "site5.test/kind"]
    assert list(ext.outcomes["site2.test/kind"]) == [True, False]
