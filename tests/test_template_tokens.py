"""Template, not data: per-page tokens (session ids, tracking parameters,
cache busters) in navigation do not make it a field.

Pages come from a generator of one family (a shop's product pages with a
menu and a footer whose links all carry a random per-page session token),
not from one hand-written page.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagetokens import MARK, normalize, page_tokens, tree_tokens
from scrapy_wrapx.template import normalized_form

MENU = ["Books", "Music", "Movies", "Toys", "Help", "Stores"]
FOOTER = ["Privacy", "Terms", "Careers"]


def _token(rng: random.Random) -> str:
    return "".join(rng.choice(string.digits) for _ in range(13))


def _hex(rng: random.Random, size: int = 24) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(size))


def shop_page(rng: random.Random, index: int, *, style: str = "query") -> tuple[str, str]:
    """One product page and its URL: a menu, a footer and a cart link whose
    URLs all carry this page's session token (``style``: as a query
    parameter, a path segment or a ``;jsessionid``), plus tracking
    parameters and a cache-busted stylesheet."""
    token = _token(rng) if style != "jsession" else _hex(rng).upper()

    def link(path: str) -> str:
        if style == "query":
            return f"http://shop.test/{path}?id={token}"
        if style == "path":
            return f"http://shop.test/{path}/{token}"
        return f"http://shop.test/{path};jsessionid={token}"

    menu = "".join(f'<li><a href="{link(m.lower())}">{m}</a></li>' for m in MENU)
    footer = "".join(f'<a href="{link(f.lower())}">{f}</a> ' for f in FOOTER)
    title = " ".join(rng.choice(["Red", "Blue", "Old", "New", "Deep", "Wild"]) for _ in range(3))
    price = f"{rng.randint(1, 90)}.{rng.randint(10, 99)}"
    weight = f"{rng.randint(100, 2000)} g"
    campaign = rng.choice(["spring", "fall", "news"])
    html = (
        f'<html><head><link rel="stylesheet" href="/s.css?_={rng.randint(10**9, 10**10)}">'
        f'</head><body><ul class="menu">{menu}</ul>'
        f'<a class="promo" href="http://shop.test/sale?utm_source={campaign}'
        f'&amp;utm_medium=web&amp;gclid={_hex(rng)}">Sale</a>'
        f'<div class="product"><h1>{title}</h1><span class="price">{price}</span>'
        f'<p class="weight">{weight}</p>'
        f'<a class="cart" href="{link("cart")}&amp;item={index}">Add to cart</a></div>'
        f'<div class="footer">{footer}</div></body></html>'
    )
    return html, f"http://shop.test/item/{index}"


def _induced(seed: int, style: str, count: int = 5) -> tuple[list[tuple[str, str]], object]:
    rng = random.Random(seed)
    pages = [shop_page(rng, n, style=style) for n in range(count + 3)]
    seeds = pages[:count]
    template = induce_template([h for h, _ in seeds], urls=[u for _, u in seeds])
    return pages, template


@pytest.mark.parametrize("style", ["query", "path", "jsession"])
@pytest.mark.parametrize("seed", range(4))
def test_session_tokens_in_every_link_are_template(seed: int, style: str) -> None:
    pages, template = _induced(seed, style)
    for html, url in pages[5:]:
        extraction = extract(template, html, url)  # type: ignore[arg-type]
        values = [v for vs in extraction.fields.values() for v in vs]
        # Navigation and tracking links are no fields: nothing of the menu,
        # the footer or the promo is extracted.
        assert not [v for v in values if "shop.test/" in v and "cart" not in v], values
        assert extraction.matched
        # The data is: the title, the price and the weight with its unit.
        assert any(v.endswith(" g") for v in values), values
        assert len([v for v in values if "shop.test/" in v]) <= 1  # the cart link


@pytest.mark.parametrize("style", ["query", "path", "jsession"])
def test_seeds_stay_lossless(style: str) -> None:
    pages, template = _induced(7, style)
    for html, url in pages[:5]:
        tree = dom.parse(html, url)
        extraction = extract(template, tree)  # type: ignore[arg-type]
        assert render(template, extraction) == normalized_form(tree)  # type: ignore[arg-type]


def test_page_tokens_are_found_per_page() -> None:
    rng = random.Random(3)
    html, url = shop_page(rng, 1)
    tokens = tree_tokens(dom.parse(html, url))
    assert len(tokens) == 1
    (token,) = tokens
    assert f"?id={token}" in html


@settings(max_examples=50, deadline=None)
@given(
    token=st.text(alphabet=string.ascii_letters + string.digits, min_size=8, max_size=32).filter(
        lambda t: any(c.isdigit() for c in t)
    ),
    paths=st.lists(st.sampled_from(["a", "b/c", "d", "e/f/g", "h", "i"]), min_size=4, unique=True),
)
def test_a_token_in_most_urls_is_normalised_away(token: str, paths: list[str]) -> None:
    urls = [f"/{path}?s={token}" for path in paths]
    tokens = page_tokens(urls)
    assert token in tokens
    assert {normalize(url, tokens) for url in urls} == {f"/{p}?s={MARK}" for p in paths}


def test_a_token_in_few_urls_is_data() -> None:
    """A book's ISBN in its cover and cart links is no session id."""
    isbn = "9780316125581"
    urls = [f"/nav/{n}" for n in range(20)] + [f"/covers/{isbn}.jpg", f"/cart?isbn={isbn}"]
    assert page_tokens(urls) == frozenset()


def test_tracking_parameters_are_normalised_by_name() -> None:
    a = "/p?utm_source=mail&utm_campaign=x1&fbclid=IwAR0&q=1"
    b = "/p?utm_source=feed&utm_campaign=y2&fbclid=IwAR9&q=1"
    assert normalize(a, frozenset()) == normalize(b, frozenset())
    assert normalize("/p?q=1", frozenset()) == "/p?q=1"
