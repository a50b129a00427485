"""``python -m benchmarks sites``: the crawl's memory over many sites.

A crawl of hundreds of sites with a few pages each keeps per-site state:
page kinds, seed counts, templates, pages buffered while a kind waits for
its template, and kinds that never get one (a site's home page is a kind of
one page). This benchmark shows that state is bounded:

* a server process on 127.0.0.1 acts as the HTTP proxy of the crawl
  (``http_proxy``, honoured by Scrapy's ``HttpProxyMiddleware``) and serves
  ``--sites`` generated shops under distinct hosts, ``site0.test``,
  ``site1.test``...: a home page linking ``--pages - 1`` product pages
  (:func:`site_page`). Each site has its own markup (wrappers, tags, the
  order of blocks), so each gets its own kinds and templates;
* a spider that follows links crawls them all, :data:`SITES_AT_ONCE` at
  a time (the next site's home page requested when a site's last page is
  in), **without** the add-on and
  **with** only ``ADDONS = {"scrapy_wrapx.Addon": 0}`` (a fresh SQLite store
  each time), alternating, ``--repeat`` times each, each crawl in a fresh
  process;
* in the crawl's process a thread samples the resident set (``VmRSS`` of
  ``/proc``) of the process and of its page workers every few milliseconds;
  the process also notes its RSS each time another hundred sites are
  crawled (all their pages received).

Reported, as medians per mode: the peak RSS of the crawl's process and of
its page workers; the RSS after 100, 200... sites and the growth per site
from the first hundred on (KB per site); and the peak of the close (from
the first ``spider_idle``, when the buffered pages are flushed, to the
spider's close); the seconds, and the CPU seconds of the crawl's process
(the sampling thread included, in both modes) and of its page workers:
where a crawl of many sites spends its time. Goals (exit status 1 when one fails): the peak RSS of the
crawl's process with the add-on at most 1.5 times the one without, and its
growth per site after the first hundred at most :data:`FLAT_KB_PER_SITE`
KB above the one without (the page workers' likewise, against nothing).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchmarks._subprocess import run_json
from tests.linkcrawl import CRAWL_SETTINGS

#: Peak RSS of the crawl's process with the add-on, over the one without.
PEAK_RATIO_GOAL = 1.5
#: Growth per site after the first hundred, in KB, allowed above the crawl
#: without the add-on (noise: a resident set moves by pages of 4 KB and by
#: the allocator's arenas, a few hundred KB at a time).
FLAT_KB_PER_SITE = 5.0
#: Seconds between two samples of the resident sets.
SAMPLE_INTERVAL = 0.01
#: Sites between two notes of the RSS.
MILESTONE = 100
#: Sites crawled at a time (see ``SitesSpider``).
SITES_AT_ONCE = 16

_HOST = re.compile(r"^site(\d+)\.test$")

# Pages --------------------------------------------------------------------

WORDS = [
    "sturdy",
    "light",
    "handy",
    "compact",
    "quiet",
    "fast",
    "precise",
    "durable",
    "classic",
    "modern",
    "steel",
    "oak",
    "brass",
    "cotton",
    "matte",
    "glossy",
    "wireless",
    "portable",
    "premium",
    "basic",
]
TAGS = ("div", "section", "article", "main")


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choices(WORDS, k=rng.randint(low, high)))


class SiteStyle:
    """The markup of one site: how its pages wrap, order and tag their
    blocks, drawn from the site's number."""

    def __init__(self, site: int) -> None:
        rng = random.Random(f"style-{site}")
        self.prefix = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=3))
        self.wrappers = [rng.choice(TAGS) for _ in range(rng.randint(0, 3))]
        self.block = rng.choice(TAGS)
        self.specs_as = rng.choice(("table", "ul", "dl"))
        self.order = rng.sample(("price", "specs", "description", "reviews"), 4)
        self.menu = rng.randint(20, 60)
        self.footer_columns = rng.randint(3, 6)
        self.brand = f"{self.prefix.title()} Store"


def _specs(style: SiteStyle, specs: list[tuple[str, str]]) -> str:
    p = style.prefix
    if style.specs_as == "table":
        rows = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in specs)
        return f'<table class="{p}-specs">{rows}</table>'
    if style.specs_as == "ul":
        rows = "".join(f"<li><b>{k}:</b> <span>{v}</span></li>" for k, v in specs)
        return f'<ul class="{p}-specs">{rows}</ul>'
    rows = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in specs)
    return f'<dl class="{p}-specs">{rows}</dl>'


