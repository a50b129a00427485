"""The normalized page tree: XPaths that round-trip, leaf order, leaf data
types, repeats, mapping lxml results back to nodes, and bad input."""

from __future__ import annotations

import html as html_lib
import sys
from collections.abc import Iterator

import parsel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from scrapy_wrapx import dom
from scrapy_wrapx.demo import build_site
from scrapy_wrapx.demo.server import cover_png
from scrapy_wrapx.dom import fold_whitespace

# --------------------------------------------------------------------------
# Round trip checks shared by the fixture pages and the generated ones.


def _lxml_path(element: etree._Element) -> str:
    """lxml's own canonical path: identifies one element across two parses
    of the same text (the tree's document and parsel's)."""
    return str(element.getroottree().getpath(element))


def assert_round_trip(tree: dom.PageTree, html: str) -> None:
    """Every node's XPath selects exactly that node, in lxml on
    ``tree.document`` and in parsel on the original text (as HTML, as
    Scrapy's ``HtmlResponse`` does: parsel alone would take a page starting
    with ``<?xml`` for XML)."""
    selector = parsel.Selector(text=html, type="html")
    for node in tree.nodes:
        found = tree.document.xpath(node.xpath)
        via_parsel = selector.xpath(node.xpath)
        assert len(found) == 1, (node.xpath, found)
        assert len(via_parsel) == 1, (node.xpath, via_parsel)
        assert tree.node_for(found[0]) is node
        if node.is_text:
            assert fold_whitespace(found[0]) == node.value
            assert fold_whitespace(via_parsel[0].get()) == node.value
            assert found[0].getparent() is not None
        else:
            assert found[0] is node.element
            assert _lxml_path(via_parsel[0].root) == _lxml_path(node.element)
            if node.is_leaf:
                name = node.data_attribute
                assert name is not None
                attribute = tree.document.xpath(f"{node.xpath}/@{name}")
                assert [a.strip() for a in attribute] == [node.value]
                assert selector.xpath(f"{node.xpath}/@{name}").get().strip() == node.value
                assert tree.node_for(attribute[0]) is node


def assert_leaf_order(tree: dom.PageTree) -> None:
    """The leaf array is the kept leaves in document order, and every
    node's leaf range covers exactly its descendant leaves."""
    ordered: list[dom.Node] = []
    top = tree.root.element
    for item in top.xpath("descendant-or-self::node()"):
        node = tree.node_for(item)
        if node is not None and node.is_leaf and (not ordered or ordered[-1] is not node):
            ordered.append(node)
    assert ordered == tree.leaves
    assert [leaf.leaf_index for leaf in tree.leaves] == list(range(len(tree.leaves)))
    # Texts the tree keeps are the visible texts of the document, in order.
    dropped = " or ".join(f"ancestor::{tag}" for tag in sorted(dom.DROPPED_TAGS))
    visible = [fold_whitespace(t) for t in top.xpath(f"descendant::text()[not({dropped})]")]
    assert [leaf.value for leaf in tree.leaves if leaf.is_text] == [t for t in visible if t]
    descendants: dict[int, list[int]] = {node.index: [] for node in tree.nodes}
    for leaf in tree.leaves:
        descendants[leaf.index].append(leaf.leaf_index)
        for ancestor in leaf.ancestors():
            descendants[ancestor.index].append(leaf.leaf_index)
    for node in tree.nodes:
        leaves = sorted(descendants[node.index])
        if leaves:
            assert (node.first_leaf, node.last_leaf) == (leaves[0], leaves[-1])
            assert leaves == list(range(node.first_leaf, node.last_leaf + 1))
        else:
            assert (node.first_leaf, node.last_leaf) == (-1, -1)


def assert_tree_shape(tree: dom.PageTree) -> None:
    """Pre-order indexes, parent links, depths and paths agree."""
    assert [node.index for node in tree.nodes] == list(range(len(tree.nodes)))
    assert tree.root.parent is None and tree.root.depth == 0
    for node in tree.nodes[1:]:
        parent = node.parent
        assert parent is not None and node in parent.children
        assert node.depth == parent.depth + 1 and node.index > parent.index
        assert len(node.tag_path) == node.depth == len(node.attr_path)
        assert node.tag_path_cut[-1] == ("text()" if node.is_text else node.tag)
        assert not node.is_text or not node.children
        assert node.is_leaf == (node.prop is not None)


