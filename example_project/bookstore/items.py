"""The item the example spider yields: one per book detail page.

The spider sets only ``url`` and ``design``; scrapy-wrapx fills the fields
the spider declares as targets (``title``, ``price``, ``isbn``) and says how
sure it was of each in ``confidence``. A dataclass, because scrapy-wrapx
reads and fills items through ``itemadapter``: dicts, ``scrapy.Item``,
dataclasses and attrs classes all work the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Book:
    url: str
    #: ``"original"`` or ``"redesigned"`` (the demo site's ``/v2/`` section).
    design: str
    title: str | None = None
    price: str | None = None
    isbn: str | None = None
    #: Field -> confidence of the value scrapy-wrapx filled in
    #: (``WRAPX_TARGETS_CONFIDENCE_FIELD``): the locator's confidence in a
    #: verified selector hit or in a relocation.
    confidence: dict[str, float] = field(default_factory=dict)
