"""The item the example spider yields: one per book detail page.

A dataclass, because scrapy-wrapx reads and fills items through
``itemadapter``: dicts, ``scrapy.Item``, dataclasses and attrs classes all
work the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Book:
    url: str
    #: ``"original"`` or ``"redesigned"`` (the demo site's ``/v2/`` section).
    design: str
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    price: str | None = None
    isbn: str | None = None
    publisher: str | None = None
    publication_date: str | None = None
    rating: str | None = None
    image: str | None = None
    description: str | None = None
