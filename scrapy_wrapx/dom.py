"""The normalized page tree every algorithm of scrapy-wrapx works on.

Induction, extraction and the hybrid locator all compare pages node by node,
so they need the same view of a page: ``<body>`` as the root, only the nodes
that carry content or structure (no comments, scripts, styles, line breaks,
blank text or empty formatting elements), and for every node what the papers
reason with — its leaf range, tag path and attribute path (thesis ch. 5), the
data type of its leaves (thesis §4.2.1) — plus an absolute XPath into the
*original* document, so that whatever an algorithm finds can be handed back
to a user as an ordinary selector.

The tree is built in one pass over :func:`lxml.etree.iterwalk` events, with no
recursion anywhere, so 10,000-deep nesting costs time, not the stack.

>>> tree = parse('<body><div class="book"><h1>Dune</h1>by <a href="/fh">'
...              'Frank Herbert</a><img src="dune.jpg"></div></body>')
>>> [(leaf.xpath, leaf.value, leaf.prop) for leaf in tree.leaves]
... # doctest: +NORMALIZE_WHITESPACE
[('/html/body/div/h1/text()[1]', 'Dune', 'text'),
 ('/html/body/div/text()[1]', 'by', 'text'),
 ('/html/body/div/a/text()[1]', 'Frank Herbert', 'text'),
 ('/html/body/div/img', 'dune.jpg', 'image')]
>>> tree.leaves[2].tag_path, tree.leaves[2].affiliation
(('div', 'a', 'text()'), 'a')
"""

from __future__ import annotations

import contextlib
import gc
import logging
import re
import weakref
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal

from lxml import etree
from w3lib.encoding import html_to_unicode

if TYPE_CHECKING:
    AttrPathLayer = tuple[tuple[str, str], ...]

__all__ = [
    "DROPPED_TAGS",
    "HEADINGS",
    "TEXT",
    "Node",
    "PageTree",
    "Property",
    "parse",
    "structure_paths",
]

logger = logging.getLogger(__name__)

#: How deep libxml2 nests elements with ``huge_tree`` (the parsers of
#: :func:`lxml_document` and of parsel): one level deeper it stops with a
#: fatal error that recovery swallows, keeping the tree built so far, so the
#: deeper content *and everything after it* is missing from the document.
LIBXML2_MAX_DEPTH = 2048

Property = Literal["text", "image", "link", "video", "audio", "other"]

#: The tag of text leaves; their tag path layer is ``text()``.
TEXT = "#text"

#: Elements dropped with their whole subtree (thesis §7.3): they carry no
#: visible data, and their presence varies between pages of one template.
DROPPED_TAGS = frozenset(
    {
        "script",
        "style",
        "noscript",
        "link",
        "meta",
        "base",
        "br",
        "hr",
        "wbr",
        "template",
        "head",
    }
)

#: The attribute that holds the data of an element leaf (an element with no
#: content of its own); an element leaf without it is formatting and dropped.
DATA_ATTRIBUTES = {
    "img": ("src", "data-src"),
    "a": ("href",),
    "area": ("href",),
    "input": ("value",),
    "video": ("src",),
    "audio": ("src",),
    "source": ("src",),
    "embed": ("src",),
    "iframe": ("src",),
    "object": ("data",),
    "data": ("value",),
    "meter": ("value",),
    "progress": ("value",),
}

#: Attributes that say what an element with no content of its own shows,
#: in the order one is taken as its data when its tag has no data
#: attribute (an image's ``alt`` is its link's caption or a copy of a
#: text beside it, a button's words: images stay what their source is): a
#: star rating drawn by a style and told in its ``title`` or accessible
#: name, a score a script reads from a ``data-`` attribute (any of them,
#: after these). Only a value a person could read is data (see
#: :func:`describes`): an element whose attributes hold ids, digests or a
#: script's settings stays formatting.
DESCRIBING_ATTRIBUTES = ("title", "aria-label")
#: Most characters and words of a describing attribute's value read as
#: data ("4.5 out of 5 stars", "2020-03-01"), and the longest word: a
#: longer run of letters and digits is an id or a digest.
MAX_DESCRIPTION_CHARS = 60
MAX_DESCRIPTION_WORDS = 8
MAX_DESCRIPTION_WORD = 20

