"""Stores for seeds, templates and target references (see :mod:`.base`)."""

from __future__ import annotations

from scrapy_wrapx.store.base import WrapxStore, decode_record, encode_record
from scrapy_wrapx.store.sqlite import SqliteStore

__all__ = ["SqliteStore", "WrapxStore", "decode_record", "encode_record"]
