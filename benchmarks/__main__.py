"""``python -m benchmarks <benchmark> [options]``."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = {
    "parse": "benchmarks.parse",
    "relocate": "benchmarks.relocate",
    "induce": "benchmarks.induce",
    "crawl": "benchmarks.crawl",
    "calibrate": "benchmarks.calibrate",
    "naming": "benchmarks.naming",
    "worstcase": "benchmarks.worstcase",
    "shop": "benchmarks.shop",
    "sites": "benchmarks.sites",
}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in BENCHMARKS:
        print(f"usage: python -m benchmarks {{{','.join(BENCHMARKS)}}} [options]")
        return 2
    module = importlib.import_module(BENCHMARKS[args[0]])
    return int(module.main(args[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
