"""Induced templates as store records, and a cache that follows the store.

A template is stored once per page kind, under the kind's key in the
``templates`` namespace, as JSON (never pickle: several processes and
machines read it). The record keeps the template's version, so every item
says which template produced it and a re-induced template replaces the old
one everywhere.
"""

from __future__ import annotations

import json
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scrapy_wrapx.induction.item_shape import ItemShape, item_shape
from scrapy_wrapx.template import Template
from scrapy_wrapx.workers.worker import InducedTemplate

if TYPE_CHECKING:
    from scrapy_wrapx.store import WrapxStore


#: Store namespaces of the unsupervised mode.
KINDS = "kinds"
SEEDS = "seeds"
TEMPLATES = "templates"
CLAIMS = "claims"
PENDING = "pending"
#: ``{"version": n}`` per kind, written with each template: what a process
#: polls to learn whether a newer template exists, without reading it.
TEMPLATE_VERSIONS = "template_versions"


def seeds_key(kind_key: str, version: int) -> str:
    """Key of the seed pages that template ``version`` of a kind is induced
    from: version 1 from the first pages, version ``n + 1`` from pages that
    failed to match version ``n``."""
    return f"{kind_key}@v{version}"


class TemplateRecord:
    """One kind's current template and where it came from.

    A record is a snapshot of its template, made from the template or from
    its JSON (:class:`InducedTemplate`): each is built from the other on
    first use only, so a record that is stored and sent on as JSON is
    never converted. Its template must not be changed once it is made."""

    def __init__(
        self,
        kind_key: str,
        version: int,
        template: Template | None = None,
        seed_urls: list[str] | None = None,
        induced_at: float = 0.0,
        seconds: float = 0.0,
        *,
        template_json: str | None = None,
        shape: ItemShape | None = None,
    ) -> None:
        if template is None and template_json is None:
            raise ValueError(f"Template record of {kind_key!r} without a template")
        self.kind_key = kind_key
        self.version = version
        self.seed_urls = list(seed_urls or [])
        self.induced_at = induced_at
        self.seconds = seconds
        self._template = template
        self._json = template_json
        self._shape = shape

    @classmethod
    def induced(
        cls, induced: InducedTemplate, kind_key: str, version: int, seed_urls: list[str]
    ) -> TemplateRecord:
        """The record of a template induced just now as ``version`` of
        ``kind_key``, kept as JSON (see :class:`InducedTemplate`)."""
        return cls(
            kind_key,
            version,
            None,
            seed_urls,
            time.time(),
            induced.seconds,
            template_json=induced.template_json,
            shape=induced.shape,
        )

    def __repr__(self) -> str:
        return f"<TemplateRecord {self.key}>"

    @property
    def template(self) -> Template:
        if self._template is None:
            assert self._json is not None
            self._template = Template.from_json(self._json)
        return self._template

    @property
    def template_json(self) -> str:
        if self._json is None:
            self._json = self.template.to_json()
        return self._json

    @property
    def shape(self) -> ItemShape:
        """The shape of the template's items (see :mod:`scrapy_wrapx.induction.item_shape`)."""
        if self._shape is None:
            self._shape = item_shape(self.template)
        return self._shape

    @property
    def key(self) -> str:
        """A name of this stored template's content (its kind, version and
        the time it was induced), which the page workers know it by (see
        :class:`TemplateHandle`)."""
        return f"{self.kind_key}@{self.version}@{self.induced_at!r}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind_key,
            "version": self.version,
            "template": json.loads(self.template_json),
            "seed_urls": list(self.seed_urls),
            "induced_at": self.induced_at,
            "seconds": self.seconds,
        }

    @classmethod
    def from_dict(cls, data: Any) -> TemplateRecord:
        """Validate a stored record; :class:`ValueError` names what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"Template record is not an object: {data!r:.60}")
        kind_key, version = data.get("kind"), data.get("version")
        if (
            not isinstance(kind_key, str)
            or not isinstance(version, int)
            or isinstance(version, bool)
            or version < 1
        ):
            raise ValueError(f"Template record with invalid kind or version: {kind_key!r}")
        template = Template.from_data(data.get("template"))
        seeds = data.get("seed_urls", [])
        if not isinstance(seeds, list) or not all(isinstance(u, str) for u in seeds):
            raise ValueError(f"Template record of {kind_key!r} with invalid seed URLs")
        induced_at = data.get("induced_at", 0.0)
        seconds = data.get("seconds", 0.0)
        if not isinstance(induced_at, (int, float)) or not isinstance(seconds, (int, float)):
            raise ValueError(f"Template record of {kind_key!r} with invalid timings")
        return cls(kind_key, version, template, seeds, float(induced_at), float(seconds))


@dataclass(frozen=True)
class TemplateHandle:
    """A kind's template as a page worker receives it: the record's
    :attr:`~TemplateRecord.key`, and the template's JSON compressed (a few
    kilobytes, where the template takes hundreds in memory). A crawl of
    many sites meets more kinds at once than :class:`TemplateCache` keeps
    templates: sending a page with its kind's handle rebuilds no template
    and serializes none (each had cost milliseconds a page, most of the
    crawl's own work), and a template dropped from the cache is rebuilt
    from its handle, not read from the store again."""

    kind_key: str
    version: int
    key: str
    packed: bytes
    #: The shape of the template's items (see :mod:`scrapy_wrapx.induction.item_shape`).
    shape: ItemShape
    seed_urls: tuple[str, ...]
    induced_at: float
    seconds: float

    @classmethod
    def of(cls, record: TemplateRecord) -> TemplateHandle:
        body = record.template_json.encode("utf-8")
        return cls(
            record.kind_key,
            record.version,
            record.key,
            zlib.compress(body, 1),
            record.shape,
            tuple(record.seed_urls),
            record.induced_at,
            record.seconds,
        )

    def template_json(self) -> bytes:
        return zlib.decompress(self.packed)

    def record(self) -> TemplateRecord:
        """The record again, its template rebuilt when it is used."""
        return TemplateRecord(
            self.kind_key,
            self.version,
            None,
            list(self.seed_urls),
            self.induced_at,
            self.seconds,
            template_json=self.template_json().decode("utf-8"),
            shape=self.shape,
        )


def load_template(store: WrapxStore, kind_key: str, newer_than: int = 0) -> TemplateRecord | None:
    """The stored template of ``kind_key``; None when the record is missing
    or unreadable (refused with a warning, counted by the store), and None (silently) when its version is
    not above ``newer_than`` — a template's JSON takes milliseconds to
    rebuild, so a known version is not rebuilt."""
    data = store.get(TEMPLATES, kind_key)
    if data is None:
        return None
    version = data.get("version") if isinstance(data, dict) else None
    if newer_than and isinstance(version, int) and version <= newer_than:
        return None
    try:
        return TemplateRecord.from_dict(data)
    except ValueError as exc:
        store.refuse(f"{TEMPLATES}/{kind_key}", exc)
        return None


def save_template(store: WrapxStore, record: TemplateRecord) -> None:
    """Store ``record`` unless the store already holds a newer version (as
    its small version record says: the template itself is read only where
    an older scrapy-wrapx stored it without one)."""
    version = stored_version(store, record.kind_key)
    if version is None:
        current = store.get(TEMPLATES, record.kind_key)
        version = current.get("version") if isinstance(current, dict) else None
    if isinstance(version, int) and version > record.version:
        return
    store.set(TEMPLATES, record.kind_key, record.to_dict())
    store.set(TEMPLATE_VERSIONS, record.kind_key, {"version": record.version})


def stored_version(store: WrapxStore, kind_key: str) -> int | None:
    """The version of ``kind_key``'s stored template as its small version
    record says, or None when there is no such record (a template stored
    by an older scrapy-wrapx has none)."""
    data = store.get(TEMPLATE_VERSIONS, kind_key)
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, int) else None


#: Kinds whose last look at the store a :class:`TemplateCache` remembers
#: (a number each: the oldest is forgotten, and looked up again).
MAX_CHECKED = 10_000
#: Template handles a :class:`TemplateCache` keeps: about 6 KB each (the
#: compressed JSON and the item shape), so at most 3 MB.
MAX_HANDLES = 512


class TemplateCache:
    """The templates this process uses, refreshed from the store.

    A template can appear in the store at any time (another process induced
    it, or re-induced it after a redesign), so a kind's entry is re-read from
    the store at most every ``poll_interval`` seconds; in between, lookups
    cost a dictionary access. Once a kind's template is known, the poll
    reads its small version record, and the template only when it is newer.

    A template takes hundreds of kilobytes in memory (more once compiled for
    extraction), and a crawl of many sites meets a few kinds per site, so
    the cache keeps the ``max_templates`` used last
    (``WRAPX_ITEMS_TEMPLATE_CACHE``); of the others it keeps a
    :class:`TemplateHandle` (the :data:`MAX_HANDLES` used last), which is
    what sending a page to a worker needs, and which rebuilds the template
    when it is asked for again.
    """

    def __init__(
        self,
        store: WrapxStore,
        poll_interval: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        max_templates: int = 32,
    ) -> None:
        if max_templates < 1:
            raise ValueError(f"WRAPX_ITEMS_TEMPLATE_CACHE must be >= 1, not {max_templates!r}")
        self.store = store
        self.poll_interval = poll_interval
        self.clock = clock
        self.max_templates = max_templates
        self._records: OrderedDict[str, TemplateRecord] = OrderedDict()
        self._handles: OrderedDict[str, TemplateHandle] = OrderedDict()
        self._checked: OrderedDict[str, float] = OrderedDict()

    def get(self, kind_key: str) -> TemplateRecord | None:
        """The newest template of ``kind_key`` known here or in the store."""
        handle = self.handle(kind_key)
        return None if handle is None else self.record(handle)

    def record(self, handle: TemplateHandle) -> TemplateRecord:
        """The record of ``handle``: the one kept if it is that template,
        else rebuilt from the handle (and kept)."""
        record = self._records.get(handle.kind_key)
        if record is None or record.key != handle.key:
            record = handle.record()
            self._keep(record)
        self._records.move_to_end(handle.kind_key)
        return record

    def handle(self, kind_key: str) -> TemplateHandle | None:
        """The handle of the newest template of ``kind_key`` known here or
        in the store; no template is rebuilt for it."""
        now = self.clock()
        last = self._checked.get(kind_key)
        if last is None or now - last >= self.poll_interval:
            self._checked[kind_key] = now
            self._checked.move_to_end(kind_key)
            if len(self._checked) > MAX_CHECKED:
                self._checked.popitem(last=False)
            known = self._handles.get(kind_key)
            newer_than = known.version if known is not None else 0
            version = stored_version(self.store, kind_key) if known is not None else None
            if version is None or version > newer_than:
                stored = load_template(self.store, kind_key, newer_than)
                if stored is not None:
                    self.put(stored)
        handle = self._handles.get(kind_key)
        if handle is not None:
            self._handles.move_to_end(kind_key)
        return handle

    def expire(self, kind_key: str) -> None:
        """Read ``kind_key``'s template from the store at the next
        :meth:`get`, whatever the poll interval: a crawl about to end must
        not miss a template another process saved a moment ago."""
        self._checked.pop(kind_key, None)

    def forget(self, kind_keys: list[str]) -> None:
        """Drop what is kept of ``kind_keys`` (a site the router no longer
        keeps): a crawl of many sites keeps templates of the sites it is
        on, and reads a template from the store again if its site comes
        back."""
        for kind_key in kind_keys:
            self._handles.pop(kind_key, None)
            self._records.pop(kind_key, None)
            self._checked.pop(kind_key, None)

    def put(self, record: TemplateRecord) -> bool:
        """Use ``record`` if it is newer than the known one; True if it is."""
        known = self._handles.get(record.kind_key)
        if known is not None and known.version >= record.version:
            return False
        self._handles[record.kind_key] = TemplateHandle.of(record)
        self._handles.move_to_end(record.kind_key)
        while len(self._handles) > MAX_HANDLES:
            # Read from the store at the next get, whatever the poll interval.
            self.forget([next(iter(self._handles))])
        self._keep(record)
        return True

    def _keep(self, record: TemplateRecord) -> None:
        """Keep ``record`` among the :attr:`max_templates` used last."""
        self._records[record.kind_key] = record
        self._records.move_to_end(record.kind_key)
        while len(self._records) > self.max_templates:
            self._records.popitem(last=False)

    def known(self) -> dict[str, TemplateRecord]:
        """The templates this process holds (the ones used last), by kind key."""
        return dict(self._records)
