"""Signals the scrapy-wrapx components use to talk to each other.

The components of the unsupervised mode are separate Scrapy components (a
spider middleware routes pages and emits items, an extension induces
templates) that also share state through the store, so that they work in
several processes. Within one process these signals spare them polling the
store. Handlers are connected with ``crawler.signals.connect``.
"""

from __future__ import annotations

#: Sent when a seed page was stored for a kind. Arguments: ``kind_key``,
#: ``version`` (the template version the seeds are for: 1 for the first
#: induction, ``n + 1`` for pages that failed template ``n``), ``count``
#: (seeds stored so far for that version), ``spider``.
seed_collected = object()

#: Sent when a template is ready for a kind: induced here, or found in the
#: store (induced by another process). Arguments: ``kind_key``, ``record``
#: (a :class:`scrapy_wrapx.unsupervised.templates.TemplateRecord`), ``spider``.
template_ready = object()

#: Sent after a page was extracted with its kind's template. Arguments:
#: ``kind_key``, ``version``, ``matched`` (bool), ``spider``.
page_extracted = object()

#: Sent by the capture middleware for each response it captures as a page.
#: Arguments: ``response``, ``request`` (``response.request`` is not set
#: yet at that point), ``spider``.
page_captured = object()