def _fixture_pages() -> Iterator[tuple[str, str]]:
    for redesigned in (False, True):
        site = build_site(7, redesigned=redesigned, books=12)
        for path, page in site.pages.items():
            yield f"{'v2' if redesigned else 'v1'}{path}", page


FIXTURE_PAGES = dict(_fixture_pages())


@pytest.mark.parametrize("name", sorted(FIXTURE_PAGES))
def test_fixture_pages_round_trip(name: str) -> None:
    page = FIXTURE_PAGES[name]
    tree = dom.parse(page, url=f"http://127.0.0.1/{name}")
    assert tree.root.tag == "body" and tree.root.xpath == "/html/body"
    assert len(tree.leaves) > 10
    assert_tree_shape(tree)
    assert_round_trip(tree, page)
    assert_leaf_order(tree)


def test_fixture_truth_is_in_the_leaves() -> None:
    site = build_site(3, books=12)
    for path in site.detail_pages:
        tree = dom.parse(site.pages[path])
        values = [leaf.value for leaf in tree.leaves]
        truth = site.truth[path]
        for name in ("title", "price", "isbn", "publisher", "description", "image"):
            assert truth[name][0] in values, (path, name)
        assert all(author in values for author in truth["author"])
        # Dropped: head, scripts, comments.
        assert not any("dataLayer" in v or v == "reviews" for v in values)


# --------------------------------------------------------------------------
# Generated adversarial pages.

_TAGS = ["div", "span", "p", "a", "li", "ul", "td", "b", "i", "fb:like", "my-widget", "x_y"]
_DROPPED = ["script", "style", "br", "hr", "noscript"]
_TEXTS = st.one_of(
    st.sampled_from(["", " ", "\n\t ", "\xa0", "a", "by Frank", "x &amp; y", "&lt;b&gt;"]),
    st.sampled_from(["&#233;t&eacute;", "caf&eacute;", "it's", 'say "hi"', "&nbsp;"]),
    st.text(alphabet="ab <>&'\"\n", max_size=8).map(html_lib.escape),
)
_ATTRIBUTES = st.sampled_from(
    [
        "",
        ' class="x"',
        " title='a\"b'",
        ' data-x="it\'s"',
        ' class="a b" id="c"',
        " href=/plain",
        ' title="&quot;q&quot;"',
    ]
)


@st.composite
def adversarial_html(draw: st.DrawFn, depth: int = 0) -> str:
    """Random nesting mixing text and children, comments between texts,
    dropped and odd tags, entities, blank texts, quoting in attributes and
    end tags left out."""
    parts: list[str] = []
    for _ in range(draw(st.integers(2 if depth == 0 else 0, 5 if depth < 5 else 0))):
        kind = draw(st.integers(0, 11))
        if kind <= 2:
            parts.append(draw(_TEXTS))
        elif kind == 3:
            parts.append(f"<!-- {draw(_TEXTS)} -->")
        elif kind == 4:
            tag = draw(st.sampled_from(_DROPPED))
            parts.append(
                f"<{tag}>{draw(_TEXTS)}</{tag}>" if tag not in ("br", "hr") else f"<{tag}>"
            )
        elif kind == 5:
            src = draw(st.sampled_from(["", "a.png", " b.jpg ", "clip.mp4", "x.mp3"]))
            tag = draw(st.sampled_from(["img", "a", "input", "video", "iframe"]))
            attribute = {"a": "href", "input": "value"}.get(tag, "src")
            parts.append(f'<{tag} {attribute}="{src}">' + ("</a>" if tag == "a" else ""))
        else:
            tag = draw(st.sampled_from(_TAGS))
            inner = draw(adversarial_html(depth + 1))
            close = draw(st.booleans()) or depth == 0
            parts.append(f"<{tag}{draw(_ATTRIBUTES)}>{inner}" + (f"</{tag}>" if close else ""))
    return "".join(parts)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(body=adversarial_html(), wrap=st.booleans())
