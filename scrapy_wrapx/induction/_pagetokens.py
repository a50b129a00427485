"""Per-page tokens: what makes a template value look like data.

Many sites put a session id, a tracking parameter or a cache buster into
every link of a page: ``/books?id=4779575787626`` on one page,
``/books?id=4779530069995`` on the next. Compared raw, each of those links
differs between pages, so it would be a variant slot, a field, on every
item; yet it is navigation, the same on every page but for the token.

Three kinds of token are recognised, none by a site's own words:

* **tracking and session parameters** by their well-known names
  (``utm_*``, ``gclid``, ``fbclid``, ``jsessionid``, ``phpsessid``...);
* **a page's repeated opaque token**: a run of letters and digits (with at
  least one digit, :data:`MIN_TOKEN_LENGTH` long) that occurs in many of the
  page's URLs (:data:`MIN_TOKEN_URLS`, and :data:`MIN_TOKEN_SHARE` of them).
  A book's ISBN occurs in a few of its page's URLs (cover, reviews, cart); a
  session id in nearly all of them;
* **the page's own id in its links**: a token of the page's own URL (with a
  digit) that at least :data:`MIN_TOKEN_URLS` of its link targets repeat:
  the tabs of an entity (``/vir/action/Colors/series_id_int/61868``,
  ``.../Compare/series_id_int/61868``) are navigation that names the page
  it is on. Only link targets are read so (:func:`own_tokens`): an image
  whose URL holds the id (the cover) is still data.

:func:`normalize` replaces both by :data:`MARK`; values equal after that on
every seed page are template (see :func:`template_fields`).

>>> urls = [f"/{p}?id=4779575787626" for p in ("books", "music", "help", "cart")]
>>> tokens = page_tokens(urls + ["/img/9780316125581.jpg"])
>>> sorted(tokens)
['4779575787626']
>>> normalize("/books?id=4779575787626", tokens)
'/books?id=§'
>>> normalize("/a?utm_source=news&b=1;jsessionid=AB12", frozenset())
'/a?utm_source=§&b=1;jsessionid=§'
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from urllib.parse import unquote, urljoin, urlsplit

from scrapy_wrapx.dom import TEXT, PageTree, describes
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction._naming import described_attributes, input_type
from scrapy_wrapx.template import (
    Elem,
    FieldInfo,
    Opt,
    Set,
    Template,
    Text,
    TNode,
    decimal_number,
    enclosing_sets,
    iter_nodes,
    text_ancestors,
)

#: What a per-page token is replaced with.
MARK = "§"
#: Shortest opaque token (a 6-digit product id is data, not a session).
MIN_TOKEN_LENGTH = 8
#: Least number of a page's URLs an opaque token must occur in...
MIN_TOKEN_URLS = 3
#: ...and least share of them: a session id is in nearly every link.
MIN_TOKEN_SHARE = 0.2

#: Query (or path ``;``) parameters that track or identify a session.
_TRACKING = re.compile(
    r"(?i)([?&;](?:utm_\w+|gclid|fbclid|msclkid|dclid|yclid|mc_[ce]id|_ga|_gl|igshid"
    r"|_hsenc|_hsmi|sid|sessid|sessionid|session_id|jsessionid|phpsessid|aspsessionid\w*"
    r"|cfid|cftoken|cachebuster|cache_buster|nocache|_)=)[^&#;]*"
)
_OPAQUE = re.compile(rf"[A-Za-z0-9_-]{{{MIN_TOKEN_LENGTH},}}")
_DIGIT = re.compile(r"\d")
#: A value that may be a URL (has a path or query separator).
_URLISH = re.compile(r"[/?=]")


def _opaque_tokens(value: str) -> set[str]:
    return {token for token in _OPAQUE.findall(value) if _DIGIT.search(token)}


#: Form tokens (:func:`form_token`): a hex digest or a UUID, an opaque
#: blob (ASP.NET's view state), a time stamp of the page's serving.
_HEX = re.compile(
    r"[0-9a-f]{16,}|[0-9A-F]{16,}|[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"
)
_BLOB = re.compile(r"[A-Za-z0-9+/=_-]{32,}")
_STAMP = re.compile(r"\d{10}|\d{13}")
#: Seconds since 1970 of 2000-01-01 and 2040-01-01: a stamp's range.
_STAMP_RANGE = (946_684_800, 2_208_988_800)


def form_token(value: str) -> bool:
    """Whether a hidden input's ``value`` is a form token, not data: a hex
    digest or UUID (with a letter: an all-digit one is a number), an opaque
    blob of mixed case and digits, or a time stamp (seconds or milliseconds
    since 1970, in this century). A product's id, a copy of a title, a
    flag are none of them.

    >>> [form_token(v) for v in ("80216b319b58718834f0c459c901df16b1a562c0",
    ...     "1290752126890", "wEPDwUJOTM5MDYzNjkzD2QWAmYPZBYCAggPZBYGAgQPZBYG")]
    [True, True, True]
    >>> [form_token(v) for v in ("845524442539402", "9780316125581", "SKU-1234", "true")]
    [False, False, False, False]
    """
    if _HEX.fullmatch(value):
        return any(c.isalpha() for c in value) and _DIGIT.search(value) is not None
    if _BLOB.fullmatch(value):
        return (
            any(c.isupper() for c in value)
            and any(c.islower() for c in value)
            and _DIGIT.search(value) is not None
        )
    if _STAMP.fullmatch(value):
        seconds = int(value) // (1000 if len(value) == 13 else 1)
        return _STAMP_RANGE[0] <= seconds < _STAMP_RANGE[1]
    return False


def page_tokens(urls: Iterable[str]) -> frozenset[str]:
    """The opaque tokens repeated across many of one page's ``urls``."""
    distinct = {url for url in urls if _URLISH.search(url)}
    counts: Counter[str] = Counter()
    for url in distinct:
        counts.update(_opaque_tokens(url))
    need = max(MIN_TOKEN_URLS, MIN_TOKEN_SHARE * len(distinct))
    return frozenset(token for token, count in counts.items() if count >= need)


