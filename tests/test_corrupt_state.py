"""Corrupt or hostile stored state is skipped, never fatal.

Every record read from a store is bounded in depth and size before it is
parsed and checked for the shape of its namespace; every reader raises only
:class:`ValueError`; a corrupt SQLite file is moved aside and replaced. The
records here are written into real SQLite files and a real Redis, and the
files are damaged the way disks and copies damage them.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy.crawler import CrawlerRunner

from scrapy_wrapx._versioned import MAX_JSON_DEPTH, json_depth, load_json
from scrapy_wrapx.locate.reference import TargetReference
from scrapy_wrapx.locate.repair import TargetState
from scrapy_wrapx.store._shapes import SHAPES
from scrapy_wrapx.store.base import WrapxStore
from scrapy_wrapx.store.sqlite import SqliteStore
from scrapy_wrapx.template import Elem, Template, Text
from scrapy_wrapx.unsupervised.kinds import PageKind
from scrapy_wrapx.unsupervised.templates import (
    KINDS,
    SEEDS,
    TEMPLATES,
    TemplateRecord,
    load_template,
    seeds_key,
)
from tests.conftest import DemoEndpoint
from tests.crawling import collect_items, crawl_settings, run_wrapx
from tests.test_e2e_unsupervised import FollowSpider

DEEP = "[" * 100_000 + "]" * 100_000
ENVELOPE = '{"format":"scrapy-wrapx","version":1,"data":%s}'


def _template() -> Template:
    text = Text([None])
    text.names = ["title"]
    return Template(Elem("html", {}, [Elem("body", {"class": "x"}, [text])]))


def _template_data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_template().to_json())
    data.update(changes)
    return data


def _store(path: Path) -> SqliteStore:
    store = SqliteStore(path)
    store.shapes = SHAPES
    return store


def _write_raw(path: Path, namespace: str, key: str, raw: str, *, listed: bool = False) -> None:
    db = sqlite3.connect(path)
    table = "wrapx_lists" if listed else "wrapx_documents"
    verb = "INSERT" if listed else "INSERT OR REPLACE"
    db.execute(
        f"{verb} INTO {table} (namespace, key, value) VALUES (?, ?, ?)", (namespace, key, raw)
    )
    db.commit()
    db.close()


def _garble(path: Path, size: int = 8192) -> None:
    """Checkpoint the WAL into the file, then overwrite its middle."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    length = path.stat().st_size
    with path.open("r+b") as file:
        file.seek(length // 2)
        file.write(os.urandom(size))


# Bounded JSON ------------------------------------------------------------------


def test_depth_is_measured_without_recursion() -> None:
    assert json_depth(DEEP) == 100_000
    assert json_depth('{"a": "[[[[", "b": ["\\"]]"]}') == 2
    with pytest.raises(ValueError, match="levels deep"):
        load_json(DEEP, "record")
    nested = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert json_depth(nested) == MAX_JSON_DEPTH
    load_json(nested, "record")


def _depth(value: Any) -> int:
    """The nesting of a parsed JSON value, by its structure (the reference
    :func:`json_depth` must agree with)."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


_JSON_TEXT = st.text(alphabet=st.sampled_from(list('[]{}"\\:,ab é\n\u2028')), max_size=12)
_JSON_VALUES = st.recursive(
    st.none() | st.integers() | _JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_JSON_TEXT, inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(_JSON_VALUES, st.booleans())
def test_depth_is_the_nesting_of_the_value_whatever_its_strings_hold(
    value: Any, ascii_only: bool
) -> None:
    """Strings full of brackets, quotes, backslashes and non-ASCII text
    (escaped or not) count for nothing; the depth is the value's."""
    assert json_depth(json.dumps(value, ensure_ascii=ascii_only)) == _depth(value)


def test_real_templates_are_far_below_the_limit() -> None:
    from scrapy_wrapx.demo import build_site
    from scrapy_wrapx.induction import induce_template

    site = build_site(seed=0, books=6)
    pages = [site.pages[path] for path in site.detail_pages[:3]]
    assert json_depth(induce_template(pages).to_json()) < MAX_JSON_DEPTH // 4


# Readers raise ValueError only --------------------------------------------------

HOSTILE_TEMPLATES = [
    DEEP,
    json.dumps(_template_data(root={"k": "e", "t": "html", "n": 5, "c": []})),
    json.dumps(_template_data(root={"k": "e", "t": "html", "c": 5})),
    json.dumps(_template_data(root={"k": "e", "t": "html", "a": {"x": 1}, "c": []})),
    json.dumps(_template_data(root={"k": "e", "t": "html", "c": [{"k": "t", "p": [1]}]})),
    json.dumps(_template_data(root={"k": "e", "t": "html", "c": [{"k": "s", "n": 5}]})),
    json.dumps(_template_data(root={"k": "e", "t": "html", "c": [{"k": "b", "n": []}]})),
    json.dumps(_template_data(root={"k": "e", "t": "html", "c": [{"k": "o"}]})),
    json.dumps(_template_data(root={"k": "t", "p": ["x"], "n": []})),
    json.dumps(_template_data(root=[])),
    json.dumps(_template_data(fields=5)),
    json.dumps(_template_data(fields=[{"name": 1, "uid": 0, "slot": "0"}])),
    json.dumps(_template_data(fields=[{"name": "a", "slot": "0"}])),
    json.dumps(_template_data(fields=[{"name": "a", "uid": 0, "slot": "0", "bad": 1}])),
    json.dumps(_template_data(meta=[1, 2])),
    '{"format": "scrapy-wrapx-template", "version": 2, "root": ' + DEEP + "}",
    "[1, 2",
    b"\xff\xfe",
    "null",
]


@pytest.mark.parametrize("text", HOSTILE_TEMPLATES)
def test_template_reader_raises_only_value_error(text: str | bytes) -> None:
    with pytest.raises(ValueError):
        Template.from_json(text)


@pytest.mark.parametrize("key", ["\u00b2/0", "0/\u00b2", "9" * 5000 + "/0", "1/" + "9" * 5000])
def test_a_template_with_hostile_copy_places_extracts(key: str) -> None:
    """Where a field's dropped copies are (template meta, as ``uid/slot``)
    is read with ``int``: "²" is a digit it rejects, thousands of digits
    more than it reads. Such a place is none, and the page is extracted."""
    from scrapy_wrapx.extraction import extract
    from scrapy_wrapx.induction import induce_template
    from scrapy_wrapx.template import COPY_FALLBACKS

    pages = [f"<html><body><h1>{title}</h1><p>Copyright</p></body></html>" for title in "AB"]
    template = induce_template(pages)
    (field,) = template.fields
    data = json.loads(template.to_json())
    data["meta"][COPY_FALLBACKS] = {f"{field.uid}/{field.slot}": [key]}
    extraction = extract(Template.from_json(json.dumps(data)), pages[0])
    assert extraction.fields == {field.name: ["A"]}


def test_template_reader_still_reads_templates() -> None:
    template = _template()
    assert Template.from_json(template.to_json()).fingerprint == template.fingerprint


def _reference_data() -> dict[str, Any]:
    return {
        "format": "scrapy-wrapx/target-reference",
        "version": 1,
        "selector": "//h1",
        "url": None,
        "labels": ["html", ["#text", 1]],
        "parents": [-1, 0],
        "targets": [
            {
                "node": 1,
                "prop": None,
                "value": "x",
                "kind": "text",
                "up": 0,
                "attribute": None,
                "features": {
                    "tag_path": ["html"],
                    "units": [],
                    "affiliation": "",
                    "order": None,
                    "sequential": False,
                },
                "triples": [0, 0, 0, 0, 0, 0, 0, 0],
                "list_path": None,
            }
        ],
    }


HOSTILE_REFERENCES = [
    DEEP,
    {"labels": 5},
    {"labels": [[]]},
    {"parents": [1e400, 0]},
    {"targets": 5},
    {"targets": [5]},
    {"targets": [{"node": 1}]},
    {"selector": 5},
    {"url": 5},
]


@pytest.mark.parametrize("change", HOSTILE_REFERENCES)
def test_reference_reader_raises_only_value_error(change: Any) -> None:
    if isinstance(change, str):
        text = change
    else:
        data = _reference_data()
        data.update(change)
        text = json.dumps(data)
    with pytest.raises(ValueError):
        TargetReference.from_json(text)


@pytest.mark.parametrize(
    "data",
    [
        5,
        {"version": 1},
        {"version": 1, "field": "f", "selector": 5},
        {"version": 1, "field": "f", "selector": None, "history": 5},
        {"version": 1, "field": "f", "selector": None, "history": [5]},
        {"version": 1, "field": "f", "selector": None, "reference": [1]},
        {"version": 1, "field": "f", "selector": None, "streak": "x"},
        {"version": 1, "field": "f", "selector": None, "streak": 1e400},
    ],
)
def test_target_state_reader_raises_only_value_error(data: Any) -> None:
    with pytest.raises(ValueError):
        TargetState.from_dict(data)


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"version": 1, "id": 5},
        {"version": 1, "id": "a", "domain": "d", "url_pattern": "p", "example_url": "u"},
        {
            "version": 1,
            "id": "a",
            "domain": "d",
            "url_pattern": "p",
            "example_url": "u",
            "paths": [5],
        },
    ],
)
def test_page_kind_reader_raises_only_value_error(data: Any) -> None:
    with pytest.raises(ValueError):
        PageKind.from_dict(data)