def test_generated_pages_round_trip(body: str, wrap: bool) -> None:
    page = f"<html><head><title>t</title></head><body>{body}</body></html>" if wrap else body
    tree = dom.parse(page)
    assert_tree_shape(tree)
    assert_round_trip(tree, page)
    assert_leaf_order(tree)


@settings(max_examples=60, deadline=None)
@given(body=adversarial_html())
def test_bytes_and_text_give_the_same_tree(body: str) -> None:
    page = f"<html><body>{body}</body></html>"
    from_text, from_bytes = dom.parse(page), dom.parse(page.encode("utf-8"))
    assert [n.xpath for n in from_text.nodes] == [n.xpath for n in from_bytes.nodes]
    assert [n.value for n in from_text.leaves] == [n.value for n in from_bytes.leaves]


# --------------------------------------------------------------------------
# Leaf properties, affiliation and structure (thesis §4.2.1).


def test_property_classification() -> None:
    tree = dom.parse(
        "<body><p>plain text</p>"
        '<a href="/page">link text</a><a href="/only-href"></a>'
        '<img src="cover.jpg"><img data-src="lazy.jpg"><img alt="no source">'
        '<a href="/media/clip.mp4?x=1">watch</a><video src="v.webm"></video>'
        '<video><source src="/stream/7"></video><audio src="/listen"></audio>'
        '<a href="song.MP3"></a><iframe src="https://example.com/embed"></iframe>'
        '<input value="42"><object data="movie.swf"></object></body>'
    )
    props = [(leaf.value, leaf.prop) for leaf in tree.leaves]
    assert props == [
        ("plain text", "text"),
        ("link text", "text"),
        ("/only-href", "link"),
        ("cover.jpg", "image"),
        ("lazy.jpg", "image"),
        ("watch", "video"),
        ("v.webm", "video"),
        ("/stream/7", "video"),
        ("/listen", "audio"),
        ("song.MP3", "audio"),
        ("https://example.com/embed", "other"),
        ("42", "other"),
        ("movie.swf", "other"),
    ]
    assert [leaf.data_attribute for leaf in tree.leaves if not leaf.is_text][:3] == [
        "href",
        "src",
        "data-src",
    ]


def test_affiliation_is_the_nearest_affiliating_ancestor() -> None:
    tree = dom.parse(
        "<body><table><tr><td><span>in cell</span></td></tr></table>"
        '<ul><li><a href="/x"><span>in link</span></a></li><li><em>in item</em></li></ul>'
        "<div><span>loose</span></div><h2>heading</h2></body>"
    )
    assert [(leaf.value, leaf.affiliation) for leaf in tree.leaves] == [
        ("in cell", "td"),
        ("in link", "a"),
        ("in item", "li"),
        ("loose", ""),
        ("heading", "h2"),
    ]


def test_structure_single_and_sequential() -> None:
    tree = dom.parse(
        "<body><h1>Books</h1><ul>"
        '<li class="r"><b>One</b><ul class="a"><li>A1</li></ul></li>'
        '<li class="r"><b>Two</b><ul class="a"><li>B1</li><li>B2</li></ul></li>'
        '<li class="r"><b>Three</b></li>'
        '</ul><p class="x">alone</p><p class="y">other</p></body>'
    )
    by_value = {leaf.value: leaf for leaf in tree.leaves}
    assert by_value["Books"].structure == "single" and by_value["Books"].repeat is None
    assert by_value["alone"].structure == "single"
    for value in ("One", "Two", "Three", "A1", "B1", "B2"):
        assert by_value[value].structure == "sequential", value
    records = [node for node in tree.nodes if node.tag == "li" and node.element.get("class")]
    assert [node.repeat for node in records] == [(1, 3), (2, 3), (3, 3)]
    nested = [
        n for n in tree.nodes if n.tag == "li" and n.parent and n.parent.tag == "ul" and n.depth > 2
    ]
    assert [node.repeat for node in nested] == [None, (1, 2), (2, 2)]


