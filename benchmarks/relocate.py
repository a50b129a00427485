"""Relocation benchmark (thesis §7.2-7.5, Dataset1 protocol; DESIGN.md).

``python -m benchmarks relocate --data ../shared/data/swde/book``

Per site, page 0000 is the reference: for each attribute the target is the
leaf whose text equals the attribute's ground-truth value (several values:
a list target) and its absolute XPath is stored. On every other page the
goal is that page's ground truth. Precision, recall and F1 over (page,
attribute) pairs follow eqs. 7.1-7.3, for: the absolute XPath, the
id-based relative XPath (FirePath's ``//*[@id="..."]/...``), SSN, SSP,
SSNP, the ``resolve`` policy of the targets middleware, and Scrapling's
adaptive selectors and autoscraper when they are installed — on the plain
variants and on seeded mutations of them (:mod:`tests.mutate`, the
generator the locator was tuned on; its heavy level inserts look-alikes)
at three severities — or, with ``--generator redesign2``, on the
reporting-only redesigns of :mod:`benchmarks.redesign2`, which nothing is
tuned on. Times are medians per relocation next to lxml's parse time of
the same pages, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from benchmarks import _adapters
from benchmarks._swde import SwdeSite, load_sites, normalize_value
from benchmarks.redesign2 import redesign
from scrapy_wrapx import dom
from scrapy_wrapx.dom import fold_whitespace
from scrapy_wrapx.locate import HybridLocator, TargetReference
from tests.mutate import SEVERITIES, mutate

LOCATOR_METHODS = ("ssn", "ssp", "ssnp")
THRESHOLDS = (0.5, 0.7, 0.9)


@dataclass
class Score:
    """Counts for eqs. 7.1-7.3 and the confidences of returned values."""

    correct: int = 0
    returned: int = 0
    expected: int = 0
    confident: list[tuple[float, bool]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def add(self, expected: list[str], returned: list[str]) -> list[bool]:
        wanted = set(expected)
        hits = [value in wanted for value in returned]
        self.correct += len(set(returned) & wanted)
        self.returned += len(returned)
        self.expected += len(wanted)
        return hits

    def merge(self, other: Score) -> None:
        self.correct += other.correct
        self.returned += other.returned
        self.expected += other.expected
        self.confident.extend(other.confident)
        self.times.extend(other.times)

    def report(self) -> dict[str, Any]:
        precision = self.correct / self.returned if self.returned else 0.0
        recall = self.correct / self.expected if self.expected else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        result: dict[str, Any] = {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(f1, 4),
        }
        if self.times:
            result["median_ms"] = round(statistics.median(self.times) * 1000, 3)
        if self.confident:
            # Calibration: a confidence should be the chance of being right.
            result["ece"] = round(_calibration_error(self.confident), 4)
            for threshold in THRESHOLDS:
                above = [ok for confidence, ok in self.confident if confidence >= threshold]
                result[f"precision@{threshold}"] = (
                    round(sum(above) / len(above), 4) if above else None
                )
                result[f"share@{threshold}"] = round(len(above) / len(self.confident), 4)
        return result


def _calibration_error(confident: list[tuple[float, bool]], bins: int = 10) -> float:
    """Expected calibration error: mean |confidence - precision| over ten
    equal-width confidence bins, weighed by their sizes."""
    total = 0.0
    for number in range(bins):
        low, high = number / bins, (number + 1) / bins
        members = [
            (c, ok) for c, ok in confident if low <= c < high or (number == bins - 1 and c >= 1.0)
        ]
        if members:
            mean = sum(c for c, _ in members) / len(members)
            right = sum(1 for _, ok in members if ok) / len(members)
            total += len(members) * abs(mean - right)
    return total / len(confident)


@dataclass
class SiteTarget:
    attribute: str
    xpath: str
    id_xpath: str
    reference: TargetReference
    values: list[str]
    text_indexes: list[tuple[str, int]]  # owner element XPath, text()[k] (0: element)


def absolute_xpath(node: dom.Node) -> str:
    return node.xpath


def id_relative_xpath(tree: dom.PageTree, node: dom.Node) -> str:
    """FirePath's relative XPath: from the nearest ancestor with an id that
    is unique in the document, else the absolute XPath."""
    document = tree.document
    current: dom.Node | None = node if not node.is_text else node.parent
    while current is not None:
        value = current.element.get("id")
        if value and '"' not in value and _count(document.xpath(f'//*[@id="{value}"]')) == 1:
            return f'//*[@id="{value}"]' + node.xpath[len(current.xpath) :]
        current = current.parent
    return node.xpath


def _count(results: object) -> int:
    return len(results) if isinstance(results, list) else 0


def select_values(tree: dom.PageTree, xpath: str) -> list[str]:
    try:
        results = tree.document.xpath(xpath)
    except etree.XPathError:
        return []
    values = []
    for result in results if isinstance(results, list) else []:
        if isinstance(result, etree._Element):
            values.append(fold_whitespace("".join(str(t) for t in result.itertext())))
        else:
            values.append(fold_whitespace(str(result)))
    return [normalize_value(value) for value in values if value.strip()]


def find_targets(site: SwdeSite, tree: dom.PageTree, locator: HybridLocator) -> list[SiteTarget]:
    """The reference page's targets: per attribute, the first leaf whose
    value equals each ground-truth value."""
    reference_id = site.pages[0].page_id
    targets = []
    for attribute in site.attributes:
        values = site.truth[attribute].get(reference_id) or []
        nodes: list[dom.Node] = []
        for value in values:
            leaf = next(
                (
                    leaf
                    for leaf in tree.leaves
                    if normalize_value(leaf.value) == value and leaf not in nodes
                ),
                None,
            )
            if leaf is not None:
                nodes.append(leaf)
        if not nodes:
            print(
                f"  {site.name}: no leaf holds {attribute} {values!r}; skipped",
                file=sys.stderr,
            )
            continue
        xpath = " | ".join(absolute_xpath(node) for node in nodes)
        id_xpath = " | ".join(id_relative_xpath(tree, node) for node in nodes)
        reference = locator.reference(tree, xpath)
        texts = [
            (
                node.parent.xpath if node.is_text and node.parent else node.xpath,
                node.text_index,
            )
            for node in nodes
        ]
        targets.append(
            SiteTarget(attribute, xpath, id_xpath, reference, [n.value for n in nodes], texts)
        )
    return targets


def run_site(
    site: SwdeSite,
    severities: list[str],
    methods: list[str],
    seed: int,
    radius: int,
    generator: str = "mutate",
) -> dict[str, Any]:
    locators = {method: HybridLocator(method, radius=radius) for method in LOCATOR_METHODS}
    reference_page = site.pages[0]
    reference_tree = dom.parse(reference_page.html, reference_page.url)
    targets = find_targets(site, reference_tree, locators["ssnp"])
    sizes = [len(target.reference.to_json().encode("utf-8")) for target in targets]
    # References go through JSON once, as a store would hand them back.
    for target in targets:
        target.reference = TargetReference.from_json(target.reference.to_json())
    adapters = _adapters.available(methods, reference_page.html, reference_page.url, targets)
    result: dict[str, Any] = {
        "targets": {t.attribute: t.xpath for t in targets},
        "reference_bytes": {
            "median": statistics.median(sizes) if sizes else 0,
            "max": max(sizes, default=0),
        },
        "severities": {},
    }
    for severity in severities:
        scores = {method: Score() for method in methods}
        parse_lxml: list[float] = []
        parse_tree: list[float] = []
        for page in site.pages[1:]:
            html = page.html
            if severity != "plain":
                html = _redesigned(site, page.page_id, html, severity, seed, generator)
            started = time.perf_counter()
            dom.lxml_document(html, page.url)
            parse_lxml.append(time.perf_counter() - started)
            started = time.perf_counter()
            tree = dom.parse(html, page.url)
            parse_tree.append(time.perf_counter() - started)
            for target in targets:
                expected = site.truth[target.attribute].get(page.page_id) or []
                for method in methods:
                    score = scores[method]
                    started = time.perf_counter()
                    values, confidences = _run(
                        method, target, tree, html, page.url, locators, adapters
                    )
                    score.times.append(time.perf_counter() - started)
                    hits = score.add(expected, values)
                    score.confident.extend(zip(confidences, hits, strict=False))
        result["severities"][severity] = {
            "pages": len(site.pages) - 1,
            "lxml_parse_ms": round(statistics.median(parse_lxml) * 1000, 3),
            "tree_parse_ms": round(statistics.median(parse_tree) * 1000, 3),
            "methods": {method: score.report() for method, score in scores.items()},
            "_scores": scores,
        }
    return result


def _redesigned(
    site: SwdeSite, page_id: str, html: str, severity: str, seed: int, generator: str
) -> str:
    """The page put through ``generator`` at ``severity``; redesign2 keeps
    every block that holds a ground-truth value of the page."""
    page_seed = zlib.crc32(f"{seed}/{page_id}".encode())
    if generator == "redesign2":
        keep = frozenset(
            fold_whitespace(value)
            for values in site.truth.values()
            for value in values.get(page_id) or []
        )
        return redesign(html, severity, seed=page_seed, keep=keep)
    return mutate(html, severity, seed=page_seed)


def _run(
    method: str,
    target: SiteTarget,
    tree: dom.PageTree,
    html: str,
    url: str,
    locators: dict[str, HybridLocator],
    adapters: dict[str, Callable[[SiteTarget, str, str], list[str]]],
) -> tuple[list[str], list[float]]:
    if method == "xpath":
        return select_values(tree, target.xpath), []
    if method == "id_xpath":
        return select_values(tree, target.id_xpath), []
    if method == "resolve":
        resolution = locators["ssnp"].resolve(target.reference, tree, min_confidence=0.5)
        values = [normalize_value(v) for v in resolution.values]
        return values, [resolution.confidence] * len(values)
    if method in locators:
        candidates = locators[method].locate(target.reference, tree)
        if not candidates:
            return [], []
        candidates = [c for c in candidates if c.rank == 0]
        return [normalize_value(c.text) for c in candidates], [c.confidence for c in candidates]
    return [normalize_value(v) for v in adapters[method](target, html, url)], []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks relocate")
    parser.add_argument("--data", type=Path, required=True, help="an SWDE vertical directory")
    parser.add_argument("--variants", type=int, default=100, help="variant pages per site")
    parser.add_argument(
        "--severity",
        default="all",
        choices=["all", "plain", *SEVERITIES],
        help="plain variants, one mutation severity, or all of them",
    )
    parser.add_argument("--seed", type=int, default=0, help="mutation seed")
    parser.add_argument(
        "--generator",
        default="mutate",
        choices=["mutate", "redesign2"],
        help="redesign generator: tests.mutate (tuned on) or redesign2 (reporting only)",
    )
    parser.add_argument("--radius", type=int, default=10, help="neighbour zone radius")
    parser.add_argument(
        "--methods",
        default="xpath,id_xpath,ssn,ssp,ssnp,resolve,scrapling,autoscraper",
        help="comma-separated methods (adapters are skipped when not installed)",
    )
    parser.add_argument("--json", type=Path, help="write the results to this file")
    args = parser.parse_args(argv)
    severities = ["plain", *SEVERITIES] if args.severity == "all" else [args.severity]
    methods = [m for m in args.methods.split(",") if m]
    methods = [m for m in methods if m not in _adapters.ADAPTERS or _adapters.importable(m)]
    skipped = [m for m in args.methods.split(",") if m and m not in methods]
    if skipped:
        print(f"not installed, skipped: {', '.join(skipped)}")
    sites = load_sites(args.data, limit=args.variants + 1)
    results: dict[str, Any] = {"methods": methods, "sites": {}, "pooled": {}}
    pooled: dict[str, dict[str, Score]] = {s: {m: Score() for m in methods} for s in severities}
    for site in sites:
        print(f"== {site.name}: reference {site.pages[0].page_id}, {len(site.pages) - 1} variants")
        site_result = run_site(site, severities, methods, args.seed, args.radius, args.generator)
        print(f"   reference JSON bytes: {site_result['reference_bytes']}")
        for severity, data in site_result["severities"].items():
            scores = data.pop("_scores")
            for method, score in scores.items():
                pooled[severity][method].merge(score)
            _print_table(f"{site.name} / {severity}", data)
        results["sites"][site.name] = site_result
    for severity in severities:
        data = {"methods": {m: s.report() for m, s in pooled[severity].items()}}
        results["pooled"][severity] = data
        _print_table(f"pooled / {severity}", data)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


def _print_table(title: str, data: dict[str, Any]) -> None:
    parse = ""
    if "lxml_parse_ms" in data:
        parse = f"  (lxml parse {data['lxml_parse_ms']} ms, page tree {data['tree_parse_ms']} ms)"
    print(f"-- {title}{parse}")
    print(f"   {'method':<12}{'P':>7}{'R':>7}{'F1':>7}{'ms':>9}  ECE  P@0.5/0.7/0.9 (share)")
    for method, report in data["methods"].items():
        thresholds = ""
        if "precision@0.5" in report:
            thresholds = f"  {report['ece']:.3f} " + " ".join(
                f"{report[f'precision@{t}']}({report[f'share@{t}']})" for t in THRESHOLDS
            )
        print(
            f"   {method:<12}{report['precision']:>7.3f}{report['recall']:>7.3f}"
            f"{report['f1']:>7.3f}{report.get('median_ms', 0):>9.2f}{thresholds}"
        )
