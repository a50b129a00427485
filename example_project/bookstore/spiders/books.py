"""Crawl the demo bookstore, then its redesign, without touching a selector.

The spider declares three targets — ``title`` by XPath, ``price`` by CSS,
``isbn`` by an example value copied from one book page — and yields items
holding nothing but the page's URL: scrapy-wrapx fills the targets. The
selectors are written for the original design. The spider crawls that first,
so scrapy-wrapx takes its references there, and only once it is done the
redesigned copy under ``/v2/``, where every declared selector breaks: the
targets middleware relocates the fields, reports a confidence, and after a
few consistent relocations repairs the stored selectors.

Meanwhile the add-on's unsupervised mode groups the pages it sees into
page kinds, induces each kind's template, and emits one variant-data item
per page next to the spider's own items.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any, ClassVar

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider
from scrapy.http import Response

from bookstore.items import Book
from scrapy_wrapx import Target

#: The demo site's two designs: path prefix -> design name, crawled in order.
DESIGNS = {"": "original", "v2/": "redesigned"}


class BooksSpider(scrapy.Spider):
    """``scrapy crawl books -a base_url=http://127.0.0.1:8000/``"""

    name = "books"

    wrapx_targets: ClassVar[dict[str, str | Target]] = {
        # Single values: these selectors could select several nodes, so
        # the spider says it wants one (else the field is a list).
        "title": Target(xpath="//h1[@class='title']/text()", many=False),
        "price": Target(css="p.price::text", many=False),
        # The ISBN shown on the first book page of the demo site (seed 0);
        # its reference is taken from the first page where it is found.
        "isbn": Target(example="9784876475933"),
    }

    def __init__(self, base_url: str = "http://127.0.0.1:8000/", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self._designs = list(DESIGNS.items())

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> BooksSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.next_design, signal=signals.spider_idle)
        return spider

    async def start(self) -> AsyncIterator[scrapy.Request]:
        yield self._catalogue_request()

    def next_design(self) -> None:
        """Once a design is crawled, crawl the next one (on ``spider_idle``),
        so the targets' references come from the original design."""
        if not self._designs:
            return
        assert self.crawler.engine is not None
        self.crawler.engine.crawl(self._catalogue_request())
        raise DontCloseSpider

    def _catalogue_request(self) -> scrapy.Request:
        prefix, design = self._designs.pop(0)
        self.logger.info("Crawling the %s design under %s%s", design, self.base_url, prefix)
        return scrapy.Request(
            f"{self.base_url}{prefix}catalogue/page-1.html",
            callback=self.parse_catalogue,
            cb_kwargs={"design": design},
        )

    def parse_catalogue(self, response: Response, design: str) -> Iterator[scrapy.Request]:
        """A catalogue page: every book, then the other catalogue pages.

        Links are found by what both designs share (record titles are ``h3``
        links, pages are ``page-N.html``), not by the markup that changes.
        Books are requested in catalogue order (Scrapy's default queue is
        last in, first out within a priority), so the first book, the one the
        ``isbn`` example comes from, is among the first pages seen.
        """
        kwargs = {"design": design}
        books = response.xpath("//h3/a/@href").getall()
        for position, href in enumerate(books):
            yield response.follow(
                href, self.parse_book, cb_kwargs=kwargs, priority=len(books) - position
            )
        pages = response.xpath("//a[contains(@href, 'page-')]/@href").getall()
        yield from response.follow_all(pages, self.parse_catalogue, cb_kwargs=kwargs)

    def parse_book(self, response: Response, design: str) -> Iterator[Book]:
        yield Book(url=response.url, design=design)