def page_urls(tree: PageTree) -> Iterator[str]:
    """Every attribute value of a page's elements (URLs among them)."""
    for node in tree.nodes:
        if node.tag != TEXT:
            yield from (str(value) for value in node.element.attrib.values())


def tree_tokens(tree: PageTree) -> frozenset[str]:
    """:func:`page_tokens` of a parsed page."""
    return page_tokens(page_urls(tree))


_OWN_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
#: Tags whose URL is a link target (see :func:`own_tokens`).
LINK_TAGS = frozenset({"a", "area"})
IMAGE_TAGS = frozenset({"img"})


def own_tokens(tree: PageTree) -> frozenset[str]:
    """The tokens of the page's own URL (with a digit) that at least
    :data:`MIN_TOKEN_URLS` of its distinct link targets hold as a whole
    token: the page's id in links to its entity's other views."""
    url = tree.url or ""
    path = url.split("://", 1)[-1].partition("/")[2]
    candidates = {token for token in _OWN_TOKEN.findall(path) if _DIGIT.search(token)}
    if not candidates:
        return frozenset()
    counts: Counter[str] = Counter()
    for target in {
        str(node.element.get("href") or "") for node in tree.nodes if node.tag in LINK_TAGS
    }:
        counts.update(candidates.intersection(_OWN_TOKEN.findall(target)))
    return frozenset(token for token, count in counts.items() if count >= MIN_TOKEN_URLS)


def normalize_own(value: str, tokens: frozenset[str]) -> str:
    """``value`` with each of the page's ``tokens`` (:func:`own_tokens`)
    replaced by :data:`MARK` where it is a whole token (a short id must not
    hit inside a longer number)."""
    if not tokens:
        return value
    return _OWN_TOKEN.sub(lambda m: MARK if m.group() in tokens else m.group(), value)


