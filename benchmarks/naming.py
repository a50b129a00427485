"""``python -m benchmarks naming``: are field names ones a person would pick,
and do they stay across a redesign?

**Picked names.** Per site, induce from the first ``--seeds`` pages (as the
crawl does: :func:`scrapy_wrapx.induction.name_template` included), extract
the other pages into items, and take the field (a path in the item:
:mod:`benchmarks._items`) that carries each ground-truth attribute
(majority over pages, as :mod:`benchmarks.induce` does). Its name, the key
a person reads it by (``weight`` in ``details.weight``), counts as
*picked* when one of its words (split on ``_``) is a word of the
attribute's name or one of the attribute's generic synonyms in
:data:`SYNONYMS`. That list is a measuring stick written from the
attribute names alone, never read by the code: ``title`` accepts
title/name/heading, ``price`` price/cost/amount...

**Kept names.** A site is induced before a redesign (v1) and after it
(v2, with v1 as ``previous``, as re-induction does); on the pages after the
seeds, every true value is looked up in both extractions, and counts as
kept when every field name that held it before still holds it after (a
user reading it by its old name still finds it). Redesigns: the
demo bookstore's ``/v2/`` design, and :func:`benchmarks.redesign2.redesign`
("medium") of the SWDE pages.

Tuning and reporting are kept apart: the naming rules were tuned on
:data:`TUNING_SITES`; every other site is reported as is.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks._items import item_values, leaf
from benchmarks._swde import TUNING_EXTRA_SITES, SwdeSite, load_site
from benchmarks.induce import Case, fixture_case
from scrapy_wrapx.dom import parse
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from tests.values import canon

#: Sites the naming rules were tuned on (the others are reporting only).
TUNING_SITES = frozenset({"book/booksamillion", "book/christianbook", "demo"}) | TUNING_EXTRA_SITES

#: Generic synonyms per attribute word (the measuring stick, see the doc).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "title": ("title", "name", "heading", "headline"),
    "name": ("name", "title", "heading"),
    "model": ("model", "name", "title"),
    "author": ("author", "authors", "writer", "creator", "byline"),
    "price": ("price", "cost", "amount", "msrp"),
    "isbn": ("isbn", "isbn13", "isbn10"),
    "publisher": ("publisher",),
    "publication": ("published", "publication", "pubdate", "release"),
    "date": ("date", "posted", "published", "pubdate", "release", "released"),
    "description": ("description", "summary", "overview"),
    "image": ("image", "img", "cover", "picture", "photo", "thumbnail"),
    "rating": ("rating", "ratings", "stars", "score"),
    "address": ("address", "location", "street", "streetaddress"),
    "location": ("location", "address", "city", "place", "region", "locality"),
    "phone": ("phone", "telephone", "tel"),
    "cuisine": ("cuisine", "cuisines", "food", "category", "categories"),
    "company": ("company", "employer", "organization", "hiringorganization"),
    "website": ("website", "url", "homepage", "site", "web"),
    "type": ("type", "kind", "category"),
    "manufacturer": ("manufacturer", "brand", "maker", "make"),
    "team": ("team",),
    "height": ("height",),
    "weight": ("weight",),
    "genre": ("genre", "genres", "category"),
    "director": ("director", "directors", "directed"),
    "mpaa": ("mpaa", "rated", "rating", "contentrating"),
    "engine": ("engine", "engines"),
    "fuel": ("fuel", "mpg"),
    "economy": ("economy", "mpg"),
}

_WORD = re.compile(r"[a-z0-9]+")


def picked(name: str, attribute: str) -> bool:
    """Whether a person would pick ``name`` for ``attribute`` (see the doc).

    >>> picked("product_title", "title"), picked("h1", "title")
    (True, False)
    >>> picked("published", "publication_date"), picked("by", "author")
    (True, False)
    >>> picked("details.isbn_13", "isbn_13"), picked("isbn_list.value", "isbn_13")
    (True, False)
    """
    words = set(_WORD.findall(leaf(name).lower()))
    wanted: set[str] = set()
    for word in _WORD.findall(attribute.lower()):
        wanted.add(word)
        wanted.update(SYNONYMS.get(word, ()))
    return bool(words & wanted)


def induce_named(pages: list[tuple[str, str, str]], previous: Template | None = None) -> Template:
    """Induce and name a template as the crawl does."""
    urls = [url for _, url, _ in pages]
    trees = [parse(html, url) for _, url, html in pages]
    template = induce_template(trees, urls=urls, previous=previous)
    name_template(template, trees, previous=previous)
    return template


def _fields(
    template: Template, pages: list[tuple[str, str, str]]
) -> dict[str, dict[str, list[str]]]:
    """Each page's item values by path (:mod:`benchmarks._items`)."""
    return {
        page_id: {
            name: [canon(v) for v in values]
            for name, values in item_values(extract(template, html, url), template).items()
        }
        for page_id, url, html in pages
    }


