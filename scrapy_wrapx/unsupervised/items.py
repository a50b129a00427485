"""Variant-data items: one item per page, once its kind has a template —
including the pages seen before the template existed — and the buffer of
pages that wait for one.

**How items get out.** A Scrapy item pipeline (``ITEM_PIPELINES``) only
transforms items it is given; it cannot add items of its own. Variant-data
items come from *pages*, so they are built here for the spider middleware
that sees the pages (:class:`~scrapy_wrapx.middlewares.seeds.WrapxSeedsMiddleware`),
and yielded into the spider output, next to the spider's own. That is the
robust route: the items then pass every later spider middleware, every item
pipeline, the feed exports and the ``item_scraped`` signal exactly like the
spider's items, with public APIs only. (Feeding items to
``crawler.engine.scraper`` directly would skip the spider middlewares and
depend on engine internals that changed between Scrapy 2.13 and 2.14.)
Pages buffered while their kind had no template are emitted in the output of
the next page once the template is ready, and at the end of the crawl through
one local ``data:`` request scheduled on ``spider_idle``.

**No page is lost.** Buffered pages live in the store (``pending``
namespace), not in memory: a crawl that is killed, or closes before a kind's
template exists, leaves them there, and the next crawl (or another process
sharing the store) emits them. The buffer is bounded per kind
(``WRAPX_ITEMS_BUFFER_PAGES``): past it, only the URL is kept and the page is
downloaded again once its template exists. Buffered pages are taken from the
store at most ``WRAPX_ITEMS_FLUSH_PAGES`` at a time, however many wait (the
end of a crawl of hundreds of sites may find thousands): what is in memory
is one batch, the rest waits in the store for the next.

Items are built through :mod:`itemadapter`: ``dict`` by default, or the
class named by ``WRAPX_ITEMS_CLASS``. A dict item holds ``url``, ``kind``,
``template_version``, ``partial`` (the page did not match its template:
the item holds what matched) and the page's data shaped by the template
(:func:`item_data`): a string per field outside any set, a list per set
(of records, or of values when its records hold one field), empty slots
left out. Item classes with declared fields get the declared ones, and the
data they do not declare under ``fields`` if they declare that.
"""

from __future__ import annotations

import itertools
import logging
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction._keyvalue import keyed_record
from scrapy_wrapx.induction.item_shape import ItemShape, item_shape
from scrapy_wrapx.signals import page_extracted
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.templates import (
    PENDING,
    TemplateCache,
    TemplateHandle,
    TemplateRecord,
)
from scrapy_wrapx.unsupervised.typed import typed_values

if TYPE_CHECKING:
    from scrapy.statscollectors import StatsCollector

    from scrapy_wrapx.store import WrapxStore
    from scrapy_wrapx.template import Extraction
    from scrapy_wrapx.unsupervised.seeds import SeedCollector

logger = logging.getLogger(__name__)

#: Item keys set by the pipeline itself; a field with one of these names is
#: stored as ``field_<name>``.
RESERVED_KEYS = ("url", "kind", "template_version", "partial", "fields")
#: The keys of an item that say where it comes from, not what the page shows.
ITEM_KEYS = ("url", "kind", "template_version", "partial")
#: Waiting kinds a page checks for a template besides the ones known to
#: have one (see :meth:`VariantItems.ready_batches`).
POLLED_KINDS = 8


def build_item(
    item_class: type | None,
    url: str,
    kind_key: str,
    version: int,
    extraction: Extraction,
    template: Template,
    typed: tuple[str, ...] | None = None,
) -> Any:
    """A variant-data item of ``item_class`` (``dict`` when None), shaped by
    ``template`` (the one ``extraction`` came from): see :func:`item_data`.
    ``partial`` says the page did not match the template: the item holds
    the slots that did match. With ``typed`` (the languages of dates),
    prices and dates get their typed values beside the text
    (:mod:`scrapy_wrapx.unsupervised.typed`)."""
    return _shaped_item(item_class, url, kind_key, version, extraction, item_shape(template), typed)