@pytest.mark.parametrize(
    "data",
    [
        5,
        {"kind": "k", "version": True, "template": _template_data()},
        {"kind": "k", "version": 1, "template": _template_data(root={"k": "e", "t": "x", "c": 5})},
        {"kind": "k", "version": 1, "template": _template_data(), "seed_urls": [1]},
        {"kind": "k", "version": 1, "template": _template_data(), "seconds": "1"},
    ],
)
def test_template_record_reader_raises_only_value_error(data: Any) -> None:
    with pytest.raises(ValueError):
        TemplateRecord.from_dict(data)


# Stores skip invalid records, with one warning, counted ---------------------------

#: A hostile or wrong-shaped record of each namespace: (namespace, raw, listed).
HOSTILE_RECORDS = [
    ("templates", ENVELOPE % DEEP, False),
    ("templates", ENVELOPE % json.dumps({"kind": "k", "version": "1", "template": {}}), False),
    ("template_versions", ENVELOPE % json.dumps({"version": "2"}), False),
    ("claims", ENVELOPE % "[1]", False),
    ("targets", ENVELOPE % json.dumps({"version": 1, "field": 5}), False),
    ("kinds", ENVELOPE % json.dumps({"id": "a", "paths": 5}), True),
    ("seeds", ENVELOPE % DEEP, True),
    ("pending", ENVELOPE % json.dumps({"url": "u", "html": 5, "version": 1}), True),
    ("seeds", "not json at all", True),
    ("kinds", '{"format": "other", "data": 1}', True),
]