#: Ancestors that give a leaf its *affiliation* (thesis §4.2.1): element
#: types a redesign rarely changes around a piece of data.
AFFILIATION_TAGS = frozenset(
    {
        "a",
        "button",
        "label",
        "option",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "li",
        "dt",
        "dd",
        "td",
        "th",
        "caption",
        "figcaption",
        "header",
        "footer",
        "nav",
        "p",
        "pre",
        "blockquote",
        "textarea",
        "select",
    }
)

#: Heading elements: where a page states what a section, or the page, is.
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

_VIDEO_EXTENSIONS = (".mp4", ".webm", ".ogv", ".mov", ".avi", ".m4v", ".flv", ".mkv")
_AUDIO_EXTENSIONS = (".mp3", ".ogg", ".oga", ".wav", ".m4a", ".flac", ".aac")
_PLAIN_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
_BINARY_SNIFF_BYTES = 1024


def _media_property(url: str | None) -> Property | None:
    if not url:
        return None
    path = url.split("?", 1)[0].split("#", 1)[0].lower()
    if path.endswith(_VIDEO_EXTENSIONS):
        return "video"
    if path.endswith(_AUDIO_EXTENSIONS):
        return "audio"
    return None


def _element_leaf_property(tag: str, value: str, parent_tag: str) -> Property:
    if tag == "img":
        return "image"
    if tag in ("video", "audio"):
        return tag  # type: ignore[return-value]
    if tag == "source" and parent_tag in ("video", "audio"):
        return parent_tag  # type: ignore[return-value]
    media = _media_property(value)
    if media is not None:
        return media
    if tag in ("a", "area"):
        return "link"
    return "other"


def describes(value: str | None) -> bool:
    """Whether a describing attribute's value is one a person could read
    as the data of the element it is on: a few short words, with a letter
    or a digit, no address and no markup or script settings.

    >>> [describes(v) for v in ("4.5 out of 5 stars", "Rated 4/5", "2020-03-01", "7")]
    [True, True, True, True]
    >>> [describes(v) for v in ("", " ", "http://x.example/a", "/img/a.png",
    ...     "80216b319b58718834f0c459c901df16b1a562c0", '{"a": 1}', "collapse in")]
    [False, False, False, False, False, False, True]
    """
    if not value or len(value) > MAX_DESCRIPTION_CHARS:
        return False
    words = value.split()
    if not words or len(words) > MAX_DESCRIPTION_WORDS:
        return False
    if any(len(word) > MAX_DESCRIPTION_WORD for word in words):
        return False
    first = words[0]
    if first[0] in "{[<#/" or "://" in value or first.startswith(("www.", "javascript:")):
        return False
    return any(char.isalnum() for char in value)


def leaf_attribute(element: etree._Element, tag: str) -> str | None:
    """The attribute that holds the data of an element with no content of
    its own: its tag's data attribute (:data:`DATA_ATTRIBUTES`); for a tag
    that has none (a ``<span>``, a ``<div>``), the first describing
    attribute (:data:`DESCRIBING_ATTRIBUTES`, then any ``data-`` one) whose
    value :func:`describes` it; None for formatting."""
    attrib = element.attrib
    if not attrib:
        return None
    own = DATA_ATTRIBUTES.get(tag)
    if own is not None:
        # An image without a source, a link without a target: formatting.
        for name in own:
            value = attrib.get(name)
            if value and not value.isspace():
                return name
        return None
    for name in DESCRIBING_ATTRIBUTES:
        if describes(attrib.get(name)):
            return name
    for key, found in attrib.items():
        if isinstance(key, str) and key.startswith("data-") and describes(str(found)):
            return key
    return None


def _step(tag: str, position: int, same_tag_siblings: int) -> str:
    name = tag if _PLAIN_NAME.match(tag) else f"*[name()={_xpath_literal(tag)}]"
    return f"{name}[{position}]" if same_tag_siblings > 1 else name


def _xpath_literal(value: str) -> str:
    if "'" not in value:
        return f"'{value}'"
    if '"' not in value:
        return f'"{value}"'
    parts = value.split("'")
    return "concat(" + ', "\'", '.join(f"'{part}'" for part in parts) + ")"


