"""``python -m benchmarks shop``: declared targets on generated shops.

The goal figures of the targets issue, on shops of :mod:`tests.shop`
(``--seeds``, by default 31-40: seeds no rule was built on; the tests use
1-22, the confidence calibration 1000 on). Each shop has 40 product pages
and nine targets (lists of 0-6 members by XPath and CSS, single values,
an optional sale badge and struck-through old price, two example
targets). Per seed, through the targets middleware and a fresh store:

* the unchanged site, crawled once: values right, and repairs (goal:
  >= 99% right and no repair);
* its redesign (new classes and wrappers, the old price struck through
  before the price, a promo heading of the title's tag on some pages, new
  spec rows, divs for tables, the review block missing when empty),
  crawled three times after the first crawl: right, wrong or invented
  (goal: >= 95% and <= 1%), and wrong or invented values with a
  confidence of 0.9 or more (goal: none).

Exit status 1 when a goal fails.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks._subprocess import run_json
from tests.shop import PAGES, build_shop, serving, shop_spider
from tests.test_targets_redesign import _verdict, redesign_run

__all__ = ["main"]


def _unchanged(seed: int) -> tuple[Counter[str], int]:
    """Verdicts of one real crawl of the unchanged shop (served on
    127.0.0.1, items held for the example targets and released as a crawl
    does), and its repairs: in a fresh process, the reactor's own."""
    result = run_json("benchmarks.shop", "_unchanged", str(seed))
    return Counter(result["verdicts"]), int(result["repairs"])


def _crawl_unchanged(seed: int) -> dict[str, Any]:
    from scrapy.crawler import CrawlerProcess

    from tests.crawling import collect_items, crawl_settings

    products, index = build_shop(seed)
    late = list(products.values())[PAGES - 3]
    pages = {"/": index, **{path: p.html for path, p in products.items()}}
    with serving(pages) as server, tempfile.TemporaryDirectory() as directory:
        settings = crawl_settings(Path(directory) / "wrapx.sqlite3", LOG_LEVEL="ERROR")
        process = CrawlerProcess(settings)
        crawler = process.create_crawler(shop_spider(late.truth["sku"], late.truth["brand"]))
        items = collect_items(crawler)
        process.crawl(crawler, base_url=server.base_url)
        process.start()
        base = server.base_url
    counts: Counter[str] = Counter()
    for item in items:
        truth = products[item["url"].removeprefix(base)].truth
        counts.update(_verdict(item.get(name), want) for name, want in truth.items())
    counts["missing items"] = PAGES - len(items)
    assert crawler.stats is not None
    return {
        "verdicts": dict(counts),
        "repairs": crawler.stats.get_value("wrapx/targets/repaired_count", 0),
    }


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    if args_list[:1] == ["_unchanged"]:
        print(json.dumps(_crawl_unchanged(int(args_list[1]))))
        return 0
    parser = argparse.ArgumentParser(prog="python -m benchmarks shop")
    parser.add_argument("--seeds", type=int, nargs="+", default=list(range(31, 41)))
    args = parser.parse_args(args_list)
    logging.disable(logging.WARNING)  # the middleware logs every refusal
    ok = True
    totals: Counter[str] = Counter()
    confident_total = repairs_total = 0
    print(f"{'seed':>4}  unchanged right  repairs  redesign right / bad per crawl  bad >= 0.9")
    for seed in args.seeds:
        unchanged, repairs = _unchanged(seed)
        right_unchanged = unchanged["right"] / (PAGES * 9)
        crawls = []
        confident = 0
        for found in redesign_run(seed):
            counts = Counter(verdict for verdict, _, _ in found)
            totals.update(counts)
            bad = counts["wrong"] + counts["invented"]
            confident += sum(
                1 for v, _, c in found if v in ("wrong", "invented") and c is not None and c >= 0.9
            )
            crawls.append((counts["right"] / len(found), bad / len(found)))
        confident_total += confident
        repairs_total += repairs
        ok &= right_unchanged >= 0.99 and repairs == 0 and confident == 0
        ok &= all(right >= 0.95 and bad <= 0.01 for right, bad in crawls)
        shown = "  ".join(f"{right:.3f}/{bad:.3f}" for right, bad in crawls)
        print(f"{seed:>4}  {right_unchanged:>15.3f}  {repairs:>7}  {shown}  {confident:>9}")
    values = sum(totals.values())
    print(
        f"redesign, all crawls: right {totals['right'] / values:.4f}, wrong"
        f" {totals['wrong'] / values:.4f}, invented {totals['invented'] / values:.4f}, unset"
        f" {totals['unset'] / values:.4f} of {values} values; wrong or invented with confidence"
        f" >= 0.9: {confident_total}; repairs on unchanged sites: {repairs_total}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
