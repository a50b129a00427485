"""The default store: one SQLite file under the project's data directory.

SQLite in WAL mode gives what a crawl needs without a server: readers never
block the writer, several processes can share the file (each write is one
short transaction, and a busy database is waited for, not failed), and a
crawl killed mid-write leaves the last committed state intact.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy_wrapx.store.base import WrapxStore, decode_record, encode_record

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

_SCHEMA = """
CREATE TABLE IF NOT EXISTS wrapx_documents (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (namespace, key)
);
CREATE TABLE IF NOT EXISTS wrapx_lists (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS wrapx_lists_key ON wrapx_lists (namespace, key, id);
"""


#: Entry ids per ``DELETE`` (SQLite limits the variables of one statement).
_SQL_VARIABLES = 500


class SqliteStore(WrapxStore):
    """A :class:`~scrapy_wrapx.store.base.WrapxStore` in one SQLite file."""

    def __init__(self, path: str | Path, *, timeout: float = 30.0) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(
                str(path), timeout=timeout, check_same_thread=False, isolation_level=None
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"Cannot use {str(path)!r} as a scrapy-wrapx store: {exc}") from exc
        self._lock = threading.Lock()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SqliteStore:
        """Open ``WRAPX_STORE_SQLITE_PATH`` in the project's data directory."""
        from scrapy.utils.project import data_path

        from scrapy_wrapx.settings import wrapx_setting

        path = wrapx_setting(crawler.settings, "WRAPX_STORE_SQLITE_PATH")
        return cls(data_path(path))

    def __repr__(self) -> str:
        return f"SqliteStore({str(self.path)!r})"

    def get(self, namespace: str, key: str) -> Any | None:
        with self._lock:
            row = self._db.execute(
                "SELECT value FROM wrapx_documents WHERE namespace = ? AND key = ?",
                (namespace, key),
            ).fetchone()
        return None if row is None else decode_record(row[0], f"{namespace}/{key}")

    def set(self, namespace: str, key: str, value: Any) -> None:
        record = encode_record(value)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO wrapx_documents (namespace, key, value) VALUES (?, ?, ?)",
                (namespace, key, record),
            )

    def add(self, namespace: str, key: str, value: Any) -> bool:
        record = encode_record(value)
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO wrapx_documents (namespace, key, value) VALUES (?, ?, ?)",
                (namespace, key, record),
            )
        return cursor.rowcount == 1

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``) so that
        concurrent writers queue for the lock instead of failing midway."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def delete(self, namespace: str, key: str) -> None:
        with self._write():
            self._db.execute(
                "DELETE FROM wrapx_documents WHERE namespace = ? AND key = ?", (namespace, key)
            )
            self._db.execute(
                "DELETE FROM wrapx_lists WHERE namespace = ? AND key = ?", (namespace, key)
            )

    def keys(self, namespace: str) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT key FROM wrapx_documents WHERE namespace = ? "
                "UNION SELECT DISTINCT key FROM wrapx_lists WHERE namespace = ?",
                (namespace, namespace),
            ).fetchall()
        return sorted(row[0] for row in rows)

    def append(self, namespace: str, key: str, value: Any) -> int:
        record = encode_record(value)
        with self._write():
            self._db.execute(
                "INSERT INTO wrapx_lists (namespace, key, value) VALUES (?, ?, ?)",
                (namespace, key, record),
            )
            (length,) = self._db.execute(
                "SELECT COUNT(*) FROM wrapx_lists WHERE namespace = ? AND key = ?",
                (namespace, key),
            ).fetchone()
        return int(length)

    def get_list(self, namespace: str, key: str) -> list[Any]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, value FROM wrapx_lists WHERE namespace = ? AND key = ? ORDER BY id",
                (namespace, key),
            ).fetchall()
        return self._decode_rows(namespace, key, rows)

    def list_length(self, namespace: str, key: str) -> int:
        with self._lock:
            (length,) = self._db.execute(
                "SELECT COUNT(*) FROM wrapx_lists WHERE namespace = ? AND key = ?",
                (namespace, key),
            ).fetchone()
        return int(length)

    def pop_list(self, namespace: str, key: str) -> list[Any]:
        with self._write():
            rows = self._db.execute(
                "SELECT id, value FROM wrapx_lists WHERE namespace = ? AND key = ? ORDER BY id",
                (namespace, key),
            ).fetchall()
            self._db.execute(
                "DELETE FROM wrapx_lists WHERE namespace = ? AND key = ?", (namespace, key)
            )
        return self._decode_rows(namespace, key, rows)

    def peek_list(self, namespace: str, key: str) -> list[tuple[Any, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, value FROM wrapx_lists WHERE namespace = ? AND key = ? ORDER BY id",
                (namespace, key),
            ).fetchall()
        return [(row_id, decode_record(raw, f"{namespace}/{key}#{row_id}")) for row_id, raw in rows]

    def remove_entries(self, namespace: str, key: str, entry_ids: list[Any]) -> None:
        ids = [int(entry_id) for entry_id in entry_ids]
        with self._write():
            for start in range(0, len(ids), _SQL_VARIABLES):
                chunk = ids[start : start + _SQL_VARIABLES]
                self._db.execute(
                    "DELETE FROM wrapx_lists WHERE namespace = ? AND key = ? AND id IN "
                    f"({', '.join('?' * len(chunk))})",
                    (namespace, key, *chunk),
                )

    @staticmethod
    def _decode_rows(namespace: str, key: str, rows: list[tuple[int, str]]) -> list[Any]:
        values = []
        for row_id, raw in rows:
            value = decode_record(raw, f"{namespace}/{key}#{row_id}")
            if value is not None:
                values.append(value)
        return values

    def close(self) -> None:
        with self._lock:
            self._db.close()
