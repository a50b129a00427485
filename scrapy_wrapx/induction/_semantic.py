"""What a page says about its own values: semantic markup and its title.

A page often names its data for machines: schema.org microdata
(``itemprop="price"``), JSON-LD blocks, OpenGraph ``<meta>`` tags. Their keys
are the names a person would pick, from a shared vocabulary, so a field
whose values are a key's values on the seed pages takes the key's name.
They are read with `extruct <https://github.com/scrapinghub/extruct>`_, the
Scrapy ecosystem's library for them, from the page's original document
(normalization drops ``<head>`` and ``<script>``, where most of them live).

The page ``<title>`` (and ``og:title``) names the main heading: a heading
whose text the title holds is the page's title.

>>> from scrapy_wrapx.dom import parse
>>> tree = parse('<html><head><title>Dune - Books</title>'
...              '<meta property="og:price:amount" content="9.99"></head>'
...              '<body><h1>Dune</h1><span itemprop="author">F. Herbert</span></body></html>')
>>> evidence = page_evidence(tree)
>>> sorted(evidence.keys["9.99"]), sorted(evidence.keys["f. herbert"])
(['price'], ['author'])
>>> evidence.in_title("Dune"), evidence.in_title("Books and more")
(True, False)
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from scrapy_wrapx.dom import PageTree, fold_whitespace, top_elements

logger = logging.getLogger(__name__)

#: Keys of nested values that name their parent (``author.name`` is the
#: author), never a field alone.
_INNER_KEYS = frozenset({"name", "value", "text", "amount", "content", "url", "@value"})
#: Keys that say nothing about a value.
_IGNORED_KEYS = frozenset({"type", "context", "id", "site_name", "locale", "description_type"})
#: A title match needs at least this many characters (a "1" is in any title).
MIN_TITLE_CHARS = 3
#: What separates a page title's parts: "Dune | Books-A-Million".
_TITLE_PARTS = re.compile(r"\s+(?:[|\-\u2013\u2014:\u00bb\u2022]|::)\s+")
#: A heading that opens with a part of the title this long heads the page.
MIN_TITLE_PART_CHARS = 8
#: What a title and a heading are compared without: "Inherit the Wind
#: (1960)" is the title's "Inherit the Wind 1960".
_NOT_WORD = re.compile(r"[\W_]+")


def title_words(text: str) -> str:
    """A title or a heading as it is compared: its words, lower case, one
    space between and around them (so a match is one of whole words).

    >>> title_words("Inherit the Wind (1960)")
    ' inherit the wind 1960 '
    """
    return f" {_NOT_WORD.sub(' ', text.lower()).strip()} "


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_KEY_CHARS = re.compile(r"[^a-z0-9]+")


def canon(value: str) -> str:
    """A value as it is compared: whitespace folded, lower case."""
    return fold_whitespace(value).lower()


def key_name(key: str) -> str:
    """A vocabulary key as a field name: ``datePublished`` ->
    ``date_published``, ``og:title`` -> ``title``, ``product:price:amount``
    -> ``price``.

    >>> key_name("datePublished"), key_name("og:title"), key_name("product:price:amount")
    ('date_published', 'title', 'price')
    """
    parts = [p for p in key.split(":") if p]
    if len(parts) > 1:
        parts = parts[1:]  # the namespace (og, product, twitter)
    while len(parts) > 1 and parts[-1].lower() in _INNER_KEYS:
        parts.pop()
    words = _CAMEL.sub("_", "_".join(parts[-1:])).lower()
    return _KEY_CHARS.sub("_", words).strip("_")


@dataclass
class PageEvidence:
    """Semantic keys by value, and the page's title texts."""

    keys: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    titles: list[str] = field(default_factory=list)

    def add(self, key: str, value: Any) -> None:
        name = key_name(key)
        if isinstance(value, (str, int, float)) and name and name not in _IGNORED_KEYS:
            text = canon(str(value))
            if text:
                self.keys[text].add(name)

    def in_title(self, value: str) -> bool:
        text = title_words(value)
        return len(text) - 2 >= MIN_TITLE_CHARS and any(
            text in title_words(title) for title in self.titles
        )

    def heads_title(self, value: str) -> bool:
        """Whether a heading's text is in the title, or opens with a part
        of it: "2010 MINI COOPER TECH SPECS" under the title "2010 MINI
        Cooper | Autoweb.com".

        >>> PageEvidence(titles=["2010 mini cooper | autoweb.com"]).heads_title(
        ...     "2010 MINI COOPER TECH SPECS"
        ... )
        True
        """
        return self.title_position(value) is not None

    def title_position(self, value: str) -> int | None:
        """Where in the title a heading's text is (:meth:`heads_title`),
        or the part of the title it opens with; None if neither. A page's
        title names its entity first ("Dune - Science Fiction - Books").
        Both are compared by their words (:func:`title_words`)."""
        text = title_words(value)
        whole = len(text) - 2 >= MIN_TITLE_CHARS  # its words, without the spaces around
        found: list[int] = []
        for title in self.titles:
            words = title_words(title)
            if whole and text in words:
                found.append(words.index(text))
                continue
            for part in _TITLE_PARTS.split(title):
                part_words = title_words(part)
                if len(part) >= MIN_TITLE_PART_CHARS and text.startswith(part_words):
                    found.append(max(words.find(part_words), 0))
                    break
        return min(found) if found else None