@pytest.mark.parametrize(("namespace", "raw", "listed"), HOSTILE_RECORDS)
def test_sqlite_store_skips_hostile_records(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, namespace: str, raw: str, listed: bool
) -> None:
    path = tmp_path / "wrapx.sqlite3"
    _store(path).close()
    _write_raw(path, namespace, "key", raw, listed=listed)
    store = _store(path)
    with caplog.at_level(logging.WARNING):
        if listed:
            assert store.get_list(namespace, "key") == []
            assert store.peek_list(namespace, "key")[0][1] is None
        else:
            assert store.get(namespace, "key") is None
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == (2 if listed else 1)  # get_list and peek_list each
    assert f"{namespace}/key" in warnings[0].getMessage()
    assert store.invalid_count == len(warnings)
    store.close()


def test_redis_store_skips_hostile_records(redis_url: str) -> None:
    import redis

    from scrapy_wrapx.store.redis import RedisStore

    client = redis.Redis.from_url(redis_url)
    store = RedisStore(redis_url, prefix="wrapx-corrupt-test")
    store.shapes = SHAPES
    try:
        client.hset("wrapx-corrupt-test:doc:templates", "k", ENVELOPE % DEEP)
        client.hset("wrapx-corrupt-test:doc:claims", "k", b"\xff\xfe\x00")
        store.append(SEEDS, "s", {"url": "u", "html": "<p>"})
        client.rpush("wrapx-corrupt-test:list:seeds:s", ENVELOPE % '{"url": 5}')
        assert store.get(TEMPLATES, "k") is None
        assert load_template(store, "k") is None
        assert store.get("claims", "k") is None
        assert store.get_list(SEEDS, "s") == [{"url": "u", "html": "<p>"}]
        assert store.invalid_count == 4
    finally:
        for key in client.keys("wrapx-corrupt-test:*"):
            client.delete(key)
        store.close()