class Node:
    """One node of a :class:`PageTree`: an element or a text leaf.

    ``index`` is the node's pre-order position (stable for a given page),
    ``first_leaf``/``last_leaf`` the range of :attr:`PageTree.leaves` it spans.
    For a text leaf, ``element`` is the element that owns the text and
    ``text_index`` its position among that element's text nodes (the *k* of
    ``text()[k]``); steps are built on demand, which keeps parsing cheap.
    Leaves carry ``prop`` (the data-type property, also on demand), and
    every node its ``affiliation`` and ``structure`` (thesis §4.2.1).

    A node links to its parent weakly (see :attr:`parent`): the
    :class:`PageTree` owns its nodes, and keeping it is what keeps them
    whole.
    """

    __slots__ = (
        "__weakref__",
        "_parent",
        "_prop",
        "_repeat",
        "_sequential",
        "_sibling_counts",
        "_xpath",
        "affiliation",
        "children",
        "depth",
        "element",
        "first_leaf",
        "index",
        "last_leaf",
        "leaf_index",
        "position",
        "tag",
        "value",
    )

    # Caches, left unset until first asked (read with a default): a page
    # has hundreds of nodes, and four stores fewer per node is a tenth of
    # building the tree.
    _prop: Property
    _repeat: tuple[int, int] | None
    _sequential: bool
    _xpath: str

    def __init__(
        self,
        index: int,
        tag: str,
        element: etree._Element,
        parent: weakref.ref[Node] | None,
        position: int,
        sibling_counts: dict[Any, int] | None,
        depth: int,
        affiliation: str,
        first_leaf: int,
        leaf_index: int = -1,
        value: str = "",
    ) -> None:
        self.index = index
        self.tag = tag
        self.element = element
        # Weak, so that a tree has no reference cycles: refcounting frees
        # it the moment it is dropped, and the cyclic collector never has
        # to walk thousands of live nodes to find that out (that walk cost
        # as much as lxml's whole parse). The builder makes one reference
        # per parent and hands it to each child.
        self._parent = parent
        self.children: list[Node] = []
        self.depth = depth
        self.first_leaf = first_leaf
        #: A leaf's own index in :attr:`PageTree.leaves`, -1 for an inner
        #: node; ``last_leaf`` is settled when an element closes.
        self.last_leaf = leaf_index
        self.leaf_index = leaf_index
        #: Position among the same-tag siblings (element) or among the
        #: owner's text nodes (text leaf) in the original document.
        self.position = position
        self._sibling_counts = sibling_counts
        #: The data a user would extract: the folded text of a text leaf, the
        #: data attribute (``src``, ``href``...) of an element leaf, else "".
        self.value = value
        self.affiliation = affiliation

    def __repr__(self) -> str:
        return f"<Node {self.index} {self.xpath!r} {self.value[:30]!r}>"

    @property
    def parent(self) -> Node | None:
        """The parent node; None for the root.

        The :class:`PageTree` owns its nodes: a node kept after its tree
        was dropped has lost its ancestors, and says so rather than give a
        wrong XPath."""
        ref = self._parent
        if ref is None:
            return None
        parent = ref()
        if parent is None:
            raise ReferenceError(f"Node {self.index} outlived its PageTree: keep the tree")
        return parent

    @property
    def prop(self) -> Property | None:
        """The data-type property of a leaf (thesis §4.2.1), None for an
        inner node. Worked out on first use: extraction never asks, and
        for a text in a link it means finding the link's URL."""
        prop: Property | None = getattr(self, "_prop", None)
        if prop is None and self.leaf_index >= 0:
            prop = self._prop = self._leaf_property()
        return prop

    def _leaf_property(self) -> Property:
        if self.tag == TEXT:
            if self.affiliation != "a":
                return "text"
            link = next(node for node in self.ancestors() if node.tag == "a")
            return _media_property(link.element.get("href")) or "text"
        parent = self.parent
        return _element_leaf_property(self.tag, self.value, parent.tag if parent else "")

    @property
    def step(self) -> str:
        """This node's XPath step below its parent: ``div``, ``div[2]``,
        ``text()[1]``; ``[n]`` only where the tag is not unique."""
        if self.tag == TEXT:
            return f"text()[{self.position}]"
        counts = self._sibling_counts
        total = counts.get(self.tag, 1) if counts is not None else 1
        return _step(self.tag, self.position, total)

    @property
    def text_index(self) -> int:
        """The *k* of ``text()[k]`` for a text leaf, else 0."""
        return self.position if self.tag == TEXT else 0

    @property
    def is_leaf(self) -> bool:
        return self.leaf_index >= 0

    @property
    def is_text(self) -> bool:
        return self.tag == TEXT

    @property
    def repeat(self) -> tuple[int, int] | None:
        """``(position, count)``, 1-based, among similar siblings, or None."""
        if not hasattr(self, "_sequential"):
            self._find_repeats()
        return self._repeat

    @property
    def sequential(self) -> bool:
        """True when this node or an ancestor repeats among similar siblings
        (the *sequential* structure of thesis §4.2.1)."""
        if not hasattr(self, "_sequential"):
            self._find_repeats()
        return self._sequential

    def _find_repeats(self) -> None:
        # Computed for the whole tree on first use: most callers never ask.
        root = self
        while root.parent is not None:
            root = root.parent
        _mark_repeats(_pre_order(root))

    @property
    def structure(self) -> Literal["single", "sequential"]:
        return "sequential" if self.sequential else "single"

    @property
    def data_attribute(self) -> str | None:
        """The attribute an element leaf's :attr:`value` comes from."""
        if self.tag == TEXT:
            return None
        return leaf_attribute(self.element, self.tag)

    def ancestors(self) -> Iterator[Node]:
        """Parent, grandparent, ... up to the root."""
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def path_nodes(self) -> list[Node]:
        """Nodes from just below the root down to this node (thesis paths
        leave out ``html`` and ``body``)."""
        nodes = [self]
        nodes.extend(self.ancestors())
        nodes.pop()  # the root
        nodes.reverse()
        return nodes

    @property
    def xpath(self) -> str:
        """Absolute XPath of this node in the original document."""
        xpath: str | None = getattr(self, "_xpath", None)
        if xpath is None:
            steps = [self.step]
            node = self.parent
            while node is not None and not hasattr(node, "_xpath"):
                steps.append(node.step)
                node = node.parent
            prefix = "" if node is None else node._xpath
            steps.reverse()
            xpath = self._xpath = prefix + "/" + "/".join(steps)
        return xpath

    @property
    def tag_path(self) -> tuple[str, ...]:
        """Thesis §5.2 tag path: ``("div[2]", "table", "tr[1]", "text()")``."""
        return tuple("text()" if node.tag == TEXT else node.step for node in self.path_nodes())

    @property
    def tag_path_cut(self) -> tuple[str, ...]:
        """The tag path without sibling orders (thesis §5.2, "tag path cut")."""
        return tuple("text()" if node.tag == TEXT else node.tag for node in self.path_nodes())

    @property
    def attr_path(self) -> tuple[AttrPathLayer, ...]:
        """Thesis §5.3 attribute path: one tuple of ``(name, value)`` per
        layer; a text leaf's own layer is empty."""
        return tuple(
            () if node.tag == TEXT else tuple(_str_items(node.element.attrib.items()))
            for node in self.path_nodes()
        )


