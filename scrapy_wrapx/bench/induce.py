"""``python -m scrapy_wrapx.bench induce``: the induction protocol of DESIGN.md.

Per site, induce a template from the first ``--seeds`` pages (0000-0004) and
extract every other page. An attribute value counts as recovered when it
equals one extracted field value (whitespace folded, punctuation trimmed at
both ends) *and* that field is the one carrying the attribute on the other
pages: the field is chosen per attribute by majority over pages, then the
pages where that field has the value are counted. Also reported: template
text leaking into fields (values of fields that match no attribute yet carry
the same value on nearly every page, as a share of all extracted values),
unmatched pages, induction seconds, and median per-page times — extraction
from HTML (parse included), extraction from an already parsed tree, the
normalized parse, and lxml's own parse of the same page in the same run.

The fixture site (:func:`scrapy_wrapx.demo.site.build_site`) runs through the
same protocol on its detail pages, where the truth is exact.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scrapy_wrapx.dom import fold_whitespace, lxml_document, parse
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

#: A value carried on at least this share of pages by a field that matches
#: no attribute is template text leaking into the data.
LEAK_SHARE = 0.9

_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")


def canon(value: str) -> str:
    return _EDGE_PUNCT.sub("", fold_whitespace(value))


@dataclass
class Case:
    """One site: pages as (id, url, html) and truth[attr][page_id]."""

    name: str
    pages: list[tuple[str, str, str]]
    truth: dict[str, dict[str, list[str]]]


def _timed(function: Any, *args: Any, repeat: int = 3) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function(*args)
        best = min(best, time.perf_counter() - start)
    return best * 1000.0, result


def run_case(case: Case, seeds: int, repeat: int) -> dict[str, Any]:
    seed_pages = case.pages[:seeds]
    rest = case.pages[seeds:]
    start = time.perf_counter()
    template = induce_template(
        [html for _, _, html in seed_pages], urls=[url for _, url, _ in seed_pages]
    )
    induce_seconds = time.perf_counter() - start
    times: dict[str, list[float]] = defaultdict(list)
    extracted: dict[str, dict[str, list[str]]] = {}
    unmatched = 0
    scores = []
    for page_id, url, html in rest:
        lxml_ms, _ = _timed(lxml_document, html, url, repeat=repeat)
        parse_ms, tree = _timed(parse, html, url, repeat=repeat)
        tree_ms, ex = _timed(extract, template, tree, url, repeat=repeat)
        total_ms, _ = _timed(extract, template, html, url, repeat=repeat)
        times["lxml_parse_ms"].append(lxml_ms)
        times["parse_ms"].append(parse_ms)
        times["extract_tree_ms"].append(tree_ms)
        times["extract_html_ms"].append(total_ms)
        extracted[page_id] = {
            name: [canon(v) for v in values] for name, values in ex.fields.items()
        }
        unmatched += not ex.matched
        scores.append(ex.score)
    recovery, chosen = _recovery(case, extracted)
    leaked, total_values = _leak(extracted, set(chosen.values()))
    stability = _stability(case, template, seeds, extracted)
    medians = {key: statistics.median(values) for key, values in times.items()}
    return {
        "site": case.name,
        "seeds": len(seed_pages),
        "pages": len(rest),
        "fields": len(template.field_names),
        "recovered": recovery,
        "fields_chosen": chosen,
        "leaked_share": leaked / total_values if total_values else 0.0,
        "leaked_values": leaked,
        "extracted_values": total_values,
        "unmatched_pages": unmatched,
        "unmatched_share": unmatched / len(rest) if rest else 0.0,
        "median_score": statistics.median(scores) if scores else 0.0,
        **stability,
        "induce_seconds": induce_seconds,
        **medians,
        "extract_tree_x_lxml": medians["extract_tree_ms"] / medians["lxml_parse_ms"],
        "extract_html_x_lxml": medians["extract_html_ms"] / medians["lxml_parse_ms"],
    }


def _recovery(
    case: Case, extracted: dict[str, dict[str, list[str]]]
) -> tuple[dict[str, float], dict[str, str]]:
    recovery: dict[str, float] = {}
    chosen: dict[str, str] = {}
    for attr, by_page in sorted(case.truth.items()):
        votes: Counter[str] = Counter()
        for page_id, fields in extracted.items():
            wanted = {canon(v) for v in by_page.get(page_id, [])} - {""}
            for name, values in fields.items():
                if wanted & set(values):
                    votes[name] += 1
        if not votes:
            recovery[attr] = 0.0
            continue
        field = votes.most_common(1)[0][0]
        chosen[attr] = field
        found = total = 0
        for page_id, fields in extracted.items():
            wanted_values = [canon(v) for v in by_page.get(page_id, []) if canon(v)]
            have = set(fields.get(field, []))
            total += len(wanted_values)
            found += sum(1 for v in wanted_values if v in have)
        recovery[attr] = found / total if total else 1.0
    return recovery, chosen


def _stability(
    case: Case, template: Any, seeds: int, extracted: dict[str, dict[str, list[str]]]
) -> dict[str, Any]:
    """Re-induce from the next ``seeds`` pages (0005-0009), alone and with
    the first template as ``previous``, and compare the field that carries
    each attribute (chosen as in :func:`_recovery`, on the pages after
    both seed sets) with the first template's: the share of attributes
    whose field has the same name."""
    second = case.pages[seeds : 2 * seeds]
    rest = case.pages[2 * seeds :]
    if len(second) < seeds or not rest or not case.truth:
        return {}
    ids = {page_id for page_id, _, _ in rest}
    _, first_chosen = _recovery(case, {k: v for k, v in extracted.items() if k in ids})
    shares: dict[str, Any] = {}
    for key, previous in (("names_stable", None), ("names_stable_previous", template)):
        again = induce_template(
            [html for _, _, html in second], urls=[url for _, url, _ in second], previous=previous
        )
        fields = {
            page_id: {
                name: [canon(v) for v in values]
                for name, values in extract(again, html, url).fields.items()
            }
            for page_id, url, html in rest
        }
        _, chosen = _recovery(case, fields)
        same = [attr for attr in first_chosen if chosen.get(attr) == first_chosen[attr]]
        shares[key] = len(same) / len(first_chosen) if first_chosen else 1.0
        shares[key + "_differ"] = {
            attr: (first_chosen[attr], chosen.get(attr))
            for attr in first_chosen
            if attr not in same
        }
    return shares


def _leak(extracted: dict[str, dict[str, list[str]]], data_fields: set[str]) -> tuple[int, int]:
    pages = len(extracted)
    total = sum(len(v) for fields in extracted.values() for v in fields.values())
    per_field: dict[str, Counter[str]] = defaultdict(Counter)
    occurrences: dict[str, Counter[str]] = defaultdict(Counter)
    for fields in extracted.values():
        for name, values in fields.items():
            if name in data_fields:
                continue
            per_field[name].update(set(values))
            occurrences[name].update(values)
    leaked = 0
    for name, counter in per_field.items():
        for value, count in counter.items():
            if pages and count >= LEAK_SHARE * pages:
                leaked += occurrences[name][value]
    return leaked, total


def swde_cases(data: Path) -> list[Case]:
    from scrapy_wrapx.bench._swde import load_sites

    return [
        Case(site.name, [(p.page_id, p.url, p.html) for p in site.pages], site.truth)
        for site in load_sites(data)
    ]


def fixture_case(books: int = 60) -> Case:
    from scrapy_wrapx.demo.site import build_site

    site = build_site(seed=1, books=books)
    pages = [(path, f"http://demo.test{path}", site.pages[path]) for path in site.detail_pages]
    truth: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for path in site.detail_pages:
        for attr, values in site.truth[path].items():
            truth[attr][path] = [fold_whitespace(v) for v in values]
    return Case("fixture", pages, dict(truth))


def _record_values(record: dict[str, Any]) -> set[str]:
    values: set[str] = set()
    stack = [record]
    while stack:
        current = stack.pop()
        for value in current.values():
            if isinstance(value, list):
                stack.extend(value)
            else:
                values.add(canon(str(value)))
    return values


def fixture_list_check(books: int = 60, seeds: int = 3) -> dict[str, float]:
    """List pages of the fixture site: induce from the first ``seeds`` list
    pages, extract all of them, and count, per attribute, the true record
    values found in the extracted record at the same position (records are
    the largest set's rows)."""
    from scrapy_wrapx.demo.site import build_site

    site = build_site(seed=1, books=books)
    template = induce_template([site.pages[path] for path in site.list_pages[:seeds]])
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for path in site.list_pages:
        extraction = extract(template, site.pages[path])
        rows = max(extraction.records.values(), key=len, default=[])
        for index, truth in enumerate(site.records[path]):
            have = _record_values(rows[index]) if index < len(rows) else set()
            for attr, values in truth.items():
                for value in values:
                    total[attr] += 1
                    found[attr] += canon(value) in have
    return {attr: found[attr] / total[attr] for attr in sorted(total)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scrapy_wrapx.bench induce")
    parser.add_argument("--data", type=Path, default=None, help="an SWDE vertical, e.g. swde/book")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="timing runs per page (min taken)")
    parser.add_argument("--no-fixture", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    cases = swde_cases(args.data) if args.data is not None else []
    if not args.no_fixture:
        cases.append(fixture_case())
    results = []
    for case in cases:
        result = run_case(case, args.seeds, args.repeat)
        results.append(result)
        print(
            f"== {result['site']}: {result['pages']} pages, {result['fields']} fields, "
            f"induction {result['induce_seconds']:.2f}s"
        )
        for attr, share in result["recovered"].items():
            print(
                f"  {attr:<18} recovered {share:.3f}  field {result['fields_chosen'].get(attr)!r}"
            )
        print(
            f"  leaked {result['leaked_share']:.4f} ({result['leaked_values']}/"
            f"{result['extracted_values']}), unmatched {result['unmatched_pages']}"
            f" ({result['unmatched_share']:.3f}), median score {result['median_score']:.3f}"
        )
        if "names_stable" in result:
            print(
                f"  field names stable on re-induction from the next {result['seeds']} pages:"
                f" {result['names_stable']:.3f} of attributes"
                f" {result['names_stable_differ'] or ''}, with previous="
                f" {result['names_stable_previous']:.3f}"
                f" {result['names_stable_previous_differ'] or ''}"
            )
        print(
            f"  median ms: lxml {result['lxml_parse_ms']:.2f}, parse {result['parse_ms']:.2f},"
            f" extract(tree) {result['extract_tree_ms']:.2f}"
            f" ({result['extract_tree_x_lxml']:.2f}x), extract(html)"
            f" {result['extract_html_ms']:.2f} ({result['extract_html_x_lxml']:.2f}x)"
        )
    if not args.no_fixture:
        shares = fixture_list_check()
        print(
            "== fixture list pages: records recovered "
            + ", ".join(f"{attr} {share:.3f}" for attr, share in shares.items())
        )
    swde = [r for r in results if r["site"] != "fixture"]
    pairs = [share for r in swde for share in r["recovered"].values()]
    if pairs:
        print(
            f"SWDE: mean recovered {statistics.mean(pairs):.3f} over {len(pairs)} pairs,"
            f" min {min(pairs):.3f}"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))
    return 0
