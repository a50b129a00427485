"""The store interface: where seeds, templates and target references live.

Scrapy scales out as several crawler processes on several machines, so all
the state scrapy-wrapx keeps between responses — target references and
repaired selectors, collected seed pages, induced templates, buffered pages —
goes through this one small interface, with an embedded SQLite store as the
default and a Redis store for shared deployments.

Everything stored is JSON inside a small envelope that names the format and
its version. A record that is not valid JSON, or not ours, is skipped with a
warning and never executed: a store can be shared, copied or corrupted, and a
crawl must survive all three.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from scrapy_wrapx._versioned import load_json

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


logger = logging.getLogger(__name__)

#: Version of the record envelope; bump it when the envelope itself changes.
RECORD_FORMAT = "scrapy-wrapx"
RECORD_VERSION = 1


def encode_record(value: Any) -> str:
    """Wrap ``value`` (anything :func:`json.dumps` accepts) in the envelope."""
    return json.dumps(
        {"format": RECORD_FORMAT, "version": RECORD_VERSION, "data": value},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def read_record(raw: str | bytes) -> Any:
    """The value of a stored record; :class:`ValueError` saying what is
    wrong when the record is corrupt, foreign, too deep or too large, or
    from an unknown envelope version."""
    record = load_json(raw, "record")
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise ValueError("not a scrapy-wrapx record")
    if record.get("version") != RECORD_VERSION or "data" not in record:
        raise ValueError(f"unsupported record version {record.get('version')!r}")
    return record["data"]


def decode_record(raw: str | bytes | None, where: str) -> Any | None:
    """The value of a stored record, or None (with a warning) when the
    record is unreadable (see :func:`read_record`; no shape is checked)."""
    if raw is None:
        return None
    try:
        return read_record(raw)
    except ValueError as exc:
        logger.warning("Skipping invalid scrapy-wrapx record %s: %s", where, exc)
        return None


class StoreUnavailable(Exception):
    """The store's server cannot be reached (a Redis outage): the operation
    did not happen, or may not have. Callers keep what they were storing and
    try again later."""


class WrapxStore(ABC):
    """Key-value documents and append-only lists, grouped in namespaces.

    Namespaces used by scrapy-wrapx: ``targets`` (references per spider and
    field), ``kinds`` (page kinds per domain), ``seeds`` (collected seed
    pages per kind), ``templates`` (induced templates) and
    ``template_versions`` (their version numbers, cheap to poll), ``claims``
    (which process induces what), ``pending`` (pages seen before their
    kind's template was ready). Keys are short strings such as
    ``"books/title"``.

    Implementations must be safe to use from several threads of one process
    (induction runs off the reactor thread) and from several processes.
    """

    #: The check of each namespace's records, :class:`ValueError` for a
    #: record of the wrong shape (none by default: a store holds any JSON).
    #: A crawl's store gets scrapy-wrapx's own
    #: (:data:`scrapy_wrapx.store._shapes.SHAPES`).
    shapes: Mapping[str, Callable[[Any], None]] = MappingProxyType({})
    #: Records refused since the store was opened: unreadable, or not shaped
    #: like their namespace's records (``wrapx/store/invalid_count``).
    invalid_count = 0
    #: Store files found corrupt and moved aside (``wrapx/store/corrupt_count``).
    corrupt_count = 0

    def refuse(self, where: str, reason: object) -> None:
        """Skip the invalid record ``where`` (``namespace/key``): one warning
        naming it, and one more in :attr:`invalid_count`. Readers that
        validate further than the shape (a template's nodes) report here too."""
        self.invalid_count += 1
        logger.warning("Skipping invalid scrapy-wrapx record %s: %s", where, reason)

    def decode(self, raw: str | bytes, namespace: str, where: str) -> Any | None:
        """The value of ``raw`` read from ``namespace``, or None when it is
        refused (see :func:`read_record`, :attr:`shapes` and :meth:`refuse`)."""
        try:
            value = read_record(raw)
            check = self.shapes.get(namespace)
            if check is not None:
                check(value)
            return value
        except ValueError as exc:
            self.refuse(where, exc)
            return None

    @abstractmethod
    def get(self, namespace: str, key: str) -> Any | None:
        """The stored value, or None when absent or unreadable."""

    @abstractmethod
    def set(self, namespace: str, key: str, value: Any) -> None:
        """Store ``value`` (JSON-serializable) under ``key``, replacing it."""

    @abstractmethod
    def add(self, namespace: str, key: str, value: Any) -> bool:
        """Store ``value`` only if ``key`` is absent; True if it was stored.

        Used as a cross-process lock: the process that adds a claim first
        does the work (e.g. induces a template) and the others wait for it.
        """

    @abstractmethod
    def delete(self, namespace: str, key: str) -> None:
        """Remove ``key`` and, if it names a list, the list."""

    @abstractmethod
    def keys(self, namespace: str) -> list[str]:
        """All keys of ``namespace`` (documents and lists), sorted."""

    @abstractmethod
    def append(self, namespace: str, key: str, value: Any) -> int:
        """Append ``value`` to the list ``key``; return the new length."""

    @abstractmethod
    def get_list(self, namespace: str, key: str) -> list[Any]:
        """The list ``key`` in append order; unreadable entries are skipped."""

    @abstractmethod
    def list_length(self, namespace: str, key: str) -> int:
        """How many entries the list ``key`` holds."""

    @abstractmethod
    def pop_list(self, namespace: str, key: str) -> list[Any]:
        """Atomically take (return and remove) every entry of list ``key``."""

    def peek_list(
        self, namespace: str, key: str, *, start: int = 0, limit: int | None = None
    ) -> list[tuple[Any, Any]]:
        """The entries of list ``key`` as ``(entry id, value)`` pairs, in
        append order, left in the list: a reader that must not lose them
        removes them with :meth:`remove_entries` once it is done with them
        (acknowledged, at-least-once; unreadable entries come with None).
        ``start`` and ``limit`` read a slice (positions in the list), so a
        long list of pages is read a few at a time.

        This default uses positions as ids and is not safe against other
        writers; the bundled stores override it."""
        entries = list(enumerate(self.get_list(namespace, key)))
        return entries[start:] if limit is None else entries[start : start + limit]

    def remove_entries(self, namespace: str, key: str, entry_ids: list[Any]) -> None:
        """Remove the entries :meth:`peek_list` gave these ids, leaving the
        ones appended since. (This default rewrites the list.)"""
        gone = set(entry_ids)
        rest = [v for n, v in enumerate(self.pop_list(namespace, key)) if n not in gone]
        for value in rest:
            self.append(namespace, key, value)

    @abstractmethod
    def close(self) -> None:
        """Release connections; the store is not used afterwards."""
