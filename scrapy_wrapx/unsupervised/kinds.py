"""Page kinds: grouping the pages of one site by the template that made them.

One site has several templates — list pages, detail pages, search pages —
and induction needs seed pages of *one* template (DESIGN.md, "Page kinds").
A crawl meets pages in any order, so each page is routed, as it comes, to the
kind it fits, and a page that fits none founds a new kind.

Two signals tell kinds apart, and neither is enough alone:

* **Structure.** A page's *tag-path set* is the set of root-to-node tag paths
  without sibling orders (thesis §5.2 "tag path cut"): a list of 10 records
  and one of 3 records give the same set, and optional blocks change it only
  a little, while another template changes much of it. Pages are compared
  by the Jaccard similarity of their sets.
* **URL pattern.** Pages of one kind usually share a URL shape
  (``/book/*.html``, ``/item?id=*``). The pattern keeps directory names and
  query parameter *names* and generalizes the variable parts.

A page joins the kind with the highest ``jaccard + url_weight * same_pattern``
if that score reaches ``threshold``: with the defaults, a page with the
kind's URL pattern needs a modest structural overlap (the same URLs after a
redesign still route to their kind, whose template then fails to match — the
signal for re-induction), while a page with another URL shape needs to look
like the kind's pages (SWDE-style sites whose URLs are all different).

Kinds are plain JSON records so that several crawler processes sharing a
store agree on them.

>>> detail = page_signature(
...     '<body><div class="book"><h1>Dune</h1><p>Frank Herbert</p></div></body>',
...     "http://books.example/book/dune.html")
>>> detail.domain, detail.url_pattern
('books.example', '/book/*.html')
>>> index = KindIndex()
>>> first = index.route(detail)
>>> other = page_signature(
...     '<body><div class="book"><h1>Emma</h1><p>Jane Austen</p><p>1815</p></div></body>',
...     "http://books.example/book/emma.html")
>>> index.route(other) is first
True
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from scrapy_wrapx import dom
from scrapy_wrapx.dom import structure_paths

__all__ = [
    "DEFAULT_THRESHOLD",
    "DEFAULT_URL_WEIGHT",
    "KindIndex",
    "PageKind",
    "PageSignature",
    "domain_of",
    "jaccard",
    "kind_domain",
    "page_signature",
    "url_pattern",
]

#: Score a page needs to join an existing kind.
DEFAULT_THRESHOLD = 0.6
#: Added to the structural similarity when the URL patterns are equal.
DEFAULT_URL_WEIGHT = 0.3

#: Pages, besides the founder, a kind compares new pages with.
MAX_MEMBERS = 4
#: A page more similar than this to a member adds nothing as a member.
MEMBER_NOVELTY = 0.95

#: Version of :meth:`PageKind.to_dict`'s format.
KIND_FORMAT_VERSION = 1

_DIGITS = re.compile(r"\d+")
_ID_LIKE = re.compile(r"^(?=.*\d)[0-9a-fA-F-]{8,}$|^\d+$")
_SLUG_CHARS = re.compile(r"[^a-z0-9]+")


def domain_of(url: str) -> str:
    """The site a page belongs to: the host (and port), without ``www.``."""
    netloc = urlsplit(url).netloc.lower().rpartition("@")[2]
    return netloc[4:] if netloc.startswith("www.") else netloc


def kind_domain(kind_key: str) -> str:
    """The site of a kind, from its key (:attr:`PageKind.key`)."""
    return kind_key.rpartition("/")[0]


def _segment_pattern(segment: str, last: bool) -> str:
    if not segment:
        return segment
    if _ID_LIKE.match(segment):
        return "*"
    if last:
        # The file name varies per page (a slug, an id); its extension and
        # the shape of a numbered name ("page-*") do not.
        stem, dot, extension = segment.rpartition(".")
        if not dot or not stem or not extension.isalnum():
            stem, extension = segment, ""
        prefix = re.match(r"^([A-Za-z_]+[-_])\d+$", stem)
        generalized = prefix.group(1) + "*" if prefix else "*"
        return generalized + ("." + extension.lower() if extension else "")
    return _DIGITS.sub("*", segment)


def url_pattern(url: str) -> str:
    """The URL's shape: directories kept (digit runs generalized), the file
    name reduced to ``*`` plus its extension, query parameter names sorted.

    >>> url_pattern("http://x.example/catalogue/page-2.html")
    '/catalogue/page-*.html'
    >>> url_pattern("https://x.example/product/9780316125581")
    '/product/*'
    >>> url_pattern("http://x.example/show.php?id=12&lang=en")
    '/*.php?id&lang'
    >>> url_pattern("http://x.example/")
    '/'
    """
    parts = urlsplit(url)
    segments = parts.path.split("/")
    # A path ending with "/" has an empty last segment: a directory index.
    last = len(segments) - 1
    path = "/".join(_segment_pattern(segment, i == last) for i, segment in enumerate(segments))
    if not path.startswith("/"):
        path = "/" + path
    names = sorted({name for name, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return path + ("?" + "&".join(names) if names else "")


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """Size of the intersection over size of the union; two empty sets are
    identical (1.0)."""
    if not a and not b:
        return 1.0
    common = len(a & b)
    return common / (len(a) + len(b) - common)


@dataclass(frozen=True)
class PageSignature:
    """What routing needs of a page: its site, URL pattern and tag paths."""

    url: str
    domain: str
    url_pattern: str
    paths: frozenset[str]


def page_signature(page: str | bytes | dom.PageTree, url: str) -> PageSignature:
    """The :class:`PageSignature` of a page (HTML or an already parsed tree)."""
    tree = page if isinstance(page, dom.PageTree) else dom.parse(page, url=url)
    return PageSignature(url, domain_of(url), url_pattern(url), structure_paths(tree))


@dataclass
class PageKind:
    """A group of pages made by one template, on one site.

    ``paths`` is the tag-path set of the page that founded the kind: kinds
    are shared between processes through a store, so what defines one must
    not drift with the order in which each process happens to see pages.
    """

    id: str
    domain: str
    url_pattern: str
    paths: frozenset[str] = field(repr=False)
    example_url: str = ""
    #: Tag-path sets of a few pages that joined the kind (kept in memory
    #: only): a page is compared with the closest of them, so one atypical
    #: founding page does not split its kind.
    members: list[frozenset[str]] = field(default_factory=list, repr=False, compare=False)

    @property
    def key(self) -> str:
        """``domain/id``: the key of the kind's seeds and template in a store."""
        return f"{self.domain}/{self.id}"

    def score(self, signature: PageSignature, url_weight: float = DEFAULT_URL_WEIGHT) -> float:
        """How well ``signature`` fits this kind (see the module doc)."""
        if signature.domain != self.domain:
            return 0.0
        bonus = url_weight if signature.url_pattern == self.url_pattern else 0.0
        similarity = jaccard(self.paths, signature.paths)
        for member in self.members:
            similarity = max(similarity, jaccard(member, signature.paths))
        return similarity + bonus

    def remember(self, paths: frozenset[str]) -> None:
        """Keep ``paths`` as a member if the kind has room and nothing alike."""
        if len(self.members) >= MAX_MEMBERS:
            return
        known = [self.paths, *self.members]
        if all(jaccard(paths, other) < MEMBER_NOVELTY for other in known):
            self.members.append(paths)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": KIND_FORMAT_VERSION,
            "id": self.id,
            "domain": self.domain,
            "url_pattern": self.url_pattern,
            "paths": sorted(self.paths),
            "example_url": self.example_url,
        }

    @classmethod
    def from_dict(cls, data: Any) -> PageKind:
        """Rebuild a kind from :meth:`to_dict`, validating every field."""
        if not isinstance(data, dict) or data.get("version") != KIND_FORMAT_VERSION:
            raise ValueError(f"Not a page kind record: {data!r:.80}")
        texts = ("id", "domain", "url_pattern", "example_url")
        if not all(isinstance(data.get(name), str) for name in texts):
            raise ValueError(f"Page kind record with invalid fields: {data!r:.80}")
        paths = data.get("paths")
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise ValueError(f"Page kind record with invalid paths: {data.get('id')!r}")
        return cls(
            data["id"], data["domain"], data["url_pattern"], frozenset(paths), data["example_url"]
        )