def normalize(value: str, tokens: frozenset[str]) -> str:
    """``value`` with tracking parameters' values and the page's ``tokens``
    replaced by :data:`MARK`."""
    value = _TRACKING.sub(lambda match: match.group(1) + MARK, value)
    for token in tokens:
        if token in value:
            value = value.replace(token, MARK)
    return value


#: Fewest seed pages that can show a slot to be template: with two, a
#: chance agreement of data is too likely.
MIN_TEMPLATE_SEEDS = 3
#: Fewest distinct links of a protected field that make it a menu (see
#: :func:`template_fields`).
MIN_MENU_LINKS = 3
#: Fewest seeds that can show a link with template words to be template
#: (see :func:`_least_seeds`).
MIN_LABELLED_LINK_SEEDS = 2


def template_fields(
    template: Template, trees: Sequence[PageTree], protected: Iterable[str] = ()
) -> list[str]:
    """The fields of ``template`` whose values, per-page tokens normalised
    (:func:`normalize`), are the same non-empty list on every seed page in
    ``trees``: navigation that differs only by a session id, not data. A
    link target (:func:`_link_fields`) need only be the same on every seed
    that shows it, at least :data:`MIN_TEMPLATE_SEEDS` of them: the links
    of an optional block of navigation ("Add a menu", "Add a coupon" on a
    restaurant that has none) are template too, and so is a link about the
    page it is on on every seed (:func:`_about_page`: share it, mail it,
    log in and come back). So are hidden inputs that hold a form token
    (:func:`form_token`) on every seed, repeated hidden inputs (a list of
    a form's values without the names that say what each is), and fields
    with no value on any seed (their only values were ``javascript:``
    links). An image field is template when every seed shows the same
    images, however many times each: a spacer or a bullet in each row of
    a list whose rows vary in number. So is a button's label that takes a
    few values (:func:`_control_labels`): "Add To Cart" on every card.

    A ``protected`` field (a table's cell, a labelled value: data even
    where every seed agrees) is template only in a menu of links
    (:func:`_link_menus`): a site's menu laid out in a table. A spec
    table whose values every seed happens to share is text; a game log
    every seed of one team shares has dates and results beside its
    links."""
    if len(trees) < MIN_TEMPLATE_SEEDS:
        return []
    links = _link_fields(template)
    labelled = _fixed_text_links(template, links)
    hidden = _hidden_fields(template)
    images = _image_fields(template)
    per_page = [(tree, extract(template, tree).fields) for tree in trees]
    paging = _paging_fields(template, per_page, links)
    controls = _control_labels(template, [fields for _, fields in per_page])
    seen: dict[str, tuple[str, ...] | None] = {}
    shown: Counter[str] = Counter()
    for tree, fields in per_page:
        page = _PageFacts(tree)
        for name, values in fields.items():
            normal = _normal(name, values, page, links, paging, hidden, images)
            if normal is None:
                continue
            shown[name] += 1
            if not normal or seen.setdefault(name, normal) != normal:
                seen[name] = None
    # A field no seed gave a value (a link that only ever runs a script)
    # is no field either.
    empty = [info.name for info in template.fields if info.name not in seen]
    found = (
        empty
        + _unread_descriptions(template, [fields for _, fields in per_page])
        + sorted(controls)
        + [
            name
            for name, values in seen.items()
            if name not in controls
            and values
            and shown[name] >= _least_seeds(name, links | paging, labelled, len(trees))
        ]
    )
    protected = set(protected)
    if protected:
        menus = _link_menus(template, seen, set(found))
        found = [name for name in found if name not in protected or name in menus]
    return found


