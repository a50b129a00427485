"""The page worker protocol: frames on a pipe, and extractions as JSON.

**Messages** are frames: two big-endian 32-bit lengths, a JSON header and a
raw payload (page HTML as UTF-8, or JSON). JSON only, no pickle: a worker
executes nothing it is sent. The requests and replies are described in
:mod:`scrapy_wrapx.workers.worker`.
"""

from __future__ import annotations

import json
import struct
from typing import TYPE_CHECKING, Any, TypeGuard

from scrapy_wrapx.template import Extraction

if TYPE_CHECKING:
    from scrapy_wrapx.template import Template

#: Type code of the tag-path numbers of a ``page`` reply (its payload).
PATH_NUMBERS = "I"
#: Frame header: JSON header length, payload length.
FRAME_HEADER = struct.Struct(">II")


def encode_frame(header: dict[str, Any], payload: bytes = b"") -> bytes:
    """One message: lengths, JSON header, payload."""
    head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return FRAME_HEADER.pack(len(head), len(payload)) + head + payload


class FrameDecoder:
    """Cuts a byte stream into ``(header, payload)`` messages."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[dict[str, Any], bytes]]:
        """Add ``data``; the messages it completed, in order."""
        self._buffer += data
        messages = []
        size = FRAME_HEADER.size
        while len(self._buffer) >= size:
            head_length, payload_length = FRAME_HEADER.unpack_from(self._buffer)
            end = size + head_length + payload_length
            if len(self._buffer) < end:
                break
            header = json.loads(bytes(self._buffer[size : size + head_length]))
            if not isinstance(header, dict):
                raise ValueError(f"Worker message header is not an object: {header!r:.60}")
            messages.append((header, bytes(self._buffer[size + head_length : end])))
            del self._buffer[:end]
        return messages


def extraction_to_dict(extraction: Extraction, template: Template | None = None) -> dict[str, Any]:
    """What an item needs of an extraction, as JSON (``data``, the raw
    environment only :func:`~scrapy_wrapx.extraction.render` uses, stays behind).

    With the ``template`` it came from, ``fields`` keeps only the fields
    outside every set: a set's values are in ``records`` too, where an item
    takes them (:func:`~scrapy_wrapx.unsupervised.items.item_data`), and
    would double the size of a reply (and the crawl's time decoding it)."""
    fields = extraction.fields
    if template is not None:
        scalars = {info.name for info in template.fields if not info.set}
        fields = {name: values for name, values in fields.items() if name in scalars}
    return {
        "fields": fields,
        "records": extraction.records,
        "score": extraction.score,
        "matched": extraction.matched,
        "url": extraction.url,
        "coverage": extraction.coverage,
    }


def extraction_from_dict(data: Any) -> Extraction:
    """Rebuild an :class:`~scrapy_wrapx.template.Extraction` from
    :func:`extraction_to_dict`; :class:`ValueError` if it is malformed."""
    if not isinstance(data, dict):
        raise ValueError(f"Extraction is not an object: {data!r:.60}")
    fields, records = data.get("fields"), data.get("records")
    if not _dict_of_lists(fields):
        raise ValueError(f"Extraction with invalid fields: {fields!r:.60}")
    if not _dict_of_lists(records):
        raise ValueError(f"Extraction with invalid records: {records!r:.60}")
    score, coverage, url = data.get("score"), data.get("coverage"), data.get("url")
    if not isinstance(score, (int, float)) or not isinstance(coverage, (int, float)):
        raise ValueError(f"Extraction with invalid scores: {score!r}, {coverage!r}")
    return Extraction(
        fields=fields,
        records=records,
        score=float(score),
        matched=bool(data.get("matched")),
        url=url if isinstance(url, str) else None,
        coverage=float(coverage),
    )


def _dict_of_lists(value: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(value, dict) and all(isinstance(v, list) for v in value.values())