def _specific(pattern: str) -> bool:
    """Whether a URL pattern tells a kind apart: ``/*.html`` or ``/*`` fits
    every page of many sites, ``/book/*.html`` and ``/*.php?id`` do not.

    >>> _specific("/*.html"), _specific("/book/*.html"), _specific("/*.php?id")
    (False, True, True)
    """
    path, _, query = pattern.partition("?")
    return bool(query) or len(path.strip("/").split("/")) >= 2


def new_kind(signature: PageSignature) -> PageKind:
    """Found a kind on ``signature``'s page.

    The id reads as the URL's first directory (``book``, ``catalogue``,
    ``root``) plus a short hash of the founding page's URL and structure, so
    that two processes founding a kind on the same page agree on its id.
    """
    directories = signature.url_pattern.split("?", 1)[0].strip("/").split("/")[:-1]
    words = [_SLUG_CHARS.sub("-", d.replace("*", "").lower()).strip("-") for d in directories]
    slug = next((word for word in words if len(word) >= 3), "root")
    digest = hashlib.sha1(signature.url.encode("utf-8"))
    digest.update("\n".join(sorted(signature.paths)).encode("utf-8"))
    return PageKind(
        f"{slug[:24]}-{digest.hexdigest()[:6]}",
        signature.domain,
        signature.url_pattern,
        signature.paths,
        signature.url,
    )


