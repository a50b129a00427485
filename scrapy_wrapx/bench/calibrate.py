"""Fit the locator's confidence model on synthetic data (never on SWDE).

``python -m scrapy_wrapx.bench.calibrate [--seeds 40] [--holdout 12]``

The hybrid locator reports P(correct) through a logistic model of its
evidence (:mod:`scrapy_wrapx.locate.confidence`). This script regenerates
that model's coefficients from pages the project generates itself, so the
benchmark's SWDE pages stay unseen:

* bookstores of :func:`scrapy_wrapx.demo.site.build_site` for seeds
  ``0 .. seeds-1``, in both designs; a reference page is taken from one
  design and relocated on other pages of the same design and of the other
  one (a redesign, in both directions);
* every variant page is, by a seeded draw, left plain or put through
  :func:`scrapy_wrapx.bench.mutate.mutate` at one of its three severities;
* targets are every detail field the reference page shows (single values,
  the author list, the cover's ``src``), a record's field on a catalogue
  page (a member of a repeated structure) and all titles of a catalogue
  page (a list). Fields absent on the variant (no rating, no date) are
  where every answer is wrong: the model must learn to doubt there too.

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
import math
import random
import time
from collections.abc import Sequence

from scrapy_wrapx import dom
from scrapy_wrapx.bench.mutate import SEVERITIES, mutate
from scrapy_wrapx.demo.site import DETAIL_FIELDS, DemoSite, build_site
from scrapy_wrapx.dom import fold_whitespace
from scrapy_wrapx.locate import HybridLocator, TargetReference
from scrapy_wrapx.locate import confidence as model

METHODS = ("ssnp", "ssn", "ssp")
THRESHOLDS = (0.5, 0.7, 0.9)
Sample = tuple[tuple[float, ...], int]


def _leaf_xpaths(tree: dom.PageTree, values: Sequence[str]) -> list[str]:
    """Absolute XPaths of the first leaf holding each value (the benchmark's
    way of turning ground truth into a stored selector)."""
    xpaths: list[str] = []
    used: set[int] = set()
    for value in values:
        for leaf in tree.leaves:
            if leaf.index not in used and fold_whitespace(leaf.value) == value:
                used.add(leaf.index)
                xpaths.append(leaf.xpath)
                break
    return xpaths


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
    return found


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
        xpaths = _leaf_xpaths(tree, values)
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
        xpaths = _leaf_xpaths(tree, records[number][name])
        if xpaths:
            reference = locators["ssnp"].reference(tree, " | ".join(xpaths))
            targets.append((f"{name}:{number}", reference))
    titles = _leaf_xpaths(tree, [record["title"][0] for record in records])
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
) -> None:
    for method, locator in locators.items():
        for candidate in locator.locate(reference, variant):
            if candidate.rank != 0 or candidate.evidence is None:
                continue
            correct = int(fold_whitespace(candidate.text) in truth)
            found[method].append((tuple(candidate.evidence), correct))


def fit(data: Sequence[Sample], l2: float = 1.0, iterations: int = 50) -> list[float]:
    """Logistic regression by Newton's method: intercept, then weights.
    ``l2`` penalises the weights (not the intercept), which keeps them
    finite where a feature separates the synthetic data perfectly."""
    size = len(data[0][0]) + 1
    weights = [0.0] * size
    rows = [((1.0, *features), label) for features, label in data]
    for _ in range(iterations):
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for x, label in rows:
            p = _sigmoid(sum(w * v for w, v in zip(weights, x, strict=True)))
            error = p - label
            curvature = p * (1 - p)
            for i in range(size):
                xi = x[i]
                if xi == 0.0:
                    continue
                gradient[i] += error * xi
                row = hessian[i]
                factor = curvature * xi
                for j in range(i, size):
                    row[j] += factor * x[j]
        for i in range(size):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        for i in range(1, size):
            gradient[i] += l2 * weights[i]
            hessian[i][i] += l2
        hessian[0][0] += 1e-9
        step = _solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return weights


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the system is small)."""
    size = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(a[r][column]))
        a[column], a[pivot] = a[pivot], a[column]
        head = a[column][column]
        for r in range(column + 1, size):
            factor = a[r][column] / head
            if factor:
                for c in range(column, size + 1):
                    a[r][c] -= factor * a[column][c]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        total = a[r][size] - sum(a[r][c] * solution[c] for c in range(r + 1, size))
        solution[r] = total / a[r][r]
    return solution


def report(weights: Sequence[float], data: Sequence[Sample]) -> dict[str, float]:
    """Calibration of ``weights`` on ``data``: log loss, Brier score,
    expected calibration error (10 bins) and precision/share above the
    benchmark's thresholds."""
    probabilities = [
        _sigmoid(weights[0] + sum(w * v for w, v in zip(weights[1:], x, strict=True)))
        for x, _ in data
    ]
    labels = [label for _, label in data]
    eps = 1e-12
    result = {
        "samples": float(len(data)),
        "accuracy": sum(labels) / len(labels),
        "log_loss": -sum(
            math.log(max(p, eps)) if y else math.log(max(1 - p, eps))
            for p, y in zip(probabilities, labels, strict=True)
        )
        / len(data),
        "brier": sum((p - y) ** 2 for p, y in zip(probabilities, labels, strict=True)) / len(data),
        "ece": expected_calibration_error(probabilities, labels),
    }
    for threshold in THRESHOLDS:
        above = [y for p, y in zip(probabilities, labels, strict=True) if p >= threshold]
        result[f"precision@{threshold}"] = sum(above) / len(above) if above else float("nan")
        result[f"share@{threshold}"] = len(above) / len(data)
    return result


def expected_calibration_error(
    probabilities: Sequence[float], labels: Sequence[int], bins: int = 10
) -> float:
    """Mean |confidence - accuracy| over equal-width bins, weighed by size."""
    total = 0.0
    for number in range(bins):
        low, high = number / bins, (number + 1) / bins
        members = [
            (p, y)
            for p, y in zip(probabilities, labels, strict=True)
            if low <= p < high or (number == bins - 1 and p == 1.0)
        ]
        if members:
            mean_p = sum(p for p, _ in members) / len(members)
            mean_y = sum(y for _, y in members) / len(members)
            total += len(members) * abs(mean_p - mean_y)
    return total / len(probabilities) if probabilities else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scrapy_wrapx.bench.calibrate")
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
        "# python -m scrapy_wrapx.bench.calibrate "
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
