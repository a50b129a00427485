"""A store in Redis, for several crawler processes on several machines.

Scrapy scales out as many processes sharing one Redis (the way scrapy-redis
shares a request queue); with this store they also share seed pages, page
kinds, induced templates and target references, so a template induced by
one process is used by all.

Layout, under ``WRAPX_STORE_REDIS_PREFIX`` (``wrapx``):

* ``<prefix>:doc:<namespace>`` — a hash, one field per document key;
* ``<prefix>:list:<namespace>:<key>`` — a Redis list per list key;
* ``<prefix>:lists:<namespace>`` — the set of list keys of a namespace, so
  :meth:`RedisStore.keys` needs no ``SCAN`` over the whole server.

Each operation that touches more than one Redis key runs as one ``MULTI``
transaction, so concurrent processes never see half of a write.

Install with ``pip install scrapy-wrapx[redis]``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from scrapy_wrapx.store.base import StoreUnavailable, WrapxStore, encode_record

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


_T = TypeVar("_T")


def _reachable(method: Callable[..., _T]) -> Callable[..., _T]:
    """Turn the client's connection and timeout errors into
    :class:`~scrapy_wrapx.store.base.StoreUnavailable`."""

    @functools.wraps(method)
    def call(self: RedisStore, *args: Any, **kwargs: Any) -> _T:
        try:
            return method(self, *args, **kwargs)
        except self._unreachable as exc:
            raise StoreUnavailable(f"Redis at {self.url} is unreachable: {exc}") from exc

    return call


class RedisStore(WrapxStore):
    """A :class:`~scrapy_wrapx.store.base.WrapxStore` on a Redis server."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "wrapx",
        client: Any | None = None,
        timeout: float | None = None,
    ) -> None:
        try:
            import redis
        except ImportError as exc:  # pragma: no cover - depends on the env
            raise ValueError(
                f"RedisStore for {url!r} requires the redis package: "
                "pip install scrapy-wrapx[redis]"
            ) from exc
        #: What the client raises when the server is away.
        self._unreachable = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        if client is None:
            client = redis.Redis.from_url(
                url, socket_timeout=timeout, socket_connect_timeout=timeout
            )
        if not prefix or any(ch.isspace() for ch in prefix):
            raise ValueError(f"Invalid Redis key prefix: {prefix!r}")
        self.url = url
        self.prefix = prefix
        #: redis-py clients are thread-safe (one connection pool), so the
        #: induction thread and the reactor thread share this one.
        self._redis = client

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisStore:
        """Connect to ``WRAPX_STORE_REDIS_URL`` with ``WRAPX_STORE_REDIS_PREFIX``."""
        from scrapy_wrapx.settings import wrapx_setting

        settings = crawler.settings
        return cls(
            wrapx_setting(settings, "WRAPX_STORE_REDIS_URL"),
            prefix=wrapx_setting(settings, "WRAPX_STORE_REDIS_PREFIX"),
            timeout=wrapx_setting(settings, "WRAPX_STORE_REDIS_TIMEOUT") or None,
        )

    def __repr__(self) -> str:
        return f"RedisStore({self.url!r}, prefix={self.prefix!r})"

    def _doc(self, namespace: str) -> str:
        return f"{self.prefix}:doc:{namespace}"

    def _list(self, namespace: str, key: str) -> str:
        return f"{self.prefix}:list:{namespace}:{key}"

    def _lists(self, namespace: str) -> str:
        return f"{self.prefix}:lists:{namespace}"

    @_reachable
    def get(self, namespace: str, key: str) -> Any | None:
        raw = self._redis.hget(self._doc(namespace), key)
        return None if raw is None else self.decode(raw, namespace, f"{namespace}/{key}")

    @_reachable
    def set(self, namespace: str, key: str, value: Any) -> None:
        self._redis.hset(self._doc(namespace), key, encode_record(value))

    @_reachable
    def add(self, namespace: str, key: str, value: Any) -> bool:
        return bool(self._redis.hsetnx(self._doc(namespace), key, encode_record(value)))

    @_reachable
    def delete(self, namespace: str, key: str) -> None:
        pipe = self._redis.pipeline(transaction=True)
        pipe.hdel(self._doc(namespace), key)
        pipe.delete(self._list(namespace, key))
        pipe.srem(self._lists(namespace), key)
        pipe.execute()

    @_reachable
    def keys(self, namespace: str) -> list[str]:
        pipe = self._redis.pipeline(transaction=True)
        pipe.hkeys(self._doc(namespace))
        pipe.smembers(self._lists(namespace))
        documents, lists = pipe.execute()
        return sorted({_text(key) for key in documents} | {_text(key) for key in lists})

    @_reachable
    def append(self, namespace: str, key: str, value: Any) -> int:
        pipe = self._redis.pipeline(transaction=True)
        pipe.rpush(self._list(namespace, key), encode_record(value))
        pipe.sadd(self._lists(namespace), key)
        length, _ = pipe.execute()
        return int(length)

    @_reachable
    def get_list(self, namespace: str, key: str) -> list[Any]:
        raws = self._redis.lrange(self._list(namespace, key), 0, -1)
        return self._decode(namespace, key, raws)

    @_reachable
    def list_length(self, namespace: str, key: str) -> int:
        return int(self._redis.llen(self._list(namespace, key)))

    @_reachable
    def pop_list(self, namespace: str, key: str) -> list[Any]:
        pipe = self._redis.pipeline(transaction=True)
        pipe.lrange(self._list(namespace, key), 0, -1)
        pipe.delete(self._list(namespace, key))
        pipe.srem(self._lists(namespace), key)
        raws, _, _ = pipe.execute()
        return self._decode(namespace, key, raws)

    @_reachable
    def peek_list(
        self, namespace: str, key: str, *, start: int = 0, limit: int | None = None
    ) -> list[tuple[Any, Any]]:
        # An entry's id is its raw record: LREM removes it wherever it moved.
        if limit is not None and limit <= 0:
            return []
        end = -1 if limit is None else start + limit - 1
        raws = self._redis.lrange(self._list(namespace, key), start, end)
        return [
            (raw, self.decode(raw, namespace, f"{namespace}/{key}#{start + position}"))
            for position, raw in enumerate(raws)
        ]

    @_reachable
    def remove_entries(self, namespace: str, key: str, entry_ids: list[Any]) -> None:
        name = self._list(namespace, key)
        pipe = self._redis.pipeline(transaction=True)
        for raw in entry_ids:
            pipe.lrem(name, 1, raw)
        pipe.execute()
        # An emptied list leaves the namespace's list set, atomically with
        # respect to an append (which pushes, then adds the key).
        self._redis.eval(_FORGET_IF_EMPTY, 2, name, self._lists(namespace), key)

    def _decode(self, namespace: str, key: str, raws: list[Any]) -> list[Any]:
        values = []
        for position, raw in enumerate(raws):
            value = self.decode(raw, namespace, f"{namespace}/{key}#{position}")
            if value is not None:
                values.append(value)
        return values

    def close(self) -> None:
        self._redis.close()


_FORGET_IF_EMPTY = """
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return 0
"""


def _text(value: bytes | str) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