class KindIndex:
    """The kinds known so far, per domain, and the routing rule over them.

    ``route`` assigns a page to the best-fitting kind or founds a new one;
    ``match`` only looks. Kinds created elsewhere (another process, read from
    a store) are merged with :meth:`add`; when two processes founded
    equivalent kinds concurrently, routing prefers the one listed first, so
    both converge on it.
    """

    def __init__(
        self,
        kinds: Iterable[PageKind] = (),
        *,
        threshold: float = DEFAULT_THRESHOLD,
        url_weight: float = DEFAULT_URL_WEIGHT,
    ) -> None:
        if not 0.0 < threshold <= 1.0 + url_weight:
            raise ValueError(f"Kind similarity threshold out of range: {threshold!r}")
        self.threshold = threshold
        self.url_weight = url_weight
        self._kinds: dict[str, list[PageKind]] = {}
        for kind in kinds:
            self.add(kind)

    def add(self, kind: PageKind) -> bool:
        """Know ``kind`` (after the ones already known); False if known."""
        listed = self._kinds.setdefault(kind.domain, [])
        if any(known.id == kind.id for known in listed):
            return False
        listed.append(kind)
        return True

    def forget(self, domain: str) -> None:
        """Drop the kinds of ``domain`` (a crawl that keeps a few sites' kinds
        in memory reads them again from its store)."""
        self._kinds.pop(domain, None)

    def kinds(self, domain: str | None = None) -> list[PageKind]:
        """Known kinds of ``domain`` (all domains if None), in listing order."""
        if domain is not None:
            return list(self._kinds.get(domain, ()))
        return [kind for listed in self._kinds.values() for kind in listed]

    def get(self, key: str) -> PageKind | None:
        """The kind whose :attr:`PageKind.key` is ``key``."""
        domain, _, kind_id = key.rpartition("/")
        for kind in self._kinds.get(domain, ()):
            if kind.id == kind_id:
                return kind
        return None

    def match(self, signature: PageSignature) -> tuple[PageKind | None, float]:
        """The best kind for ``signature`` and its score; None below the
        threshold. Ties go to the earlier kind."""
        best: PageKind | None = None
        best_score = -1.0
        for kind in self._kinds.get(signature.domain, ()):
            score = kind.score(signature, self.url_weight)
            if score > best_score:
                best, best_score = kind, score
        if best is None or best_score < self.threshold:
            return None, max(best_score, 0.0)
        return best, best_score

    def route(self, signature: PageSignature) -> PageKind:
        """The kind of ``signature``'s page, founding one if none fits."""
        kind, _ = self.match(signature)
        if kind is None:
            kind = new_kind(signature)
            self.add(kind)
        else:
            kind.remember(signature.paths)
        return kind

    def same_pattern(self, signature: PageSignature) -> PageKind | None:
        """The one kind of the site with ``signature``'s URL pattern, when
        that pattern says something (two path segments at least, or query
        parameters) and no other kind shares it: a page of that shape that
        fits no kind is most likely that kind after a redesign, not a new
        kind (DESIGN.md, "Wrapper verification and repair").

        >>> index = KindIndex()
        >>> old = index.route(page_signature("<body><h1>A</h1></body>", "http://s.example/book/a.html"))
        >>> new = page_signature("<body><div><p>B</p></div></body>", "http://s.example/book/b.html")
        >>> index.match(new)[0] is None, index.same_pattern(new) is old
        (True, True)
        """
        if not _specific(signature.url_pattern):
            return None
        alike = [
            kind
            for kind in self._kinds.get(signature.domain, ())
            if kind.url_pattern == signature.url_pattern
        ]
        return alike[0] if len(alike) == 1 else None

    def related(self, kind: PageKind) -> PageKind | None:
        """An earlier kind of the same site whose URL pattern is ``kind``'s,
        or ends like it (``/v2/book/*.html`` and ``/book/*.html``): most
        likely the same template before a redesign, whose field names the
        new kind's template should keep."""
        mine = kind.url_pattern.strip("/").split("/")
        for other in self._kinds.get(kind.domain, ()):
            if other is kind:
                break
            if other.url_pattern == kind.url_pattern:
                return other
            theirs = other.url_pattern.strip("/").split("/")
            shorter, longer = sorted((mine, theirs), key=len)
            # Two segments at least: "/*.html" alone says nothing.
            if len(shorter) >= 2 and longer[len(longer) - len(shorter) :] == shorter:
                return other
        return None
