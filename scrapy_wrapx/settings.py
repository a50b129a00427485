"""Default values of every ``WRAPX_*`` setting.

Components read a setting as ``settings.get(NAME, default_settings.NAME)``
so that each one works when enabled alone, without the add-on. Settings are
grouped by area, the ``*_ENABLED`` flag first in each group.
"""

from __future__ import annotations

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