def _shaped_item(
    item_class: type | None,
    url: str,
    kind_key: str,
    version: int,
    extraction: Extraction,
    shape: ItemShape,
    typed: tuple[str, ...] | None,
) -> Any:
    data = _shaped_data(extraction, shape)
    if typed:
        data = typed_values(data, typed)
    base: dict[str, Any] = {
        "url": url,
        "kind": kind_key,
        "template_version": version,
        "partial": not extraction.matched,
    }
    cls = dict if item_class is None else item_class
    declared = ItemAdapter.get_field_names_from_class(cls)
    if declared is None:
        return cls(**base, **data)
    return cls(**_declared_values(set(declared), base, data))


def item_data(extraction: Extraction, template: Template) -> dict[str, Any]:
    """A page's data as a person reads it, shaped by its template, never by
    one page's count: a field under no set is one value (a string; values
    of a text that did not fit its tokens are joined); a set is a list of
    records (dicts, nesting their own sets), or of values when its records
    hold one field; a record's fields are in the record only. Empty slots,
    slots of punctuation only (:func:`shown`) and empty sets are left out."""
    return _shaped_data(extraction, item_shape(template))


def _shaped_data(extraction: Extraction, shape: ItemShape) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, found in extraction.fields.items():
        if name in shape.in_sets:
            continue  # in its records only
        text = " ".join(value for value in found if shown(value))
        key = _item_name(name, text, extraction, shape, data) if text else None
        if key is not None:
            data[_field_key(key)] = text
    for name, rows in extraction.records.items():
        key, shaped = _shaped_rows(name, rows, shape)
        if name in shape.sections:
            _add_sections(data, shaped, _field_key)
        elif shaped:
            data[_field_key(key)] = shaped
    return data


def _add_sections(
    into: dict[str, Any], records: list[dict[str, Any]], key: Callable[[str], str]
) -> None:
    """The data of a set's records that are sections of the page (see
    :mod:`scrapy_wrapx.induction._sections`) in the record or item around
    them: a field's value from the first section that shows it, a list's
    records from all of them."""
    for record in records:
        for name, value in record.items():
            held = into.setdefault(key(name), value)
            if held is not value and isinstance(held, list) and isinstance(value, list):
                held.extend(value)


def _shaped_rows(name: str, rows: list[dict[str, Any]], shape: ItemShape) -> tuple[str, Any]:
    """The key and value of the set ``name`` in an item (or a record): a
    list of records, of values, or one mapping for a key/value set."""
    key_value = shape.keyed.get(name)
    if key_value is not None:
        return name, keyed_record(rows, key_value)
    field_name = shape.single.get(name)
    if field_name is not None:
        return field_name, [row[field_name] for row in rows if shown(row.get(field_name))]
    shaped = []
    for row in rows:
        record: dict[str, Any] = {}
        for key, value in row.items():
            if isinstance(value, list):
                inner, value = _shaped_rows(key, value, shape)
                if key in shape.sections:
                    _add_sections(record, value, str)
                    continue
                key = inner
            if value and (not isinstance(value, str) or shown(value)):
                record[key] = value
        if record:
            shaped.append(record)
    return name, shaped


def shown(value: Any) -> bool:
    """Whether a value says anything: a text with a letter, a digit or a
    symbol ("★", "$"), not a stray bracket, dash or footnote mark (")",
    "-", "*") left of a text that did not fit its tokens.

    >>> [shown(v) for v in ("Open", "★★★", ")", " - ", "*", "", None)]
    [True, True, False, False, False, False, False]
    """
    return isinstance(value, str) and any(
        char.isalnum() or unicodedata.category(char).startswith("S") for char in value
    )


