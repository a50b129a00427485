"""The variant-data pipeline: item building, buffering, bounds, flushing."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any

import pytest
import scrapy

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.store import SqliteStore
from scrapy_wrapx.template import Elem, Extraction, FieldInfo, Template
from scrapy_wrapx.unsupervised.items import VariantItems, build_item
from scrapy_wrapx.unsupervised.seeds import SeedCollector
from scrapy_wrapx.unsupervised.templates import (
    PENDING,
    SEEDS,
    TemplateCache,
    TemplateHandle,
    TemplateRecord,
    seeds_key,
)

KIND = "shop.test/book-abc123"


def _page(title: str, price: str, tags: list[str]) -> str:
    items = "".join(f"<li>{t}</li>" for t in tags)
    return (
        f"<body><div id='nav'><a href='/'>Home</a></div><h1>{title}</h1>"
        f"<p>Price: {price}</p><ul>{items}</ul></body>"
    )


PAGES = [
    _page("Dune", "9.99", ["sf", "epic"]),
    _page("Emma", "4.50", ["classic"]),
    _page("Ubik", "7.25", ["sf", "odd", "60s"]),
]


@pytest.fixture
def store(tmp_path: Path) -> Any:
    made = SqliteStore(tmp_path / "p.sqlite3")
    yield made
    made.close()


def _record(version: int = 1, kind_key: str = KIND) -> TemplateRecord:
    return TemplateRecord(kind_key, version, induce_template(PAGES), ["u1"], 0.0, 0.0)


def _pipeline(
    store: SqliteStore, seed_pages: int = 5, **kwargs: Any
) -> tuple[VariantItems, list[Any]]:
    sent: list[Any] = []

    def send(signal: object, **kw: Any) -> None:
        sent.append((signal, kw))

    pipeline = VariantItems(
        store,
        TemplateCache(store, poll_interval=0.0),
        seeds=SeedCollector(store, seed_pages, send, lambda key: None),
        send=send,
        refetch=lambda url: ("refetch", url),
        **kwargs,
    )
    return pipeline, sent


def _tree(html: str, url: str) -> dom.PageTree:
    return dom.parse(html, url=url)


EXTRACTION = Extraction(
    {"title": ["Dune"], "url": ["/x"], "price": [], "tag": ["sf"], "note": [], "by": ["A"]},
    {"tags": [{"tag": "sf"}], "authors": [{"by": "A", "note": ""}]},
    1.0,
    True,
)
#: The template of :data:`EXTRACTION`: the shape comes from its field infos.
TEMPLATE = Template(
    Elem("body", {}, []),
    [
        FieldInfo("title", 1, "0"),
        FieldInfo("url", 2, "href"),
        FieldInfo("price", 3, "0"),
        FieldInfo("tag", 4, "0", set="tags"),
        FieldInfo("by", 5, "0", set="authors"),
        FieldInfo("note", 6, "0", set="authors"),
    ],
)


def test_dict_items_are_flat_and_rename_reserved_names() -> None:
    item = build_item(None, "http://s/1", KIND, 2, EXTRACTION, TEMPLATE)
    assert item == {
        "url": "http://s/1",
        "kind": KIND,
        "template_version": 2,
        "partial": False,
        "title": "Dune",
        "field_url": "/x",
        "tag": ["sf"],
        "authors": [{"by": "A"}],
    }


class BookItem(scrapy.Item):
    url = scrapy.Field()
    kind = scrapy.Field()
    title = scrapy.Field()
    fields = scrapy.Field()


@dataclasses.dataclass
class BookData:
    url: str = ""
    template_version: int = 0
    authors: list[Any] = dataclasses.field(default_factory=list)


def test_declared_item_classes_get_their_fields() -> None:
    item = build_item(BookItem, "http://s/1", KIND, 2, EXTRACTION, TEMPLATE)
    assert isinstance(item, BookItem)
    assert dict(item) == {
        "url": "http://s/1",
        "kind": KIND,
        "title": "Dune",
        "fields": {"field_url": "/x", "tag": ["sf"], "authors": [{"by": "A"}]},
    }
    data = build_item(BookData, "http://s/1", KIND, 2, EXTRACTION, TEMPLATE)
    assert data == BookData("http://s/1", 2, [{"by": "A"}])


def test_pages_wait_for_their_template_then_come_out(store: SqliteStore) -> None:
    pipeline, _ = _pipeline(store)
    html = _page("Solaris", "3.00", ["sf", "polish"])
    assert list(pipeline.process_page(KIND, _tree(html, "http://s/a"), "http://s/a", html)) == []
    assert store.list_length(PENDING, KIND) == 1
    store.set("templates", KIND, _record().to_dict())
    html2 = _page("Kindred", "5.00", ["sf"])
    out = list(pipeline.process_page(KIND, _tree(html2, "http://s/b"), "http://s/b", html2))
    assert [item["url"] for item in out] == ["http://s/a", "http://s/b"]
    assert out[0]["template_version"] == 1
    values = {v for item in out for vs in item.values() if isinstance(vs, list) for v in vs}
    values |= {v for item in out for v in item.values() if isinstance(v, str)}
    assert {"Solaris", "Kindred", "3.00", "polish"} <= values
    pipeline.confirm(out[0])  # through the item pipelines
    assert store.list_length(PENDING, KIND) == 0


def test_bounded_buffer_keeps_urls_and_refetches(store: SqliteStore) -> None:
    pipeline, _ = _pipeline(store, buffer_pages=1)
    for n in range(3):
        html = _page(f"T{n}", "1.00", ["x"])
        list(pipeline.process_page(KIND, _tree(html, f"http://s/{n}"), f"http://s/{n}", html))
    entries = store.get_list(PENDING, KIND)
    assert [e["html"] is None for e in entries] == [False, True, True]
    store.set("templates", KIND, _record().to_dict())
    out = list(pipeline.flush([KIND]))
    assert out[0]["url"] == "http://s/0"
    assert out[1:] == [("refetch", "http://s/1"), ("refetch", "http://s/2")]


def test_unmatched_pages_become_seeds_of_the_next_version(store: SqliteStore) -> None:
    store.set("templates", KIND, _record().to_dict())
    pipeline, sent = _pipeline(store, seed_pages=2)
    odd = "<body><table><tr><td>a</td><td>b</td></tr></table><form><input value='q'></form></body>"
    assert list(pipeline.process_page(KIND, _tree(odd, "http://s/odd"), "http://s/odd", odd)) == []
    assert store.list_length(SEEDS, seeds_key(KIND, 2)) == 1
    kinds_of_signals = [kw for _, kw in sent]
    assert {"kind_key": KIND, "version": 1, "matched": False} in kinds_of_signals
    assert {"kind_key": KIND, "version": 2, "count": 1} in kinds_of_signals
    assert list(pipeline.ready()) == []  # waits for version 2...
    out = list(pipeline.flush([KIND]))  # ...or the end of the crawl
    assert [item["url"] for item in out] == ["http://s/odd"]


def test_invalid_buffered_entries_are_dropped(
    store: SqliteStore, caplog: pytest.LogCaptureFixture
) -> None:
    store.set("templates", KIND, _record().to_dict())
    store.append(PENDING, KIND, {"url": 3})
    store.append(PENDING, KIND, {"url": "http://s/x", "html": PAGES[0], "version": 0})
    pipeline, _ = _pipeline(store)
    with caplog.at_level(logging.WARNING):
        out = list(pipeline.flush([KIND]))
    assert [item["url"] for item in out] == ["http://s/x"]
    assert "invalid buffered page" in caplog.text


def test_bad_buffer_bound() -> None:
    with pytest.raises(ValueError, match="-1"):
        VariantItems(None, None, buffer_pages=-1)  # type: ignore[arg-type]


def test_buffered_pages_leave_the_buffer_only_once_their_items_are_out(
    store: SqliteStore,
) -> None:
    pipeline, _ = _pipeline(store)
    for n, title in enumerate(["Solaris", "Kindred", "Beloved"]):
        html = _page(title, "1.00", ["x"])
        list(pipeline.process_page(KIND, _tree(html, f"http://s/{n}"), f"http://s/{n}", html))
    store.set("templates", KIND, _record().to_dict())
    flushing = pipeline.flush([KIND])
    first = next(flushing)
    # The first item is out; a kill now must leave every page buffered.
    assert first["url"] == "http://s/0"
    assert store.list_length(PENDING, KIND) == 3
    # Taken pages are not taken twice by this process meanwhile...
    assert list(pipeline.flush([KIND])) == []
    rest = list(flushing)
    assert [item["url"] for item in rest] == ["http://s/1", "http://s/2"]
    # ...and leave the buffer once each of the batch's items went through
    # the item pipelines.
    for item in [first, *rest[:1]]:
        pipeline.confirm(item)
    assert store.list_length(PENDING, KIND) == 3
    pipeline.confirm(rest[1])
    assert store.list_length(PENDING, KIND) == 0


def test_a_page_buffered_while_a_batch_is_out_stays(store: SqliteStore) -> None:
    pipeline, _ = _pipeline(store)
    html = _page("Solaris", "1.00", ["x"])
    list(pipeline.process_page(KIND, _tree(html, "http://s/0"), "http://s/0", html))
    store.set("templates", KIND, _record().to_dict())
    batches = pipeline.flush_batches([KIND])
    store.append(PENDING, KIND, {"url": "http://s/late", "html": html, "version": 0})
    items = pipeline.finish_batch(
        batches[0], [pipeline.extract_entry(batches[0], e) for e in batches[0].pages]
    )
    pipeline.acknowledge(batches)
    assert [item["url"] for item in items] == ["http://s/0"]
    assert store.list_length(PENDING, KIND) == 2  # until the item is through
    pipeline.confirm(items[0])
    assert [entry["url"] for entry in store.get_list(PENDING, KIND)] == ["http://s/late"]


def test_a_spider_emits_its_own_buffered_pages_only(store: SqliteStore) -> None:
    mine, _ = _pipeline(store, owner="books")
    theirs, _ = _pipeline(store, owner="authors")
    html = _page("Solaris", "1.00", ["x"])
    list(mine.process_page(KIND, _tree(html, "http://s/mine"), "http://s/mine", html))
    list(theirs.process_page(KIND, _tree(html, "http://s/theirs"), "http://s/theirs", html))
    store.append(PENDING, KIND, {"url": "http://s/old", "html": html, "version": 0})  # no owner
    store.set("templates", KIND, _record().to_dict())
    assert mine.flushable([KIND]) == [KIND]
    out = list(mine.flush([KIND]))
    assert sorted(item["url"] for item in out) == ["http://s/mine", "http://s/old"]
    for item in out:
        mine.confirm(item)
    # Nothing of this spider's is left: no flush to ask for, whatever the
    # other spider left in the shared store.
    assert mine.flushable([KIND]) == []
    assert mine.left_buffered([KIND]) == {}
    assert theirs.left_buffered([KIND]) == {KIND: 1}


def test_a_page_checks_a_bounded_number_of_waiting_kinds(store: SqliteStore) -> None:
    """Hundreds of kinds wait for a template that never comes (one home
    page per site): a page checks the kinds whose template arrived and a
    few others in turn, not all of them, yet every ready kind comes out."""
    from scrapy_wrapx.unsupervised.items import POLLED_KINDS

    pipeline, _ = _pipeline(store)
    html = _page("Solaris", "1.00", ["x"])
    kinds = [f"site{n}.test/home" for n in range(300)]
    for kind in kinds:
        pipeline.process_extraction(kind, None, f"http://{kind}", html, None)
    checked: list[str] = []
    get = pipeline.templates.get

    def counted(kind_key: str) -> TemplateRecord | None:
        checked.append(kind_key)
        return get(kind_key)

    pipeline.templates.get = counted  # type: ignore[method-assign]
    assert pipeline.ready_batches() == []
    assert len(checked) == POLLED_KINDS
    # A template this process learns of is checked at the next page...
    last = kinds[-1]
    record = _record(kind_key=last)
    pipeline.templates.put(record)
    pipeline.template_arrived(last, record.version)
    checked.clear()
    batches = pipeline.ready_batches()
    assert [b.kind_key for b in batches] == [last] and len(checked) <= POLLED_KINDS + 1
    # ...and one another process stored comes out in turn.
    first = kinds[0]
    store.set("templates", first, _record(kind_key=first).to_dict())
    found = []
    for _ in range(len(kinds) // POLLED_KINDS + 1):
        found += [b.kind_key for b in pipeline.ready_batches()]
    assert found == [first]


@pytest.mark.parametrize("typed", [None, ("en",)])
def test_an_item_shaped_by_a_template_handle_is_the_item_of_its_record(
    store: SqliteStore, typed: tuple[str, ...] | None
) -> None:
    """Pages sent to workers with their kind's handle (the template not
    rebuilt, see :class:`TemplateHandle`) give the very items their
    record gives."""
    record = _record()
    handle = TemplateHandle.of(record)
    for html in PAGES:
        extraction = extract(record.template, html, "http://s.test/1")
        by_record, _ = _pipeline(store, typed=typed)
        by_handle, _ = _pipeline(store, typed=typed)
        items = by_record.process_extraction(KIND, record, "http://s.test/1", html, extraction)
        handled = by_handle.process_extraction(KIND, handle, "http://s.test/1", html, extraction)
        assert handled == items and items
    assert handle.record().template.to_json() == record.template.to_json()