def _link_menus(
    template: Template, seen: dict[str, tuple[str, ...] | None], same: set[str]
) -> set[str]:
    """The fields of the menus of links among ``same`` (the fields the same
    on every seed, ``seen`` their values): sets of links and nothing else,
    every field of the set's repetitions a link's target or a text inside
    a link, all of them the same on every seed, at least
    :data:`MIN_MENU_LINKS` distinct values in all. A row with a date or a
    result beside its links (a game log) is data."""
    in_link: set[int] = set()
    in_set: dict[int, int] = {}  # uid -> uid of the innermost set above it
    stack: list[tuple[TNode, int, bool]] = [(template.root, -1, False)]
    while stack:
        node, owner, linked = stack.pop()
        in_set[node.uid] = owner
        linked = linked or (isinstance(node, Elem) and node.tag in LINK_TAGS)
        if linked:
            in_link.add(node.uid)
        owner = node.uid if isinstance(node, Set) else owner
        if isinstance(node, Elem | Set):
            stack.extend((child, owner, linked) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, owner, linked))
    per_set: dict[int, list[FieldInfo]] = {}
    for info in template.fields:
        if in_set.get(info.uid, -1) >= 0:
            per_set.setdefault(in_set[info.uid], []).append(info)
    menus: set[str] = set()
    for infos in per_set.values():
        names = {info.name for info in infos}
        if not names <= same or not all(info.uid in in_link for info in infos):
            continue
        values = {value for name in names for value in seen.get(name) or ()}
        if len(values) >= MIN_MENU_LINKS:
            menus |= names
    return menus


class _PageFacts:
    """What normalising a seed's values asks of the seed, worked out once."""

    def __init__(self, tree: PageTree) -> None:
        self.tokens = tree_tokens(tree)
        self.own = own_tokens(tree)
        self.address, self.host = _address(tree.url), _host(tree.url or "")
        self.url = tree.url


def _normal(
    name: str,
    values: list[str],
    page: _PageFacts,
    links: set[str],
    paging: set[str],
    hidden: dict[str, bool],
    images: set[str],
) -> tuple[str, ...] | None:
    """A field's values on one seed, normalised (see :func:`template_fields`),
    or None where a link or a pagination shows none: it may be optional."""
    normal = tuple(normalize(value, page.tokens) for value in values)
    if name in images:
        # The images a page shows, however often: spacers, bullets and
        # dividers among rows that vary in number.
        normal = tuple(sorted(set(normal)))
    if name in links or name in paging:
        if not normal:
            return None
        normal = tuple(normalize_own(value, page.own) for value in normal)
        if all(_about_page(value, page.address, page.host, page.own) for value in values):
            # A link about this very page (share it, mail it, print it):
            # its target is the page's address, not data.
            normal = (MARK,)
    if name in paging and _paginates(values, page.url, name in links, least=1):
        # Page numbers, and the links to those pages: where to go next,
        # however many pages there are (a page of one has none).
        normal = (MARK,)
    if hidden.get(name) or (name in hidden and any(map(form_token, values))):
        # Repeated hidden inputs, their names left behind, or a form's
        # token: the state a form sends back, not data.
        normal = (MARK,)
    return normal


def _paging_fields(
    template: Template, per_page: Sequence[tuple[PageTree, dict[str, list[str]]]], links: set[str]
) -> set[str]:
    """The fields that show a pagination (:func:`page_run`) on some seed:
    links to numbered pages (not a gallery's numbered images), and page
    numbers alone or in a list of nothing but them (numbers in records
    beside other texts are the records' own: a ranking, a count)."""
    inside = enclosing_sets(template.root)
    sets = {info.name: inside.get(info.uid, "") for info in template.fields}
    texts_in: dict[str, set[str]] = {}
    for name, set_name in sets.items():
        if set_name and name not in links:
            texts_in.setdefault(set_name, set()).add(name)
    runs = {
        name
        for tree, fields in per_page
        for name, values in fields.items()
        if _paginates(values, tree.url, name in links)
    }
    return {
        name for name in runs if name in links or not sets.get(name) or texts_in[sets[name]] <= runs
    }