def chosen_fields(
    truth: dict[str, dict[str, list[str]]], extracted: dict[str, dict[str, list[str]]]
) -> dict[str, str]:
    """The field carrying each attribute: most pages holding a true value
    (ties: a picked name first, then by name)."""
    chosen: dict[str, str] = {}
    for attr, by_page in sorted(truth.items()):
        votes: Counter[str] = Counter()
        for page_id, fields in extracted.items():
            wanted = {canon(v) for v in by_page.get(page_id, [])} - {""}
            for name, values in fields.items():
                if wanted & set(values):
                    votes[name] += 1
        if votes:
            # Of fields carrying it on as many pages, a person uses the
            # well-named one.
            chosen[attr] = min(votes, key=lambda n: (-votes[n], not picked(n, attr), n))
    return chosen


def naming_case(case: Case, seeds: int, pages: int) -> dict[str, Any]:
    template = induce_named(case.pages[:seeds])
    extracted = _fields(template, case.pages[seeds : seeds + pages])
    chosen = chosen_fields(case.truth, extracted)
    return {
        "site": case.name,
        "fields": {attr: (name, picked(name, attr)) for attr, name in chosen.items()},
        "missing": sorted(set(case.truth) - set(chosen)),
    }


def kept_share(before: Case, after: Case, seeds: int, pages: int) -> dict[str, Any]:
    """Share of true values held by a field of the same name before and
    after the redesign (``after`` has the same page ids and truth)."""
    old = induce_named(before.pages[:seeds])
    new = induce_named(after.pages[:seeds], previous=old)
    rest = slice(seeds, seeds + pages)
    old_fields = _fields(old, before.pages[rest])
    new_fields = _fields(new, after.pages[rest])
    kept = total = 0
    changed: Counter[tuple[str, str]] = Counter()
    for by_page in before.truth.values():
        for page_id, values in by_page.items():
            if page_id not in old_fields or page_id not in new_fields:
                continue
            for value in {canon(v) for v in values} - {""}:
                was = _holders(old_fields[page_id], value)
                now = _holders(new_fields[page_id], value)
                if not was or not now:
                    continue
                total += 1
                kept += was <= now
                if not was <= now:
                    changed[",".join(sorted(was - now)), ",".join(sorted(now - was))] += 1
    return {
        "site": before.name,
        "kept": kept,
        "values": total,
        "share": kept / total if total else 1.0,
        "changed": [f"{a} -> {b} ({n})" for (a, b), n in changed.most_common(5)],
    }


def _holders(fields: dict[str, list[str]], value: str) -> set[str]:
    return {name for name, values in fields.items() if value in values}


def demo_cases(books: int = 60) -> tuple[Case, Case]:
    """The demo bookstore's detail pages, original and ``/v2/`` redesign."""
    before = fixture_case(books)
    before.name = "demo"
    after = _redesigned_fixture(books)
    return before, after


def _redesigned_fixture(books: int) -> Case:
    from scrapy_wrapx.demo.site import build_site

    site = build_site(seed=1, books=books, redesigned=True)
    pages = [(p, f"http://demo.test/v2{p}", site.pages[p]) for p in site.detail_pages]
    return Case("demo-v2", pages, {})


def swde_case(site: SwdeSite, vertical: str) -> Case:
    return Case(
        f"{vertical}/{site.name}", [(p.page_id, p.url, p.html) for p in site.pages], site.truth
    )


def redesigned_case(case: Case) -> Case:
    """``case`` through :func:`benchmarks.redesign2.redesign` (medium),
    protecting the true values; same URLs, as a redesign in place."""
    from benchmarks.redesign2 import redesign

    pages = []
    for index, (page_id, url, html) in enumerate(case.pages):
        keep = frozenset(v for by_page in case.truth.values() for v in by_page.get(page_id, []))
        pages.append((page_id, url, redesign(html, "medium", seed=index % 3, keep=keep)))
    return Case(case.name + "+redesign2", pages, case.truth)


