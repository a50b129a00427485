"""How the tests and the benchmarks compare extracted values with the truth."""

from __future__ import annotations

import re

from scrapy_wrapx.dom import fold_whitespace

__all__ = ["canon"]

_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")


def canon(value: str) -> str:
    """``value`` with whitespace folded and punctuation trimmed from both
    ends: a value found as ``"$7.99,"`` and a truth of ``"7.99"`` are the
    same value, whatever markup or currency sign sits beside it.

    >>> canon("  $7.99, ")
    '7.99'
    >>> canon("Head First\\n  Python")
    'Head First Python'
    """
    return _EDGE_PUNCT.sub("", fold_whitespace(value))
