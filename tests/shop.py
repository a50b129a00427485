"""A generated shop, in two designs, for the targets tests and the
calibration of the locator's confidence (:mod:`benchmarks.calibrate`).

Not one page but a family: every product page draws its variants table
(0, 1 or several rows), its reviews (0, 1 or several), an optional sale
badge with a struck-through old price; the redesign renders the same
products with new markup (:func:`_redesigned_page`).
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import scrapy

from scrapy_wrapx import Target

PAGES = 40
NAMES = ["Anna", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun"]
BRANDS = ["Acme", "Borel", "Cato", "Dimo"]
COLOURS = ["red", "blue", "green", "black", "white"]


@dataclass
class Product:
    """One product page and the values a spider should get from it."""

    path: str
    truth: dict[str, Any]
    html: str


def _variants(rng: random.Random) -> list[tuple[str, str]]:
    count = rng.choice([0, 1, 1, 2, 3, 5])
    colours = rng.sample(COLOURS, count)
    return [(colour, f"${rng.randint(5, 90)}.{rng.randint(0, 99):02d}") for colour in colours]


def _reviews(rng: random.Random) -> list[tuple[str, str]]:
    count = rng.choice([0, 1, 1, 2, 4, 6])
    words = ["good", "fine", "great", "solid", "meh", "sturdy", "light", "handy"]
    return [
        (rng.choice(NAMES), " ".join(rng.choices(words, k=rng.randint(2, 30))))
        for _ in range(count)
    ]


def _product(number: int, rng: random.Random, redesigned: bool = False) -> Product:
    name = f"Widget {rng.choice(['Pro', 'Mini', 'Max', 'Air'])} {number}"
    sku = f"HO-{rng.randint(10000, 99999)}"
    brand = BRANDS[number % len(BRANDS)]
    price = f"${rng.randint(10, 200)}.{rng.randint(0, 99):02d}"
    sale = rng.random() < 0.4
    old = f"${rng.randint(201, 300)}.00" if sale else None
    variants, reviews = _variants(rng), _reviews(rng)
    truth = {
        "name": name,
        "price": price,
        "old_price": old,
        "sale": "Sale" if sale else None,
        "variant_prices": [p for _, p in variants],
        "variant_colours": [c for c, _ in variants],
        "reviewers": [who for who, _ in reviews],
        "sku": sku,
        "brand": brand,
    }
    render = _redesigned_page if redesigned else _page
    html = render(number, truth, variants, reviews, random.Random(f"layout-{number}"))
    return Product(f"/product/{number}.html", truth, html)


def _page(
    number: int,
    truth: dict[str, Any],
    variants: list[tuple[str, str]],
    reviews: list[tuple[str, str]],
    rng: random.Random,
) -> str:
    """The shop's first design."""
    name, price, old, sale = truth["name"], truth["price"], truth["old_price"], truth["sale"]
    rows = "".join(f'<tr><td class="name">{c}</td><td>{p}</td></tr>' for c, p in variants)
    items = "".join(
        f'<li><span class="reviewer">{who}</span><p class="text">{text}</p></li>'
        for who, text in reviews
    )
    return f"""<html><head><title>{name}</title></head><body>
<div class="top"><a href="/">Shop</a> &gt; <a href="/">Widgets</a></div>
<div class="page"><div class="main">
<h1>{name}</h1>
{'<span class="badge">Sale</span>' if sale else ""}
<p class="price">{f"<s>{old}</s> " if sale else ""}<span class="now">{price}</span></p>
<ul class="specs"><li><b>Brand:</b> <span>{truth["brand"]}</span></li>
<li><b>SKU:</b> <span>{truth["sku"]}</span></li><li><b>Weight:</b> {number * 10} g</li></ul>
<h2>Variants</h2>
<table class="variants"><thead><tr><th>Colour</th><th>Price</th></tr></thead>
<tbody>{rows}</tbody></table>
<h2>Reviews ({len(reviews)})</h2>
<ul class="reviews">{items}</ul>
</div></div>
<div class="footer"><p>Widget shop, since 1999</p></div>
</body></html>"""


COUNTRIES = ["Germany", "Italy", "Japan", "Mexico"]
MATERIALS = ["Steel", "Oak", "Cotton", "Brass"]