def test_fixture_records_are_sequential() -> None:
    site = build_site(0, books=12)
    tree = dom.parse(site.pages[site.list_pages[0]])
    records = [n for n in tree.nodes if n.element.get("class") == "record" and not n.is_text]
    assert [node.repeat for node in records] == [(i, 10) for i in range(1, 11)]
    assert all(
        tree.leaves[i].sequential for r in records for i in range(r.first_leaf, r.last_leaf + 1)
    )
    heading = next(
        leaf for leaf in tree.leaves if leaf.value == "Catalogue" and leaf.affiliation == "h1"
    )
    assert heading.structure == "single"


# --------------------------------------------------------------------------
# Mapping lxml results back to nodes.


def test_node_for() -> None:
    page = (
        "<html><body><div id='d'>first<b>bold</b>tail<!-- c -->after comment"
        "<script>var x = 1;</script>  <i></i><a href='/h'>link</a></div></body></html>"
    )
    tree = dom.parse(page)
    doc = tree.document
    values = {leaf.value: leaf for leaf in tree.leaves}
    assert tree.node_for(doc.xpath("//div")[0]) is tree.root.children[0]
    assert tree.node_for(doc.xpath("//div/text()")[0]) is values["first"]
    assert tree.node_for(doc.xpath("//b/text()")[0]) is values["bold"]
    assert tree.node_for(doc.xpath("//div/text()")[1]) is values["tail"]
    assert tree.node_for(doc.xpath("//div/text()")[2]) is values["after comment"]
    assert tree.node_for(doc.xpath("//a/@href")[0]) is tree.node_for(doc.xpath("//a")[0])
    assert values["after comment"].xpath == "/html/body/div/text()[3]"
    # Dropped nodes have no counterpart.
    assert tree.node_for(doc.xpath("//script")[0]) is None
    assert tree.node_for(doc.xpath("//script/text()")[0]) is None
    assert tree.node_for(doc.xpath("//comment()")[0]) is None
    assert tree.node_for(doc.xpath("//i")[0]) is None  # empty formatting
    assert tree.node_for(doc.xpath("//div/text()")[3]) is None  # blank
    assert tree.node_for("not a result") is None
    assert tree.node_for(doc.xpath("count(//b)")) is None


def test_text_of() -> None:
    tree = dom.parse("<body><div><h1> A  title </h1><img src='x.png'>by <b>me</b></div></body>")
    assert tree.text_of(tree.root) == "A title by me"
    image = next(leaf for leaf in tree.leaves if leaf.prop == "image")
    assert tree.text_of(image) == ""


# --------------------------------------------------------------------------
# Bad input: a PageTree or a clear ValueError, never a crash.


@pytest.mark.parametrize("page", ["", "   \n ", b"", b"\xef\xbb\xbf", "<!-- only a comment -->"])
def test_empty_documents(page: str | bytes) -> None:
    tree = dom.parse(page)
    assert tree.leaves == []
    assert tree.document.xpath(tree.root.xpath) == [tree.root.element]


@pytest.mark.parametrize(
    "data",
    [cover_png(), bytes(range(256)) * 8, b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"\x00" * 64],
)
def test_binary_input_is_refused(data: bytes) -> None:
    with pytest.raises(ValueError, match="Not an HTML document") as info:
        dom.parse(data)
    assert repr(data[:4])[2:-1] in str(info.value)