def _chrome(style: SiteStyle, title: str, body: str) -> str:
    """A page of the site, about 15 KB as shops' pages are: head with a
    script, a menu of submenus, ``body`` in the site's wrappers, a footer
    of link columns."""
    p = style.prefix
    menu = "".join(
        f'<li><a href="#c{n}">{WORDS[n % len(WORDS)].title()} {n}</a><ul>'
        + "".join(f'<li><a href="#c{n}-{m}">{WORDS[m].title()}</a></li>' for m in range(3))
        + "</ul></li>"
        for n in range(style.menu)
    )
    columns = "".join(
        f'<div class="{p}-col"><h4>{WORDS[n].title()}</h4><ul>'
        + "".join(
            f'<li><a href="#f{n}-{m}">{WORDS[(n + m) % len(WORDS)]}</a></li>' for m in range(10)
        )
        + "</ul></div>"
        for n in range(style.footer_columns)
    )
    script = json.dumps({"shop": style.brand, "menu": [WORDS[n % 20] for n in range(300)]})
    opened = "".join(f'<{tag} class="{p}-w{n}">' for n, tag in enumerate(style.wrappers))
    closed = "".join(f"</{tag}>" for tag in reversed(style.wrappers))
    return (
        f"<html><head><title>{title} | {style.brand}</title>"
        f'<meta charset="utf-8"><script>var shop = {script};</script></head><body>'
        f'<header class="{p}-top"><a href="/">{style.brand}</a><nav><ul>{menu}</ul></nav></header>'
        f"{opened}{body}{closed}"
        f'<footer class="{p}-foot">{columns}<p>{style.brand}, since 1999</p></footer>'
        "</body></html>"
    )


def product_page(site: int, number: int, pages: int) -> str:
    """Product ``number`` of ``site``: the site's markup, the product's data."""
    style = SiteStyle(site)
    rng = random.Random(f"product-{site}-{number}")
    p = style.prefix
    name = (
        f"{rng.choice(['Widget', 'Gadget', 'Gizmo'])} {rng.choice(['Pro', 'Mini', 'Air'])} {number}"
    )
    price = f"${rng.randint(10, 200)}.{rng.randint(0, 99):02d}"
    sale = rng.random() < 0.4
    specs = [
        ("Brand", rng.choice(["Acme", "Borel", "Cato", "Dimo"])),
        ("SKU", f"{p.upper()}-{rng.randint(10000, 99999)}"),
        ("Weight", f"{rng.randint(1, 90) * 10} g"),
        ("Colour", rng.choice(["red", "blue", "green", "black"])),
    ]
    reviews = "".join(
        f'<li><span class="{p}-by">{rng.choice(["Anna", "Ben", "Chloe", "Dev"])}</span>'
        f"<p>{_words(rng, 5, 40)}</p></li>"
        for _ in range(rng.choice([0, 1, 2, 4, 6]))
    )
    blocks = {
        "price": f'<p class="{p}-price">{"<s>$299.00</s> " if sale else ""}<span>{price}</span></p>',
        "specs": _specs(style, specs),
        "description": "".join(f"<p>{_words(rng, 30, 90)}</p>" for _ in range(rng.randint(2, 5))),
        "reviews": f'<h2>Reviews</h2><ul class="{p}-reviews">{reviews}</ul>',
    }
    related = "".join(
        f'<li><a href="/product/{n}.html">Product {n}</a></li>'
        for n in rng.sample(range(1, pages), min(4, pages - 1))
    )
    body = (
        f'<{style.block} class="{p}-product"><h1>{name}</h1>'
        + "".join(blocks[block] for block in style.order)
        + f'<div class="{p}-related"><h3>Related</h3><ul>{related}</ul></div></{style.block}>'
    )
    return _chrome(style, name, body)


def home_page(site: int, pages: int) -> str:
    """The home page of ``site``: links to its ``pages - 1`` products."""
    style = SiteStyle(site)
    links = "".join(
        f'<li><a href="/product/{n}.html">Product {n}</a></li>' for n in range(1, pages)
    )
    body = f'<div class="{style.prefix}-home"><h1>{style.brand}</h1><ul>{links}</ul></div>'
    return _chrome(style, "Home", body)


