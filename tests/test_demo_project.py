"""The README's first command: ``example_project/run_demo.py``.

The demo must always work (issue 2), so the suite runs it for real — a
``scrapy crawl`` of the example project against the demo server, in its own
process — and checks what it promises: items of both sorts in the output
file, the targets filled on the original design, a template induced and a
target relocated in the log. Its scoring is tested on its own, on items made
from the site's truth, so the report's figures mean what they say.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from scrapy_wrapx.demo import build_site

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1:8000/"


def _run_demo_module() -> ModuleType:
    if "run_demo" in sys.modules:
        return sys.modules["run_demo"]
    spec = importlib.util.spec_from_file_location(
        "run_demo", ROOT / "example_project" / "run_demo.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _variant_item(url: str, truth: dict[str, list[str]]) -> dict[str, Any]:
    """A variant-data item holding ``truth`` the way induction lays it out:
    fields of lists, one value spaced differently, one inside a record."""
    fields = {f"f_{name}": list(values) for name, values in truth.items() if name != "author"}
    fields["f_title"] = ["  " + value.replace(" ", "\n ") for value in fields["f_title"]]
    records = {"authors": [{"by": name} for name in truth["author"]]}
    return {"url": url, "kind": "x/book-1", "template_version": 1, **fields, "records": records}


def test_scoring_counts_true_values_in_fields_and_records() -> None:
    demo = _run_demo_module()
    site = build_site(3, books=4)
    truth = demo.detail_truth(site)
    items = [_variant_item(BASE + path.lstrip("/"), site.truth[path]) for path in truth]
    # The redesign: one page without item, one whose item lacks the price.
    second = site.detail_pages[1]
    for item in items[1:]:  # the first book has no item on the redesign
        redesigned = dict(item, url=BASE + "v2/" + item["url"].removeprefix(BASE))
        if redesigned["url"].endswith(second):
            redesigned["f_price"] = [v.lstrip("$") for v in redesigned["f_price"]]
        items.append(redesigned)
    scores = demo.score_pages(items, truth, BASE)
    original, redesigned = scores["original"], scores["redesigned"]
    assert original["pages"] == original["with_item"] == original["complete"] == 4
    assert original["found"] == original["values"] and not original["missed"]
    assert redesigned["with_item"] == 3 and redesigned["complete"] == 2
    assert redesigned["complete_lenient"] == 3  # "$9.99" vs "9.99": edge punctuation
    assert redesigned["missed"]["price"] == 2  # the page without item, and the "$"
    assert redesigned["missed"]["title"] == 1  # only on the page without item


def test_targets_scores() -> None:
    demo = _run_demo_module()
    site = build_site(3, books=2)
    right, other = site.detail_pages
    items = [
        {"url": BASE + right.lstrip("/"), "design": "original", **_target_values(site, right)},
        {
            "url": BASE + "v2" + other,
            "design": "redesigned",
            "title": "Availability: In Stock",
            "price": None,
            "isbn": site.truth[other]["isbn"][0],
        },
    ]
    scores = demo.score_targets(items, site, BASE)
    assert [(s.right, s.wrong, s.unset) for s in scores["original"].values()] == [(1, 0, 0)] * 3
    redesign = scores["redesigned"]
    assert (redesign["title"].wrong, redesign["price"].unset, redesign["isbn"].right) == (1, 1, 1)


def _target_values(site: Any, path: str) -> dict[str, str]:
    return {name: site.truth[path][name][0] for name in ("title", "price", "isbn")}


def test_the_demo_crawls_both_designs(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "example_project" / "run_demo.py"), "--output-dir", tmp_path],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    items = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    site = build_site(0)
    books = [item for item in items if "design" in item]
    pages = [item for item in items if "kind" in item]
    assert len(books) == 2 * len(site.detail_pages)
    assert {item["url"] for item in pages} >= {item["url"] for item in books}
    # On the original design the declared selectors work: the titles are
    # right (a few may be refused by verification, none wrong).
    original = [item for item in books if item["design"] == "original"]
    titles = [
        (item["title"], site.truth["/" + item["url"].split("/", 3)[3]]["title"][0])
        for item in original
    ]
    assert all(got in (None, want) for got, want in titles)
    assert sum(got == want for got, want in titles) >= 0.9 * len(titles)
    log = (tmp_path / "crawl.log").read_text()
    assert "Induced template" in log
    assert "Relocated target" in log
    assert "targets items" in done.stdout and "variant-data items" in done.stdout
