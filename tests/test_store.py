"""The store contract, on SQLite and on a real redis-server, plus what each
store promises beyond it: concurrent writers (threads and processes), a
writer killed mid-crawl, and corrupt or foreign records skipped."""

from __future__ import annotations

import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrapy_wrapx.store import SqliteStore, WrapxStore, encode_record
from scrapy_wrapx.store.redis import RedisStore

_PREFIXES = iter(range(10**6))


@pytest.fixture(params=["sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[WrapxStore]:
    if request.param == "sqlite":
        made: WrapxStore = SqliteStore(tmp_path / "store.sqlite3")
    else:
        url = request.getfixturevalue("redis_url")
        made = RedisStore(url, prefix=f"t{next(_PREFIXES)}")
    yield made
    made.close()


def test_documents(store: WrapxStore) -> None:
    assert store.get("templates", "a/b") is None
    store.set("templates", "a/b", {"version": 1, "names": ["title", "é"]})
    assert store.get("templates", "a/b") == {"version": 1, "names": ["title", "é"]}
    store.set("templates", "a/b", [1, 2])
    assert store.get("templates", "a/b") == [1, 2]
    assert store.get("other", "a/b") is None
    assert store.add("claims", "k", {"owner": 1}) is True
    assert store.add("claims", "k", {"owner": 2}) is False
    assert store.get("claims", "k") == {"owner": 1}
    store.delete("claims", "k")
    assert store.get("claims", "k") is None
    assert store.add("claims", "k", {"owner": 3}) is True


def test_lists(store: WrapxStore) -> None:
    assert store.get_list("seeds", "s") == []
    assert store.list_length("seeds", "s") == 0
    assert [store.append("seeds", "s", {"n": n}) for n in range(3)] == [1, 2, 3]
    assert store.get_list("seeds", "s") == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert store.list_length("seeds", "s") == 3
    store.set("seeds", "doc", 1)
    assert store.keys("seeds") == ["doc", "s"]
    assert store.pop_list("seeds", "s") == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert store.get_list("seeds", "s") == []
    assert store.keys("seeds") == ["doc"]
    store.append("seeds", "t", "x")
    store.delete("seeds", "t")
    assert store.keys("seeds") == ["doc"]


def test_acknowledged_list_entries(store: WrapxStore) -> None:
    for n in range(3):
        store.append("pending", "k", {"n": n})
    taken = store.peek_list("pending", "k")
    assert [value for _, value in taken] == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert store.list_length("pending", "k") == 3  # peeking takes nothing
    store.append("pending", "k", {"n": 3})  # appended while the others are out
    store.remove_entries("pending", "k", [entry_id for entry_id, _ in taken[:2]])
    assert store.get_list("pending", "k") == [{"n": 2}, {"n": 3}]
    store.remove_entries(
        "pending", "k", [entry_id for entry_id, _ in store.peek_list("pending", "k")]
    )
    assert store.get_list("pending", "k") == [] and "k" not in store.keys("pending")
    store.remove_entries("pending", "k", [])


def test_list_entries_read_a_slice_at_a_time(store: WrapxStore) -> None:
    """A long buffer is read a few pages at a time (the flush's batches)."""
    for n in range(5):
        store.append("pending", "k", {"n": n})
    whole = store.peek_list("pending", "k")
    assert store.peek_list("pending", "k", limit=2) == whole[:2]
    assert store.peek_list("pending", "k", start=2, limit=2) == whole[2:4]
    assert store.peek_list("pending", "k", start=4, limit=2) == whole[4:]
    assert store.peek_list("pending", "k", start=3) == whole[3:]
    assert store.peek_list("pending", "k", start=5, limit=2) == []
    assert store.peek_list("pending", "k", limit=0) == []
    store.remove_entries("pending", "k", [entry_id for entry_id, _ in whole[1:3]])
    assert [v for _, v in store.peek_list("pending", "k", start=1, limit=1)] == [{"n": 3}]


def test_concurrent_threads(store: WrapxStore) -> None:
    """The induction thread and the reactor thread share one store."""
    claims: list[bool] = []

    def work(worker: int) -> None:
        for n in range(50):
            store.append("pending", "k", {"worker": worker, "n": n})
        claims.append(store.add("claims", "once", worker))

    threads = [threading.Thread(target=work, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    entries = store.get_list("pending", "k")
    assert len(entries) == 200
    for worker in range(4):  # each writer's entries stay in its order
        assert [e["n"] for e in entries if e["worker"] == worker] == list(range(50))
    assert sorted(claims) == [False, False, False, True]


_WRITER = textwrap.dedent(
    """
    import sys
    from scrapy_wrapx.store import SqliteStore
    from scrapy_wrapx.store.redis import RedisStore
    kind, where, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    store = SqliteStore(where) if kind == "sqlite" else RedisStore(where, prefix="procs")
    print("ready", flush=True)
    n = 0
    while count < 0 or n < count:
        store.append("pending", "k", {"worker": worker, "n": n, "pad": "x" * 2000})
        store.set("templates", f"w{worker}", {"n": n})
        n += 1
    store.add("claims", "once", worker)
    store.close()
    """
)


def _writer(kind: str, where: str, worker: int, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _WRITER, kind, where, str(worker), str(count)],
        stdout=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_concurrent_processes(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Several crawler processes append to the same lists at once."""
    where = (
        str(tmp_path / "shared.sqlite3")
        if kind == "sqlite"
        else request.getfixturevalue("redis_url")
    )
    workers = [_writer(kind, where, worker, 40) for worker in range(3)]
    for process in workers:
        assert process.wait(timeout=60) == 0
        assert process.stdout is not None
        process.stdout.close()
    store = SqliteStore(where) if kind == "sqlite" else RedisStore(where, prefix="procs")
    try:
        entries = store.get_list("pending", "k")
        assert len(entries) == 120
        for worker in range(3):
            assert [e["n"] for e in entries if e["worker"] == worker] == list(range(40))
            assert store.get("templates", f"w{worker}") == {"n": 39}
        assert store.get("claims", "once") in (0, 1, 2)
    finally:
        store.delete("pending", "k")
        store.close()


def test_sqlite_killed_writer(tmp_path: Path) -> None:
    """A crawl killed mid-write leaves every committed record readable."""
    path = tmp_path / "killed.sqlite3"
    process = _writer("sqlite", str(path), 0, -1)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    deadline = time.monotonic() + 20
    probe = SqliteStore(path)
    while probe.list_length("pending", "k") < 100 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    process.stdout.close()
    probe.close()
    store = SqliteStore(path)
    try:
        entries = store.get_list("pending", "k")
        assert len(entries) >= 100
        assert [e["n"] for e in entries] == list(range(len(entries)))
        last = store.get("templates", "w0")
        assert last is not None and last["n"] in (len(entries) - 1, len(entries) - 2)
        store.append("pending", "k", {"worker": 1, "n": 0})  # still writable
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_sqlite_corrupt_and_foreign_records(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "mixed.sqlite3"
    store = SqliteStore(path)
    store.set("templates", "good", {"ok": True})
    store.append("seeds", "k", {"n": 1})
    store.close()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO wrapx_documents VALUES ('templates', 'corrupt', '{\"format\": \"scr')"
        )
        db.execute(
            "INSERT INTO wrapx_documents VALUES ('templates', 'foreign', ?)",
            (json.dumps({"py/object": "os.system", "args": ["echo pwned"]}),),
        )
        db.execute(
            "INSERT INTO wrapx_documents VALUES ('templates', 'future', ?)",
            (json.dumps({"format": "scrapy-wrapx", "version": 99, "data": 1}),),
        )
        db.execute("INSERT INTO wrapx_lists (namespace, key, value) VALUES ('seeds', 'k', 'nul')")
        db.execute(
            "INSERT INTO wrapx_lists (namespace, key, value) VALUES ('seeds', 'k', ?)",
            (encode_record({"n": 2}),),
        )
    store = SqliteStore(path)
    try:
        with caplog.at_level(logging.WARNING):
            assert store.get("templates", "good") == {"ok": True}
            assert store.get("templates", "corrupt") is None
            assert store.get("templates", "foreign") is None
            assert store.get("templates", "future") is None
            assert store.get_list("seeds", "k") == [{"n": 1}, {"n": 2}]
        messages = " ".join(r.getMessage() for r in caplog.records)
        assert "corrupt" in messages and "foreign" in messages and "version 99" in messages
    finally:
        store.close()


def test_redis_corrupt_and_foreign_records(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    import redis

    store = RedisStore(redis_url, prefix="mixed")
    client = redis.Redis.from_url(redis_url)
    try:
        store.set("templates", "good", 1)
        client.hset("mixed:doc:templates", "bad", b"\xff\xfe not json")
        client.hset("mixed:doc:templates", "foreign", json.dumps({"__reduce__": "x"}))
        client.rpush("mixed:list:seeds:k", b"{", encode_record("ok"))
        with caplog.at_level(logging.WARNING):
            assert store.get("templates", "good") == 1
            assert store.get("templates", "bad") is None
            assert store.get("templates", "foreign") is None
            assert store.get_list("seeds", "k") == ["ok"]
        assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 3
    finally:
        client.close()
        store.close()


def test_sqlite_refuses_a_non_database(tmp_path: Path) -> None:
    path = tmp_path / "not-a-db.sqlite3"
    path.write_bytes(b"this is not a database file at all" * 100)
    with pytest.raises(ValueError, match="not-a-db"):
        SqliteStore(path)


def test_redis_store_from_crawler_settings(redis_url: str) -> None:
    from scrapy.utils.test import get_crawler

    from scrapy_wrapx.store._crawler import crawler_store

    crawler = get_crawler(
        settings_dict={
            "WRAPX_STORE": "scrapy_wrapx.store.redis.RedisStore",
            "WRAPX_STORE_REDIS_URL": redis_url,
            "WRAPX_STORE_REDIS_PREFIX": "crawlerprefix",
        }
    )
    store = crawler_store(crawler)
    assert isinstance(store, RedisStore)
    assert store.prefix == "crawlerprefix"
    store.set("kinds", "x", [1])
    assert RedisStore(redis_url, prefix="crawlerprefix").get("kinds", "x") == [1]
    assert RedisStore(redis_url, prefix="other").get("kinds", "x") is None
    store.close()
