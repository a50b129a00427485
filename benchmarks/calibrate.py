"""Fit the locator's confidence model on synthetic data (never on SWDE).

``python -m benchmarks.calibrate [--seeds 40] [--holdout 12]``

The hybrid locator reports P(correct) through a logistic model of its
evidence (:mod:`scrapy_wrapx.locate.confidence`). This script regenerates
that model's coefficients from pages the project generates itself, so the
benchmark's SWDE pages stay unseen:

* bookstores of :func:`scrapy_wrapx.demo.site.build_site` for seeds
  ``0 .. seeds-1``, in both designs; a reference page is taken from one
  design and relocated on other pages of the same design and of the other
  one (a redesign, in both directions);
* every variant page is, by a seeded draw, left plain or put through
  :func:`tests.mutate.mutate` at one of its three severities;
* targets are every detail field the reference page shows (single values,
  the author list, the cover's ``src``), a record's field on a catalogue
  page (a member of a repeated structure) and all titles of a catalogue
  page (a list). Fields absent on the variant (no rating, no date) are
  where every answer is wrong: the model must learn to doubt there too;
* the generated shop of :mod:`tests.shop` (seeds from
  :data:`SHOP_SEEDS` on, never the seeds its tests crawl), its targets
  taken on the first design and relocated on the first design and on its
  redesign (a struck-through old price before the price, a promo heading,
  new spec rows, divs for tables, optional parts absent), as the targets
  middleware asks: single targets as single.

Each answer (rank 0) of each method is one sample: its evidence and
whether its value is in the variant's truth. The model is an L2-regularised
logistic regression fitted by Newton's method in plain Python. Seeds
``seeds .. seeds+holdout-1`` are held out and scored: log loss, Brier
score, expected calibration error and the precision above the benchmark's
thresholds. The printed ``COEFFICIENTS`` block goes into
``scrapy_wrapx/locate/confidence.py``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from scrapy_wrapx import Target, dom
from scrapy_wrapx.demo.site import DETAIL_FIELDS, DemoSite, build_site
from scrapy_wrapx.dom import fold_whitespace
from scrapy_wrapx.locate import HybridLocator, TargetReference
from scrapy_wrapx.locate import confidence as model
from tests.calibration import THRESHOLDS, Sample, fit, leaf_xpaths, report
from tests.mutate import SEVERITIES, mutate
from tests.shop import build_shop, shop_targets

METHODS = ("ssnp", "ssn", "ssp")
#: Shop seeds start here: far from the seeds the shop tests crawl.
SHOP_SEEDS = 1000


def _variant(html: str, rng: random.Random) -> str:
    severity = rng.choice(["plain", *SEVERITIES])
    if severity == "plain":
        return html
    return mutate(html, severity, seed=rng.randrange(1 << 30))


def samples_for_seed(seed: int, variants: int = 8) -> dict[str, list[Sample]]:
    """Evidence and correctness of every method's answers for one seed."""
    rng = random.Random(f"calibrate-{seed}")
    designs = {False: build_site(seed), True: build_site(seed, redesigned=True)}
    locators = {method: HybridLocator(method) for method in METHODS}
    found: dict[str, list[Sample]] = {method: [] for method in METHODS}
    for ref_design in (False, True):
        reference_site = designs[ref_design]
        for var_design in (False, True):
            variant_site = designs[var_design]
            _detail_samples(reference_site, variant_site, rng, variants, locators, found)
            _list_samples(reference_site, variant_site, rng, locators, found)
    _shop_samples(SHOP_SEEDS + seed, rng, variants, locators, found)
    return found


def _shop_samples(
    seed: int,
    rng: random.Random,
    variants: int,
    locators: dict[str, HybridLocator],
    found: dict[str, list[Sample]],
) -> None:
    """Targets of a generated shop, relocated on both of its designs."""
    original, _ = build_shop(seed)
    redesigned, _ = build_shop(seed, redesigned=True)
    paths = list(original)
    references = _shop_references(original, rng, locators["ssnp"])
    for path in rng.sample(paths, k=min(2 * variants, len(paths))):
        site = redesigned if rng.random() < 0.7 else original
        variant = dom.parse(_variant(site[path].html, rng))
        truth = site[path].truth
        for name, (reference, many) in references.items():
            want = truth[name]
            wanted = set(want) if isinstance(want, list) else {want} if want else set()
            _score(reference, variant, wanted, locators, found, many)


def _shop_references(
    original: dict[str, Any], rng: random.Random, locator: HybridLocator
) -> dict[str, tuple[TargetReference, bool]]:
    """Each declared shop target's reference, from a random page of the
    first design where it is found (a list's, where it has most members)."""
    declared = shop_targets("-", "-")  # examples: each reference page's own values
    references: dict[str, tuple[TargetReference, bool]] = {}
    pages = list(original.values())
    rng.shuffle(pages)
    for name, target in declared.items():
        best: TargetReference | None = None
        for product in pages:
            reference = _shop_reference(locator, product, name, target)
            if reference is not None and (
                best is None or len(reference.targets) > len(best.targets)
            ):
                best = reference
            if best is not None and not target.is_list:
                break
        if best is not None:
            references[name] = (best, target.is_list)
    return references


def _shop_reference(
    locator: HybridLocator, product: Any, name: str, target: Target
) -> TargetReference | None:
    try:
        if target.example is not None:
            return locator.reference_by_example(product.html, product.truth[name])
        assert target.selector is not None
        return locator.reference(product.html, target.selector)
    except ValueError:
        return None


