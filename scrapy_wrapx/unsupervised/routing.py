"""Routing pages to page kinds, agreeing with other processes through the
store (:mod:`scrapy_wrapx.unsupervised.kinds` holds the kinds themselves).

Kinds unknown here are read from the store before a new one is founded, and
after founding one the first fitting kind in the store's order wins, so
processes that found a kind at the same time converge on one.

A page that fits no kind but has the URL pattern of exactly one kind that
has a template goes to that kind (:meth:`KindIndex.same_pattern`): the site
was redesigned under the same URLs, so the page fails to match the kind's
template and becomes a seed of its next version (re-induction keeps the
field names), instead of founding a kind whose items would carry other
names. A kind without a template yet has no redesign to show: the page
founds its own kind, as pages of two templates sharing a URL shape must.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from scrapy_wrapx.unsupervised.kinds import KindIndex, PageKind, kind_domain, new_kind
from scrapy_wrapx.unsupervised.templates import KINDS, load_template

if TYPE_CHECKING:
    from scrapy_wrapx.store import WrapxStore
    from scrapy_wrapx.unsupervised.kinds import PageSignature

logger = logging.getLogger(__name__)


class KindRouter:
    """The kinds of the sites this crawl visits, and the kind each URL shape
    was routed to last (a page of that shape is most likely of that kind,
    so it is sent to a worker with that kind's template)."""

    def __init__(self, store: WrapxStore, index: KindIndex, count: Callable[[str], None]) -> None:
        self.store = store
        self.index = index
        self._count = count
        #: Sites this crawl routed pages of.
        self.domains: set[str] = set()
        #: The kind that pages of a (domain, URL pattern) were routed to last.
        self._expected: dict[tuple[str, str], str] = {}
        #: Kinds whose pages stopped fitting them (logged once each).
        self._restructured: set[str] = set()
        #: Kinds known to have a template (they keep it).
        self._templated: set[str] = set()

    def route(self, signature: PageSignature) -> PageKind:
        """The page's kind: a known one it fits, else a new one."""
        domain = signature.domain
        if domain not in self.domains:
            self.domains.add(domain)
            self._load_kinds(domain)
        kind, _ = self.index.match(signature)
        if kind is None:
            self._load_kinds(domain)
            kind, _ = self.index.match(signature)
        if kind is None:
            kind = self._redesigned(signature) or self._found(signature)
        else:
            kind.remember(signature.paths)
        self._expected[domain, signature.url_pattern] = kind.key
        self._count("kinds/pages_count")
        return kind

    def expected(self, domain: str, pattern: str) -> str | None:
        """The kind pages of this URL shape were routed to last, if any."""
        return self._expected.get((domain, pattern))

    def own(self, kind_keys: list[str]) -> list[str]:
        """The kinds among ``kind_keys`` of sites this crawl visits (a store
        may be shared with crawls of other sites)."""
        return [key for key in kind_keys if kind_domain(key) in self.domains]

    def _redesigned(self, signature: PageSignature) -> PageKind | None:
        """The kind ``signature``'s page is a redesign of, if any (see the
        module doc)."""
        kind = self.index.same_pattern(signature)
        if kind is None:
            return None
        if kind.key not in self._templated:
            if load_template(self.store, kind.key) is None:
                return None
            self._templated.add(kind.key)
        if kind.key not in self._restructured:
            self._restructured.add(kind.key)
            logger.info(
                "Pages of URL pattern %s no longer look like kind %s (first: %s): "
                "routed to it, to be re-induced if they keep failing its template",
                signature.url_pattern,
                kind.key,
                signature.url,
            )
        return kind

    def _found(self, signature: PageSignature) -> PageKind:
        founded = new_kind(signature)
        self.store.append(KINDS, signature.domain, founded.to_dict())
        self._load_kinds(signature.domain)
        kind = next(
            (
                k
                for k in self.index.kinds(signature.domain)
                if k.score(signature, self.index.url_weight) >= self.index.threshold
            ),
            founded,
        )
        self.index.add(kind)
        if kind is founded or kind.id == founded.id:
            self._count("kinds/created_count")
            logger.info(
                "New page kind %s (URL pattern %s, %d tag paths), founded by %s",
                kind.key,
                kind.url_pattern,
                len(kind.paths),
                signature.url,
            )
        return kind

    def _load_kinds(self, domain: str) -> None:
        for data in self.store.get_list(KINDS, domain):
            try:
                kind = PageKind.from_dict(data)
            except ValueError as exc:
                logger.warning("Skipping a stored page kind of %s: %s", domain, exc)
                continue
            if kind.domain == domain:
                self.index.add(kind)