def _item_name(
    name: str, text: str, extraction: Extraction, shape: ItemShape, data: dict[str, Any]
) -> str | None:
    """The name a scalar field's ``text`` goes under: its own, or for an
    alternative (:mod:`scrapy_wrapx.induction._alternatives`) its leader's
    where the page shows the leader empty; None for a value the item holds
    under the leader's name already."""
    leader = shape.leaders.get(name)
    if leader is None:
        return name
    shown_by_leader = " ".join(v for v in extraction.fields.get(leader, ()) if shown(v))
    taken = shown_by_leader or data.get(_field_key(leader))
    if taken is None:
        return leader
    return None if taken == text else name


def _field_key(name: str) -> str:
    return f"field_{name}" if name in RESERVED_KEYS else name


def _declared_values(
    accepted: set[str], base: dict[str, Any], data: dict[str, Any]
) -> dict[str, Any]:
    """The values an item class with the ``accepted`` fields takes: the
    ones it declares, and the other data under ``fields`` if it declares
    that."""
    values = {key: value for key, value in base.items() if key in accepted}
    values.update({name: v for name, v in data.items() if name in accepted})
    rest = {name: v for name, v in data.items() if name not in accepted}
    if rest and "fields" in accepted:
        values["fields"] = rest
    return values


@dataclass
class BufferedBatch:
    """Buffered pages of one kind, taken from the store to be extracted with
    its template ``record``: ``pages`` to extract, ``requests`` re-downloading
    pages buffered without their HTML, ``keep`` what goes back to wait."""

    kind_key: str
    record: TemplateRecord
    final: bool
    #: Not every takeable page of the kind is in the batch: the rest waits
    #: for the next one.
    partial: bool = False
    pages: list[dict[str, Any]] = field(default_factory=list)
    requests: list[Any] = field(default_factory=list)
    keep: list[dict[str, Any]] = field(default_factory=list)
    #: Per page or request, in buffer order, True for a page: the output
    #: keeps the buffer's order.
    order: list[bool] = field(default_factory=list)
    #: Store ids of every entry taken, removed from the buffer only once the
    #: batch's items are out (:meth:`VariantItems.acknowledge`).
    entry_ids: list[Any] = field(default_factory=list)
    #: Items of the batch (by :func:`item_key`) not yet through the item
    #: pipelines (:meth:`VariantItems.confirm`).
    unconfirmed: set[tuple[str, str, int]] = field(default_factory=set)
    #: All of the batch's output was taken by the caller.
    released: bool = False


def item_key(item: Any) -> tuple[str, str, int] | None:
    """What identifies a variant-data item: its page URL, kind and template
    version (None for an item that does not carry all three, e.g. of a class
    that does not declare them). Two items with one key are duplicates."""
    adapter = ItemAdapter(item)
    url, kind, version = (adapter.get(k) for k in ("url", "kind", "template_version"))
    if isinstance(url, str) and isinstance(kind, str) and isinstance(version, int):
        return url, kind, version
    return None


