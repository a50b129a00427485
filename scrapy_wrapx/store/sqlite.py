"""The default store: one SQLite file under the project's data directory.

SQLite in WAL mode gives what a crawl needs without a server: readers never
block the writer, several processes can share the file (each write is one
short transaction, and a busy database is waited for, not failed), and a
crawl killed mid-write leaves the last committed state intact.

A file that SQLite finds corrupt ("database disk image is malformed", "file
is not a database": a disk error, a truncated copy) when it is opened or at
any later operation (it is checked when opened) is moved aside as ``<name>.corrupt-<timestamp>``, named
in one ERROR line of the log, and replaced by a fresh store: the crawl goes
on, and the templates, seed pages and buffered pages of the old file are
lost (its kinds' templates are induced again from new pages).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy_wrapx.store.base import WrapxStore, encode_record

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

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


#: Primary result codes of a corrupt file: ``SQLITE_CORRUPT``, ``SQLITE_NOTADB``.
_CORRUPT_CODES = frozenset({11, 26})
_CORRUPT_MESSAGES = ("malformed", "not a database", "corrupt")
#: The first bytes of every SQLite 3 database file.
_SQLITE_MAGIC = b"SQLite format 3\x00"


def is_corruption(exc: sqlite3.DatabaseError) -> bool:
    """Whether ``exc`` says the file is damaged (and not, say, locked)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _CORRUPT_CODES
    return any(words in str(exc) for words in _CORRUPT_MESSAGES)


