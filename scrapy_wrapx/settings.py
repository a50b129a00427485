"""Default values of every ``WRAPX_*`` setting.

Components read a setting with :func:`scrapy_wrapx.settings.wrapx_setting`,
which falls back on these defaults (and converts values by their type), so
each one works when enabled alone, without the add-on. Settings are grouped
by area, the ``*_ENABLED`` flag first in each group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

# Store --------------------------------------------------------------------

#: Dotted path of the store class (see :mod:`scrapy_wrapx.store`).
WRAPX_STORE = "scrapy_wrapx.store.sqlite.SqliteStore"
#: SQLite file of the default store; a relative path is resolved in the
#: project's data directory (``.scrapy/``).
WRAPX_STORE_SQLITE_PATH = "wrapx/wrapx.sqlite3"
#: Redis URL of :class:`scrapy_wrapx.store.redis.RedisStore`.
WRAPX_STORE_REDIS_URL = "redis://127.0.0.1:6379/0"
#: Prefix of every Redis key, so several projects can share one server.
WRAPX_STORE_REDIS_PREFIX = "wrapx"
#: Seconds a Redis command may take before the server counts as unreachable
#: (the crawl then holds its pages in memory and retries, see
#: ``WRAPX_STORE_RETRY_TIMEOUT``).
WRAPX_STORE_REDIS_TIMEOUT = 5.0
#: Seconds a crawl waits, retrying with backoff, for a store that went away
#: before it gives up the pages it holds in memory (at most
#: ``WRAPX_ITEMS_BUFFER_PAGES`` of them) and closes with the finish reason
#: ``wrapx_store_unavailable``.
WRAPX_STORE_RETRY_TIMEOUT = 120.0

# Targets (self-healing fields declared on spiders) -------------------------

#: Fill ``wrapx_targets`` fields of spiders that declare them.
WRAPX_TARGETS_ENABLED = True
#: Locator method: ``"ssnp"`` (hybrid), ``"ssn"`` or ``"ssp"``.
WRAPX_TARGETS_METHOD = "ssnp"
#: Neighbour-zone radius in leaves (thesis ch. 4).
WRAPX_TARGETS_RADIUS = 10
#: A relocated value below this confidence is refused: the field stays unset.
WRAPX_TARGETS_MIN_CONFIDENCE = 0.5
#: Replace a broken selector after this many consistent relocations.
WRAPX_TARGETS_REPAIR_AFTER = 3
#: If set, items get this field holding ``{field: confidence}`` for every
#: field the middleware filled (only where the item type accepts it).
WRAPX_TARGETS_CONFIDENCE_FIELD: str | None = None
#: Items of pages crawled before an example target's value was first seen
#: are held (at most this many) and filled once its reference exists; at
#: the end of the crawl the rest are released. 0 emits them at once.
WRAPX_TARGETS_HOLD_ITEMS = 1000
#: Largest response body, in bytes, whose declared fields are verified and
#: relocated (0: no limit). A bigger page keeps the spider's own values
#: (counted in ``wrapx/targets/skipped_count``): its tree and a relocation
#: would cost the crawl's process far more than the page is worth.
WRAPX_TARGETS_MAX_BODY_SIZE = 2 * 1024 * 1024

# Seeds (page capture and routing to page kinds) -----------------------------

#: Capture HTML responses, route them to page kinds and collect seed pages.
WRAPX_SEEDS_ENABLED = True
#: Content types captured; anything else (images, JSON, PDF...) is skipped.
WRAPX_SEEDS_CONTENT_TYPES = ["text/html", "application/xhtml+xml"]
#: Bodies larger than this many bytes are skipped (0: no limit): induction
#: and extraction time grows with page size, and such pages are rarely
#: template pages.
WRAPX_SEEDS_MAX_BODY_SIZE = 2 * 1024 * 1024
#: Seed pages of a kind to collect before its template is induced.
WRAPX_SEED_PAGES = 5
#: Score a page needs to join an existing page kind (tag-path-set Jaccard
#: similarity, plus ``WRAPX_KINDS_URL_WEIGHT`` for the same URL pattern).
WRAPX_KINDS_THRESHOLD = 0.6
#: Bonus of a page whose URL pattern is its kind's.
WRAPX_KINDS_URL_WEIGHT = 0.3
#: Sites whose page kinds, templates and seed counts are kept in memory
#: (about 15 KB a site); past it those of the site routed to least recently
#: are dropped (they stay in the store, and are read again when that site's
#: pages come back). A crawl of many sites at once (hundreds of domains in
#: flight) reads them back often under the default; raise it to trade
#: memory for those reads.
WRAPX_KINDS_CACHE_SITES = 64

# Induction ----------------------------------------------------------------

#: Induce templates off the reactor thread once seeds are in.
WRAPX_INDUCTION_ENABLED = True
#: Re-induce a kind's template when this share of its recent pages fails to
#: match it (a redesign).
WRAPX_INDUCTION_REINDUCE_SHARE = 0.5
#: How many recent pages of a kind that share is measured over.
WRAPX_INDUCTION_WINDOW = 20
#: At the end of a crawl, a kind with fewer than ``WRAPX_SEED_PAGES`` pages
#: is still induced from at least this many, so its pages are not left out.
WRAPX_INDUCTION_MIN_PAGES = 2
#: Seconds after which another process's unfinished claim on an induction
#: is considered dead and taken over.
WRAPX_INDUCTION_CLAIM_TIMEOUT = 300.0
#: Seconds between progress lines while inductions run.
WRAPX_INDUCTION_PROGRESS_INTERVAL = 10.0

# Variant-data items -------------------------------------------------------

#: Emit one variant-data item per captured page once its kind's template
#: exists (pages seen earlier are buffered in the store and emitted later).
WRAPX_ITEMS_ENABLED = True
#: Item class of variant-data items (dotted path or class); ``None`` means
#: ``dict``. Classes with declared fields (``scrapy.Item``, dataclasses,
#: attrs) get the named fields they declare, the rest under ``fields``.
WRAPX_ITEMS_CLASS: str | None = None
#: Field names pinned by the user: a dict, or the path of a JSON file
#: holding one, mapping a page kind — its key, its URL pattern, its site or
#: ``"*"`` — to ``{"induced or older name": "name"}``. Pinned names win over
#: induced ones and stay across template versions; ``None`` pins nothing.
WRAPX_ITEMS_FIELD_NAMES: dict[str, dict[str, str]] | str | None = None
#: Typed values next to the text (price amount and currency, ISO dates; see
#: :mod:`scrapy_wrapx.unsupervised.typed`): the languages dates are read
#: in, as dateparser's codes (``["en"]``, ``["en", "de"]``); empty, the
#: default, types nothing. Needs ``pip install scrapy-wrapx[typed]``.
WRAPX_ITEMS_TYPED_VALUES: list[str] = []
#: Pages per kind buffered with their HTML while the kind waits for its
#: template; past this only the URL is kept and the page is downloaded
#: again once the template exists.
WRAPX_ITEMS_BUFFER_PAGES = 1000
#: Buffered pages taken from the store at a time to be emitted (when their
#: kind's template arrives, and at the end of the crawl, where one flush
#: request follows another until the buffer has nothing more to emit): the
#: crawl holds one batch of pages in memory, not every kind's at once.
WRAPX_ITEMS_FLUSH_PAGES = 100
#: Seconds between checks of the store for a template that another process
#: induced.
WRAPX_ITEMS_TEMPLATE_POLL = 2.0
#: Templates kept in memory, in the crawl's process and in each page worker
#: (a template takes hundreds of kilobytes, more once compiled): past it the
#: one used least recently is dropped. The crawl's process still keeps a
#: handle of each kind of the ``WRAPX_KINDS_CACHE_SITES`` sites routed to
#: last (the template's JSON, compressed, a few kilobytes): its
#: pages go to the workers and its items are shaped by the handle, and the
#: template is rebuilt from it when asked for; a worker is sent it again.
#: Raise it for crawls that go back and forth between more kinds than this.
WRAPX_ITEMS_TEMPLATE_CACHE = 32
#: Worker processes that parse captured pages, extract them and induce
#: templates, so that this CPU work runs on other cores while the crawl's
#: own process keeps downloading (0: all of it in the crawl's process).
#: A worker that fails hands its pages back to the crawl's process.
WRAPX_ITEMS_WORKERS = 1
#: Seconds a page worker gets for one request (a page, a buffered page, an
#: induction). A request over it is given up: its page is skipped with a
#: warning (``wrapx/workers/timeout_count``) and the worker is replaced, so
#: one hostile page never holds the crawl longer than this.
WRAPX_ITEMS_WORKER_TIMEOUT = 60.0
#: Captured pages that may wait in the crawl's process for a page worker.
#: Past it, new requests wait before they are downloaded (holding their
#: place in ``CONCURRENT_REQUESTS``), so a crawl that downloads faster than
#: its workers parse does not hold hundreds of responses in memory.
WRAPX_ITEMS_WORKER_BACKLOG = 32
#: Pages a page worker parses before a fresh process takes its place (0:
#: never). A long crawl leaves memory in a worker that its Python keeps
#: for itself, a few kilobytes a site; a fresh worker starts from nothing.
#: The replaced worker answers what it was sent and exits, and the fresh
#: one starts then (pages wait for it meanwhile); the pages it kept for a
#: later extraction are parsed again.
WRAPX_ITEMS_WORKER_MAX_PAGES = 2000


# Reading them ----------------------------------------------------------------


def wrapx_setting(settings: BaseSettings, name: str) -> Any:
    """The value of ``name`` in ``settings``, or its documented default."""
    if not name.startswith("WRAPX_"):
        raise ValueError(f"Unknown scrapy-wrapx setting: {name!r}")
    try:
        default = globals()[name]
    except KeyError:
        raise ValueError(f"Unknown scrapy-wrapx setting: {name!r}") from None
    if isinstance(default, bool):
        return settings.getbool(name, default)
    if isinstance(default, int):
        return settings.getint(name, default)
    if isinstance(default, float):
        return settings.getfloat(name, default)
    if isinstance(default, list):
        return settings.getlist(name, default)
    return settings.get(name, default)


#: The smallest value each numeric setting takes (most are counts or
#: seconds; a negative one is a typo, not a wish).
MINIMUMS: dict[str, float] = {
    "WRAPX_STORE_REDIS_TIMEOUT": 0.0,
    "WRAPX_STORE_RETRY_TIMEOUT": 0.0,
    "WRAPX_TARGETS_RADIUS": 1,
    "WRAPX_TARGETS_MIN_CONFIDENCE": 0.0,
    "WRAPX_TARGETS_REPAIR_AFTER": 1,
    "WRAPX_TARGETS_HOLD_ITEMS": 0,
    "WRAPX_TARGETS_MAX_BODY_SIZE": 0,
    "WRAPX_SEEDS_MAX_BODY_SIZE": 0,
    "WRAPX_SEED_PAGES": 1,
    "WRAPX_KINDS_THRESHOLD": 0.0,
    "WRAPX_KINDS_URL_WEIGHT": 0.0,
    "WRAPX_KINDS_CACHE_SITES": 1,
    "WRAPX_INDUCTION_REINDUCE_SHARE": 0.0,
    "WRAPX_INDUCTION_WINDOW": 1,
    "WRAPX_INDUCTION_MIN_PAGES": 1,
    "WRAPX_INDUCTION_CLAIM_TIMEOUT": 0.0,
    "WRAPX_INDUCTION_PROGRESS_INTERVAL": 0.0,
    "WRAPX_ITEMS_BUFFER_PAGES": 0,
    "WRAPX_ITEMS_FLUSH_PAGES": 1,
    "WRAPX_ITEMS_TEMPLATE_POLL": 0.0,
    "WRAPX_ITEMS_TEMPLATE_CACHE": 1,
    "WRAPX_ITEMS_WORKERS": 0,
    "WRAPX_ITEMS_WORKER_TIMEOUT": 0.0,
    "WRAPX_ITEMS_WORKER_BACKLOG": 1,
    "WRAPX_ITEMS_WORKER_MAX_PAGES": 0,
}


def check_settings(settings: BaseSettings) -> None:
    """Read every ``WRAPX_*`` setting once, when a component starts, so a
    bad value stops the crawl at once with a :class:`ValueError` naming it,
    instead of failing on some page later (or switching a check off
    silently, as ``WRAPX_SEEDS_MAX_BODY_SIZE=-1`` would)."""
    for name in sorted(n for n in globals() if n.startswith("WRAPX_")):
        try:
            value = wrapx_setting(settings, name)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"Invalid setting {name}={settings.get(name)!r}: "
                f"expected a {type(globals()[name]).__name__} ({exc})"
            ) from None
        minimum = MINIMUMS.get(name)
        if minimum is not None and value < minimum:
            raise ValueError(f"Invalid setting {name}={value!r}: it must be at least {minimum!r}")