def _str_items(items: Iterable[tuple[Any, Any]]) -> Iterator[tuple[str, str]]:
    # lxml's stubs allow bytes; the HTML parser always gives str.
    for name, value in items:
        yield str(name), str(value)


class PageTree:
    """A page, normalized: ``nodes`` in pre-order (``nodes[0]`` is the root,
    normally ``<body>``) and ``leaves``, the leaf array left to right.

    The tree has no reference cycles (nodes link to their parents weakly),
    so it is freed the moment it is dropped, without the cyclic collector."""

    __slots__ = ("document", "leaves", "nodes", "url")

    def __init__(
        self,
        nodes: list[Node],
        leaves: list[Node],
        url: str | None,
        document: etree._Element,
    ) -> None:
        self.nodes = nodes
        self.leaves = leaves
        self.url = url
        #: The root of the original lxml document the XPaths are valid in.
        self.document = document

    def __len__(self) -> int:
        return len(self.nodes)

    def __repr__(self) -> str:
        return f"<PageTree {len(self.nodes)} nodes, {len(self.leaves)} leaves, url={self.url!r}>"

    @property
    def root(self) -> Node:
        return self.nodes[0]

    def text_of(self, node: Node) -> str:
        """The folded text under ``node``, its text leaves joined by spaces."""
        if node.first_leaf < 0:
            return ""
        return " ".join(
            leaf.value
            for leaf in self.leaves[node.first_leaf : node.last_leaf + 1]
            if leaf.tag == TEXT
        )

    def node_for(self, target: object) -> Node | None:
        """The node of an lxml element or of a text/attribute result of
        ``document.xpath(...)``, or None when the normalized tree dropped it."""
        return _NodeFinder(self).find(target)


