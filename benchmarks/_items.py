"""The values of the item a user gets, by where they sit in it.

The benchmarks score what a crawl emits (:func:`item_data`), not the
template's flat fields: a record set's members are only inside its records,
a key/value set is one mapping keyed by its labels. Each value is listed
under its path in the item: ``title``; ``reviews.author`` for the
``author`` of every record of ``reviews``; ``details.weight`` for the
``weight`` key of a mapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy_wrapx.unsupervised.items import item_data

if TYPE_CHECKING:
    from scrapy_wrapx.template import Extraction, Template


def item_values(extraction: Extraction, template: Template) -> dict[str, list[str]]:
    """The page's item values by path (see the module doc).

    >>> flatten({"title": "Dune", "reviews": [{"author": "A"}, {"author": "B"}],
    ...          "details": {"weight": "358 g"}, "genre": ["SF", "Classic"]})
    {'title': ['Dune'], 'reviews.author': ['A', 'B'], 'details.weight': ['358 g'], 'genre': ['SF', 'Classic']}
    """
    return flatten(item_data(extraction, template))


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, list[str]]:
    """``data``'s string values by path (nested records and mappings
    joined with ``.``)."""
    found: dict[str, list[str]] = {}
    for key, value in data.items():
        path = prefix + key
        entries = value if isinstance(value, list) else [value]
        for entry in entries:
            if isinstance(entry, str):
                found.setdefault(path, []).append(entry)
            elif isinstance(entry, dict):
                for inner, values in flatten(entry, path + ".").items():
                    found.setdefault(inner, []).extend(values)
    return found


def leaf(path: str) -> str:
    """The key a person reads a value by: the last part of its path."""
    return path.rsplit(".", 1)[-1]
