"""Fitting and scoring a calibrated confidence model (tests and benchmarks).

:mod:`benchmarks.calibrate` fits the locator's confidence model
(:mod:`scrapy_wrapx.locate.confidence`) with :func:`fit` and scores it with
:func:`report`; the tests check both on data of a known model and use
:func:`leaf_xpaths` to turn a page's ground truth into stored selectors.
They live in the tests because the test suite must run without the
benchmarks (an sdist ships the tests, a wheel ships neither).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from scrapy_wrapx import dom
from scrapy_wrapx.dom import fold_whitespace

__all__ = ["THRESHOLDS", "Sample", "expected_calibration_error", "fit", "leaf_xpaths", "report"]

#: Confidence thresholds whose precision and share :func:`report` gives.
THRESHOLDS = (0.5, 0.7, 0.9)
#: One answer: its evidence features and whether it was right (1) or not (0).
Sample = tuple[tuple[float, ...], int]


def leaf_xpaths(tree: dom.PageTree, values: Sequence[str]) -> list[str]:
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
