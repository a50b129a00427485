"""Versioned JSON documents: what every stored object of scrapy-wrapx is.

Templates and target references travel between processes, machines and
releases, so each is a JSON object that names its format and version; a
reader accepts exactly its own format and version and refuses anything
else with a clear :class:`ValueError`, never guessing at foreign data.
"""

from __future__ import annotations

import json
from itertools import accumulate
from typing import Any

#: Deepest bracket nesting a record may have. Records are written by
#: scrapy-wrapx and are shallow: the deepest measured (a template of SWDE's
#: christianbook pages) nests 57 levels, and induction caps element nesting
#: at 80, about 165 levels of JSON. Deeper text is refused *before*
#: :func:`json.loads`, which would recurse once per level.
MAX_JSON_DEPTH = 256
#: Largest record, in characters: a buffered page is the biggest record,
#: and seed pages are capped at 2 MiB by default (``WRAPX_SEEDS_MAX_BODY_SIZE``).
MAX_JSON_SIZE = 64 * 1024 * 1024

#: The bytes :func:`json_depth` deletes: all but brackets and quotes (what
#: is left outside strings in valid JSON; the bytes of a non-ASCII
#: character, never ASCII in UTF-8, can only be in a string).
_NOT_BRACKET_OR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"')
_NESTING = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(text: str) -> int:
    """How deep the brackets of JSON ``text`` nest, outside strings.

    A linear scan without recursion (and mostly in C), cheap enough to run
    on every record before parsing it:

    >>> json_depth('{"a": [1, {"b": "[[[not counted"}]}')
    3
    >>> json_depth("1")
    0
    """
    # Escapes go first (backslash pairs from the left, as a JSON reader
    # pairs them, then escaped quotes): every quote left opens or closes a
    # string, so the text outside strings is every other piece between
    # quotes. Bytes, as bytes.translate deletes in C whatever the text holds.
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    kept = unescaped.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKET_OR_QUOTE)
    brackets = b"".join(kept.split(b'"')[::2])
    return max(accumulate(map(_NESTING.__getitem__, brackets)), default=0)


def load_json(text: str | bytes, what: str) -> Any:
    """``json.loads(text)`` bounded in size and depth: :class:`ValueError`
    naming ``what``, never :class:`RecursionError`, for anything else.

    >>> load_json("[" * 100_000, "record")
    Traceback (most recent call last):
    ...
    ValueError: record nests 100000 levels deep (at most 256)
    """
    if len(text) > MAX_JSON_SIZE:
        raise ValueError(f"{what} of {len(text)!r} characters is too large")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{what} is not UTF-8: {exc}") from exc
    if not isinstance(text, str):
        raise ValueError(f"{what} is not text: {type(text).__name__!r}")
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"{what} nests {depth!r} levels deep (at most {MAX_JSON_DEPTH})")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"Invalid {what}: {exc}") from exc


def load_versioned(text: str | bytes, fmt: str, version: int, what: str) -> dict[str, Any]:
    """The JSON object in ``text`` if it is a ``fmt`` document of
    ``version``; :class:`ValueError` naming ``what`` otherwise.

    >>> load_versioned('{"format": "f", "version": 2, "x": 1}', "f", 2, "thing")["x"]
    1
    >>> load_versioned('{"format": "f", "version": 1}', "f", 2, "thing")
    Traceback (most recent call last):
    ...
    ValueError: Unsupported thing version: 1
    >>> load_versioned('{"format": "f", "version": 2', "f", 2, "thing")
    Traceback (most recent call last):
    ...
    ValueError: Invalid thing JSON: Expecting ',' delimiter: line 1 column 29 (char 28)
    """
    data = load_json(text, f"{what} JSON")
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError(f"Not a {what}: {str(text)[:60]!r}")
    if data.get("version") != version:
        raise ValueError(f"Unsupported {what} version: {data.get('version')!r}")
    return data
