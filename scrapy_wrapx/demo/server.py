"""Serve the demo bookstore over HTTP on 127.0.0.1, with the standard library.

The demo crawl and the end-to-end tests need a real HTTP site that needs no
network and no extra dependency: :class:`DemoServer` serves a
:class:`~scrapy_wrapx.demo.site.DemoSite` from a background thread:

* the original design under ``/`` and the redesigned one under ``/v2/``,
* ``/cover.png`` (any query string): a small binary PNG, and
* ``/feed.json``: a non-HTML JSON listing of the catalogue,

so a crawler meets the kinds of responses a real site sends, not only HTML.

>>> import urllib.request
>>> with DemoServer(build_site(books=3)) as server:
...     with urllib.request.urlopen(server.url + "v2/catalogue/page-1.html") as response:
...         response.headers["Content-Type"], b"product-card" in response.read()
('text/html; charset=utf-8', True)
"""

from __future__ import annotations

import json
import struct
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from scrapy_wrapx.demo.site import DemoSite, build_site

__all__ = ["REDESIGN_PREFIX", "DemoServer", "cover_png"]

#: Where the redesigned site is served.
REDESIGN_PREFIX = "/v2"


def cover_png(width: int = 4, height: int = 6) -> bytes:
    """A valid, tiny grey PNG image (built here: no binary file in the repo)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class _Routes:
    """Path -> (status, content type, body) for everything the server sends."""

    def __init__(self, site: DemoSite, redesigned: DemoSite) -> None:
        self.responses: dict[str, tuple[str, bytes]] = {}
        for path, html in site.pages.items():
            self.responses[path] = ("text/html; charset=utf-8", html.encode("utf-8"))
        for path, html in redesigned.pages.items():
            self.responses[REDESIGN_PREFIX + path] = (
                "text/html; charset=utf-8",
                html.encode("utf-8"),
            )
        self.responses["/cover.png"] = ("image/png", cover_png())
        feed = [
            {"title": book.title, "authors": book.authors, "isbn": book.isbn, "url": book.path}
            for book in site.books
        ]
        self.responses["/feed.json"] = (
            "application/json",
            json.dumps({"books": feed}, ensure_ascii=False, indent=1).encode("utf-8"),
        )

    def get(self, path: str) -> tuple[int, str, bytes, dict[str, str]]:
        if path == REDESIGN_PREFIX:
            return 301, "text/plain", b"", {"Location": REDESIGN_PREFIX + "/"}
        if path.endswith("/index.html"):
            path = path[: -len("index.html")]
        found = self.responses.get(path)
        if found is None:
            body = b"<html><body><h1>404 Not Found</h1></body></html>"
            return 404, "text/html; charset=utf-8", body, {}
        return 200, found[0], found[1], {}


class _Handler(BaseHTTPRequestHandler):
    server_version = "DemoBooks/1.0"
    routes: _Routes  # set on a subclass per server

    def do_GET(self) -> None:
        self._respond(send_body=True)

    def do_HEAD(self) -> None:
        self._respond(send_body=False)

    def _respond(self, *, send_body: bool) -> None:
        status, content_type, body, headers = self.routes.get(urlsplit(self.path).path)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        # A crawl makes many requests; stderr noise would hide its own log.
        pass


class DemoServer:
    """A :class:`DemoSite` served on ``host:port`` (port 0: a free one) from
    a daemon thread. Use it as a context manager; :attr:`url` ends with
    ``/``.

    ``site`` defaults to ``build_site(seed)`` and ``redesigned`` to the same
    catalogue in the second design.
    """

    def __init__(
        self,
        site: DemoSite | None = None,
        redesigned: DemoSite | None = None,
        *,
        seed: int = 0,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.site = site if site is not None else build_site(seed)
        if redesigned is None:
            redesigned = build_site(self.site.seed, redesigned=True, books=len(self.site.books))
        self.redesigned = redesigned
        handler = type("DemoHandler", (_Handler,), {"routes": _Routes(self.site, redesigned)})
        self._httpd = ThreadingHTTPServer((host, port), handler)
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        host = self._httpd.server_address[0]
        return f"http://{host!s}:{self.port}/"

    def start(self) -> DemoServer:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._httpd.serve_forever, name="demo-server", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