class VariantItems:
    """Extracts captured pages with their kind's template, buffers the pages
    of kinds still without one, and hands back the items to emit.

    The methods return items, or :class:`~scrapy.Request` objects for pages
    buffered without their HTML (see the module doc); the caller yields them.
    """

    def __init__(
        self,
        store: WrapxStore,
        templates: TemplateCache,
        *,
        item_class: type | None = None,
        buffer_pages: int = 1000,
        flush_pages: int = 100,
        seeds: SeedCollector | None = None,
        stats: StatsCollector | None = None,
        send: Callable[..., Any] | None = None,
        refetch: Callable[[str], Any] | None = None,
        owner: str | None = None,
        typed: tuple[str, ...] | None = None,
    ) -> None:
        if buffer_pages < 0:
            raise ValueError(f"WRAPX_ITEMS_BUFFER_PAGES must be >= 0, not {buffer_pages!r}")
        if flush_pages < 1:
            raise ValueError(f"WRAPX_ITEMS_FLUSH_PAGES must be >= 1, not {flush_pages!r}")
        self.store = store
        self.templates = templates
        self.item_class = item_class
        #: The languages of dates when items get typed values, else None.
        self.typed = typed
        self.buffer_pages = buffer_pages
        #: Buffered entries taken from the store at a time (all kinds of one
        #: :meth:`ready_batches` or :meth:`flush_batches` together), and read
        #: from it at a time.
        self.flush_pages = flush_pages
        #: The last :meth:`flush_batches` stopped at ``flush_pages``: there
        #: is more to flush.
        self.more_to_flush = False
        #: Where pages that fail the template go, as seeds of the next
        #: version (None: nowhere, as when no induction runs).
        self.seeds = seeds
        self.stats = stats
        self._send = send
        self._refetch = refetch
        #: The spider whose buffered pages these are: pages buffered by
        #: another spider on a shared store are that spider's to emit.
        self.owner = owner
        #: Kinds with pages in the buffer, and the template version they wait
        #: for (0: any template; n: a template newer than n), in the order
        #: they are checked (see :meth:`ready_batches`).
        self._waiting: dict[str, int] = {}
        #: Waiting kinds whose template this process has seen arrive.
        self._due: dict[str, None] = {}
        #: Entry ids taken and not yet acknowledged, by kind: not taken twice.
        self._taken: dict[str, set[Any]] = {}
        #: Batches by the keys of their items still in the item pipelines.
        self._unconfirmed: dict[tuple[str, str, int], list[BufferedBatch]] = {}

    # One page -------------------------------------------------------------

    def process_page(self, kind_key: str, tree: dom.PageTree, url: str, html: str) -> Iterator[Any]:
        """Items for one captured page: buffered pages that have become
        ready, then its own, if its kind has a template it matches."""
        yield from self.ready()
        record = self.templates.get(kind_key)
        extraction = extract(record.template, tree, url=url) if record is not None else None
        yield from self.process_extraction(kind_key, record, url, html, extraction)

    def process_extraction(
        self,
        kind_key: str,
        record: TemplateRecord | TemplateHandle | None,
        url: str,
        html: str,
        extraction: Extraction | None,
    ) -> list[Any]:
        """The item of one page extracted (here, or in a page worker) with
        its kind's current template ``record`` (or its handle, which shapes
        the item as well); None for both when the kind has no template yet
        (the page is buffered). Buffered pages that became ready are the
        caller's (:meth:`ready`, :meth:`ready_batches`)."""
        output: list[Any] = []
        if record is None or extraction is None:
            self._buffer(kind_key, url, html, 0)
            return output
        self.template_arrived(kind_key, record.version)
        self._signal(
            page_extracted, kind_key=kind_key, version=record.version, matched=extraction.matched
        )
        if not extraction.matched:
            # Kept for the next template version, which pages like this one
            # will be induced from if they keep failing (a redesign).
            self._inc("extract/unmatched_count")
            if self.seeds is not None:
                self.seeds.collect(kind_key, record.version + 1, url, html)
            self._buffer(kind_key, url, html, record.version)
            return output
        self._inc("extract/matched_count")
        # A handle shapes the item as its template would, not rebuilt.
        shape = record.shape if isinstance(record, TemplateHandle) else item_shape(record.template)
        output.append(self._item(url, kind_key, record.version, extraction, shape))
        return output

    def _buffer(self, kind_key: str, url: str, html: str, version: int) -> None:
        full = self.store.list_length(PENDING, kind_key) >= self.buffer_pages
        entry = {"url": url, "html": None if full else html, "version": version}
        if self.owner is not None:
            entry["spider"] = self.owner
        self.store.append(PENDING, kind_key, entry)
        self._inc("items/buffered_count")
        if full:
            self._inc("items/buffered_url_only_count")
        self._wait(kind_key, version)

    def _wait(self, kind_key: str, version: int) -> None:
        """Pages of ``kind_key`` wait in the buffer for a template newer
        than ``version``."""
        known = self._waiting.get(kind_key)
        self._waiting[kind_key] = version if known is None else min(known, version)

    # Buffered pages -------------------------------------------------------

    def ready(self) -> Iterator[Any]:
        """Items (and re-download requests) of buffered pages whose kind now
        has a template newer than the one they waited for; each batch leaves
        the buffer once its items are taken from this iterator."""
        for batch in self.ready_batches():
            yield from self.finish_batch(batch, [self.extract_entry(batch, e) for e in batch.pages])
            self.acknowledge([batch])

    def flush(self, kind_keys: list[str]) -> Iterator[Any]:
        """Everything buffered for ``kind_keys`` that a template exists for,
        pages that failed the current template included (the crawl is ending:
        better an item from a partial match than none). Pages of kinds
        without a template stay in the store for a later crawl."""
        for batch in self.flush_batches(kind_keys):
            yield from self.finish_batch(batch, [self.extract_entry(batch, e) for e in batch.pages])
            self.acknowledge([batch])

    def pending_kinds(self) -> list[str]:
        """Kinds with buffered pages in the store (from any process or crawl)."""
        return self.store.keys(PENDING)

    # The steps of :meth:`ready` and :meth:`flush`, for a caller that
    # extracts the pages elsewhere (a page worker): take the batches, extract
    # each batch's pages, finish the batches, and acknowledge them once
    # their items are out. A kill before that leaves the pages buffered for
    # the next crawl: at least once, never lost.

    def template_arrived(self, kind_key: str, version: int) -> None:
        """This process has ``version`` of ``kind_key``'s template: its
        buffered pages are checked first at the next :meth:`ready_batches`."""
        waits_for = self._waiting.get(kind_key)
        if waits_for is not None and version > waits_for:
            self._due[kind_key] = None

    def ready_batches(self) -> list[BufferedBatch]:
        """Take the buffered pages that :meth:`ready` would emit, at most
        ``flush_pages`` of them: the rest come out with the next pages.

        A page checks the kinds whose template arrived here, and then
        :data:`POLLED_KINDS` of the other waiting kinds in turn (for
        templates another process stored), not every waiting kind: a crawl
        of hundreds of sites has hundreds of kinds that never get a
        template (a site's home page), and checking them all on every page
        made the crawl quadratic."""
        batches: list[BufferedBatch] = []
        room = self.flush_pages
        due = [kind for kind in self._due if kind in self._waiting]
        self._due.clear()
        polled = [kind for kind in itertools.islice(self._waiting, POLLED_KINDS) if kind not in due]
        for index, kind_key in enumerate([*due, *polled]):
            if room <= 0:
                self._due.update(dict.fromkeys(due[index:]))
                break
            waits_for = self._waiting.pop(kind_key)
            record = self.templates.get(kind_key)
            if record is None or record.version <= waits_for:
                self._waiting[kind_key] = waits_for  # to the end of the turn
                continue
            batch = self._take(kind_key, record, final=False, limit=room)
            room -= len(batch.entry_ids)
            if batch.partial:
                self._wait(kind_key, waits_for)
                self._due[kind_key] = None
            batches.append(batch)
        return batches

    def flush_batches(self, kind_keys: list[str]) -> list[BufferedBatch]:
        """Take the buffered pages that :meth:`flush` would emit, at most
        ``flush_pages`` of them; :attr:`more_to_flush` says whether they
        were all."""
        batches: list[BufferedBatch] = []
        room = self.flush_pages
        self.more_to_flush = False
        for kind_key in kind_keys:
            record = self.templates.get(kind_key)
            if record is None:
                continue
            if room <= 0:
                self.more_to_flush = True
                break
            self._waiting.pop(kind_key, None)
            batch = self._take(kind_key, record, final=True, limit=room)
            room -= len(batch.entry_ids)
            if batch.partial:
                self.more_to_flush = True
                self._wait(kind_key, 0)  # the rest, with the next flush or page
            batches.append(batch)
        return batches

    def extract_entry(self, batch: BufferedBatch, entry: dict[str, Any]) -> Extraction | None:
        """Extract one page of ``batch`` here; None (with a warning) if it
        cannot be parsed."""
        try:
            tree = dom.parse(entry["html"], url=entry["url"])
        except ValueError as exc:
            logger.warning("Dropping buffered page %s: %s", entry["url"], exc)
            return None
        return extract(batch.record.template, tree, url=entry["url"])

    def finish_batch(self, batch: BufferedBatch, extractions: list[Extraction | None]) -> list[Any]:
        """Items of ``batch`` given its pages' extractions (None: dropped),
        and its re-download requests; what must wait goes back to the store."""
        if len(extractions) != len(batch.pages):
            raise ValueError(f"{len(extractions)!r} extractions for {len(batch.pages)} pages")
        output: list[Any] = []
        keep = list(batch.keep)
        pages = iter(zip(batch.pages, extractions, strict=True))
        requests = iter(batch.requests)
        for is_page in batch.order:
            if not is_page:
                output.append(next(requests))
                continue
            entry, extraction = next(pages)
            if extraction is None:
                continue
            if not extraction.matched and not batch.final:
                entry["version"] = batch.record.version
                keep.append(entry)
                continue
            output.append(self._buffered_item(batch, entry["url"], extraction))
        self._keep(batch.kind_key, keep)
        return output

    def _buffered_item(self, batch: BufferedBatch, url: str, extraction: Extraction) -> Any:
        """The item of a buffered page, remembered until it is confirmed."""
        if not extraction.matched:
            self._inc("items/unmatched_count")
        self._inc("items/from_buffer_count")
        shape = item_shape(batch.record.template)
        item = self._item(url, batch.kind_key, batch.record.version, extraction, shape)
        key = item_key(item)
        if key is not None:
            batch.unconfirmed.add(key)
            self._unconfirmed.setdefault(key, []).append(batch)
        return item

    def _keep(self, kind_key: str, keep: list[dict[str, Any]]) -> None:
        """Put entries back in the buffer, to wait for a newer template."""
        for entry in keep:
            self.store.append(PENDING, kind_key, entry)
        if keep:
            self._wait(kind_key, min(int(entry["version"]) for entry in keep))

    def acknowledge(self, batches: list[BufferedBatch]) -> None:
        """The output of ``batches`` was all taken: their pages leave the
        buffer once each of their items is through the item pipelines
        (:meth:`confirm`; what went back to wait was appended again
        already). A kill before that leaves them buffered: the next crawl
        emits them again (at least once, never lost)."""
        for batch in batches:
            batch.released = True
            if not batch.unconfirmed:
                self._remove(batch)

    def confirm(self, item: Any) -> None:
        """``item`` went through the item pipelines (scraped, dropped, or
        failed there): it is out, and its page may leave the buffer."""
        key = item_key(item)
        batches = self._unconfirmed.get(key) if key is not None else None
        if key is None or not batches:
            return
        batch = batches.pop(0)
        if not batches:
            del self._unconfirmed[key]
        batch.unconfirmed.discard(key)
        if batch.released and not batch.unconfirmed:
            self._remove(batch)

    def unconfirmed_count(self) -> int:
        """Buffered pages whose items are not through the pipelines yet."""
        return sum(len(batches) for batches in self._unconfirmed.values())

    def _remove(self, batch: BufferedBatch) -> None:
        taken = self._taken.get(batch.kind_key, set())
        taken.difference_update(batch.entry_ids)
        if not taken:
            self._taken.pop(batch.kind_key, None)
        if batch.entry_ids:
            self.store.remove_entries(PENDING, batch.kind_key, batch.entry_ids)
        batch.entry_ids = []

    def flushable(self, kind_keys: list[str]) -> list[str]:
        """The kinds among ``kind_keys`` that a flush would emit pages of:
        with a template, and with pages of this spider not on their way."""
        return [
            kind_key
            for kind_key in kind_keys
            if self.templates.get(kind_key) is not None and any(self._takeable(kind_key))
        ]

    def left_buffered(self, kind_keys: list[str]) -> dict[str, int]:
        """Pages of this spider still buffered, by kind."""
        counts = {key: sum(1 for _ in self._takeable(key, taken_too=True)) for key in kind_keys}
        return {key: count for key, count in counts.items() if count}

    def _take(
        self, kind_key: str, record: TemplateRecord, *, final: bool, limit: int
    ) -> BufferedBatch:
        """Take up to ``limit`` entries of ``kind_key`` from the buffer. Pages
        that failed this very template stay where they are (unless the crawl
        is ending, ``final``): they wait for the next version."""
        batch = BufferedBatch(kind_key, record, final)
        taken = self._taken.setdefault(kind_key, set())
        for entry_id, entry in self._takeable(kind_key):
            if len(batch.entry_ids) >= limit:
                batch.partial = True
                break
            if not final and _failed_version(entry, record.version):
                self._wait(kind_key, record.version)
                continue
            taken.add(entry_id)
            batch.entry_ids.append(entry_id)
            self._sort_entry(batch, entry, record)
        if not taken:
            del self._taken[kind_key]
        return batch

    def _takeable(self, kind_key: str, *, taken_too: bool = False) -> Iterator[tuple[Any, Any]]:
        """Buffered entries of ``kind_key`` this spider may take: its own (or
        of no spider: buffered by an older version), not on their way; read
        from the store ``flush_pages`` at a time."""
        taken = self._taken.get(kind_key, set())
        start = 0
        while True:
            chunk = self.store.peek_list(PENDING, kind_key, start=start, limit=self.flush_pages)
            start += len(chunk)
            for entry_id, entry in chunk:
                if entry_id in taken and not taken_too:
                    continue  # in a batch whose items are on their way
                spider = entry.get("spider") if isinstance(entry, dict) else None
                if spider is None or self.owner is None or spider == self.owner:
                    yield entry_id, entry
            if len(chunk) < self.flush_pages:
                return

    def _sort_entry(self, batch: BufferedBatch, entry: Any, record: TemplateRecord) -> None:
        """Put one buffered entry where it goes: a page to extract, a page
        to download again, or back to wait (it failed this very template)."""
        if entry is None:
            pass  # unreadable: the store warned when it read it; dropped
        elif not _valid_entry(entry):
            logger.warning(
                "Dropping an invalid buffered page of kind %s: %r", batch.kind_key, str(entry)[:80]
            )
        elif entry["html"] is None:
            if self._refetch is None:
                batch.keep.append(entry)
            else:
                self._inc("items/refetched_count")
                batch.requests.append(self._refetch(entry["url"]))
                batch.order.append(False)
        else:
            batch.pages.append(entry)
            batch.order.append(True)

    # Helpers --------------------------------------------------------------

    def _item(
        self, url: str, kind_key: str, version: int, extraction: Extraction, shape: ItemShape
    ) -> Any:
        self._inc("items/emitted_count")
        return _shaped_item(self.item_class, url, kind_key, version, extraction, shape, self.typed)

    def _signal(self, signal: object, **kwargs: Any) -> None:
        if self._send is not None:
            self._send(signal, **kwargs)

    def _inc(self, key: str) -> None:
        if self.stats is not None:
            self.stats.inc_value(f"wrapx/{key}")


def _failed_version(entry: Any, version: int) -> bool:
    """Whether ``entry`` is a page that failed template ``version`` (or a
    newer one): taking it before a newer template exists gains nothing."""
    return _valid_entry(entry) and entry["html"] is not None and entry["version"] >= version


def _valid_entry(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("url"), str)
        and (entry.get("html") is None or isinstance(entry.get("html"), str))
        and isinstance(entry.get("version"), int)
    )
