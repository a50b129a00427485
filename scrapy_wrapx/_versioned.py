"""Versioned JSON documents: what every stored object of scrapy-wrapx is.

Templates and target references travel between processes, machines and
releases, so each is a JSON object that names its format and version; a
reader accepts exactly its own format and version and refuses anything
else with a clear :class:`ValueError`, never guessing at foreign data.
"""

from __future__ import annotations

import json
from typing import Any


def load_versioned(text: str | bytes, fmt: str, version: int, what: str) -> dict[str, Any]:
    """The JSON object in ``text`` if it is a ``fmt`` document of
    ``version``; :class:`ValueError` naming ``what`` otherwise.

    >>> load_versioned('{"format": "f", "version": 2, "x": 1}', "f", 2, "thing")["x"]
    1
    >>> load_versioned('{"format": "f", "version": 1}', "f", 2, "thing")
    Traceback (most recent call last):
    ...
    ValueError: Unsupported thing version: 1
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"Invalid {what} JSON: {str(text)[:60]!r}") from exc
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError(f"Not a {what}: {str(text)[:60]!r}")
    if data.get("version") != version:
        raise ValueError(f"Unsupported {what} version: {data.get('version')!r}")
    return data
