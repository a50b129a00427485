"""``python -m benchmarks worstcase``: extraction on pages that stretch it.

The page shapes of :mod:`tests.hedges` (long lists, optional lists, lists
with a stranger at the end, rows of another shape, text runs, tables), at
growing lengths, each with a misfit that sends the match down its lenient
path, against the template induced from short pages of the same shape.

Per family and length: lxml's parse (``lxml.html.fromstring``) and
extraction from HTML (parse included), interleaved, median of
``--repeat`` runs; their ratio; and the *growth exponent* from the
shortest to the longest page (1 is linear, 2 quadratic). The worst ratio
and exponent are the recorded worst case. Exit status 1 when an exponent
exceeds :data:`MAX_EXPONENT`.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import lxml.html

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from tests.hedges import FAMILIES, seed_pages

__all__ = ["MAX_EXPONENT", "main"]

#: Growth above this (time ~ length ** exponent) fails: linear plus noise.
MAX_EXPONENT = 1.25


def _median_ms(runs: list[int]) -> float:
    return statistics.median(runs) / 1e6


def time_family(name: str, sizes: list[int], repeat: int, misfit: bool) -> list[dict[str, Any]]:
    family = FAMILIES[name]
    template = induce_template(seed_pages(family))
    rng = random.Random(11)
    rows = []
    for size in sizes:
        html = family(size, rng, misfit)
        lxml_runs: list[int] = []
        extract_runs: list[int] = []
        for run in range(repeat):
            for which in ("lxml", "extract") if run % 2 else ("extract", "lxml"):
                start = time.perf_counter_ns()
                if which == "lxml":
                    lxml.html.fromstring(html)
                else:
                    extract(template, html)
                elapsed = time.perf_counter_ns() - start
                (lxml_runs if which == "lxml" else extract_runs).append(elapsed)
        lxml_ms, extract_ms = _median_ms(lxml_runs), _median_ms(extract_runs)
        rows.append(
            {
                "size": size,
                "lxml_ms": lxml_ms,
                "extract_ms": extract_ms,
                "ratio": extract_ms / lxml_ms,
            }
        )
    return rows


def _exponent(rows: list[dict[str, Any]]) -> float:
    first, last = rows[0], rows[-1]
    return math.log(last["extract_ms"] / first["extract_ms"]) / math.log(
        last["size"] / first["size"]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks worstcase")
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 1000, 4000])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per page")
    parser.add_argument("--fitting", action="store_true", help="pages without the misfit")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if len(args.sizes) < 2 or args.repeat < 1:
        parser.error("give at least two --sizes and a --repeat of at least 1")

    sizes = sorted(args.sizes)
    print(f"extraction from HTML vs lxml.html.fromstring, median of {args.repeat} runs")
    print(f"{'family':<20}" + "".join(f"{f'x lxml @{n}':>13}" for n in sizes) + f"{'exponent':>10}")
    results: dict[str, Any] = {}
    for name in FAMILIES:
        rows = time_family(name, sizes, args.repeat, not args.fitting)
        exponent = _exponent(rows)
        results[name] = {"rows": rows, "exponent": exponent}
        ratios = "".join(f"{row['ratio']:>13.1f}" for row in rows)
        print(f"{name:<20}{ratios}{exponent:>10.2f}")
    worst_ratio = max(row["ratio"] for r in results.values() for row in r["rows"])
    worst_exponent = max(r["exponent"] for r in results.values())
    print(
        f"worst case: {worst_ratio:.1f}x lxml's parse, growth exponent {worst_exponent:.2f} (goal <= {MAX_EXPONENT})"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))
    return 0 if worst_exponent <= MAX_EXPONENT else 1


if __name__ == "__main__":
    sys.exit(main())