def test_template_loader_counts_a_record_its_shape_let_through(tmp_path: Path) -> None:
    store = _store(tmp_path / "wrapx.sqlite3")
    bad = _template_data(root={"k": "e", "t": "html", "n": 5, "c": []})
    store.set(TEMPLATES, "k", {"kind": "k", "version": 1, "template": bad})
    assert load_template(store, "k") is None
    assert store.invalid_count == 1
    store.close()


# Corrupt files are moved aside and replaced ----------------------------------------


def _filled_store(path: Path) -> None:
    store = SqliteStore(path)
    for n in range(300):
        store.set(TEMPLATES, f"k{n}", {"padding": "x" * 500})
        store.append("pending", "kind", {"url": f"u{n}", "html": "y" * 500, "version": 1})
    store.close()


def test_garbage_in_the_middle_of_the_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "wrapx.sqlite3"
    _filled_store(path)
    _garble(path)
    with caplog.at_level(logging.ERROR):
        store = SqliteStore(path)
        store.get_list("pending", "kind")  # reads the damaged pages
        for n in range(300):
            store.get(TEMPLATES, f"k{n}")
        store.set(TEMPLATES, "new", 1)
        assert store.get(TEMPLATES, "new") == 1
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "corrupt" in errors[0] and "buffered pages" in errors[0]
    assert store.corrupt_count == 1
    aside = [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert aside and aside[0].startswith("wrapx.sqlite3.corrupt-"), aside
    assert aside[0] in errors[0]
    store.close()


@pytest.mark.parametrize("keep", [0.5, 10])
def test_truncated_file(tmp_path: Path, caplog: pytest.LogCaptureFixture, keep: float) -> None:
    path = tmp_path / "wrapx.sqlite3"
    _filled_store(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    os.truncate(path, int(path.stat().st_size * keep) if keep < 1 else int(keep))
    with caplog.at_level(logging.ERROR):
        store = SqliteStore(path)
        store.keys(TEMPLATES)
        store.get_list("pending", "kind")
        store.append("pending", "kind", {"url": "u", "html": None, "version": 1})
    assert store.corrupt_count == 1
    assert store.list_length("pending", "kind") == 1
    assert sum(r.levelno == logging.ERROR for r in caplog.records) == 1
    store.close()


def test_a_file_that_never_was_a_database_is_not_moved(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"my notes, not a database" * 100)
    with pytest.raises(ValueError, match=r"notes\.txt"):
        SqliteStore(path)
    assert path.read_bytes().startswith(b"my notes")


# End to end ------------------------------------------------------------------------


@pytest_twisted.inlineCallbacks
def test_crawl_with_hostile_records_emits_every_item(
    demo_server: DemoEndpoint, tmp_path: Path
) -> Iterator[Any]:
    path = tmp_path / "wrapx.sqlite3"
    runner = CrawlerRunner(crawl_settings(path))
    first = runner.create_crawler(FollowSpider)
    first_items = collect_items(first)
    yield runner.crawl(first, start_url=demo_server.url)
    kinds = sorted({item["kind"] for item in first_items})
    bad_template = {"kind": kinds[0], "version": 9, "template": _template_data(root={"c": 5})}
    _write_raw(path, TEMPLATES, kinds[0], ENVELOPE % json.dumps(bad_template))
    _write_raw(path, "template_versions", kinds[0], ENVELOPE % '{"version": 9}')
    for kind in kinds:
        _write_raw(path, SEEDS, seeds_key(kind, 1), ENVELOPE % DEEP, listed=True)
    domain = kinds[0].split("/", 1)[0]
    _write_raw(path, KINDS, domain, ENVELOPE % DEEP, listed=True)

    second = runner.create_crawler(FollowSpider)
    second_items = collect_items(second)
    yield runner.crawl(second, start_url=demo_server.url)
    stats = second.stats.get_stats()  # type: ignore[union-attr]
    assert stats["finish_reason"] == "finished"
    assert stats["wrapx/store/invalid_count"] >= 2
    assert sorted(i["url"] for i in second_items) == sorted(i["url"] for i in first_items)


@pytest_twisted.inlineCallbacks
def test_crawl_on_a_garbled_store_file_emits_every_item(
    demo_server: DemoEndpoint, tmp_path: Path
) -> Iterator[Any]:
    path = tmp_path / "wrapx.sqlite3"
    runner = CrawlerRunner(crawl_settings(path))
    first = runner.create_crawler(FollowSpider)
    first_items = collect_items(first)
    yield runner.crawl(first, start_url=demo_server.url)
    store = SqliteStore(path)  # pad the file so that garbage hits real pages
    for n in range(200):
        store.append("padding", "p", {"x": "y" * 400, "n": n})
    store.close()
    _garble(path, 64 * 1024)

    second = runner.create_crawler(FollowSpider)
    second_items = collect_items(second)
    yield runner.crawl(second, start_url=demo_server.url)
    stats = second.stats.get_stats()  # type: ignore[union-attr]
    assert stats["finish_reason"] == "finished"
    assert stats["wrapx/store/corrupt_count"] == 1  # found on opening: no page lost
    assert sorted(i["url"] for i in second_items) == sorted(i["url"] for i in first_items)
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())


# Commands --------------------------------------------------------------------------


def test_commands_report_hostile_records_and_corrupt_stores_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    _filled_store(path)
    store = SqliteStore(path)
    store.set(TEMPLATES, "good", {"kind": "good", "version": 1, "template": _template_data()})
    store.close()
    _write_raw(path, TEMPLATES, "deep", ENVELOPE % DEEP)
    bad = {"kind": "typed", "version": 1, "template": _template_data(root={"c": 5, "n": 5})}
    _write_raw(path, TEMPLATES, "typed", ENVELOPE % json.dumps(bad))
    setting = f"WRAPX_STORE_SQLITE_PATH={path}"
    listed = run_wrapx("show", "--list", "-s", setting, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "store:good" in listed.stdout
    assert "Traceback" not in listed.stderr
    assert "templates/deep" in listed.stderr and "templates/typed" in listed.stderr

    shown = run_wrapx("show", "store:typed", "-s", setting, cwd=tmp_path)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr
    (tmp_path / "deep.json").write_text(DEEP)
    shown = run_wrapx("show", "deep.json", cwd=tmp_path)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr
    assert shown.stderr.count("\n") == 1, shown.stderr

    _garble(path, 64 * 1024)
    listed = run_wrapx("show", "--list", "-s", setting, cwd=tmp_path)
    assert "Traceback" not in listed.stderr, listed.stderr
    assert listed.returncode == 0


def test_a_store_is_a_wrapx_store() -> None:
    assert issubclass(SqliteStore, WrapxStore)
