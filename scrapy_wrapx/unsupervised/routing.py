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

The kinds of the ``WRAPX_KINDS_CACHE_SITES`` sites routed to last are kept in
memory; a crawl of more sites than that drops the kinds of the site routed
to least recently (they stay in the store, where the next page of that site
finds them), and tells the components that keep something per kind
(``on_forget``: the templates and seed counts of those kinds), so its memory
does not grow with every site it visits.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
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

    def __init__(
        self,
        store: WrapxStore,
        index: KindIndex,
        count: Callable[[str], None],
        max_sites: int = 64,
        on_forget: Sequence[Callable[[list[str]], None]] = (),
    ) -> None:
        if max_sites < 1:
            raise ValueError(f"WRAPX_KINDS_CACHE_SITES must be >= 1, not {max_sites!r}")
        self.store = store
        self.index = index
        self._count = count
        self.max_sites = max_sites
        #: Called with the kind keys of each site dropped from memory.
        self.on_forget = tuple(on_forget)
        #: Sites this crawl routed pages of.
        self.domains: set[str] = set()
        #: Sites whose kinds are in :attr:`index`, routed to least recently first.
        self._sites: OrderedDict[str, None] = OrderedDict()
        #: Per site in :attr:`index`: the kind that pages of a URL pattern
        #: were routed to last.
        self._expected: dict[str, dict[str, str]] = {}
        #: Kinds whose pages stopped fitting them (logged once each).
        self._restructured: set[str] = set()
        #: Kinds known to have a template (they keep it).
        self._templated: set[str] = set()

    def route(self, signature: PageSignature) -> PageKind:
        """The page's kind: a known one it fits, else a new one."""
        domain = signature.domain
        self.domains.add(domain)
        self._in_memory(domain)
        kind, _ = self.index.match(signature)
        if kind is None:
            self._load_kinds(domain)
            kind, _ = self.index.match(signature)
        if kind is None:
            kind = self._redesigned(signature) or self._found(signature)
        else:
            kind.remember(signature.paths)
        self._expected.setdefault(domain, {})[signature.url_pattern] = kind.key
        self._count("kinds/pages_count")
        return kind

    def expected(self, domain: str, pattern: str) -> str | None:
        """The kind pages of this URL shape were routed to last, if any."""
        return self._expected.get(domain, {}).get(pattern)

    def _in_memory(self, domain: str) -> None:
        """Have ``domain``'s kinds in the index, dropping those of the site
        routed to least recently past ``max_sites`` sites."""
        if domain in self._sites:
            self._sites.move_to_end(domain)
            return
        self._load_kinds(domain)
        self._sites[domain] = None
        while len(self._sites) > self.max_sites:
            self._forget(self._sites.popitem(last=False)[0])

    def _forget(self, domain: str) -> None:
        """Drop what is kept of ``domain`` here and in :attr:`on_forget`."""
        kind_keys = [kind.key for kind in self.index.kinds(domain)]
        self.index.forget(domain)
        self._expected.pop(domain, None)
        self._templated.difference_update(kind_keys)
        self._restructured.difference_update(kind_keys)
        for forget in self.on_forget:
            forget(kind_keys)

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