def _detail_samples(
    reference_site: DemoSite,
    variant_site: DemoSite,
    rng: random.Random,
    variants: int,
    locators: dict[str, HybridLocator],
    found: dict[str, list[Sample]],
) -> None:
    pages = list(reference_site.detail_pages)
    reference_path = rng.choice(pages)
    tree = dom.parse(reference_site.pages[reference_path])
    targets = []
    for name in DETAIL_FIELDS:
        values = reference_site.truth[reference_path][name]
        xpaths = leaf_xpaths(tree, values)
        if xpaths:
            reference = locators["ssnp"].reference(tree, " | ".join(xpaths))
            targets.append((name, reference))
    others = [path for path in pages if path != reference_path]
    for path in rng.sample(others, k=min(variants, len(others))):
        variant = dom.parse(_variant(variant_site.pages[path], rng))
        truth = variant_site.truth[path]
        for name, reference in targets:
            _score(reference, variant, set(truth[name]), locators, found)


def _list_samples(
    reference_site: DemoSite,
    variant_site: DemoSite,
    rng: random.Random,
    locators: dict[str, HybridLocator],
    found: dict[str, list[Sample]],
) -> None:
    pages = list(reference_site.list_pages)
    reference_path = rng.choice(pages)
    tree = dom.parse(reference_site.pages[reference_path])
    records = reference_site.records[reference_path]
    targets = []
    number = rng.randrange(len(records))
    for name in ("title", "price", "author"):
        xpaths = leaf_xpaths(tree, records[number][name])
        if xpaths:
            reference = locators["ssnp"].reference(tree, " | ".join(xpaths))
            targets.append((f"{name}:{number}", reference))
    titles = leaf_xpaths(tree, [record["title"][0] for record in records])
    if len(titles) > 1:
        targets.append(("titles", locators["ssnp"].reference(tree, " | ".join(titles))))
    for path in pages:
        if path == reference_path and variant_site is reference_site:
            continue
        variant = dom.parse(_variant(variant_site.pages[path], rng))
        variant_records = variant_site.records[path]
        for name, reference in targets:
            if name == "titles":
                truth = {record["title"][0] for record in variant_records}
            else:
                field, position = name.split(":")
                index = int(position)
                truth = (
                    set(variant_records[index][field]) if index < len(variant_records) else set()
                )
            _score(reference, variant, truth, locators, found)


def _score(
    reference: TargetReference,
    variant: dom.PageTree,
    truth: set[str],
    locators: dict[str, HybridLocator],
    found: dict[str, list[Sample]],
    many: bool | None = None,
) -> None:
    for method, locator in locators.items():
        for candidate in locator.locate(reference, variant, many=many):
            if candidate.rank != 0 or candidate.evidence is None:
                continue
            correct = int(fold_whitespace(candidate.text) in truth)
            found[method].append((tuple(candidate.evidence), correct))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calibrate")
    parser.add_argument("--seeds", type=int, default=40, help="training bookstores")
    parser.add_argument("--holdout", type=int, default=12, help="held-out bookstores")
    parser.add_argument("--variants", type=int, default=8, help="variant pages per pair")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty of the weights")
    args = parser.parse_args(argv)
    # Evidence does not depend on the coefficients, but which repeats and
    # ties join an answer does (those of at least 0.5): sample with the
    # shipped model, so a refit converges on what the locator really
    # returns; a method without coefficients samples with a neutral model.
    saved = dict(model.COEFFICIENTS)
    neutral = (0.0,) * (len(model.FEATURES) + 1)
    for method in METHODS:
        if len(model.COEFFICIENTS.get(method, ())) != len(neutral):
            model.COEFFICIENTS[method] = neutral
    started = time.perf_counter()
    train: dict[str, list[Sample]] = {method: [] for method in METHODS}
    test: dict[str, list[Sample]] = {method: [] for method in METHODS}
    try:
        for seed in range(args.seeds + args.holdout):
            drawn = samples_for_seed(seed, args.variants)
            into = train if seed < args.seeds else test
            for method in METHODS:
                into[method].extend(drawn[method])
    finally:
        model.COEFFICIENTS.clear()
        model.COEFFICIENTS.update(saved)
    print(f"# samples drawn in {time.perf_counter() - started:.0f} s")
    fitted: dict[str, list[float]] = {}
    for method in METHODS:
        fitted[method] = fit(train[method], l2=args.l2)
        scores = report(fitted[method], test[method])
        thresholds = " ".join(
            f"P@{t} {scores[f'precision@{t}']:.3f} ({scores[f'share@{t}']:.2f})" for t in THRESHOLDS
        )
        print(
            f"# {method}: {len(train[method])} answers, {len(test[method])} held out: "
            f"accuracy {scores['accuracy']:.3f}, log loss {scores['log_loss']:.3f}, "
            f"ECE {scores['ece']:.3f}\n#   {thresholds}"
        )
    print(
        "# python -m benchmarks.calibrate "
        f"--seeds {args.seeds} --holdout {args.holdout} "
        f"--variants {args.variants} --l2 {args.l2}"
    )
    print("COEFFICIENTS: dict[str, tuple[float, ...]] = {")
    for method in METHODS:
        print(f'    "{method}": (')
        names = ("intercept", *model.FEATURES)
        for name, weight in zip(names, fitted[method], strict=True):
            print(f"        {weight:.4f},  # {name}")
        print("    ),")
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