class SqliteStore(WrapxStore):
    """A :class:`~scrapy_wrapx.store.base.WrapxStore` in one SQLite file."""

    def __init__(self, path: str | Path, *, timeout: float = 30.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._memory = str(path) == ":memory:"
        if not self._memory:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        #: Reentrant: a corrupt file is replaced from inside an operation.
        self._lock = threading.RLock()
        self._inode: int | None = None
        try:
            self._db = self._connect()
        except sqlite3.DatabaseError as exc:
            if not is_corruption(exc) or not self._sqlite_file():
                raise ValueError(
                    f"Cannot use {str(path)!r} as a scrapy-wrapx store: {exc}"
                ) from exc
            self._db = self._replace(exc)

    def _sqlite_file(self) -> bool:
        """Whether the file starts like an SQLite database (or like a copy of
        one truncated within its header): only such a file is moved aside,
        never one that was not a store at all (a wrong path setting)."""
        with open(self.path, "rb") as file:
            head = file.read(len(_SQLITE_MAGIC))
        return _SQLITE_MAGIC.startswith(head)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(
            str(self.path), timeout=self.timeout, check_same_thread=False, isolation_level=None
        )
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
            # Read every page once now, so that a damaged file is replaced
            # before the crawl buffers pages in it (lost with it otherwise).
            (verdict,) = db.execute("PRAGMA quick_check(1)").fetchone()
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {verdict}")
        except sqlite3.Error:
            db.close()
            raise
        self._inode = None if self._memory else os.stat(self.path).st_ino
        return db

    def _replace(self, exc: sqlite3.DatabaseError) -> sqlite3.Connection:
        """Move the corrupt file aside and open a fresh one in its place
        (unless another process sharing the file already did)."""
        if getattr(self, "_db", None) is not None:
            with suppress(sqlite3.Error):
                self._db.close()
        self.corrupt_count += 1
        aside = self._move_aside()
        logger.error(
            "The scrapy-wrapx store %s is corrupt (%s): %s; starting a fresh store. "
            "The seed pages, templates and buffered pages it held are lost.",
            self.path,
            exc,
            f"moved it aside to {aside}" if aside else "another process already replaced it",
        )
        return self._connect()

    def _move_aside(self) -> Path | None:
        """Rename the file (and its WAL files, which belong to it) to
        ``<name>.corrupt-<timestamp>``; None when it is not ours to move."""
        if self._memory:
            return None
        try:
            if os.stat(self.path).st_ino != self._inode and self._inode is not None:
                return None  # a fresh file another process put there
        except FileNotFoundError:
            return None
        stamp = time.strftime("%Y%m%dT%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        number = 1
        while aside.exists():
            number += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{number}")
        os.replace(self.path, aside)
        for suffix in ("-wal", "-shm"):
            side = Path(f"{self.path}{suffix}")
            if side.exists():
                os.replace(side, Path(f"{aside}{suffix}"))
        return aside

    def _run(self, operation: Callable[[sqlite3.Connection], _T], *, write: bool = False) -> _T:
        """Run ``operation`` (in one ``BEGIN IMMEDIATE`` transaction if it
        writes, so that concurrent writers queue for the lock instead of
        failing midway); on a corrupt file, replace it and run it once more."""
        with self._lock:
            try:
                return self._attempt(operation, write)
            except sqlite3.DatabaseError as exc:
                if not is_corruption(exc):
                    raise
                self._db = self._replace(exc)
            return self._attempt(operation, write)

    def _attempt(self, operation: Callable[[sqlite3.Connection], _T], write: bool) -> _T:
        db = self._db
        if not write:
            return operation(db)
        db.execute("BEGIN IMMEDIATE")
        try:
            result = operation(db)
        except BaseException:
            with suppress(sqlite3.Error):  # the transaction may have died with it
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result

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
        row = self._run(
            lambda db: db.execute(
                "SELECT value FROM wrapx_documents WHERE namespace = ? AND key = ?",
                (namespace, key),
            ).fetchone()
        )
        return None if row is None else self.decode(row[0], namespace, f"{namespace}/{key}")

    def set(self, namespace: str, key: str, value: Any) -> None:
        record = encode_record(value)
        self._run(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO wrapx_documents (namespace, key, value) VALUES (?, ?, ?)",
                (namespace, key, record),
            )
        )

    def add(self, namespace: str, key: str, value: Any) -> bool:
        record = encode_record(value)
        cursor = self._run(
            lambda db: db.execute(
                "INSERT OR IGNORE INTO wrapx_documents (namespace, key, value) VALUES (?, ?, ?)",
                (namespace, key, record),
            )
        )
        return cursor.rowcount == 1

    def delete(self, namespace: str, key: str) -> None:
        def delete(db: sqlite3.Connection) -> None:
            db.execute(
                "DELETE FROM wrapx_documents WHERE namespace = ? AND key = ?", (namespace, key)
            )
            db.execute("DELETE FROM wrapx_lists WHERE namespace = ? AND key = ?", (namespace, key))

        self._run(delete, write=True)

    def keys(self, namespace: str) -> list[str]:
        rows = self._run(
            lambda db: db.execute(
                "SELECT key FROM wrapx_documents WHERE namespace = ? "
                "UNION SELECT DISTINCT key FROM wrapx_lists WHERE namespace = ?",
                (namespace, namespace),
            ).fetchall()
        )
        return sorted(str(row[0]) for row in rows)

    def append(self, namespace: str, key: str, value: Any) -> int:
        record = encode_record(value)

        def append(db: sqlite3.Connection) -> int:
            db.execute(
                "INSERT INTO wrapx_lists (namespace, key, value) VALUES (?, ?, ?)",
                (namespace, key, record),
            )
            (length,) = db.execute(
                "SELECT COUNT(*) FROM wrapx_lists WHERE namespace = ? AND key = ?",
                (namespace, key),
            ).fetchone()
            return int(length)

        return self._run(append, write=True)

    def _rows(self, namespace: str, key: str) -> list[tuple[int, str]]:
        return self._run(
            lambda db: db.execute(
                "SELECT id, value FROM wrapx_lists WHERE namespace = ? AND key = ? ORDER BY id",
                (namespace, key),
            ).fetchall()
        )

    def get_list(self, namespace: str, key: str) -> list[Any]:
        return self._decode_rows(namespace, key, self._rows(namespace, key))

    def list_length(self, namespace: str, key: str) -> int:
        (length,) = self._run(
            lambda db: db.execute(
                "SELECT COUNT(*) FROM wrapx_lists WHERE namespace = ? AND key = ?",
                (namespace, key),
            ).fetchone()
        )
        return int(length)

    def pop_list(self, namespace: str, key: str) -> list[Any]:
        def pop(db: sqlite3.Connection) -> list[tuple[int, str]]:
            rows = db.execute(
                "SELECT id, value FROM wrapx_lists WHERE namespace = ? AND key = ? ORDER BY id",
                (namespace, key),
            ).fetchall()
            db.execute("DELETE FROM wrapx_lists WHERE namespace = ? AND key = ?", (namespace, key))
            return rows

        return self._decode_rows(namespace, key, self._run(pop, write=True))

    def peek_list(
        self, namespace: str, key: str, *, start: int = 0, limit: int | None = None
    ) -> list[tuple[Any, Any]]:
        rows = self._run(
            lambda db: db.execute(
                "SELECT id, value FROM wrapx_lists WHERE namespace = ? AND key = ? "
                "ORDER BY id LIMIT ? OFFSET ?",
                (namespace, key, -1 if limit is None else limit, start),
            ).fetchall()
        )
        return [
            (row_id, self.decode(raw, namespace, f"{namespace}/{key}#{row_id}"))
            for row_id, raw in rows
        ]

    def remove_entries(self, namespace: str, key: str, entry_ids: list[Any]) -> None:
        ids = [int(entry_id) for entry_id in entry_ids]

        def remove(db: sqlite3.Connection) -> None:
            for start in range(0, len(ids), _SQL_VARIABLES):
                chunk = ids[start : start + _SQL_VARIABLES]
                db.execute(
                    "DELETE FROM wrapx_lists WHERE namespace = ? AND key = ? AND id IN "
                    f"({', '.join('?' * len(chunk))})",
                    (namespace, key, *chunk),
                )

        self._run(remove, write=True)

    def _decode_rows(self, namespace: str, key: str, rows: list[tuple[int, str]]) -> list[Any]:
        values = []
        for row_id, raw in rows:
            value = self.decode(raw, namespace, f"{namespace}/{key}#{row_id}")
            if value is not None:
                values.append(value)
        return values

    def close(self) -> None:
        with self._lock:
            self._db.close()