def site_page(url: str, pages: int) -> str | None:
    """The page at ``url`` (``http://site<n>.test/...``), None if none."""
    parts = urlsplit(url)
    host = _HOST.match(parts.hostname or "")
    if host is None:
        return None
    site = int(host.group(1))
    if parts.path == "/":
        return home_page(site, pages)
    product = re.fullmatch(r"/product/(\d+)\.html", parts.path)
    if product is not None and 1 <= int(product.group(1)) < pages:
        return product_page(site, int(product.group(1)), pages)
    return None


# Server -------------------------------------------------------------------


def serve(pages: int, port: int) -> None:
    """Answer proxy requests for the generated sites until killed; prints
    the proxy's URL first."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        # Headers and body in one write: apart, the client's delayed ACK
        # holds every response for 40 ms.
        wbufsize = 1 << 16

        def do_GET(self) -> None:
            url = self.path
            if not url.startswith("http"):  # not proxied: the Host header says where
                url = f"http://{self.headers.get('Host', '')}{url}"
            page = site_page(url, pages)
            body = (page or "").encode("utf-8")
            self.send_response(200 if page is not None else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        request_queue_size = 128  # see benchmarks.crawl
        daemon_threads = True

    server = Server(("127.0.0.1", port), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


# Resident sets ------------------------------------------------------------


def _status_kb(pid: int | str, field: str) -> int:
    """A ``kB`` field of ``/proc/<pid>/status`` (0 when the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (its page workers)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
                found.extend(int(child) for child in f.read().split())
    return found


class Sampler:
    """Samples the RSS of this process and of its children in a thread,
    keeping the peaks of each phase of the crawl (``crawl``, ``close``)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.phase = "crawl"
        self.peaks: dict[str, dict[str, int]] = {}
        self.worker_hwm = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.sample()
        self._stop.set()
        self._thread.join()

    def sample(self) -> None:
        own = _status_kb(self.pid, "VmRSS")
        children = _children(self.pid)
        workers = sum(_status_kb(child, "VmRSS") for child in children)
        peaks = self.peaks.setdefault(self.phase, {"crawl_kb": 0, "workers_kb": 0})
        peaks["crawl_kb"] = max(peaks["crawl_kb"], own)
        peaks["workers_kb"] = max(peaks["workers_kb"], workers)
        hwm = sum(_status_kb(child, "VmHWM") for child in children)
        self.worker_hwm = max(self.worker_hwm, hwm)

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_INTERVAL):
            self.sample()


# One crawl (in its own process) -------------------------------------------


class _Progress:
    """Sites crawled (all their pages received), and the RSS every
    :data:`MILESTONE` of them; the close starts at the first idle."""

    def __init__(self, sampler: Sampler, pages: int) -> None:
        self.sampler = sampler
        self.pages = pages
        self.received: dict[str, int] = {}
        self.done = 0
        self.milestones: list[dict[str, int]] = []

    def response_received(self, response: Any) -> None:
        host = urlsplit(response.url).hostname or ""
        count = self.received[host] = self.received.get(host, 0) + 1
        if count != self.pages:
            return
        self.done += 1
        if self.done % MILESTONE == 0:
            pid = self.sampler.pid
            self.milestones.append(
                {
                    "sites": self.done,
                    "crawl_kb": _status_kb(pid, "VmRSS"),
                    "workers_kb": sum(_status_kb(c, "VmRSS") for c in _children(pid)),
                }
            )

    def spider_idle(self) -> None:
        self.sampler.sample()
        self.sampler.phase = "close"


def run_sites_crawl(
    sites: int, pages: int, proxy: str, addon: bool, settings: dict[str, Any]
) -> dict[str, Any]:
    """Crawl the generated sites through ``proxy``; memory figures and stats."""
    os.environ["http_proxy"] = proxy
    os.environ.pop("no_proxy", None)
    os.environ.pop("NO_PROXY", None)
    from scrapy import Request, Spider, signals
    from scrapy.crawler import CrawlerProcess
    from scrapy.http import HtmlResponse

    received: dict[str, int] = {}  # pages per host
    opened = [min(SITES_AT_ONCE, sites)]  # sites whose home page was requested

    class SitesSpider(Spider):
        """Follows every link to a generated site; yields nothing itself.

        :data:`SITES_AT_ONCE` sites are crawled at a time, the next one's
        home page requested when a site's last page is in: the RSS after
        each hundred sites needs sites that end one after another. (All
        home pages up front, Scrapy fetched them first, and every site
        ended in the crawl's last seconds, whatever their priority.)"""

        name = "wrapx_sites"

        async def start(self) -> Any:
            for site in range(opened[0]):
                yield Request(f"http://site{site}.test/")

        def parse(self, response: Any) -> Any:
            host = urlsplit(response.url).hostname or ""
            count = received[host] = received.get(host, 0) + 1
            if count == pages and opened[0] < sites:
                yield Request(f"http://site{opened[0]}.test/")
                opened[0] += 1
            # Product links only: a LinkExtractor's cost on the menus'
            # hundreds of links would be most of the crawl.
            if isinstance(response, HtmlResponse):
                for href in response.xpath('//a[starts-with(@href, "/product/")]/@href').getall():
                    yield Request(response.urljoin(href), priority=1)

    sampler = Sampler()
    progress = _Progress(sampler, pages)
    all_settings = {**CRAWL_SETTINGS, **settings}
    if addon:
        all_settings["ADDONS"] = {"scrapy_wrapx.Addon": 0}
    process = CrawlerProcess(settings=all_settings)
    crawler = process.create_crawler(SitesSpider)
    crawler.signals.connect(progress.response_received, signals.response_received, weak=False)
    crawler.signals.connect(progress.spider_idle, signals.spider_idle, weak=False)
    crawler.signals.connect(sampler.sample, signals.spider_closed, weak=False)
    sampler.start()
    started = time.monotonic()
    cpu_started = time.process_time()
    process.crawl(crawler)
    process.start()
    cpu_seconds = time.process_time() - cpu_started
    sampler.stop()
    assert crawler.stats is not None
    stats = crawler.stats.get_stats()
    result: dict[str, Any] = {k: v for k, v in stats.items() if isinstance(v, (int, float, str))}
    result.update(
        seconds=time.monotonic() - started,
        cpu_seconds=cpu_seconds,
        sites_crawled=progress.done,
        peak_crawl_kb=_status_kb(sampler.pid, "VmHWM"),
        peak_workers_kb=sampler.worker_hwm,
        phases=sampler.peaks,
        milestones=progress.milestones,
    )
    return result


# Figures ------------------------------------------------------------------


def kb_per_site(milestones: list[dict[str, int]], key: str) -> float:
    """Growth of ``key``'s RSS per site from the first milestone on (KB)."""
    if len(milestones) < 2:
        return 0.0
    first, last = milestones[0], milestones[-1]
    return (last[key] - first[key]) / (last["sites"] - first["sites"])


def summary(runs: list[dict[str, Any]]) -> dict[str, float]:
    """The medians of one mode's crawls."""

    def median(values: list[float]) -> float:
        return statistics.median(values) if values else 0.0

    return {
        "peak_crawl_mb": median([r["peak_crawl_kb"] / 1024 for r in runs]),
        "peak_workers_mb": median([r["peak_workers_kb"] / 1024 for r in runs]),
        "close_peak_crawl_mb": median(
            [r["phases"].get("close", {}).get("crawl_kb", 0) / 1024 for r in runs]
        ),
        "crawl_peak_before_close_mb": median(
            [r["phases"].get("crawl", {}).get("crawl_kb", 0) / 1024 for r in runs]
        ),
        "crawl_kb_per_site": median([kb_per_site(r["milestones"], "crawl_kb") for r in runs]),
        "workers_kb_per_site": median([kb_per_site(r["milestones"], "workers_kb") for r in runs]),
        "seconds": median([r["seconds"] for r in runs]),
        "cpu_seconds": median([r.get("cpu_seconds", 0.0) for r in runs]),
        "worker_cpu_seconds": median([r.get("worker_cpu_seconds", 0.0) for r in runs]),
        "items": median([r.get("item_scraped_count", 0) for r in runs]),
    }


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    if args_list[:1] == ["serve"]:
        serve(int(args_list[1]), int(args_list[2]) if len(args_list) > 2 else 0)
        return 0
    if args_list[:1] == ["_crawl"]:
        from benchmarks.crawl import worker_cpu_seconds

        spec = json.loads(args_list[1])
        result = run_sites_crawl(**spec)
        result["worker_cpu_seconds"] = worker_cpu_seconds()
        print(json.dumps(result))
        return 0
    parser = argparse.ArgumentParser(prog="python -m benchmarks sites")
    parser.add_argument("--sites", type=int, default=500, help="sites (distinct hosts)")
    parser.add_argument("--pages", type=int, default=10, help="pages per site, home included")
    parser.add_argument("--repeat", type=int, default=2, help="crawls per mode")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "-s", dest="set", action="append", default=[], help="NAME=VALUE: a setting of both modes"
    )
    args = parser.parse_args(args_list)
    extra = dict(item.split("=", 1) for item in args.set)

    server = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.sites", "serve", str(args.pages), "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    runs: dict[str, list[dict[str, Any]]] = {"without": [], "with": []}
    try:
        assert server.stdout is not None
        proxy = server.stdout.readline().strip()
        with tempfile.TemporaryDirectory() as tmp:
            for repeat in range(args.repeat):
                for mode in ("without", "with"):
                    store = Path(tmp) / f"store-{repeat}.sqlite3"
                    spec = {
                        "sites": args.sites,
                        "pages": args.pages,
                        "proxy": proxy,
                        "addon": mode == "with",
                        "settings": {"WRAPX_STORE_SQLITE_PATH": str(store), **extra},
                    }
                    result = run_json("benchmarks.sites", "_crawl", json.dumps(spec))
                    runs[mode].append(result)
                    print(
                        f"crawl {repeat + 1} {mode:<7} {result['sites_crawled']} sites in "
                        f"{result['seconds']:.1f}s, peak {result['peak_crawl_kb'] / 1024:.1f} MB"
                        f" + workers {result['peak_workers_kb'] / 1024:.1f} MB, close "
                        f"{result['phases'].get('close', {}).get('crawl_kb', 0) / 1024:.1f} MB, "
                        f"{result.get('item_scraped_count', 0)} items, CPU "
                        f"{result['cpu_seconds']:.1f}s + workers "
                        f"{result['worker_cpu_seconds']:.1f}s",
                        file=sys.stderr,
                    )
    finally:
        server.terminate()
        server.wait(timeout=10)
    figures = {mode: summary(rs) for mode, rs in runs.items()}
    without, with_ = figures["without"], figures["with"]
    ratio = with_["peak_crawl_mb"] / without["peak_crawl_mb"] if without["peak_crawl_mb"] else 0.0
    print(f"{'':<32}{'without':>10}{'with':>10}")
    for key, label in (
        ("peak_crawl_mb", "peak RSS, crawl (MB)"),
        ("crawl_peak_before_close_mb", "  before the close (MB)"),
        ("close_peak_crawl_mb", "  at the close (MB)"),
        ("peak_workers_mb", "peak RSS, page workers (MB)"),
        ("crawl_kb_per_site", f"crawl KB/site after {MILESTONE}"),
        ("workers_kb_per_site", f"workers KB/site after {MILESTONE}"),
        ("seconds", "seconds"),
        ("cpu_seconds", "CPU, crawl process (s)"),
        ("worker_cpu_seconds", "CPU, page workers (s)"),
        ("items", "items"),
    ):
        print(f"{label:<32}{without[key]:>10.1f}{with_[key]:>10.1f}")
    for mode, rs in runs.items():
        for r in rs:
            points = ", ".join(
                f"{m['sites']}: {m['crawl_kb'] / 1024:.1f}+{m['workers_kb'] / 1024:.1f}"
                for m in r["milestones"]
            )
            print(f"  {mode:<7} RSS (MB, crawl+workers) after sites {points}")
    goals = {
        f"peak ratio {ratio:.2f} <= {PEAK_RATIO_GOAL}": ratio <= PEAK_RATIO_GOAL,
        f"crawl growth {with_['crawl_kb_per_site']:.1f} KB/site <= "
        f"{without['crawl_kb_per_site']:.1f} + {FLAT_KB_PER_SITE}": with_["crawl_kb_per_site"]
        <= without["crawl_kb_per_site"] + FLAT_KB_PER_SITE,
        f"workers growth {with_['workers_kb_per_site']:.1f} KB/site <= {FLAT_KB_PER_SITE}": with_[
            "workers_kb_per_site"
        ]
        <= FLAT_KB_PER_SITE,
    }
    for goal, met in goals.items():
        print(f"{'ok  ' if met else 'FAIL'} {goal}")
    if args.json is not None:
        args.json.write_text(
            json.dumps({"figures": figures, "peak_ratio": ratio, "runs": runs}, indent=2)
        )
    return 0 if all(goals.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
