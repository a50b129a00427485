"""The demo bookstore: deterministic, truthful, and served as promised."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import parsel
import pytest

from scrapy_wrapx.demo import DETAIL_FIELDS, DemoSite, build_site
from scrapy_wrapx.demo.server import DemoServer, cover_png
from scrapy_wrapx.dom import fold_whitespace


def _texts(html: str) -> list[str]:
    selector = parsel.Selector(text=html)
    texts = (
        fold_whitespace(t) for t in selector.xpath("//body//text()[not(ancestor::script)]").getall()
    )
    return [t for t in texts if t]


def test_same_seed_same_site() -> None:
    assert build_site(3).pages == build_site(3).pages
    assert build_site(3).truth == build_site(3).truth
    assert build_site(3).pages != build_site(4).pages


def test_redesign_keeps_data_and_urls_but_changes_markup() -> None:
    original, redesigned = build_site(5), build_site(5, redesigned=True)
    assert original.truth == redesigned.truth
    assert original.records == redesigned.records
    assert sorted(original.pages) == sorted(redesigned.pages)
    for path in original.detail_pages + original.list_pages:
        assert original.pages[path] != redesigned.pages[path]
        old, new = (
            parsel.Selector(text=original.pages[path]),
            parsel.Selector(text=redesigned.pages[path]),
        )
        # The layout table became divs; wrappers and renamed classes appear.
        assert old.css("table.layout") and not new.css("table.layout")
        assert new.css("div.page-wrapper > div.container")
        assert not old.css(".product-title") and not new.css(".title")


@pytest.mark.parametrize("redesigned", [False, True])
def test_truth_values_are_on_their_pages(redesigned: bool) -> None:
    site = build_site(11, redesigned=redesigned)
    for path in site.detail_pages:
        selector = parsel.Selector(text=site.pages[path])
        texts = _texts(site.pages[path])
        truth = site.truth[path]
        assert sorted(truth) == sorted(DETAIL_FIELDS)
        for name in (
            "title",
            "price",
            "isbn",
            "publisher",
            "publication_date",
            "description",
            "rating",
            "author",
        ):
            for value in truth[name]:
                assert texts.count(value) == 1, (path, name, value)
        assert selector.xpath("//img/@src").getall().count(truth["image"][0]) == 1
        byline = selector.css("p.byline, p.product-byline")
        assert len(byline) == 1
        assert byline.css("a.author::text").getall() == truth["author"]


def test_optional_fields_and_nested_lists_occur() -> None:
    site = build_site(0)
    truths = list(site.truth.values())
    assert any(not t["publication_date"] for t in truths)
    assert any(t["publication_date"] for t in truths)
    assert any(not t["rating"] for t in truths)
    assert any(len(t["author"]) > 1 for t in truths)
    details = [parsel.Selector(text=site.pages[p]) for p in site.detail_pages]
    assert any(len(s.css("li.review")) > 1 for s in details)
    assert any(not s.css("li.review") for s in details)
    assert all(s.css("li.review").xpath("./ul/li") or not s.css("li.review") for s in details)


def test_list_pages_hold_records_in_order_with_pagination() -> None:
    site = build_site(2, books=25)
    assert site.list_pages == [f"/catalogue/page-{n}.html" for n in (1, 2, 3)]
    seen = []
    for number, path in enumerate(site.list_pages, 1):
        selector = parsel.Selector(text=site.pages[path])
        records = selector.css("div.record")
        assert [r.css("h3 a::text").get() for r in records] == [
            record["title"][0] for record in site.records[path]
        ]
        for record, expected in zip(records, site.records[path], strict=True):
            assert record.css("ul.authors li::text").getall() == expected["author"]
        seen.extend(r.css("h3 a::attr(href)").get() for r in records)
        assert bool(selector.css("a.next")) == (number < 3)
    assert [f"/book/{h.rsplit('/', 1)[1]}" for h in seen] == site.detail_pages


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="books=0"):
        build_site(books=0)


def test_cover_png_is_a_png() -> None:
    data = cover_png()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")


def _get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def test_server_serves_both_designs_and_resources(
    demo_server: Any, demo_site: DemoSite, demo_site_v2: DemoSite
) -> None:
    path = demo_site.detail_pages[4]
    status, ctype, body = _get(demo_server.urljoin(path))
    assert (status, ctype) == (200, "text/html; charset=utf-8")
    assert body.decode("utf-8") == demo_site.pages[path]
    assert _get(demo_server.v2(path))[2].decode("utf-8") == demo_site_v2.pages[path]
    assert _get(demo_server.url)[2].decode("utf-8") == demo_site.pages["/"]
    assert _get(demo_server.urljoin("/v2/"))[2].decode("utf-8") == demo_site_v2.pages["/"]
    status, ctype, body = _get(demo_server.urljoin("/cover.png?isbn=1"))
    assert (status, ctype, body) == (200, "image/png", cover_png())
    status, ctype, body = _get(demo_server.urljoin("/feed.json"))
    assert ctype == "application/json"
    assert len(json.loads(body)["books"]) == len(demo_site.books)
    assert _get(demo_server.urljoin("/missing.html"))[0] == 404


def test_relative_links_resolve_inside_each_design() -> None:
    site = build_site(0, books=12)
    with DemoServer(site) as server:
        for prefix in ("", "v2/"):
            page = server.url + prefix + "catalogue/page-1.html"
            _, _, body = _get(page)
            selector = parsel.Selector(text=body.decode("utf-8"))
            for href in selector.css("a.next::attr(href), h3 a::attr(href)").getall():
                target = urllib.parse.urljoin(page, href)
                assert target.startswith(server.url + prefix)
                assert _get(target)[0] == 200
