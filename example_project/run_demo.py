"""Run the demo: serve the demo bookstore on 127.0.0.1 and crawl it.

``python example_project/run_demo.py [--output FILE] [--seed N]`` starts
:class:`scrapy_wrapx.demo.DemoServer` on a free port, runs
``scrapy crawl books -a base_url=... -O FILE`` in this project (a separate
process, exactly as a user would run it), then says where the items are,
how many there are, and how many of their fields agree with the demo site's
ground truth. It exits with 1 when the crawl fails or misses pages.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from scrapy_wrapx.demo import DemoServer, DemoSite, build_site

PROJECT_DIR = Path(__file__).resolve().parent
DEFAULT_OUTPUT = PROJECT_DIR / "output" / "books.jsonl"

#: Item field -> ground-truth field of the demo site.
FIELDS = {
    "title": "title",
    "authors": "author",
    "price": "price",
    "isbn": "isbn",
    "publisher": "publisher",
    "publication_date": "publication_date",
    "rating": "rating",
    "image": "image",
    "description": "description",
}


def agreement(items: list[dict[str, object]], site: DemoSite, base_url: str) -> tuple[int, int]:
    """How many item fields equal the truth of their page, out of how many."""
    right = total = 0
    for item in items:
        path = "/" + str(item["url"]).removeprefix(base_url).removeprefix("v2/")
        truth = site.truth.get(path)
        if truth is None:
            continue
        for name, truth_name in FIELDS.items():
            value = item.get(name)
            got = value if isinstance(value, list) else ([] if value is None else [value])
            total += 1
            right += got == truth[truth_name]
    return right, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="JSON lines file")
    parser.add_argument("--seed", type=int, default=0, help="which demo bookstore to serve")
    args = parser.parse_args(argv)
    output: Path = args.output.resolve()
    output.parent.mkdir(parents=True, exist_ok=True)

    site = build_site(args.seed)
    with DemoServer(site) as server:
        print(f"Demo bookstore served at {server.url} (redesigned copy at {server.url}v2/)")
        command = [
            sys.executable,
            "-m",
            "scrapy",
            "crawl",
            "books",
            "-a",
            f"base_url={server.url}",
            "-O",
            f"{output}:jsonlines",
        ]
        print("Running:", " ".join(command[2:]), f"(in {PROJECT_DIR})", flush=True)
        crawl = subprocess.run(command, cwd=PROJECT_DIR, check=False)
        base_url = server.url
    if crawl.returncode != 0:
        print(f"The crawl failed with exit status {crawl.returncode}.", file=sys.stderr)
        return 1

    with output.open(encoding="utf-8") as lines:
        items = [json.loads(line) for line in lines if line.strip()]
    expected = 2 * len(site.detail_pages)
    right, total = agreement(items, site, base_url)
    redesigned = sum(item["design"] == "redesigned" for item in items)
    print(
        f"Wrote {len(items)} items to {output} ({len(items) - redesigned} from the original "
        f"design, {redesigned} from the redesign); {right} of {total} fields match the "
        "site's ground truth."
    )
    if len(items) != expected:
        print(f"Expected {expected} items, one per book page of each design.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
