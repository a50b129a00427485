"""Induction claims die with their owner: real processes, real pids."""

from __future__ import annotations

import math
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scrapy_wrapx.store import SqliteStore
from scrapy_wrapx.unsupervised.claims import dead_claim_reason, new_claim

HOST = socket.gethostname()


def _ended_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_live_claim_is_respected() -> None:
    assert dead_claim_reason(new_claim(), timeout=300) is None
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) as running:
        try:
            claim = {"host": HOST, "pid": running.pid, "at": time.time()}
            assert dead_claim_reason(claim, timeout=300) is None
        finally:
            running.kill()


def test_a_claim_of_an_ended_process_of_this_host_is_dead_at_once() -> None:
    claim = {"owner": "x", "host": HOST, "pid": _ended_pid(), "at": time.time()}
    assert dead_claim_reason(claim, timeout=300) == "owner process gone"
    # On another host the pid means nothing: only the timeout applies.
    elsewhere = {**claim, "host": HOST + "-elsewhere"}
    assert dead_claim_reason(elsewhere, timeout=300) is None
    assert dead_claim_reason({**elsewhere, "at": time.time() - 301}, timeout=300) == "stale"


@pytest.mark.parametrize("at", [math.inf, -math.inf, math.nan, "now", None, True, 1e30])
def test_a_claim_without_a_finite_past_time_is_dead(at: object) -> None:
    assert dead_claim_reason({"host": HOST, "pid": 1, "at": at}, timeout=300) == "invalid time"


def test_an_infinite_claim_read_back_from_the_store_is_dead(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite3")
    try:
        store.set("claims", "k@v1", {"owner": "h:1", "at": math.inf})
        assert dead_claim_reason(store.get("claims", "k@v1"), timeout=300) == "invalid time"
        assert dead_claim_reason(["not", "a", "claim"], timeout=300) == "unreadable"
    finally:
        store.close()
