"""A link about the page it is on (share it, mail it to a friend, log in
and come back, the page itself) is no data: its target holds the page's
address, escaped or not, or, on another site, the page's own id. Links to
other things (the author, a related book) stay fields."""

from __future__ import annotations

import random
from urllib.parse import quote

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.unsupervised.items import build_item

TITLES = ["Dune", "Emma", "Ubik", "Solaris", "Kindred", "Beloved"]
AUTHORS = ["frank-herbert", "jane-austen", "philip-k-dick", "octavia-butler"]


def _url(number: int) -> str:
    return f"http://shop.test/books/title-{number}/pd/{number}"


def _page(rng: random.Random, title: str, number: int) -> tuple[str, str]:
    url = _url(number)
    escaped = quote(url, safe="")
    shares = [
        f"http://www.facebook.com/sharer.php?u={escaped}&t={quote(title)}",
        f"http://twitter.com/home?status={quote('Found ' + title)}%20"
        f"{quote(f'http://shop.test/product?item_no={number}', safe='')}",
        f"http://mail.example.test/send?subject={quote(title)}&body={quote(quote(url, safe=''))}",
        f"https://login.shop.test/?done={escaped}",
        url,
    ]
    rng.shuffle(shares)
    links = "".join(
        f"<li><a href='{href}'><img src='/i/{n}.png'></a></li>" for n, href in enumerate(shares)
    )
    author = rng.choice(AUTHORS)
    related = rng.randrange(10_000, 99_999)
    tabs = "".join(f"<a href='{url}/{tab}'>{tab}</a> " for tab in ("reviews", "excerpt", "cover"))
    html = (
        f"<html><body><ul class='share'>{links}</ul><h1>{title}</h1><p>{tabs}</p>"
        f"<p class='by'><a href='/author/{author}'>{author.replace('-', ' ')}</a></p>"
        f"<a class='related' href='/books/other/pd/{related}'>Also: book {related}</a>"
        f"<p>Footer</p></body></html>"
    )
    return url, html


@pytest.mark.parametrize("seed", range(6))
def test_links_about_the_page_are_no_fields(seed: int) -> None:
    rng = random.Random(seed)
    numbers = rng.sample(range(100_000, 999_999), 6)
    seeds = [_page(rng, TITLES[i], numbers[i]) for i in range(5)]
    template = induce_template([html for _, html in seeds], urls=[url for url, _ in seeds])
    url, html = _page(rng, TITLES[5], numbers[5])
    item = build_item(None, url, "shop.test/books", 1, extract(template, html, url), template)
    text = str({k: v for k, v in item.items() if k != "url"})
    assert "facebook" not in text and "twitter" not in text and "login" not in text
    assert "mail.example" not in text and _url(numbers[5]) not in text
    assert "/author/" in text and "/books/other/pd/" in text