class _NodeFinder:
    """Maps lxml XPath results back to tree nodes."""

    def __init__(self, tree: PageTree) -> None:
        self.by_element: dict[etree._Element, Node] = {}
        self.texts: dict[tuple[etree._Element, int], Node] = {}
        for node in tree.nodes:
            if node.tag == TEXT:
                self.texts[(node.element, node.text_index)] = node
            else:
                self.by_element[node.element] = node

    def find(self, target: object) -> Node | None:
        if isinstance(target, etree._ElementUnicodeResult):
            owner = target.getparent()
            if owner is None:
                return None
            if target.is_attribute:
                return self.by_element.get(owner)
            if target.is_tail:
                parent = owner.getparent()
                if parent is None:
                    return None
                return self.texts.get((parent, _text_position(parent, owner)))
            return self.texts.get((owner, 1))
        if isinstance(target, etree._Element):
            return self.by_element.get(target)
        return None


def _text_position(parent: etree._Element, tail_owner: etree._Element) -> int:
    """The *k* of ``text()[k]`` for the tail text of ``tail_owner``."""
    position = 1 if parent.text is not None else 0
    for child in parent:
        if child.tail is not None:
            position += 1
        if child is tail_owner:
            return position
    raise ValueError(f"Element {tail_owner!r} is not a child of {parent!r}")


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while building a page's data.

    A page tree is thousands of small objects that stay alive while they
    are built: every collection the allocations trigger meanwhile walks
    them and frees nothing, which cost a fifth of a parse. Paused only
    where it was on, so nested pauses and a process that turned the
    collector off itself are left as they are; another thread that
    allocates meanwhile merely sees a later collection.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def decode_html(html: str | bytes, content_type: str | None = None) -> str:
    """Decode page bytes the way a browser would (BOM, HTTP header, ``<meta>``,
    then a guess), refusing bytes that are plainly not text."""
    if isinstance(html, str):
        return html
    if not isinstance(html, (bytes, bytearray)):
        raise TypeError(f"Expected str or bytes, got {type(html).__name__!r}")
    head = bytes(html[:_BINARY_SNIFF_BYTES])
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ValueError(f"Not an HTML document: binary content starting {head[:16]!r}")
    _, text = html_to_unicode(content_type, bytes(html))
    return text


def lxml_document(text: str, url: str | None = None) -> etree._Element:
    """Parse ``text`` exactly as parsel (and so Scrapy's ``response.xpath``)
    does, so the XPaths of a :class:`PageTree` are valid in
    ``response.xpath`` too."""
    body = text.strip().replace("\x00", "").encode("utf-8") or b"<html/>"
    # lxml.html's parser (parsel's) builds the same tree; the plain one skips
    # a Python element-class lookup per node.
    parser = etree.HTMLParser(recover=True, encoding="utf-8", huge_tree=True)
    try:
        root = etree.fromstring(body, parser=parser, base_url=url or "")
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"Cannot parse document {url!r}: {exc}") from exc
    if root is None:
        root = etree.fromstring(b"<html/>", parser=parser, base_url=url or "")
    return root


def parse(html: str | bytes, url: str | None = None) -> PageTree:
    """Parse a page into its normalized :class:`PageTree`.

    ``html`` may be text (e.g. ``response.text``) or raw bytes, whose encoding
    is detected. Raises :class:`ValueError` for input that is not HTML.
    """
    return build_tree(lxml_document(decode_html(html), url), url)


def _root_prefix(element: etree._Element) -> str:
    steps = []
    node: etree._Element | None = element
    while node is not None:
        parent = node.getparent()
        tag = node.tag
        if parent is None:
            # A top-level element: the document may hold several (see
            # :func:`_top`), ``/html[2]`` is the second.
            before = sum(1 for other in node.itersiblings(preceding=True) if other.tag == tag)
            after = sum(1 for other in node.itersiblings() if other.tag == tag)
            position, total = before + 1, before + after + 1
        else:
            same = [child for child in parent if child.tag == tag]
            position, total = same.index(node) + 1, len(same)
        steps.append(_step(tag, position, total))
        node = parent
    steps.reverse()
    return "/" + "/".join(steps)


def top_elements(document: etree._Element) -> list[etree._Element]:
    """The top-level elements of ``document``'s tree: its root, and the
    ``<html>`` elements after it of a page split by an early ``</html>``
    (see :func:`_top`)."""
    root = document.getroottree().getroot()
    return [root, *(e for e in root.itersiblings() if isinstance(e.tag, str))]


