"""The crawl's memory stays bounded over many sites: buffered pages leave the
store a batch at a time, and templates, kinds and the page workers' tables
are kept for the few kinds and sites in use, the rest read again from the
store (issue 12). Real components throughout: SQLite files, page worker
processes, a crawl of the demo site on 127.0.0.1; no memory is measured
here (``python -m benchmarks sites`` does that), only what is asked of the
store and what is kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import pytest_twisted
from scrapy import signals
from scrapy.crawler import CrawlerRunner

from scrapy_wrapx import dom
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.store import SqliteStore
from scrapy_wrapx.unsupervised.flush import FLUSH_URL
from scrapy_wrapx.unsupervised.items import VariantItems
from scrapy_wrapx.unsupervised.kinds import KindIndex, page_signature
from scrapy_wrapx.unsupervised.routing import KindRouter
from scrapy_wrapx.unsupervised.seeds import SeedCollector
from scrapy_wrapx.unsupervised.templates import (
    KINDS,
    PENDING,
    SEEDS,
    TEMPLATE_VERSIONS,
    TEMPLATES,
    TemplateCache,
    TemplateRecord,
    load_template,
    save_template,
    seeds_key,
    stored_version,
)
from scrapy_wrapx.workers.pool import WorkerPool
from tests.conftest import DemoEndpoint
from tests.crawling import collect_items, crawl_settings
from tests.test_e2e_unsupervised import FollowSpider, _Rival


class RecordingStore(SqliteStore):
    """A SQLite store that notes how many buffered pages it is asked for at
    a time (the crawl's store, through ``WRAPX_STORE``)."""

    #: ``(limit, entries returned)`` per read of the buffer.
    peeks: ClassVar[list[tuple[int | None, int]]] = []
    #: Entries removed from the buffer per call (a batch acknowledged).
    removed: ClassVar[list[int]] = []

    def peek_list(
        self, namespace: str, key: str, *, start: int = 0, limit: int | None = None
    ) -> list[tuple[Any, Any]]:
        entries = super().peek_list(namespace, key, start=start, limit=limit)
        if namespace == PENDING:
            self.peeks.append((limit, len(entries)))
        return entries

    def remove_entries(self, namespace: str, key: str, entry_ids: list[Any]) -> None:
        if namespace == PENDING:
            self.removed.append(len(entry_ids))
        super().remove_entries(namespace, key, entry_ids)


@pytest_twisted.inlineCallbacks
def test_close_flush_emits_buffered_pages_a_batch_at_a_time(
    demo_server: DemoEndpoint, tmp_path: Path
) -> Iterator[Any]:
    # Another process induces every template, once this crawl is idle: every
    # page is buffered when the crawl ends, and the flush emits them all.
    RecordingStore.peeks.clear()
    RecordingStore.removed.clear()
    store = tmp_path / "wrapx.sqlite3"
    settings = crawl_settings(
        store,
        WRAPX_ITEMS_TEMPLATE_POLL=0.2,
        WRAPX_ITEMS_FLUSH_PAGES=3,
        WRAPX_STORE="tests.test_memory_bounds.RecordingStore",
    )
    runner = CrawlerRunner(settings)
    crawler = runner.create_crawler(FollowSpider)
    rival = _Rival(crawler, store)
    items = collect_items(crawler)
    flushes: list[str] = []
    crawler.signals.connect(
        lambda response, **_: flushes.append(response.url) if response.url == FLUSH_URL else None,
        signal=signals.response_received,
        weak=False,
    )
    yield runner.crawl(crawler, start_url=demo_server.url)
    rival.store.close()
    stats = crawler.stats.get_stats()  # type: ignore[union-attr]

    buffered = stats["wrapx/items/buffered_count"]
    assert buffered > 3 * 3
    assert len(items) == stats["wrapx/seeds/captured_count"], "no page is lost"
    assert stats["wrapx/items/from_buffer_count"] == buffered
    # The store was asked for 3 pages at a time, and each batch left it alone.
    assert RecordingStore.peeks and {limit for limit, _ in RecordingStore.peeks} == {3}
    assert max(count for _, count in RecordingStore.peeks) == 3
    assert RecordingStore.removed and max(RecordingStore.removed) <= 3
    assert sum(RecordingStore.removed) == buffered
    assert len(flushes) >= math.ceil(buffered / 3)


KIND = "shop.test/book-abc123"


def _page(title: str, price: str) -> str:
    return f"<body><div><a href='/'>Home</a></div><h1>{title}</h1><p>Price: {price}</p></body>"


TITLES = ["Dune", "Emma", "Ubik", "Kindred", "Beloved", "Carrie", "Solaris"]


def _record(kind_key: str = KIND, version: int = 1) -> TemplateRecord:
    pages = [_page(t, "1.00") for t in TITLES[:3]]
    return TemplateRecord(kind_key, version, induce_template(pages), [], 0.0, 0.0)


def _items(store: SqliteStore, flush_pages: int) -> VariantItems:
    return VariantItems(store, TemplateCache(store, poll_interval=0.0), flush_pages=flush_pages)


def test_a_flush_takes_a_batch_and_a_kill_loses_none(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "wrapx.sqlite3")
    items = _items(store, flush_pages=2)
    for n, title in enumerate(TITLES):
        items.process_extraction(KIND, None, f"http://shop.test/{n}", _page(title, "2.00"), None)
    save_template(store, _record())

    batches = items.flush_batches([KIND])
    assert sum(len(b.entry_ids) for b in batches) == 2 and items.more_to_flush
    # Killed with the batch in memory: every page is still buffered.
    assert store.list_length(PENDING, KIND) == len(TITLES)

    after_kill = _items(store, flush_pages=2)
    emitted: list[Any] = []
    while True:
        output = list(after_kill.flush([KIND]))
        if not output:
            break
        assert len(output) <= 2
        emitted.extend(output)
        for item in output:  # through the item pipelines
            after_kill.confirm(item)
    assert sorted(item["url"] for item in emitted) == [
        f"http://shop.test/{n}" for n in range(len(TITLES))
    ]
    assert store.list_length(PENDING, KIND) == 0
    store.close()


def test_ready_pages_come_out_a_batch_at_a_time(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "wrapx.sqlite3")
    items = _items(store, flush_pages=3)
    for n, title in enumerate(TITLES):
        items.process_extraction(KIND, None, f"http://shop.test/{n}", _page(title, "2.00"), None)
    save_template(store, _record())
    sizes = []
    while True:
        output = list(items.ready())
        if not output:
            break
        sizes.append(len(output))
        for item in output:
            items.confirm(item)
    assert sizes == [3, 3, 1]
    assert store.list_length(PENDING, KIND) == 0
    store.close()


def test_template_cache_keeps_the_templates_used_last(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "wrapx.sqlite3")
    keys = [f"shop.test/kind-{n}" for n in range(3)]
    for key in keys:
        save_template(store, _record(key))
    cache = TemplateCache(store, poll_interval=3600.0, max_templates=2)
    assert all(cache.get(key) is not None for key in keys)
    assert sorted(cache.known()) == keys[1:]
    # The dropped template is rebuilt (from its handle), at once.
    record = cache.get(keys[0])
    assert record is not None and record.kind_key == keys[0]
    assert sorted(cache.known()) == [keys[0], keys[2]]
    store.close()


class CountingStore(SqliteStore):
    """A SQLite store that counts the template records read (and decoded)
    from it, and the seed lists counted."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.template_reads = 0
        self.seed_counts: list[str] = []

    def get(self, namespace: str, key: str) -> Any:
        found = super().get(namespace, key)
        if namespace == TEMPLATES and found is not None:
            self.template_reads += 1
        return found

    def list_length(self, namespace: str, key: str) -> int:
        if namespace == SEEDS:
            self.seed_counts.append(key)
        return super().list_length(namespace, key)


def test_saving_a_template_reads_its_version_not_the_stored_template(tmp_path: Path) -> None:
    """A crawl of many sites saves a template per kind: the newer-version
    check reads the small version record, not the template stored before
    (hundreds of kilobytes to decode), except in a store an older
    scrapy-wrapx wrote without version records; a newer version stays."""
    store = CountingStore(tmp_path / "wrapx.sqlite3")
    key = "shop.test/kind"
    save_template(store, _record(key, 1))
    save_template(store, _record(key, 2))
    assert store.template_reads == 0
    save_template(store, _record(key, 1))
    assert stored_version(store, key) == 2
    reads = store.template_reads
    store.delete(TEMPLATE_VERSIONS, key)  # as an older scrapy-wrapx left it
    save_template(store, _record(key, 1))
    assert store.template_reads == reads + 1
    assert stored_version(store, key) is None
    assert load_template(store, key).version == 2  # type: ignore[union-attr]
    store.close()


def test_more_kinds_than_templates_kept_rebuild_none_per_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crawl of many sites meets more kinds at once than the cache keeps
    templates. A page needs its kind's handle (what a worker is sent,
    and the item's shape), which the cache keeps for every kind: pages of
    five kinds in turn, two templates kept, read no template from the
    store and rebuild none; one asked for again is rebuilt from its
    handle, not read from the store."""
    from scrapy_wrapx.template import Template

    store = CountingStore(tmp_path / "wrapx.sqlite3")
    keys = [f"site{n}.test/kind" for n in range(5)]
    for key in keys:
        save_template(store, _record(key))
    cache = TemplateCache(store, poll_interval=0.0, max_templates=2)
    first = {key: cache.handle(key) for key in keys}
    reads = store.template_reads
    assert reads == len(keys)
    rebuilt = []
    monkeypatch.setattr(Template, "from_json", lambda text: rebuilt.append(text))
    for _ in range(3):  # pages of every kind in turn, the store polled each time
        for key in keys:
            handle = cache.handle(key)
            assert handle is not None and handle.key == first[key].key  # type: ignore[union-attr]
            assert handle.shape.field_names
    assert store.template_reads == reads and not rebuilt
    assert len(cache.known()) == 2
    monkeypatch.undo()
    record = cache.get(keys[0])
    assert record is not None and record.key == first[keys[0]].key  # type: ignore[union-attr]
    assert store.template_reads == reads, "rebuilt from its handle"
    # A newer version in the store replaces the handle at the next poll.
    save_template(store, _record(keys[0], 2))
    assert cache.handle(keys[0]).version == 2  # type: ignore[union-attr]
    store.close()


def test_router_keeps_the_kinds_of_the_sites_routed_last(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "wrapx.sqlite3")
    created: list[str] = []
    index = KindIndex()
    router = KindRouter(store, index, created.append, max_sites=2)
    sites = ["a.test", "b.test", "c.test"]
    first = {}
    for site in sites:
        signature = page_signature(_page("Dune", "1.00"), f"http://{site}/book/1.html")
        first[site] = router.route(signature).key
    assert created.count("kinds/created_count") == 3
    assert index.kinds("a.test") == [] and router.expected("a.test", "/book/*.html") is None
    assert store.get_list(KINDS, "a.test"), "the dropped kinds stay in the store"
    # A page of the dropped site goes to its kind again, read from the store.
    again = router.route(page_signature(_page("Emma", "2.00"), "http://a.test/book/2.html"))
    assert again.key == first["a.test"]
    assert created.count("kinds/created_count") == 3
    assert index.kinds("b.test") == [] and index.kinds("c.test")
    assert router.own(list(first.values())) == list(first.values())
    store.close()


def test_a_site_the_router_drops_takes_its_templates_and_seed_counts_along(
    tmp_path: Path,
) -> None:
    """What is kept per kind goes with its site: a crawl of many sites keeps
    the templates and seed counts of the sites it is on, so its memory is
    flat past ``WRAPX_KINDS_CACHE_SITES`` sites; a dropped site's template
    and seed count are read from the store again when its pages come back,
    the kept sites' are not."""
    store = CountingStore(tmp_path / "wrapx.sqlite3")
    cache = TemplateCache(store, poll_interval=1e9)
    seeds = SeedCollector(store, 1, lambda *a, **k: None, lambda key: None)
    router = KindRouter(
        store, KindIndex(), lambda key: None, max_sites=2, on_forget=(cache.forget, seeds.forget)
    )
    keys = {}
    for site in ("a.test", "b.test", "c.test"):
        url = f"http://{site}/book/1.html"
        kind = router.route(page_signature(_page("Dune", "1.00"), url))
        keys[site] = kind.key
        seeds.collect(kind.key, 1, url, _page("Dune", "1.00"))
        save_template(store, _record(kind.key))
        assert cache.handle(kind.key) is not None
    assert cache.record(cache.handle(keys["c.test"])).kind_key == keys["c.test"]  # type: ignore[arg-type]
    reads, counted = store.template_reads, len(store.seed_counts)
    for site in ("b.test", "c.test"):
        assert cache.handle(keys[site]) is not None
        seeds.collect(keys[site], 1, f"http://{site}/book/2.html", _page("Emma", "2.00"))
    assert (store.template_reads, len(store.seed_counts)) == (reads, counted), "kept"
    assert keys["a.test"] not in cache.known()
    assert cache.handle(keys["a.test"]) is not None
    seeds.collect(keys["a.test"], 1, "http://a.test/book/2.html", _page("Emma", "2.00"))
    assert store.template_reads == reads + 1, "read again"
    assert store.seed_counts[counted:] == [seeds_key(keys["a.test"], 1)]
    store.close()


@pytest_twisted.inlineCallbacks
def test_workers_hold_the_templates_used_last() -> Iterator[Any]:
    templates = [
        induce_template([f"<body><h{n}>{t}</h{n}><p>{p}</p></body>" for t, p in pairs])
        for n, pairs in ((1, [("A", "1"), ("B", "2")]), (2, [("C", "3"), ("D", "4")]))
    ]
    pool = WorkerPool(1, max_templates=1)
    pool.start()
    try:
        worker = pool.workers[0]
        for n in (0, 1, 0, 1):
            tag = f"h{n + 1}"
            html = f"<body><{tag}>E{n}</{tag}><p>5</p></body>"
            extraction = yield pool.extract_html(f"http://s.test/{n}", html, templates[n])
            assert extraction.matched, n
            assert len(worker.templates) == 1
    finally:
        yield pool.close()


@pytest_twisted.inlineCallbacks
def test_workers_know_a_template_sent_by_its_handle() -> Iterator[Any]:
    """A page sent with its kind's handle reaches a real worker with the
    template's JSON once, under the handle's key; the next page of the
    kind names the key only, and the worker's extraction is the page's."""
    from scrapy_wrapx.unsupervised.templates import TemplateHandle

    record = _record()
    handle = TemplateHandle.of(record)
    pool = WorkerPool(1, max_templates=2)
    pool.start()
    sent: list[dict[str, Any]] = []
    try:
        worker = pool.workers[0]
        notify = worker.notify

        def noted(header: dict[str, Any], payload: bytes = b"") -> None:
            sent.append(header)
            notify(header, payload)

        worker.notify = noted  # type: ignore[method-assign]
        for title in TITLES[:3]:
            page = yield pool.parse("http://s.test/1", _page(title, "2.00"), handle)
            assert page.template_key == handle.key and page.extraction.matched
            assert any(title in values for values in page.extraction.fields.values())
        assert [h["template"] for h in sent if h.get("op") == "template"] == [handle.key]
        assert list(worker.templates) == [handle.key]
    finally:
        yield pool.close()


def test_worker_forgets_templates_and_numbers_paths_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scrapy_wrapx.workers import worker as worker_module
    from scrapy_wrapx.workers.worker import PageWorker

    template = induce_template([_page(t, "1.00") for t in TITLES[:3]])
    worker = PageWorker()
    worker.handle({"op": "template", "template": "k"}, template.to_json().encode())
    assert "k" in worker.templates
    assert worker.handle({"op": "forget", "template": "k"}, b"") is None
    assert "k" not in worker.templates

    monkeypatch.setattr(worker_module, "MAX_PATH_NUMBERS", 5)
    html = _page("Dune", "1.00").encode()
    first = worker.handle({"op": "page", "id": 1, "url": "http://s.test/1"}, html)
    assert first is not None and "reset_paths" not in first
    paths = len(first["new_paths"])
    assert paths > 5 and len(dom.parse(html.decode()).nodes) > 0
    second = worker.handle({"op": "page", "id": 2, "url": "http://s.test/2"}, html)
    assert second is not None and second["reset_paths"] is True
    assert len(second["new_paths"]) == paths  # numbered from 0 again


def test_worker_returns_free_memory_every_few_inductions(monkeypatch: pytest.MonkeyPatch) -> None:
    """An induction's parsed seed pages are freed in the C heap between
    templates that stay; a worker gives the free pages back to the system
    every ``TRIM_EVERY`` inductions (glibc's ``malloc_trim``, here for
    real where the C library has it), not after every one (a few
    milliseconds each)."""
    import json

    from scrapy_wrapx.workers import worker as worker_module
    from scrapy_wrapx.workers.worker import PageWorker

    trims: list[int] = []
    real = worker_module._MALLOC_TRIM

    def trim(pad: int) -> int:
        trims.append(pad)
        return real(pad) if real is not None else 0

    monkeypatch.setattr(worker_module, "_MALLOC_TRIM", trim)
    monkeypatch.setattr(worker_module, "TRIM_EVERY", 2)
    worker = PageWorker()
    pages = [{"url": f"http://s.test/{n}", "html": _page(t, "1.00")} for n, t in enumerate(TITLES)]
    payload = json.dumps({"pages": pages[:3], "previous": None, "naming": None}).encode()
    for n in range(5):
        reply = worker.handle({"op": "induce", "id": n}, payload)
        assert reply is not None and reply["ok"], reply
    assert trims == [0, 0]
