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

from scrapy_wrapx.extraction._compiled import compiled
from scrapy_wrapx.template import Extraction

if TYPE_CHECKING:
    from scrapy_wrapx.template import Template

#: Type code of the tag-path numbers of a ``page`` reply (its payload).
PATH_NUMBERS = "I"
#: Frame header: JSON header length, payload length.
FRAME_HEADER = struct.Struct(">II")


def encode_frame(header: dict[str, Any], payload: bytes = b"") -> bytes:
    """One message: lengths, JSON header, payload."""
    return b"".join(frame_parts(header, payload))


def frame_parts(header: dict[str, Any], payload: bytes = b"") -> list[bytes]:
    """One message as the parts a pipe takes one after the other (lengths
    and JSON header, then the payload): a page's payload is written as it
    is, not copied into one frame first."""
    head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    prefix = FRAME_HEADER.pack(len(head), len(payload)) + head
    return [prefix, payload] if payload else [prefix]


class FrameDecoder:
    """Cuts a byte stream into ``(header, payload)`` messages.

    A payload is a page's HTML, tens or hundreds of kilobytes: it is
    copied once, out of the chunk that completed it (chunks holding part
    of a message wait as they came, and are joined once it is whole)."""

    def __init__(self) -> None:
        #: The start of a message that is not whole yet, as it came.
        self._chunks: list[bytes] = []
        self._waiting = 0
        #: Bytes the message in :attr:`_chunks` needs to be whole (at least).
        self._needed = FRAME_HEADER.size

    def feed(self, data: bytes) -> list[tuple[dict[str, Any], bytes]]:
        """Add ``data``; the messages it completed, in order."""
        if self._chunks:
            self._chunks.append(data)
            self._waiting += len(data)
            if self._waiting < self._needed:
                return []
            data = b"".join(self._chunks)
            self._chunks, self._waiting = [], 0
        messages = []
        size, start, total = FRAME_HEADER.size, 0, len(data)
        self._needed = size
        while total - start >= size:
            head_length, payload_length = FRAME_HEADER.unpack_from(data, start)
            body = start + size + head_length
            end = body + payload_length
            if total < end:
                self._needed = end - start
                break
            header = json.loads(data[start + size : body])
            if not isinstance(header, dict):
                raise ValueError(f"Worker message header is not an object: {header!r:.60}")
            messages.append((header, data[body:end]))
            start = end
        if start < total:
            self._chunks, self._waiting = [data[start:] if start else data], total - start
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
        latent = compiled(template).latent.values()  # latent fields are scalars too
        scalars = {info.name for info in template.fields if not info.set}.union(latent)
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