def _top(document: etree._Element) -> etree._Element:
    """The element a page's tree starts at: its ``<body>``. A page that
    closes ``</html>`` before its head and body (``<html lang="en"></html>
    <head>...``, which browsers ignore) is parsed by libxml2 into two
    top-level ``<html>`` elements, the second holding the page: its body
    is the page's then (``response.xpath`` finds it too, at ``/html[2]``)."""
    for element in top_elements(document):
        if element is document or element.tag == "html":
            body = element.find("body")
            if body is not None:
                return body
    return document


def build_tree(document: etree._Element, url: str | None = None) -> PageTree:
    """Build the normalized tree of an lxml document parsed by
    :func:`lxml_document` (or by parsel, which parses the same way).

    The cyclic collector is paused meanwhile (see :func:`gc_paused`): the
    tree is alive until it is returned, so a collection in between would
    only walk it for nothing.
    """
    with gc_paused():
        return _build_tree(document, url)


def _build_tree(document: etree._Element, url: str | None) -> PageTree:
    # One loop over lxml's events; the state of each open element is a
    # small list in a stack, not build-time attributes on every node. This
    # is most of a page's parse time.
    top = _top(document)
    nodes: list[Node] = []
    leaves: list[Node] = []
    frame: list[Any] | None = _open_root(nodes, leaves, top)
    frames: list[list[Any]] = []
    deepest = 1
    walker = etree.iterwalk(top, events=("start", "end", "comment", "pi"))
    next(walker)  # the start of ``top``: the root's frame above
    for event, element in walker:
        if event == "start":
            assert frame is not None  # a dropped subtree is skipped
            frames.append(frame)
            if len(frames) >= deepest:
                deepest = len(frames) + 1
            frame = _open(nodes, leaves, frame, element)
            if frame is None:
                walker.skip_subtree()
                continue
            text = element.text
        else:
            if event == "end":
                _close(nodes, leaves, frame, frames[-1] if frames else None)
                if not frames:
                    break  # ``top`` closed
                frame = frames.pop()
            assert frame is not None
            # An element's, comment's or processing instruction's tail is
            # the next text node of the enclosing element.
            text = element.tail
        if text is not None:
            frame[2] += 1
            if not text.isspace():
                _add_text(nodes, leaves, frame, text)

    _warn_if_cut(top, deepest, url)
    return PageTree(nodes, leaves, url, document)


def _warn_if_cut(top: etree._Element, deepest: int, url: str | None) -> None:
    """Say so when the document reaches libxml2's depth limit: the parser
    gave up there (see :data:`LIBXML2_MAX_DEPTH`). The depth is all that
    tells, since parsel's document keeps no parser error log; a page that is
    exactly that deep and complete is warned about too, which no real page
    is."""
    depth = deepest + sum(1 for _ in top.iterancestors())
    if depth >= LIBXML2_MAX_DEPTH:
        logger.warning(
            "Page %s reaches libxml2's nesting limit of %d levels: the parser "
            "stopped there, so what is nested deeper and all that follows it "
            "is missing",
            url or "(no URL)",
            LIBXML2_MAX_DEPTH,
        )


def _open_root(nodes: list[Node], leaves: list[Node], top: etree._Element) -> list[Any]:
    """The root's frame, its node made and its own text read.

    An open element's frame is its node, the count of its children per
    tag so far (they become the children's ``_sibling_counts``), its text
    nodes so far, and the weak reference its children hold. A dropped
    element has no frame (None): its subtree is skipped, but it takes its
    place among its same-tag siblings and its tail still counts as a text
    node of its parent."""
    tag = top.tag
    root = Node(0, tag, top, None, 1, {tag: 1}, 0, tag if tag in AFFILIATION_TAGS else "", 0)
    root._xpath = _root_prefix(top)
    nodes.append(root)
    frame = [root, None, 0, weakref.ref(root)]
    if top.text is not None:
        frame[2] = 1
        if not top.text.isspace():
            _add_text(nodes, leaves, frame, top.text)
    return frame


