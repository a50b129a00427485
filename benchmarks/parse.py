"""``python -m benchmarks parse --data ../shared/data/swde/book``.

How much does the normalized page tree cost over plain parsing? Every
algorithm starts with :func:`scrapy_wrapx.dom.parse`, and a crawler already
pays for ``lxml.html.fromstring`` (the floor any method pays), so the number
that matters is the ratio between the two on the *same page in the same run*:
absolute times on a shared machine say little. Per page, both are timed
``--repeat`` times, interleaved and in alternating order so that neither
always runs with a warm cache; a page's time is the median of its runs.
Per site the report gives the median per-page time of each, and the median
of the per-page ratios, checked against the goal of issue 2
(``dom.parse`` within :data:`GOAL_RATIO` times lxml).

Exit status: 0 when every site meets the goal, 1 when one does not, 2 when
there is no data to measure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import lxml.html

from benchmarks._swde import SwdeSite, load_sites
from scrapy_wrapx import dom

__all__ = ["GOAL_RATIO", "SiteTiming", "main", "time_site"]

#: ``dom.parse`` should take at most this many times lxml's parse time.
GOAL_RATIO = 3.0

DEFAULT_DATA = Path("../shared/data/swde/book")


@dataclass
class SiteTiming:
    """Per-site medians (milliseconds; ``ratio`` is dom / lxml per page)."""

    site: str
    pages: int
    lxml_ms: float
    dom_ms: float
    ratio: float
    worst_ratio: float
    nodes: float

    @property
    def passed(self) -> bool:
        return self.ratio <= GOAL_RATIO


def _timed(function: Callable[[str], object], html: str) -> int:
    start = time.perf_counter_ns()
    result = function(html)
    elapsed = time.perf_counter_ns() - start
    del result  # freed outside the timed span, for both
    return elapsed


def time_site(site: SwdeSite, repeat: int) -> SiteTiming:
    """Time lxml and ``dom.parse`` on every page of ``site``."""
    if repeat < 1:
        raise ValueError(f"--repeat must be at least 1, got {repeat!r}")
    lxml_runs: list[list[int]] = [[] for _ in site.pages]
    dom_runs: list[list[int]] = [[] for _ in site.pages]
    for run in range(repeat):
        for i, page in enumerate(site.pages):
            if (run + i) % 2:
                dom_runs[i].append(_timed(dom.parse, page.html))
                lxml_runs[i].append(_timed(lxml.html.fromstring, page.html))
            else:
                lxml_runs[i].append(_timed(lxml.html.fromstring, page.html))
                dom_runs[i].append(_timed(dom.parse, page.html))
    lxml_ms = [statistics.median(runs) / 1e6 for runs in lxml_runs]
    dom_ms = [statistics.median(runs) / 1e6 for runs in dom_runs]
    ratios = [d / x for d, x in zip(dom_ms, lxml_ms, strict=True)]
    nodes = [len(dom.parse(page.html).nodes) for page in site.pages]
    return SiteTiming(
        site=site.name,
        pages=len(site.pages),
        lxml_ms=statistics.median(lxml_ms),
        dom_ms=statistics.median(dom_ms),
        ratio=statistics.median(ratios),
        worst_ratio=max(ratios),
        nodes=statistics.median(nodes),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks parse",
        description="Time scrapy_wrapx.dom.parse against lxml.html.fromstring per page.",
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="an SWDE vertical")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per page")
    parser.add_argument("--limit", type=int, default=None, help="pages per site")
    parser.add_argument("--json", type=Path, default=None, help="also write results here")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat!r}")

    if not args.data.is_dir():
        print(
            f"No benchmark data at {str(args.data)!r}: pass --data with an SWDE "
            "vertical such as ../shared/data/swde/book (site/pages/NNNN.htm).",
            file=sys.stderr,
        )
        return 2
    try:
        sites = load_sites(args.data, limit=args.limit)
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2

    print(f"dom.parse vs lxml.html.fromstring, median of {args.repeat} runs per page")
    header = f"{'site':<16}{'pages':>6}{'nodes':>7}{'lxml ms':>9}{'dom ms':>9}"
    print(header + f"{'ratio':>7}{'worst':>7}  goal <= {GOAL_RATIO:g}x")
    timings = []
    for site in sites:
        timing = time_site(site, args.repeat)
        timings.append(timing)
        print(
            f"{timing.site:<16}{timing.pages:>6}{timing.nodes:>7.0f}"
            f"{timing.lxml_ms:>9.2f}{timing.dom_ms:>9.2f}{timing.ratio:>7.2f}"
            f"{timing.worst_ratio:>7.2f}  {'pass' if timing.passed else 'FAIL'}"
        )
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        results = [asdict(t) | {"passed": t.passed} for t in timings]
        args.json.write_text(json.dumps({"goal_ratio": GOAL_RATIO, "sites": results}, indent=2))
    return 0 if all(t.passed for t in timings) else 1