def find_sites(roots: list[Path], limit: int) -> list[tuple[str, SwdeSite]]:
    """SWDE sites under ``roots`` (``<vertical>/<site>/`` with ``pages/`` or
    the page files themselves, and ``groundtruth/``)."""
    found: list[tuple[str, SwdeSite]] = []
    for root in roots:
        for truth_dir in sorted(root.glob("*/*/groundtruth")):
            site_dir = truth_dir.parent
            pages = site_dir / "pages" if (site_dir / "pages").is_dir() else site_dir
            if len(list(pages.glob("*.htm"))) < 8:
                continue
            site = _load(site_dir, pages, limit)
            if site.truth:
                found.append((site_dir.parent.name, site))
    return found


def _load(site_dir: Path, pages: Path, limit: int) -> SwdeSite:
    if pages != site_dir:
        return load_site(site_dir, limit)
    from benchmarks._swde import read_page, read_truth

    site = SwdeSite(site_dir.name, [read_page(p) for p in sorted(pages.glob("*.htm"))[:limit]])
    for truth_path in sorted((site_dir / "groundtruth").glob("*.txt")):
        site.truth[_attribute(truth_path.stem, site_dir.name)] = read_truth(truth_path)
    return site


def _attribute(stem: str, site: str) -> str:
    """``book-christianbook-author`` -> ``author`` (SWDE's file names)."""
    prefix = f"-{site}-"
    return stem.split(prefix, 1)[1] if prefix in stem else stem


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks naming")
    parser.add_argument(
        "--data",
        type=Path,
        action="append",
        default=None,
        help="a folder of SWDE verticals (default: shared book data and benchmarks/data/swde)",
    )
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--pages", type=int, default=25, help="pages extracted per site")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    roots = args.data or [Path("../shared/data/swde"), Path("benchmarks/data/swde")]
    sites = find_sites([r for r in roots if r.is_dir()], args.seeds + args.pages)
    demo, demo_v2 = demo_cases()
    cases = [demo, *(swde_case(site, vertical) for vertical, site in sites)]
    results = [naming_case(case, args.seeds, args.pages) for case in cases]
    for result in results:
        tag = "tuning" if result["site"] in TUNING_SITES else "report"
        print(f"== {result['site']} ({tag})")
        for attr, (name, ok) in sorted(result["fields"].items()):
            print(f"  {attr:<18} {name!r:<40} {'picked' if ok else 'POOR'}")
        if result["missing"]:
            print(f"  not carried by any field: {', '.join(result['missing'])}")
    kept = [kept_share(demo, demo_v2, args.seeds, args.pages)]
    kept += [kept_share(case, redesigned_case(case), args.seeds, args.pages) for case in cases[1:]]
    print("== names kept across a redesign (share of true values)")
    for result in kept:
        print(
            f"  {result['site']:<30} {result['share']:.3f} ({result['kept']}/{result['values']})"
            f" {'; '.join(result['changed'])}"
        )
    _summary(results, kept)
    if args.json is not None:
        args.json.write_text(json.dumps({"names": results, "kept": kept}, indent=2))
    return 0


def _summary(results: list[dict[str, Any]], kept: list[dict[str, Any]]) -> None:
    for tag, wanted in (("tuning", True), ("reporting", False)):
        flags = [
            ok
            for r in results
            if (r["site"] in TUNING_SITES) == wanted
            for _, ok in r["fields"].values()
        ]
        if flags:
            print(
                f"{tag} sites: {sum(flags)}/{len(flags)} fields carrying an attribute picked"
                f" ({sum(flags) / len(flags):.1%})"
            )
    for tag, wanted in (("tuning", True), ("reporting", False)):
        group = [r for r in kept if (r["site"] in TUNING_SITES) == wanted]
        values = sum(r["values"] for r in group)
        if values:
            held = sum(r["kept"] for r in group)
            print(
                f"{tag} sites: names kept across redesigns {held}/{values}"
                f" ({held / values:.1%}); median per site"
                f" {statistics.median(r['share'] for r in group):.3f}"
            )