def _open(
    nodes: list[Node], leaves: list[Node], parent: list[Any], element: etree._Element
) -> list[Any] | None:
    """The frame of a child element that opens; None for a dropped one,
    which still takes its place among its same-tag siblings."""
    tag = element.tag
    counts = parent[1]
    if counts is None:
        counts = parent[1] = {tag: 1}
        position = 1
    else:
        position = counts.get(tag, 0) + 1
        counts[tag] = position
    if tag in DROPPED_TAGS:
        return None
    owner: Node = parent[0]
    node = Node(
        len(nodes),
        tag,
        element,
        parent[3],
        position,
        counts,
        owner.depth + 1,
        tag if tag in AFFILIATION_TAGS else owner.affiliation,
        len(leaves),
    )
    owner.children.append(node)
    nodes.append(node)
    return [node, None, 0, weakref.ref(node)]


def _add_text(nodes: list[Node], leaves: list[Node], frame: list[Any], text: str) -> None:
    """The leaf of an element's text node that is not blank (its own text,
    or a child's tail), the frame's count of them taken already: blank ones
    count too, for the *k* of ``text()[k]``."""
    owner: Node = frame[0]
    at = len(leaves)
    leaf = Node(
        len(nodes),
        TEXT,
        owner.element,
        frame[3],
        frame[2],
        None,
        owner.depth + 1,
        owner.affiliation,
        at,
        at,
        " ".join(text.split()),
    )
    owner.children.append(leaf)
    nodes.append(leaf)
    leaves.append(leaf)


def _close(
    nodes: list[Node], leaves: list[Node], frame: list[Any] | None, parent: list[Any] | None
) -> None:
    """Settle the leaf range of an element that closes (``frame`` is its
    frame, None for a dropped one; ``parent`` its parent's, None for the
    root): one with no kept content is a data leaf, or formatting and
    dropped."""
    if frame is None:
        return
    closed: Node = frame[0]
    if closed.children or parent is None:
        if closed.first_leaf < len(leaves):
            closed.last_leaf = len(leaves) - 1
        else:
            closed.first_leaf = -1
        return
    name = leaf_attribute(closed.element, closed.tag)
    if name is None:
        # Formatting only; it is the newest node since it has no descendants.
        nodes.pop()
        parent[0].children.pop()
        return
    closed.value = (closed.element.get(name) or "").strip()
    closed.leaf_index = closed.first_leaf = closed.last_leaf = len(leaves)
    leaves.append(closed)


def _pre_order(root: Node) -> list[Node]:
    """The nodes under ``root`` (itself included) in pre-order, without
    recursion."""
    found: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(reversed(node.children))
    return found


def _repeat_groups(children: list[Node]) -> Iterator[list[Node]]:
    """Groups of element children alike by tag, class and first child."""
    groups: dict[tuple[str, str | None, str | None], list[Node]] = {}
    for child in children:
        if child.tag is TEXT:
            continue
        grandchildren = child.children
        first = grandchildren[0].tag if grandchildren else None
        key = (child.tag, child.element.get("class"), first)
        group = groups.get(key)
        if group is None:
            groups[key] = [child]
        else:
            group.append(child)
    return iter(groups.values())


def _mark_repeats(nodes: Sequence[Node]) -> None:
    """Find groups of similar siblings (same tag, class and first child) and
    mark every node under them as *sequential*."""
    for node in nodes:
        if len(node.children) < 2:
            continue
        for group in _repeat_groups(node.children):
            if len(group) > 1:
                for position, child in enumerate(group, 1):
                    child._repeat = (position, len(group))
    for node in nodes:
        repeat = getattr(node, "_repeat", None)
        if repeat is None:
            node._repeat = None
        parent = node.parent
        node._sequential = repeat is not None or (parent is not None and parent._sequential)


_WHITESPACE_RUN = re.compile(r"\s+")


def fold_whitespace(text: str) -> str:
    """Collapse runs of whitespace (including non-breaking spaces) and trim.

    Pages put the same value in differently spaced markup; comparing folded
    text is what makes "the same value" mean the same thing everywhere.
    """
    return _WHITESPACE_RUN.sub(" ", text.replace("\xa0", " ")).strip()


def structure_paths(tree: PageTree) -> frozenset[str]:
    """The page's tag-path set: every node's tag path without sibling
    orders, as ``"div/table/tr/td/text()"`` strings (in one pass, so deep
    pages cost no more than wide ones)."""
    paths: list[str] = [""] * len(tree.nodes)
    for node in tree.nodes:
        step = "text()" if node.tag == TEXT else str(node.tag)
        parent = node.parent
        paths[node.index] = step if parent is None else paths[parent.index] + "/" + step
    return frozenset(paths)