#: The numbers of a value (a page number, or the one in a link to a page).
_NUMBER = re.compile(r"\d+")


def page_run(values: Sequence[str]) -> bool:
    """Whether a field's values on a page are a pagination's: two numbers
    or more, one after the other ("1", "2", "3"), or links that differ only
    by such numbers ("/list?page=2", "/list?page=3").

    >>> page_run(["1", "2", "3"]), page_run(["/l?p=2&s=9", "/l?p=3&s=9"]), page_run(["2", "4"])
    (True, True, False)
    >>> page_run(["1"]), page_run(["/p/12", "/p/13-red"]), page_run(["Dune 2", "Dune 3"])
    (False, False, False)
    """
    if len(values) < 2:
        return False
    numbers = [number for value in values if (number := decimal_number(value)) is not None]
    if len(numbers) < len(values):
        found = _numbered(values) if "/" in values[0] else None
        if found is None:
            return False
        numbers = found[1]
    return all(b == a + 1 for a, b in itertools.pairwise(numbers))


def _numbered(addresses: Sequence[str]) -> tuple[int, list[int]] | None:
    """Where addresses of one shape differ by one number only: that
    number's place among their numbers, and its value in each; else None."""
    if len({_NUMBER.sub("#", address) for address in addresses}) != 1:
        return None
    found = [_NUMBER.findall(address) for address in addresses]
    changing = [index for index in range(len(found[0])) if len({each[index] for each in found}) > 1]
    if len(changing) != 1:
        return None
    numbers = [
        number for each in found if (number := decimal_number(each[changing[0]])) is not None
    ]
    return (changing[0], numbers) if len(numbers) == len(found) else None


def _paginates(values: Sequence[str], url: str | None, link: bool, least: int = 2) -> bool:
    """Whether a field's values on the page at ``url`` are a pagination's:
    links to pages of the list (:func:`_list_pages`; :func:`page_run`
    where the page's address is unknown) or page numbers
    (:func:`_page_numbers`), at least ``least`` pages. A field that showed
    a pagination on one seed shows one of a single page on another ("1",
    a "Next" link to the last page)."""
    if link:
        if least < 2 and len(set(values)) == 1:
            return True
        return _list_pages(values, url) if url else page_run(values)
    return _page_numbers(values, least)


def _list_pages(values: Sequence[str], url: str) -> bool:
    """Whether links are to the pages of a list around the page at ``url``:
    one address but for a number, numbers that follow one another once
    each is counted once (a window of pages, with "Prev" and "Next" to the
    neighbours), and that reach the page's own number (the one its address
    has there, 1 where it has none: a list's first page). Products
    numbered one after the other, twice each (their image and their name),
    have numbers of their own, far from the page's.

    >>> _list_pages(["/c?page=3", "/c?page=2", "/c?page=3"], "http://x.example/c?page=4")
    True
    >>> _list_pages(["/c/p/2", "/c/p/3", "/c/p/2"], "http://x.example/c")
    True
    >>> _list_pages(["/p/512", "/p/512", "/p/513", "/p/513"], "http://x.example/c?page=4")
    False
    """
    addresses = [_path_query(urljoin(url, value)) for value in values]
    found = _numbered(addresses) if len(values) > 1 else None
    if found is None:
        return False
    place, numbers = found
    own = _path_query(url)
    shape = _NUMBER.sub("#", addresses[0])
    own_number = (
        decimal_number(_NUMBER.findall(own)[place]) if _NUMBER.sub("#", own) == shape else 1
    )
    if own_number is None or not _follow_on(set(numbers)):
        return False
    return min(numbers) <= own_number + 1 and max(numbers) >= own_number - 1


