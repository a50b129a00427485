"""Page kinds: URL patterns, tag-path sets, routing and its JSON records."""

from __future__ import annotations

import pytest

from scrapy_wrapx.demo import build_site
from scrapy_wrapx.unsupervised.kinds import (
    KindIndex,
    PageKind,
    domain_of,
    jaccard,
    new_kind,
    page_signature,
    url_pattern,
)

BASE = "http://shop.example"


@pytest.mark.parametrize(
    ("url", "pattern"),
    [
        ("http://x.test/book/the-silent-river.html", "/book/*.html"),
        ("http://x.test/catalogue/page-12.html", "/catalogue/page-*.html"),
        ("http://x.test/product/9780316125581", "/product/*"),
        ("http://x.test/p/2024/05/item?id=3&ref=home", "/p/*/*/*?id&ref"),
        ("http://x.test/a/b/", "/a/b/"),
        ("http://x.test", "/"),
        ("http://x.test/item/3f2a9c1e-77aa/", "/item/*/"),
    ],
)
def test_url_pattern(url: str, pattern: str) -> None:
    assert url_pattern(url) == pattern


def test_domain_keeps_port_and_drops_www() -> None:
    assert domain_of("https://WWW.Shop.example:8080/x") == "shop.example:8080"
    assert domain_of("http://user:pw@shop.example/x") == "shop.example"


def test_jaccard() -> None:
    assert jaccard(frozenset("ab"), frozenset("bc")) == pytest.approx(1 / 3)
    assert jaccard(frozenset(), frozenset()) == 1.0


def test_structure_ignores_record_counts() -> None:
    one = page_signature("<body><ul><li>a</li></ul><p>x</p></body>", BASE + "/l/1")
    many = page_signature(
        "<body><ul><li>a</li><li>b</li><li>c</li></ul><p>y</p></body>", BASE + "/l/2"
    )
    assert one.paths == many.paths
    assert "body/ul/li/text()" in one.paths


def _signatures(redesigned: bool = False) -> dict[str, object]:
    site = build_site(seed=3, books=14, redesigned=redesigned)
    prefix = "/v2" if redesigned else ""
    return {path: page_signature(html, BASE + prefix + path) for path, html in site.pages.items()}


def test_demo_site_pages_fall_into_their_kinds() -> None:
    site = build_site(seed=3, books=14)
    index = KindIndex()
    kinds = {
        path: index.route(page_signature(html, BASE + path)) for path, html in site.pages.items()
    }
    detail = {kinds[p].key for p in site.detail_pages}
    listing = {kinds[p].key for p in site.list_pages}
    assert len(detail) == 1 and len(listing) == 1
    assert detail != listing
    assert kinds[site.detail_pages[0]].url_pattern == "/book/*.html"


def test_redesign_founds_a_new_kind_related_to_the_old_one() -> None:
    index = KindIndex()
    old = [index.route(s) for s in _signatures().values()]  # type: ignore[arg-type]
    new = [index.route(s) for s in _signatures(redesigned=True).values()]  # type: ignore[arg-type]
    assert not {k.key for k in old} & {k.key for k in new}
    book_v2 = next(k for k in new if k.url_pattern == "/v*/book/*.html")
    related = index.related(book_v2)
    assert related is not None and related.url_pattern == "/book/*.html"


def test_other_domain_never_matches() -> None:
    index = KindIndex()
    html = "<body><h1>A</h1><p>b</p></body>"
    first = index.route(page_signature(html, "http://a.test/x/1.html"))
    second = index.route(page_signature(html, "http://b.test/x/1.html"))
    assert first.key != second.key
    assert first.domain == "a.test" and second.domain == "b.test"


def test_same_url_pattern_lowers_the_bar() -> None:
    index = KindIndex(threshold=0.6, url_weight=0.3)
    base = "<body><div><h1>T</h1><p>x</p><span>s</span><em>e</em></div></body>"
    other = "<body><div><h1>T</h1><p>x</p></div><table><tr><td>1</td></tr></table></body>"
    a = page_signature(base, BASE + "/item/1.html")
    b_same = page_signature(other, BASE + "/item/2.html")
    b_other = page_signature(other, BASE + "/list/2.html")
    similarity = jaccard(a.paths, b_same.paths)
    assert 0.3 <= similarity < 0.6
    kind = index.route(a)
    assert index.match(b_same)[0] is kind
    assert index.match(b_other)[0] is None


def test_members_keep_an_odd_founder_from_splitting_its_kind() -> None:
    index = KindIndex(threshold=0.6, url_weight=0.0)
    founder = page_signature("<body><h1>a</h1><p>b</p><i>c</i></body>", BASE + "/x/1")
    middle = page_signature("<body><h1>a</h1><p>b</p><i>c</i><b>d</b></body>", BASE + "/x/2")
    far = page_signature("<body><h1>a</h1><p>b</p><b>d</b><u>e</u></body>", BASE + "/x/3")
    kind = index.route(founder)
    assert index.match(far)[0] is None  # 3/6 with the founder alone
    assert index.route(middle) is kind
    assert index.match(far)[0] is kind  # 4/5 with the member


def test_kind_records_round_trip_and_validate() -> None:
    signature = page_signature("<body><h1>a</h1></body>", BASE + "/book/a.html")
    kind = new_kind(signature)
    assert kind.id.startswith("book-")
    assert new_kind(signature).id == kind.id  # the same page founds the same id
    again = PageKind.from_dict(kind.to_dict())
    assert (again.key, again.paths, again.url_pattern) == (kind.key, kind.paths, kind.url_pattern)
    for bad in (
        {"version": 99},
        [],
        {**kind.to_dict(), "paths": "div"},
        {**kind.to_dict(), "id": 3},
    ):
        with pytest.raises(ValueError):
            PageKind.from_dict(bad)


def test_index_rejects_a_bad_threshold() -> None:
    with pytest.raises(ValueError, match="-1"):
        KindIndex(threshold=-1)
