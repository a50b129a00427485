"""Pages for ``scrapy wrapx``: HTML files, directories of them, or URLs.

URLs are downloaded with Scrapy itself (one small crawl with the project's
settings: user agent, proxies, throttling), not with another HTTP client, so
the pages are the ones a crawl would get.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy_wrapx import dom
from scrapy_wrapx.commands._progress import Progress

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

_BASE = re.compile(rb"<base\s[^>]*href\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
_SUFFIXES = (".html", ".htm", ".xhtml")


@dataclass
class Page:
    """One page: where it came from, its URL and its HTML."""

    source: str
    url: str
    html: str


def read_page_file(path: Path) -> Page:
    """A saved page; a ``<base href>`` near the top (as saved pages and SWDE
    have) gives its URL, else the file's own URL."""
    data = path.read_bytes()
    match = _BASE.search(data[:4096])
    url = match.group(1).decode("utf-8", "replace") if match else path.resolve().as_uri()
    return Page(str(path), url, dom.decode_html(data))


def load_pages(sources: list[str], settings: BaseSettings, crawler_process: Any) -> list[Page]:
    """Pages of ``sources`` in order (a directory's pages sorted by name)."""
    pages: list[Page | str] = []
    for source in sources:
        if source.startswith(("http://", "https://")):
            pages.append(source)
            continue
        path = Path(source)
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix.lower() in _SUFFIXES)
            if not files:
                raise ValueError(f"No .html/.htm files in directory {source!r}")
            pages.extend(read_page_file(p) for p in files)
        elif path.is_file():
            pages.append(read_page_file(path))
        else:
            raise ValueError(f"Not a file, directory or http(s) URL: {source!r}")
    urls = [p for p in pages if isinstance(p, str)]
    if urls:
        fetched = fetch(urls, crawler_process)
        pages = [fetched[p] if isinstance(p, str) else p for p in pages]
    return [p for p in pages if isinstance(p, Page)]


def fetch(urls: list[str], crawler_process: Any) -> dict[str, Page]:
    """Download ``urls`` in one crawl; fails naming the URLs it could not get."""
    from scrapy import Request, Spider

    if crawler_process is None:
        raise ValueError(f"Cannot download {urls[0]!r}: no crawler process")
    got: dict[str, Page] = {}
    progress = Progress("downloading", len(urls))

    class WrapxFetchSpider(Spider):
        name = "wrapx_fetch"
        custom_settings = {"ADDONS": {}}  # noqa: RUF012 - Scrapy reads a dict here

        async def start(self) -> Any:
            for url in urls:
                yield Request(
                    url, callback=self.got, dont_filter=True, meta={"wrapx": False, "source": url}
                )

        def got(self, response: Any) -> None:
            progress.advance()
            source = response.meta["source"]
            got[source] = Page(source, response.url, response.text)

    crawler_process.crawl(WrapxFetchSpider)
    crawler_process.start()
    progress.close()
    missing = [url for url in urls if url not in got]
    if missing:
        raise ValueError(f"Could not download {len(missing)} page(s), first {missing[0]!r}")
    return got
