"""``python -m scrapy_wrapx.bench <benchmark> [options]``."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = {
    "parse": "scrapy_wrapx.bench.parse",
    "relocate": "scrapy_wrapx.bench.relocate",
    "induce": "scrapy_wrapx.bench.induce",
    "crawl": "scrapy_wrapx.bench.crawl",
    "calibrate": "scrapy_wrapx.bench.calibrate",
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in BENCHMARKS:
        print(f"usage: python -m scrapy_wrapx.bench {{{','.join(BENCHMARKS)}}} [options]")
        return 2
    module = importlib.import_module(BENCHMARKS[args[0]])
    return int(module.main(args[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
