"""Chrome taken whole: template-only elements whose links carry a per-page
token (issue 12: skip template-only subtrees).

A site's header and menus are the same on every page but for a session id
in each link, so they have no digests; extraction takes such an element
whole when the page's element has its shape (tags, tree, texts) and walks
it otherwise. Work is counted as calls of the matcher's ``elem`` (a
profiler hook: deterministic, unlike a timer).
"""

from __future__ import annotations

import random
import sys
from types import FrameType
from typing import Any

import pytest

from scrapy_wrapx.dom import parse
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.extraction._compiled import compiled
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Elem, FieldInfo, Opt, Set, Template, normalized_form

TITLES = ["Dune", "Emma", "Ubik", "Solaris", "Neuromancer", "Hyperion", "Kindred", "Beloved"]


def _token(rng: random.Random) -> str:
    return str(rng.randrange(10**12, 10**13))


def _shop_page(rng: random.Random, title: str, menu: int, token: str | None = None) -> str:
    """A product page under a header and a menu of ``menu`` links, each
    with the page's session id."""
    token = token or _token(rng)
    links = "".join(
        f"<li><a href='/cat/{i}?id={token}'><span>Category {i}</span></a></li>" for i in range(menu)
    )
    return (
        f"<html><body><div id='header'><a href='/?id={token}'>Home</a>"
        f"<ul class='menu'>{links}</ul></div>"
        f"<div class='product'><h1>{title}</h1>"
        f"<span class='price'>${rng.randrange(5, 90)}.99</span></div>"
        f"<div id='footer'><a href='/help?id={token}'>Help</a></div></body></html>"
    )


def _elem_calls(template: Template, html: str) -> int:
    tree = parse(html)
    count = 0

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call" and frame.f_code.co_name == "elem":
            count += 1

    sys.setprofile(hook)
    try:
        extract(template, tree)
    finally:
        sys.setprofile(None)
    return count


def _induced(menu: int, seed: int) -> tuple[Template, random.Random]:
    rng = random.Random(seed)
    pages = [_shop_page(rng, title, menu) for title in TITLES[:4]]
    return induce_template(pages), rng


@pytest.mark.parametrize("seed", range(3))
def test_a_menu_with_session_ids_is_taken_whole(seed: int) -> None:
    small, rng_small = _induced(10, seed)
    large, rng_large = _induced(100, seed)
    page_small = _shop_page(rng_small, "Kindred", 10)
    page_large = _shop_page(rng_large, "Kindred", 100)
    # Ninety more links (270 more elements) cost no more calls.
    assert _elem_calls(large, page_large) == _elem_calls(small, page_small)
    extraction = extract(large, page_large)
    assert extraction.matched
    assert "Kindred" in [v for values in extraction.fields.values() for v in values]


@pytest.mark.parametrize("seed", range(3))
def test_chrome_taken_whole_renders_as_the_page_had_it(seed: int) -> None:
    template, rng = _induced(12, seed)
    for title in TITLES[4:]:
        page = parse(_shop_page(rng, title, 12))
        assert render(template, extract(template, page)) == normalized_form(page)


def _badge_then_photos(depth: int) -> Template:
    """An optional badge (a link around a fixed image, ``depth`` levels
    down, its link a session id: chrome), then a list of photos, each as
    many levels down."""

    def nest(inner: Elem) -> Elem:
        for _ in range(depth):
            inner = Elem("span", {}, [inner])
        return Elem("div", {}, [inner])

    badge = nest(Elem("a", {"href": None}, [Elem("img", {"src": "/badge.gif"}, [])]))
    photo = Elem("img", {"src": None}, [])
    photos = Set([nest(photo)])
    template = Template(Elem("body", {}, [Opt(badge), photos]))
    photos.name = "photos"
    photo.names = {"src": "photo"}
    template.fields = [FieldInfo("photo", photo.uid, "src", set="photos")]
    return template


@pytest.mark.parametrize("depth", [1, 2, 4])
@pytest.mark.parametrize("photos", [1, 2, 5])
def test_a_look_alike_of_chrome_is_walked_for_its_data(photos: int, depth: int) -> None:
    """A photo where the badge could stand (the same tags down to it, no
    texts, one leaf: another tree) is no chrome: it is a photo."""
    template = _badge_then_photos(depth)
    assert template.root.children[0].child.uid in compiled(template).chrome.ends  # type: ignore[union-attr]
    nested = "<span>" * depth, "</span>" * depth
    items = "".join(
        f"<div>{nested[0]}<img src='/photos/{number}.jpg'>{nested[1]}</div>"
        for number in range(photos)
    )
    page = parse(f"<html><body>{items}</body></html>")
    extraction = extract(template, page)
    assert extraction.fields["photo"] == [f"/photos/{number}.jpg" for number in range(photos)]
    assert render(template, extraction) == normalized_form(page)
