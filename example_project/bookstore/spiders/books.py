"""Crawl the demo bookstore's catalogue and book pages, both designs.

The selectors are written by hand, once per design: this is the
maintenance scrapy-wrapx exists to remove. Labelled fields are found by
their label ("Publisher:"), which happens to survive the redesign; the rest
needs a selector for each design.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.http import Response

from bookstore.items import Book

#: The sections of the demo site: path prefix -> design name.
DESIGNS = {"": "original", "v2/": "redesigned"}


class BooksSpider(scrapy.Spider):
    """``scrapy crawl books -a base_url=http://127.0.0.1:8000/``"""

    name = "books"

    def __init__(self, base_url: str = "http://127.0.0.1:8000/", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for prefix, design in DESIGNS.items():
            yield scrapy.Request(
                f"{self.base_url}{prefix}catalogue/page-1.html",
                callback=self.parse_catalogue,
                cb_kwargs={"design": design},
            )

    def parse_catalogue(self, response: Response, design: str) -> Iterator[scrapy.Request]:
        """A catalogue page: every book, then the next page."""
        books = response.css("div.record h3 a::attr(href), li.product-card h3 a::attr(href)")
        kwargs = {"design": design}
        yield from response.follow_all(books.getall(), self.parse_book, cb_kwargs=kwargs)
        next_page = response.css(".pagination a.next::attr(href), .pager a.next::attr(href)")
        yield from response.follow_all(next_page.getall(), self.parse_catalogue, cb_kwargs=kwargs)

    def parse_book(self, response: Response, design: str) -> Iterator[Book]:
        authors = response.css("p.byline a::text, p.product-byline a::text").getall()
        yield Book(
            url=response.url,
            design=design,
            title=response.css("h1.title::text, h1.product-title::text").get(),
            authors=[name for name in authors if name],
            price=response.css("p.price::text, p.product-price span::text").get(),
            isbn=self.labelled(response, "ISBN-13:"),
            publisher=self.labelled(response, "Publisher:"),
            publication_date=self.labelled(response, "Publication date:"),
            rating=response.css("span.stars::text, span.score::text").get(),
            image=response.css("div.cover img::attr(src), figure img::attr(src)").get(),
            description=response.css(
                "div.description p::text, section.product-description p::text"
            ).get(),
        )

    @staticmethod
    def labelled(response: Response, label: str) -> str | None:
        """The value cell of a details-table row, by the row's label."""
        value = response.xpath(
            "//tr[th[normalize-space()=$label]]/td[last()]/text()", label=label
        ).get()
        return value.strip() if value else None