def _redesigned_page(
    number: int,
    truth: dict[str, Any],
    variants: list[tuple[str, str]],
    reviews: list[tuple[str, str]],
    rng: random.Random,
) -> str:
    """The shop after a redesign: new classes and wrappers, the old price
    struck through *before* the price, a promo heading of the title's tag
    on some pages, the specs as a table with new rows (a country before
    the brand), the variants as divs, the reviews as a section that is
    missing when there are none."""
    name, price, old, sale = truth["name"], truth["price"], truth["old_price"], truth["sale"]
    promo = (
        f'<h1 class="promo">Members save {rng.randint(5, 30)}%</h1>' if rng.random() < 0.5 else ""
    )
    badge = '<em class="flag">Sale</em>' if sale else ""
    was = f'<del class="was">{old}</del> ' if old else ""
    specs = [
        ("Country", rng.choice(COUNTRIES)),
        ("Brand", truth["brand"]),
        ("Material", rng.choice(MATERIALS)),
        ("SKU", truth["sku"]),
        ("Weight", f"{number * 10} g"),
    ]
    spec_rows = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in specs)
    options = "".join(
        f'<div class="opt"><span class="c">{c}</span> <span class="p">{p}</span></div>'
        for c, p in variants
    )
    cards = "".join(
        f'<div class="rv"><strong class="by">{who}</strong><p>{text}</p></div>'
        for who, text in reviews
    )
    review_block = (
        f'<section class="reviews"><h3>Customer reviews</h3>{cards}</section>'
        if reviews
        else '<p class="none">Be the first to review this widget</p>'
    )
    return f"""<html><head><title>{name} | Widget shop</title></head><body>
<nav class="crumbs"><a href="/">Shop</a> / <a href="/">Widgets</a></nav>
<main><div class="product-wrap"><div class="head">
{promo}<h1 class="title">{name}</h1>{badge}</div>
<div class="buy">{was}<b class="current">{price}</b> <button>Add to cart</button></div>
<table class="facts">{spec_rows}</table>
<div class="options"><h4>Options</h4>{options}</div>
{review_block}
</div></main>
<footer><p>Widget shop, since 1999</p></footer>
</body></html>"""


def build_shop(seed: int, redesigned: bool = False) -> tuple[dict[str, Product], str]:
    """The product pages by path, and an index page linking them in a
    random order (the same products and order in either design)."""
    rng = random.Random(seed)
    products = {p.path: p for p in (_product(n, rng, redesigned) for n in range(PAGES))}
    links = list(products)
    rng.shuffle(links)
    index = "<html><body>" + "".join(f'<a href="{link}">x</a>' for link in links) + "</body></html>"
    return products, index


#: What the shop spider declares: lists and single values by XPath, CSS
#: and example (the examples are filled in by :func:`shop_targets`).
def shop_targets(sku: str, brand: str) -> dict[str, Target]:
    return {
        "name": Target(xpath="//h1/text()", many=False),
        "price": Target(css="p.price span.now::text", many=False),
        "old_price": Target(xpath="//p[@class='price']/s/text()", many=False),
        "sale": Target(css="span.badge::text", many=False),
        "variant_prices": Target(xpath="//table[@class='variants']/tbody/tr/td[2]/text()"),
        "variant_colours": Target(css="table.variants td.name::text"),
        "reviewers": Target(css="span.reviewer::text"),
        "sku": Target(example=sku),
        "brand": Target(example=brand),
    }


def shop_spider(sku: str, brand: str) -> type[scrapy.Spider]:
    """The spider of the shop tests: it follows the index's links and
    yields ``{"url": ...}`` per product; the targets middleware fills the
    rest."""

    class ShopSpider(scrapy.Spider):
        name = "shop"
        custom_settings = {  # noqa: RUF012 (Scrapy declares it an instance variable)
            "ADDONS": {"scrapy_wrapx.Addon": 0},
            "WRAPX_SEEDS_ENABLED": False,
            "WRAPX_INDUCTION_ENABLED": False,
        }
        wrapx_targets: ClassVar[dict[str, Any]] = shop_targets(sku, brand)

        def __init__(self, base_url: str, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.start_urls = [base_url + "/"]

        def parse(self, response: scrapy.http.Response) -> Iterator[Any]:
            for priority, href in enumerate(response.css("a::attr(href)").getall()):
                yield response.follow(href, self.parse_product, priority=priority % 7)

        def parse_product(self, response: scrapy.http.Response) -> Iterator[dict[str, Any]]:
            yield {"url": response.url}

    return ShopSpider


class ShopServer(ThreadingHTTPServer):
    """Serves ``pages`` (path -> HTML) on 127.0.0.1; set them any time."""

    pages: dict[str, str]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: ShopServer

    def do_GET(self) -> None:
        body = self.server.pages.get(self.path)
        self.send_response(200 if body is not None else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write((body or "not found").encode())

    def log_message(self, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serving(pages: dict[str, str] | None = None) -> Iterator[ShopServer]:
    """A :class:`ShopServer` running in a thread for the ``with`` block."""
    server = ShopServer(("127.0.0.1", 0), _Handler)
    server.pages = dict(pages or {})
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
