"""``python -m benchmarks induce``: the induction protocol of DESIGN.md.

Per site, induce a template from the first ``--seeds`` pages (0000-0004),
name its fields as the crawl does (:func:`name_template`), and extract
every other page into the item a user gets: a *field* below is a path in
that item (``title``, ``reviews.author``, ``details.weight``: see
:mod:`benchmarks._items`). An attribute value counts as recovered when it
equals one value of a field (whitespace folded, punctuation trimmed at
both ends) *and* that field is the one carrying the attribute on the other
pages: the field is chosen per attribute by majority over pages, then the
pages where that field has the value are counted. Also reported: template
text leaking into fields (values of fields that match no attribute yet carry
the same value on nearly every page, as a share of all extracted values),
unmatched pages, induction seconds, and median per-page times — extraction
from HTML (parse included), extraction from an already parsed tree, the
normalized parse, and lxml's own parse of the same page in the same run.

Item figures, on the items a user gets (:func:`build_item`): the share of
ground-truth values recovered *exactly* in one field per attribute (only
whitespace folded and a leading "Label:" dropped, so a value that lost its
unit does not count), the template share of an item's values with per-page
tokens normalised (session ids, tracking parameters: see
:mod:`scrapy_wrapx.induction._pagetokens`), non-empty fields per item, and
partial items (pages that failed the template, emitted with what matched).

The fixture site (:func:`scrapy_wrapx.demo.site.build_site`) runs through the
same protocol on its detail pages, where the truth is exact.

Sites are *tuning* sites (SWDE booksamillion and christianbook, the
fixture, and the sites of ``benchmarks/data/swde`` named in
:data:`benchmarks._swde.TUNING_EXTRA_SITES`:
the ones the rules were developed on) or *reporting* sites (the other sites
of ``benchmarks/data/swde/<vertical>/<site>/``): the summary keeps them
apart.
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
from typing import TYPE_CHECKING, Any

from benchmarks._items import item_values
from benchmarks._swde import TUNING_EXTRA_SITES
from scrapy_wrapx.dom import fold_whitespace, lxml_document, parse
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.induction._pagetokens import normalize, tree_tokens
from scrapy_wrapx.unsupervised.items import ITEM_KEYS, build_item
from tests.values import canon

if TYPE_CHECKING:
    from scrapy_wrapx.template import Extraction, Template

#: A value carried on at least this share of pages by a field that matches
#: no attribute is template text leaking into the data.
LEAK_SHARE = 0.9
#: Where the other SWDE verticals are fetched to (``<vertical>/<site>/``).
EXTRA_DATA = Path(__file__).parent / "data" / "swde"
#: The sites the rules were tuned on besides TUNING_EXTRA_SITES: the
#: fixture and the two book sites of ``shared/data`` (other book sites of
#: ``benchmarks/data/swde`` report).
TUNING_VERTICALS = ("fixture",)
TUNING_BOOK_SITES = ("booksamillion", "christianbook")
#: A leading label, the one part of a value a person does not miss (SWDE's
#: truth keeps the ": " of some labels, ": 9780505528490": dropped too).
_LEADING_LABEL = re.compile(r"^(?:[^\W\d_][^:]{0,30}?)?:\s*")


def exact_form(value: str) -> str:
    """A value as compared for exact recovery: whitespace folded, a leading
    "Label:" dropped, nothing else (a unit must be there).

    >>> exact_form("Weight: 469 g"), exact_form(": June 2010"), exact_form("469")
    ('469 g', 'June 2010', '469')
    """
    return _LEADING_LABEL.sub("", fold_whitespace(value)).strip()


@dataclass
class Case:
    """One site: pages as (id, url, html) and truth[attr][page_id]."""

    name: str
    pages: list[tuple[str, str, str]]
    truth: dict[str, dict[str, list[str]]]
    vertical: str = "book"

    @property
    def tuning(self) -> bool:
        return (
            self.vertical in TUNING_VERTICALS
            or (self.vertical == "book" and self.name in TUNING_BOOK_SITES)
            or f"{self.vertical}/{self.name}" in TUNING_EXTRA_SITES
        )


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
    seed_trees = [parse(html, url) for _, url, html in seed_pages]
    template = induce_template(seed_trees, urls=[url for _, url, _ in seed_pages])
    name_template(template, seed_trees)
    induce_seconds = time.perf_counter() - start
    times: dict[str, list[float]] = defaultdict(list)
    extracted: dict[str, dict[str, list[str]]] = {}
    normalized: dict[str, dict[str, list[str]]] = {}
    exact: dict[str, dict[str, list[str]]] = {}
    item_fields: list[int] = []
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
        values = item_values(ex, template)
        extracted[page_id] = _forms(values, canon)
        tokens = tree_tokens(tree)
        normalized[page_id] = _forms(values, lambda v, t=tokens: canon(normalize(v, t)))
        exact[page_id] = _forms(values, exact_form)
        item_fields.append(nonempty_fields(ex, template))
        unmatched += not ex.matched
        scores.append(ex.score)
    recovery, chosen = _recovery(case, extracted)
    exact_recovery, exact_chosen = _recovery(case, exact, exact_form)
    page_level = _page_level(case, exact, exact_chosen, exact_form)
    leaked, total_values = _leak(extracted, set(chosen.values()))
    template_values, _ = _leak(normalized, set(chosen.values()) | set(exact_chosen.values()))
    stability = _stability(case, template, seeds, extracted)
    medians = {key: statistics.median(values) for key, values in times.items()}
    return {
        "site": case.name,
        "seeds": len(seed_pages),
        "pages": len(rest),
        "fields": len(template.field_names),
        "recovered": recovery,
        "fields_chosen": chosen,
        "recovered_exact": exact_recovery,
        "fields_chosen_exact": exact_chosen,
        "recovered_page_level": page_level,
        "template_share": _share(template_values, total_values),
        "item_fields_median": statistics.median(item_fields or [0]),
        "item_fields_max": max(item_fields, default=0),
        "vertical": case.vertical,
        "tuning": case.tuning,
        "leaked_share": _share(leaked, total_values),
        "leaked_values": leaked,
        "extracted_values": total_values,
        "unmatched_pages": unmatched,
        "unmatched_share": _share(unmatched, len(rest)),
        "median_score": statistics.median(scores or [0.0]),
        **stability,
        "induce_seconds": induce_seconds,
        **medians,
        "extract_tree_x_lxml": medians["extract_tree_ms"] / medians["lxml_parse_ms"],
        "extract_html_x_lxml": medians["extract_html_ms"] / medians["lxml_parse_ms"],
    }


def _forms(fields: dict[str, list[str]], form: Any) -> dict[str, list[str]]:
    return {name: [form(v) for v in values] for name, values in fields.items()}


def _share(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def nonempty_fields(extraction: Extraction, template: Template) -> int:
    """How many data keys of the page's item hold something (a record set
    counts once, as a user sees it)."""
    item = build_item(None, "", "", 0, extraction, template)
    return sum(1 for key, value in item.items() if key not in ITEM_KEYS and value)


def _recovery(
    case: Case, extracted: dict[str, dict[str, list[str]]], form: Any = canon
) -> tuple[dict[str, float], dict[str, str]]:
    recovery: dict[str, float] = {}
    chosen: dict[str, str] = {}
    for attr, by_page in sorted(case.truth.items()):
        if not any(form(v) for page_id in extracted for v in by_page.get(page_id, [])):
            continue  # absent on every page scored (monster's date_posted)
        votes: Counter[str] = Counter()
        for page_id, fields in extracted.items():
            wanted = {form(v) for v in by_page.get(page_id, [])} - {""}
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
            wanted_values = [form(v) for v in by_page.get(page_id, []) if form(v)]
            have = set(fields.get(field, []))
            total += len(wanted_values)
            found += sum(1 for v in wanted_values if v in have)
        recovery[attr] = found / total if total else 1.0
    return recovery, chosen


def _page_level(
    case: Case, extracted: dict[str, dict[str, list[str]]], chosen: dict[str, str], form: Any
) -> dict[str, float]:
    """SWDE's own measure (Hao et al. 2011): the share of pages showing an
    attribute whose chosen field holds *one* of its true values. A page
    can state a value twice (a phone and a toll-free number, a model in
    the heading and in the specs), and per-value recovery asks for every
    mention in the one field; this asks for one."""
    shares: dict[str, float] = {}
    for attr, field in chosen.items():
        by_page = case.truth[attr]
        shown = found = 0
        for page_id, fields in extracted.items():
            wanted = {form(v) for v in by_page.get(page_id, [])} - {""}
            if wanted:
                shown += 1
                found += bool(wanted & set(fields.get(field, [])))
        shares[attr] = found / shown if shown else 1.0
    return shares


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
        trees = [parse(html, url) for _, url, html in second]
        again = induce_template(trees, urls=[url for _, url, _ in second], previous=previous)
        name_template(again, trees, previous=previous)
        fields = {
            page_id: _forms(item_values(extract(again, html, url), again), canon)
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


def _load_site(site_dir: Path) -> Any:
    """One site, its pages in ``pages/`` (``shared/data``) or beside its
    ``groundtruth/`` (``benchmarks/data``)."""
    from benchmarks._swde import SwdeSite, load_site, read_page, read_truth

    if (site_dir / "pages").is_dir():
        return load_site(site_dir)
    site = SwdeSite(site_dir.name, [read_page(p) for p in sorted(site_dir.glob("*.htm"))])
    for truth_path in sorted((site_dir / "groundtruth").glob("*.txt")):
        site.truth[truth_path.stem] = read_truth(truth_path)
    return site


def _site_dirs(data: Path) -> list[Path]:
    return sorted(
        path
        for path in data.iterdir()
        if (path / "pages").is_dir() or (path.is_dir() and any(path.glob("*.htm")))
    )


def swde_cases(data: Path, min_pages: int = 0) -> list[Case]:
    """The sites of one vertical directory (``swde/book``), or of every
    vertical under a root (``benchmarks/data/swde``); sites with fewer than
    ``min_pages`` pages are left out (still being fetched)."""
    verticals = [data] if _site_dirs(data) else sorted(p for p in data.iterdir() if p.is_dir())
    cases = []
    for vertical in verticals:
        for site_dir in _site_dirs(vertical):
            site = _load_site(site_dir)
            if len(site.pages) >= max(min_pages, 1):
                pages = [(p.page_id, p.url, p.html) for p in site.pages]
                cases.append(Case(site.name, pages, site.truth, vertical.name))
    return cases


def fixture_case(books: int = 60) -> Case:
    from scrapy_wrapx.demo.site import build_site

    site = build_site(seed=1, books=books)
    pages = [(path, f"http://demo.test{path}", site.pages[path]) for path in site.detail_pages]
    truth: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for path in site.detail_pages:
        for attr, values in site.truth[path].items():
            truth[attr][path] = [fold_whitespace(v) for v in values]
    return Case("fixture", pages, dict(truth), "fixture")


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


def _print_result(result: dict[str, Any]) -> None:
    split = "tuning" if result["tuning"] else "reporting"
    print(
        f"== {result['vertical']}/{result['site']} ({split}): {result['pages']} pages,"
        f" {result['fields']} fields, induction {result['induce_seconds']:.2f}s"
    )
    for attr, share in result["recovered"].items():
        print(
            f"  {attr:<18} recovered {share:.3f}  field {result['fields_chosen'].get(attr)!r};"
            f" exact {result['recovered_exact'].get(attr, 0.0):.3f}"
            f"  field {result['fields_chosen_exact'].get(attr)!r};"
            f" page level {result['recovered_page_level'].get(attr, 0.0):.3f}"
        )
    print(
        f"  leaked {result['leaked_share']:.4f} ({result['leaked_values']}/"
        f"{result['extracted_values']}), template values (tokens normalised)"
        f" {result['template_share']:.4f}, non-empty fields per item median"
        f" {result['item_fields_median']} max {result['item_fields_max']}"
    )
    print(
        f"  unmatched (partial items) {result['unmatched_pages']}"
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


def _summary(swde: list[dict[str, Any]]) -> dict[str, Any]:
    """Means over the sites of one split."""
    pairs = [share for r in swde for share in r["recovered"].values()]
    exact = [r["recovered_exact"].get(attr, 0.0) for r in swde for attr in r["recovered"]]
    page = [r["recovered_page_level"].get(attr, 0.0) for r in swde for attr in r["recovered"]]
    return {
        "pairs": len(pairs),
        "recovered": statistics.mean(pairs or [0.0]),
        "min": min(pairs, default=0.0),
        "exact": statistics.mean(exact or [0.0]),
        "page_level": statistics.mean(page or [0.0]),
        "pages": sum(r["pages"] for r in swde),
        "template": statistics.mean(r["template_share"] for r in swde),
        "fields": statistics.median(r["item_fields_median"] for r in swde),
        "unmatched": sum(r["unmatched_pages"] for r in swde),
    }


def _print_summary(results: list[dict[str, Any]], tuning: bool) -> None:
    swde = [r for r in results if r["site"] != "fixture"]
    if not swde:
        return
    m = _summary(swde)
    print(
        f"SWDE {'tuning' if tuning else 'reporting'} ({len(swde)} sites, {m['pages']} pages):"
        f" mean recovered {m['recovered']:.3f} (exact {m['exact']:.3f}, page level"
        f" {m['page_level']:.3f}) over {m['pairs']}"
        f" pairs, min {m['min']:.3f}; template values {m['template']:.4f};"
        f" fields per item {m['fields']}; unmatched {m['unmatched']}/{m['pages']}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks induce")
    parser.add_argument("--data", type=Path, default=None, help="an SWDE vertical, e.g. swde/book")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="timing runs per page (min taken)")
    parser.add_argument("--no-fixture", action="store_true")
    parser.add_argument(
        "--extra",
        type=Path,
        default=EXTRA_DATA,
        help="other verticals (<vertical>/<site>/NNNN.htm), reported apart",
    )
    parser.add_argument("--min-pages", type=int, default=20, help="skip smaller extra sites")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    cases = swde_cases(args.data) if args.data is not None else []
    if args.extra is not None and args.extra.is_dir():
        cases.extend(swde_cases(args.extra, args.min_pages))
    if not args.no_fixture:
        cases.append(fixture_case())
    results = []
    for case in cases:
        if len(case.pages) <= args.seeds:
            print(f"== {case.vertical}/{case.name}: skipped, no page after the {args.seeds} seeds")
            continue
        result = run_case(case, args.seeds, args.repeat)
        results.append(result)
        _print_result(result)
    if not args.no_fixture:
        shares = fixture_list_check()
        print(
            "== fixture list pages: records recovered "
            + ", ".join(f"{attr} {share:.3f}" for attr, share in shares.items())
        )
    for tuning in (True, False):
        _print_summary([r for r in results if r["tuning"] == tuning], tuning)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))
    return 0