def page_evidence(tree: PageTree) -> PageEvidence:
    """Semantic keys and titles of ``tree``'s page (see the module doc)."""
    evidence = PageEvidence()
    for document in top_elements(tree.document):
        for title in document.iter("title"):
            evidence.titles.append(canon("".join(str(t) for t in title.itertext())))
        for key, value in _markup(document, tree.url or ""):
            evidence.add(key, value)
            if key_name(key) in ("title", "headline") and isinstance(value, str):
                evidence.titles.append(canon(value))
        for meta in document.iter("meta"):
            if (meta.get("name") or "").lower() == "title" and meta.get("content"):
                evidence.titles.append(canon(meta.get("content") or ""))
    return evidence


def _markup(document: Any, url: str) -> Iterator[tuple[str, Any]]:
    """(key, value) pairs of the page's JSON-LD and microdata (by extruct),
    OpenGraph ``<meta property>`` tags and loose ``itemprop`` attributes
    (outside any ``itemscope``, which microdata parsers skip)."""
    yield from _extruct_items(document, url)
    for meta in document.iter("meta"):
        prop = meta.get("property") or ""
        if ":" in prop and meta.get("content"):
            yield prop, meta.get("content")
    for element in document.iterfind(".//*[@itemprop]"):
        value = element.get("content") or "".join(str(t) for t in element.itertext())
        yield str(element.get("itemprop")).split()[0], value


def _extruct_items(document: Any, url: str) -> Iterator[tuple[str, Any]]:
    """The items of the page's JSON-LD and microdata. extruct is imported
    (a third of a second: every syntax it knows comes with it) and run only
    where the page has such markup, which most pages lack."""
    json_ld = any(
        "ld+json" in (script.get("type") or "").lower()
        for script in document.iterfind(".//script[@type]")
    )
    microdata = next(document.iterfind(".//*[@itemscope]"), None) is not None
    if not json_ld and not microdata:
        return
    try:
        from extruct.jsonld import JsonLdExtractor  # type: ignore[import-untyped]
        from extruct.w3cmicrodata import MicrodataExtractor  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - extruct is a dependency
        return
    readers: list[Callable[[], Any]] = []
    if json_ld:
        readers.append(lambda: JsonLdExtractor().extract_items(document, base_url=url))
    if microdata:
        readers.append(lambda: MicrodataExtractor().extract_items(document, url))
    for read in readers:
        try:
            items = list(read())
        except Exception as exc:  # malformed markup must not stop induction
            logger.debug("Unreadable semantic markup on %s: %s", url, exc)
            continue
        for item in items:
            yield from _flatten(item, "")


def _flatten(data: Any, key: str) -> Iterator[tuple[str, Any]]:
    """Leaves of nested JSON with the key that names them: the nearest key
    that is not an inner key (``author.name`` -> ``author``)."""
    if isinstance(data, dict):
        if "properties" in data and isinstance(data["properties"], (dict, list)):
            yield from _flatten(data["properties"], key)
            return
        for inner, value in data.items():
            if str(inner).startswith("@") and inner != "@value":
                continue
            name = key if key and str(inner).lower() in _INNER_KEYS else str(inner)
            yield from _flatten(value, name)
    elif isinstance(data, list):
        for value in data:
            if isinstance(value, tuple) and len(value) == 2:
                yield str(value[0]), value[1]  # OpenGraph's (property, content)
            else:
                yield from _flatten(value, key)
    elif key:
        yield key, data