def test_wrong_types_are_refused() -> None:
    with pytest.raises(TypeError, match="'int'"):
        dom.parse(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "page",
    [
        "<div><p>unclosed <b>bold <i>both</div> after",
        "</div></span>stray end tags<p>x</p></body></html></html>",
        "<table><div>misnested</div><tr><td>cell<td>cell 2</table>",
        "<a href=unquoted title=a'b>odd attributes</a><p class=>empty</p>",
        "<<<>>> &&& &bogus; <p>text</p> <!-- unterminated comment",
        "<html><body><body><p>two bodies</p></body></html><p>after html</p>",
        "<p>null\x00byte</p>",
        "<frameset><frame src='a.html'></frameset>",
        "plain text, no tags at all",
        "<?xml version='1.0'?><?php echo 1 ?><p>processing instructions</p>",
    ],
)
def test_broken_markup(page: str) -> None:
    tree = dom.parse(page)
    assert_tree_shape(tree)
    assert_round_trip(tree, page)
    assert_leaf_order(tree)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # Unknown charset name: decoding falls back instead of failing.
        ('<meta charset="x-no-such-charset"><p>café</p>'.encode(), "café"),
        # Declared UTF-8, really Latin-1: a replacement character, no crash.
        ('<meta charset="utf-8"><p>café</p>'.encode("latin-1"), "caf\ufffd"),
        # Declared Latin-1, really UTF-8: mojibake, but a tree.
        ('<meta charset="iso-8859-1"><p>café</p>'.encode(), "cafÃ©"),
        # A byte-order mark wins over everything (and its NULs are not binary).
        ('<meta charset="latin-1"><p>café</p>'.encode("utf-16"), "café"),
        ("<p>café</p>".encode("utf-8-sig"), "café"),
    ],
)
def test_unknown_and_lying_encodings(data: bytes, expected: str) -> None:
    tree = dom.parse(data)
    assert [leaf.value for leaf in tree.leaves] == [expected]


def test_a_20_mb_page() -> None:
    row = '<div class="row"><h3><a href="/item/{0}">Item {0}</a></h3><p>{1}</p></div>\n'
    text = "lorem ipsum dolor sit amet " * 30
    rows = 20_000_000 // len(row.format(0, text)) + 1
    page = "<html><body>" + "".join(row.format(i, text) for i in range(rows)) + "</body></html>"
    assert len(page) >= 20_000_000
    tree = dom.parse(page.encode("utf-8"))
    assert len(tree.leaves) == 2 * rows
    last = tree.leaves[-1]
    assert last.value == fold_whitespace(text)
    assert last.xpath == f"/html/body/div[{rows}]/p/text()[1]"
    for leaf in (tree.leaves[0], tree.leaves[len(tree.leaves) // 2], last):
        found = tree.document.xpath(leaf.xpath)
        assert len(found) == 1 and tree.node_for(found[0]) is leaf


def _nested(depth: int) -> str:
    return "<body><p>before</p>" + "<div>" * depth + "deep" + "</div>" * depth + "</body>"


def test_10000_deep_nesting_gives_a_tree() -> None:
    """libxml2 stops building at depth 2048 (as it does under parsel, so
    Scrapy selectors see the same truncated page); the tree follows it."""
    page = _nested(10_000)
    tree = dom.parse(page)
    assert tree.leaves[0].value == "before"
    assert [leaf.value for leaf in tree.leaves] == [
        fold_whitespace(t) for t in parsel.Selector(text=page).xpath("//body//text()").getall()
    ]
    assert_round_trip(tree, page)


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1  # type: ignore[assignment]
    return depth


def test_1500_deep_nesting_needs_no_recursion() -> None:
    page = _nested(1_500)
    limit = sys.getrecursionlimit()
    # Far below the nesting depth: any recursion over the tree would fail.
    sys.setrecursionlimit(_stack_depth() + 60)
    try:
        tree = dom.parse(page)
        deepest = tree.leaves[-1]
        xpath, tag_path, attr_path = deepest.xpath, deepest.tag_path, deepest.attr_path
        sequential = [node.sequential for node in tree.nodes]
        text = tree.text_of(tree.root)
        finder_result = tree.node_for(tree.document.xpath(xpath)[0])
    finally:
        sys.setrecursionlimit(limit)
    assert deepest.value == "deep" and deepest.depth == 1_501
    assert xpath == "/html/body" + "/div" * 1_500 + "/text()[1]"
    assert len(tag_path) == len(attr_path) == 1_501
    assert not any(sequential)
    assert text == "before deep"
    assert finder_result is deepest