def _path_query(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


def _page_numbers(values: Sequence[str], least: int = 2) -> bool:
    """Whether texts are a pagination's: ``least`` numbers or more that
    follow one another (each counted once), among words without digits at
    most ("« Prev", "Next »")."""
    numbers = {number for value in values if (number := decimal_number(value)) is not None}
    others = [value for value in values if decimal_number(value) is None]
    return _follow_on(numbers, least) and not any(
        _NUMBER.search(value) or len(value.split()) > MAX_PAGER_WORDS for value in others
    )


#: Most words of a pagination's text that is no page number ("Next page »").
MAX_PAGER_WORDS = 3


def _follow_on(numbers: set[int], least: int = 2) -> bool:
    """Whether ``least`` numbers or more follow one another with no gap."""
    return len(numbers) >= least and max(numbers) - min(numbers) == len(numbers) - 1


#: Shortest page address (host and path) looked for in a link's target.
MIN_OWN_ADDRESS = 12


def _about_page(value: str, address: str, host: str, own: frozenset[str]) -> bool:
    """Whether a link target is about the page it is on (at ``address``,
    see :func:`_address`, on ``host``), through another site (a sharing
    service, a mail or print service): it holds the page's address, or, on
    another host, the page's own id (:func:`own_tokens`; a sharing link
    may spell the page's address its own way). Its escapes are undone
    first, twice: the address sits escaped in the query."""
    decoded = unquote(unquote(value))
    if address and address in decoded:
        return True
    target = _host(value)
    if not own or not target or target == host:
        return False
    return any(token in own for token in _OWN_TOKEN.findall(decoded))


def _address(url: str | None) -> str:
    """A page's address as a link about it holds it: host and path,
    without the scheme, the query or a final slash; "" when too short to
    tell (:data:`MIN_OWN_ADDRESS`)."""
    address = (url or "").split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0].rstrip("/")
    return address if len(address) >= MIN_OWN_ADDRESS else ""


def _host(url: str) -> str:
    """The host of an absolute URL, without ``www.`` ("" for a relative one)."""
    if "://" not in url:
        return ""
    host = url.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0].lower()
    return host.removeprefix("www.")


def _least_seeds(name: str, links: set[str], labelled: set[str], seeds: int) -> int:
    """How many seeds must show a field's values the same for it to be
    template: every seed; for a link, :data:`MIN_TEMPLATE_SEEDS` of them;
    for a link whose words are template too (a facet menu's "Paperback
    (12)" with the page's category in its address), two: its words already
    say it is navigation, its target only confirms it."""
    if name in labelled:
        return MIN_LABELLED_LINK_SEEDS
    return MIN_TEMPLATE_SEEDS if name in links else seeds


def _fixed_text_links(template: Template, links: set[str]) -> set[str]:
    """The link fields whose link holds fixed texts only (at least one)."""
    found: set[str] = set()
    for info in template.fields:
        if info.name not in links:
            continue
        texts = [n for n in iter_nodes(template.nodes[info.uid]) if not isinstance(n, Elem)]
        if texts and all(isinstance(n, Text) and n.fixed for n in texts):
            found.add(info.name)
    return found


def _unread_descriptions(template: Template, per_page: Sequence[dict[str, list[str]]]) -> list[str]:
    """The fields of describing attributes (see
    :func:`~scrapy_wrapx.induction._naming.described_attributes`) that are
    no data: one whose value on some seed is none a person reads
    (:func:`~scrapy_wrapx.dom.describes`) or is a form token (a nonce, a
    time stamp kept for a script), and, of an element's readable ones, all
    but the first (its title and its ``data-score`` say one thing)."""
    by_uid: dict[int, list[str]] = {}
    for info in template.fields:
        node = template.nodes[info.uid]
        if isinstance(node, Elem) and info.slot in described_attributes(node):
            by_uid.setdefault(info.uid, []).append(info.name)
    found: list[str] = []
    for names in by_uid.values():
        readable = [
            name
            for name in names
            if all(
                describes(value) and not form_token(value)
                for fields in per_page
                for value in fields.get(name, ())
            )
        ]
        found.extend(name for name in names if name not in readable[:1])
    return found


