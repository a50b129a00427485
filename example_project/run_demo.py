"""Run the demo: serve the demo bookstore on 127.0.0.1, crawl it, score it.

``python example_project/run_demo.py [--output-dir DIR] [--seed N]``:

1. starts :class:`scrapy_wrapx.demo.DemoServer` on a free port (the original
   design under ``/``, the redesign under ``/v2/``);
2. deletes the previous run's store and runs ``scrapy crawl books`` in this
   project, in a separate process, exactly as a user would; the crawl's log
   goes to the console and to ``DIR/crawl.log``, its items to
   ``DIR/items.jsonl``;
3. checks the items against the site's ground truth
   (:attr:`scrapy_wrapx.demo.DemoSite.truth`) and prints a report: the
   targets items' fields filled correctly, wrongly or left unset on each
   design; whether every detail page has a variant-data item holding all its
   true values; and whether the log shows an induced template, a relocated
   target and a repaired selector.

It exits with 0 when the crawl ran, wrote items of both sorts and every
quality check passed; 1 when the crawl failed or wrote nothing; 2 when it
worked but a quality check failed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy_wrapx.demo import DemoServer, DemoSite, build_site
from scrapy_wrapx.demo.server import REDESIGN_PREFIX
from scrapy_wrapx.dom import fold_whitespace

PROJECT_DIR = Path(__file__).resolve().parent
DEFAULT_OUTPUT_DIR = PROJECT_DIR / "output"

#: Targets item field -> ground-truth field of the demo site.
TARGET_FIELDS = {"title": "title", "price": "price", "isbn": "isbn"}
#: Ground-truth field of the demo site -> words one of which the name of
#: the variant-data field holding it must contain (a name a person picks).
NAME_WORDS = {
    "title": ("title",),
    "author": ("author",),
    "price": ("price",),
    "isbn": ("isbn",),
    "publisher": ("publisher",),
    "publication_date": ("date", "published", "publication"),
    "description": ("description",),
    "image": ("image", "cover"),
}
#: Keys of a variant-data item that are metadata, not page data.
VARIANT_META = ("url", "kind", "template_version")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")

#: Log lines that show each part of scrapy-wrapx at work.
LOG_EVENTS = {
    "template induced": ("Induced template", "Re-induced template"),
    "target relocated": ("Relocated target",),
    "selector repaired": ("Repaired selector",),
}


@dataclass
class FieldScore:
    """How the targets middleware did on one field of one design."""

    right: int = 0
    wrong: int = 0
    unset: int = 0
    wrong_examples: list[str] = field(default_factory=list)


def site_path(url: str, base_url: str) -> tuple[str, str]:
    """``(design, path)`` of a URL of the demo server."""
    path = "/" + url.removeprefix(base_url)
    if path.startswith(REDESIGN_PREFIX + "/"):
        return "redesigned", path[len(REDESIGN_PREFIX) :]
    return "original", path


def fold(value: Any) -> str:
    return fold_whitespace(str(value))


def score_targets(
    items: list[dict[str, Any]], site: DemoSite, base_url: str
) -> dict[str, dict[str, FieldScore]]:
    """Per design and field: values equal to the truth, different, or unset."""
    scores: dict[str, dict[str, FieldScore]] = {}
    for item in items:
        design, path = site_path(item["url"], base_url)
        truth = site.truth.get(path)
        if truth is None:
            continue
        for name, truth_name in TARGET_FIELDS.items():
            score = scores.setdefault(design, {}).setdefault(name, FieldScore())
            value = item.get(name)
            if value in (None, "", []):
                score.unset += 1
            elif fold(value) in {fold(v) for v in truth[truth_name]}:
                score.right += 1
            else:
                score.wrong += 1
                if len(score.wrong_examples) < 2:
                    score.wrong_examples.append(f"{path}: {value!r}")
    return scores


def item_values(value: Any) -> Iterator[str]:
    """Every string in a variant-data item's value, records included."""
    if isinstance(value, str):
        yield fold(value)
    elif isinstance(value, dict):
        for inner in value.values():
            yield from item_values(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from item_values(inner)


def trim(value: str) -> str:
    """``value`` without punctuation at either end, as the induction
    benchmark compares SWDE values (``"$8.49"`` and ``"8.49"`` agree)."""
    return _EDGE_PUNCT.sub("", value)


def score_pages(
    items: list[dict[str, Any]],
    pages: dict[str, list[tuple[str, str]]],
    base_url: str,
) -> dict[str, dict[str, Any]]:
    """Per design: pages with a variant-data item, pages whose item holds
    every true value, and the true values missed by field. ``pages`` maps a
    site path to its ``(field, value)`` truth. A true value counts when it
    equals, after folding whitespace, some value of some field of the page's
    item (records included); ``lenient`` counts also trim punctuation at
    both ends of both values."""
    by_page = {site_path(item["url"], base_url): item for item in items}
    result: dict[str, dict[str, Any]] = {}
    for design in ("original", "redesigned"):
        score: dict[str, Any] = dict.fromkeys(
            ("with_item", "complete", "complete_lenient", "values", "found", "found_lenient"), 0
        )
        missed: Counter[str] = Counter()
        for path, truth in pages.items():
            item = by_page.get((design, path))
            score["values"] += len(truth)
            if item is None:
                missed.update(name for name, _ in truth)
                continue
            score["with_item"] += 1
            got = set(item_values({k: v for k, v in item.items() if k not in VARIANT_META}))
            got_trimmed = {trim(value) for value in got}
            lacking = [name for name, value in truth if fold(value) not in got]
            lacking_trimmed = [
                name for name, value in truth if trim(fold(value)) not in got_trimmed
            ]
            score["found"] += len(truth) - len(lacking)
            score["found_lenient"] += len(truth) - len(lacking_trimmed)
            score["complete"] += not lacking
            score["complete_lenient"] += not lacking_trimmed
            missed.update(lacking)
        score["pages"] = len(pages)
        score["missed"] = dict(missed)
        result[design] = score
    return result


def holders(item: dict[str, Any], value: str) -> set[str]:
    """Names of the item's top-level fields holding ``value``."""
    return {
        name
        for name, held in item.items()
        if name not in (*VARIANT_META, "records") and fold(value) in set(item_values(held))
    }


def check_names(
    items: list[dict[str, Any]], site: DemoSite, base_url: str
) -> tuple[dict[str, set[str]], dict[str, tuple[int, int]]]:
    """Per true field of the detail pages: the item field names holding its
    values (a person's pick is one of :data:`NAME_WORDS`), and per field how
    many values keep their field name from the original design to the
    redesign (kept, compared)."""
    by_page = {site_path(item["url"], base_url): item for item in items}
    names: dict[str, set[str]] = {}
    kept: dict[str, tuple[int, int]] = {}
    for path in site.detail_pages:
        before, after = by_page.get(("original", path)), by_page.get(("redesigned", path))
        for attr, values in site.truth[path].items():
            if attr not in NAME_WORDS:
                continue
            for value in values:
                was = holders(before, value) if before else set()
                now = holders(after, value) if after else set()
                names.setdefault(attr, set()).update(was | now)
                if was and now:
                    same, total = kept.get(attr, (0, 0))
                    kept[attr] = (same + (was <= now), total + 1)
    return names, kept


def report_names(items: list[dict[str, Any]], site: DemoSite, base_url: str) -> bool:
    """Print the field names of the detail pages' variant data; True when
    each true field is held by a name a person would pick and keeps it
    across the redesign."""
    ok = True
    names, kept = check_names(items, site, base_url)
    print("\nVariant-data field names of the detail pages (original -> redesigned):")
    for attr, words in NAME_WORDS.items():
        good = sorted(n for n in names.get(attr, ()) if any(w in n for w in words))
        same, total = kept.get(attr, (0, 0))
        print(
            f"  {attr:<18} held by {sorted(names.get(attr, ())) or '-'}; "
            f"name kept for {same}/{total} values"
        )
        if not good or same != total:
            ok = False
    return ok


def detail_truth(site: DemoSite) -> dict[str, list[tuple[str, str]]]:
    return {
        path: [(name, value) for name, values in site.truth[path].items() for value in values]
        for path in site.detail_pages
    }


def list_truth(site: DemoSite) -> dict[str, list[tuple[str, str]]]:
    return {
        path: [
            (name, value)
            for record in site.records[path]
            for name, values in record.items()
            for value in values
        ]
        for path in site.list_pages
    }


def run_crawl(base_url: str, output_dir: Path, log_path: Path) -> int:
    """``scrapy crawl books`` in this project; the log is shown and saved."""
    command = [sys.executable, "-m", "scrapy", "crawl", "books", "-a", f"base_url={base_url}"]
    print("Running: scrapy", " ".join(command[3:]), f"(in {PROJECT_DIR})", flush=True)
    env = {**os.environ, "BOOKSTORE_OUTPUT": str(output_dir)}
    with log_path.open("w", encoding="utf-8") as log:
        crawl = subprocess.Popen(
            command,
            cwd=PROJECT_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
        )
        assert crawl.stdout is not None
        for line in crawl.stdout:
            sys.stdout.write(line)
            log.write(line)
        return crawl.wait()


def log_events(lines: Iterable[str]) -> dict[str, int]:
    counts = dict.fromkeys(LOG_EVENTS, 0)
    for line in lines:
        for event, needles in LOG_EVENTS.items():
            counts[event] += any(needle in line for needle in needles)
    return counts


def report(  # noqa: C901 - the demo's checks, printed in the order a reader follows
    items: list[dict[str, Any]], site: DemoSite, base_url: str, log_lines: list[str]
) -> bool:
    """Print the report; True when every quality check passed."""
    ok = True
    targets = [item for item in items if "design" in item]
    variant = [item for item in items if "kind" in item]
    print(f"\n{len(targets)} targets items (one per book page, both designs):")
    for design, fields in score_targets(targets, site, base_url).items():
        count = sum(item["design"] == design for item in targets)
        parts = [
            f"{name} {s.right} right / {s.wrong} wrong / {s.unset} unset"
            for name, s in fields.items()
        ]
        print(f"  {design:<10} {count:>3} items: " + "; ".join(parts))
        for name, s in fields.items():
            for example in s.wrong_examples:
                print(f"    wrong {name}: {example}")
            if s.wrong or s.unset:
                ok = False
    kinds = Counter(str(item["kind"]) for item in variant)
    print(f"\n{len(variant)} variant-data items, by page kind:")
    for kind, count in sorted(kinds.items()):
        version = max(i["template_version"] for i in variant if i["kind"] == kind)
        print(f"  {kind:<40} {count:>3} items (template v{version})")
    for label, truth in (("detail", detail_truth(site)), ("list", list_truth(site))):
        for design, score in score_pages(variant, truth, base_url).items():
            pages = score["pages"]
            print(
                f"  {design} {label} pages: {score['with_item']}/{pages} with an item, "
                f"{score['complete']}/{pages} with all their true values "
                f"({score['found']}/{score['values']} values; trimming punctuation at the "
                f"ends: {score['complete_lenient']}/{pages} pages, "
                f"{score['found_lenient']}/{score['values']} values)"
            )
            if score["missed"]:
                missed = ", ".join(f"{k} {v}" for k, v in sorted(score["missed"].items()))
                print(f"    true values missed, by field: {missed}")
            if label == "detail" and score["complete"] != pages:
                ok = False
    ok = report_names(variant, site, base_url) and ok
    events = log_events(log_lines)
    print("\nThe crawl's log shows: " + ", ".join(f"{k} {v}x" for k, v in events.items()))
    if not events["template induced"] or not events["target relocated"]:
        ok = False
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--output-dir", type=Path, default=DEFAULT_OUTPUT_DIR, help="where items and store go"
    )
    parser.add_argument("--seed", type=int, default=0, help="which demo bookstore to serve")
    args = parser.parse_args(argv)
    output_dir: Path = args.output_dir.resolve()
    output_dir.mkdir(parents=True, exist_ok=True)
    items_path = output_dir / "items.jsonl"
    log_path = output_dir / "crawl.log"
    # A fresh store, so this run learns everything again (and shows it).
    for stale in ("wrapx.sqlite3", "wrapx.sqlite3-wal", "wrapx.sqlite3-shm", "items.jsonl"):
        (output_dir / stale).unlink(missing_ok=True)

    site = build_site(args.seed)
    if args.seed != 0:
        print("Note: the spider's isbn example is a book of seed 0; it is left unset.")
    with DemoServer(site) as server:
        print(f"Demo bookstore served at {server.url} (redesigned copy at {server.url}v2/)")
        status = run_crawl(server.url, output_dir, log_path)
        base_url = server.url
    if status != 0 or not items_path.is_file():
        print(f"The crawl failed (exit status {status}); its log: {log_path}", file=sys.stderr)
        return 1
    with items_path.open(encoding="utf-8") as lines:
        items = [json.loads(line) for line in lines if line.strip()]
    print(f"\nItems: {items_path}\nLog:   {log_path}\nStore: {output_dir / 'wrapx.sqlite3'}")
    log_lines = log_path.read_text(encoding="utf-8").splitlines()
    ok = report(items, site, base_url, log_lines)
    if not any("design" in i for i in items) or not any("kind" in i for i in items):
        print("The crawl wrote no targets items or no variant-data items.", file=sys.stderr)
        return 1
    print(
        "\nAll quality checks passed."
        if ok
        else "\nQUALITY CHECKS FAILED: see the figures above (the crawl itself worked)."
    )
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