def _link_fields(template: Template) -> set[str]:
    """The fields that are a link's target."""
    return _attribute_fields(template, "href", LINK_TAGS)


def _image_fields(template: Template) -> set[str]:
    """The fields that are an image's source."""
    return _attribute_fields(template, "src", IMAGE_TAGS)


def _attribute_fields(template: Template, attribute: str, tags: frozenset[str]) -> set[str]:
    """The fields that are ``attribute`` of an element of one of ``tags``."""
    return {
        info.name
        for info in template.fields
        if info.slot == attribute and getattr(template.nodes[info.uid], "tag", "") in tags
    }


#: Most distinct labels a button shows over the seeds for them to be the
#: site's words for its actions ("Add To Cart", "Preorder"), not data.
MAX_CONTROL_LABELS = 3
#: Class words that say an element is a button.
_BUTTON_WORDS = frozenset({"button", "btn"})
_CLASS_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
#: How far above a text a button may be: the text, its element, and a
#: styling element or two between them (``<a class=button><span>``).
CONTROL_DEPTH = 3


def _control_labels(template: Template, per_page: Sequence[dict[str, list[str]]]) -> set[str]:
    """The text fields that are a button's label: the text is in a
    ``<button>``, or in an element whose class words say it is one
    (``small-add-save-button``, ``btnBuy``), at most :data:`CONTROL_DEPTH`
    levels up, and the seeds show at most :data:`MAX_CONTROL_LABELS`
    distinct labels there, words only. A button's label is the site's word
    for an action, repeated on every card of a list, not the card's data;
    a number on a button ("Save 33%", "$12.99") is the page's."""
    buttons = {
        uid
        for uid, chain in text_ancestors(template.root).items()
        if any(_button(elem) for elem in chain[-CONTROL_DEPTH:])
    }
    labels: dict[str, set[str]] = {}
    for info in template.fields:
        if info.uid in buttons and info.slot.isdigit():
            labels[info.name] = set()
    for fields in per_page:
        for name, found in labels.items():
            found.update(fields.get(name, ()))
    return {
        name
        for name, found in labels.items()
        if 0 < len(found) <= MAX_CONTROL_LABELS
        and not any(char.isdigit() for label in found for char in label)
    }


def _button(elem: Elem) -> bool:
    if elem.tag == "button" or input_type(elem) in ("submit", "button"):
        return True
    classes = elem.attrs.get("class") or ""
    return any(word.lower() in _BUTTON_WORDS for word in _CLASS_WORD.findall(classes))


def _hidden_fields(template: Template) -> dict[str, bool]:
    """The fields that are the value of a hidden input, and whether the
    input repeats on its own (the one field of a set's records: a list of
    values without their inputs' names; a product card's hidden id, beside
    its name, is data)."""
    inside = enclosing_sets(template.root)
    fields_in = Counter(inside.get(info.uid, "") for info in template.fields)
    return {
        name: bool(inside.get(node.uid)) and fields_in[inside[node.uid]] == 1
        for node in iter_nodes(template.root)
        if isinstance(node, Elem) and input_type(node) == "hidden"
        for attr, name in node.names.items()
        if attr == "value"
    }


def drop_fields(template: Template, names: Iterable[str]) -> None:
    """Make the slots of the fields ``names`` template: still rendered
    (the template stays lossless), never a field of an item."""
    dropped = set(names)
    if not dropped:
        return
    for info in template.fields:
        if info.name not in dropped:
            continue
        node = template.nodes[info.uid]
        if isinstance(node, Text) and info.slot.isdigit():
            node.names[int(info.slot)] = ""
        elif isinstance(node, Elem):
            node.names.pop(info.slot, None)
    template.fields = [info for info in template.fields if info.name not in dropped]
