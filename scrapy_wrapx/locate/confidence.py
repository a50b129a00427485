"""Calibrated confidence: the probability that a relocated node is right.

A user picks ``WRAPX_TARGETS_MIN_CONFIDENCE`` from the benchmark's
precision-above-threshold table, so a confidence must mean the same thing
on every page and every site: P(the answer is the target). The raw scores
of the locator do not: a path score of 0.5 is excellent after a redesign
that renamed every class and poor on a page that merely lost a line.

So the locator describes each answer by its *evidence* (:class:`Evidence`)
— how similar its path is, how much of the unchanged neighbourhood points
at it and how strongly, whether the target's label still stands right
before it, the margin to the runner-up, whether the neighbour zone (SSN)
and path similarity (SSP) agree, how much of the reference mapped at all,
whether its value has the shape of the reference value, whether the stored
selector still selects it — and a logistic model per method turns that
into a probability.

The coefficients below were fitted by :mod:`benchmarks.calibrate`
(``python -m benchmarks.calibrate``), never on the SWDE pages the
benchmark reports on: on generated bookstores
(:func:`scrapy_wrapx.demo.site.build_site` over many seeds, both designs,
references taken from either design), on seeded mutations of their pages
(:mod:`tests.mutate`, three severities, look-alikes in the heavy one) and
on generated shops and their redesign (:mod:`tests.shop`), with detail
and list pages as references. The script prints the block to paste here
and the calibration it reaches on whole held-out sites (seeds).

>>> value_shape("9781602600157"), value_shape("$7.99"), value_shape("May 3, 2008")
('9', '$9.9', 'Aa 9, 9')
>>> round(shape_similarity("9781602600157", "Availability: In Stock"), 2)
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from rapidfuzz.distance import Levenshtein

__all__ = [
    "COEFFICIENTS",
    "FEATURES",
    "Evidence",
    "probability",
    "shape_similarity",
    "value_shape",
]

#: Values are cut to this many characters before their shape is taken.
_SHAPE_LENGTH = 60


class Evidence(NamedTuple):
    """What the locator knows about one candidate answer (all in [0, 1],
    except ``margin`` in [-1, 1])."""

    #: Path similarity to the target (PATHS, thesis eq. 5.7).
    path: float
    #: Share of the nearby unchanged nodes' votes that point at the leaf.
    support: float
    #: The strongest class of votes present is *strong* (Algorithm 2).
    strong: float
    #: ... or *weak*.
    weak: float
    #: The target's label (the leaf before it) is unchanged and the leaf is
    #: the first of the target's property after it.
    label_hit: float
    #: The label is unchanged but the leaf is not the one after it.
    label_miss: float
    #: Ranking score minus the runner-up's (negative below the top).
    margin: float
    #: The leaf is the neighbour-zone center (SSN's own answer).
    center: float
    #: The leaf has the best path score of the ranked leaves (SSP's answer).
    path_top: float
    #: Share of the reference leaves within the radius that are unchanged.
    mapped_near: float
    #: Share of all reference leaves that are unchanged.
    mapped: float
    #: Similarity of the value's shape to the reference value's.
    shape: float
    #: The stored selector selects the leaf.
    selector: float
    #: The tree mapping pairs the target itself with the leaf.
    partner: float
    #: Another ranked leaf has the same tag path (no sibling indexes) and a
    #: value of the reference value's shape: a look-alike may have been
    #: inserted, so position alone cannot decide.
    rival: float = 0.0


FEATURES = Evidence._fields

# Fitted by ``python -m benchmarks.calibrate`` (see the module doc):
# intercept, then one weight per feature in FEATURES order. Its report
# (precision at 0.5/0.7/0.9 on the held-out sites, share of answers):
# samples drawn in 240 s
# ssnp: 23547 answers, 6902 held out: accuracy 0.838, log loss 0.248, ECE 0.016
#   P@0.5 0.916 (0.89) P@0.7 0.939 (0.80) P@0.9 0.975 (0.62)
# ssn: 24231 answers, 7023 held out: accuracy 0.757, log loss 0.263, ECE 0.015
#   P@0.5 0.913 (0.81) P@0.7 0.929 (0.76) P@0.9 0.965 (0.54)
# ssp: 24324 answers, 7069 held out: accuracy 0.807, log loss 0.239, ECE 0.022
#   P@0.5 0.916 (0.85) P@0.7 0.947 (0.77) P@0.9 0.979 (0.61)
# python -m benchmarks.calibrate --seeds 40 --holdout 12 --variants 8 --l2 1.0
COEFFICIENTS: dict[str, tuple[float, ...]] = {
    "ssnp": (
        -6.5103,  # intercept
        0.1456,  # path
        0.4093,  # support
        0.4288,  # strong
        1.0089,  # weak
        0.6437,  # label_hit
        0.9709,  # label_miss
        3.7351,  # margin
        0.4760,  # center
        0.7523,  # path_top
        -0.1440,  # mapped_near
        2.1998,  # mapped
        5.8626,  # shape
        1.9694,  # selector
        0.1275,  # partner
        -0.5140,  # rival
    ),
    "ssn": (
        -6.1995,  # intercept
        1.6894,  # path
        0.4715,  # support
        0.5097,  # strong
        0.6299,  # weak
        0.3972,  # label_hit
        -0.9016,  # label_miss
        0.0930,  # margin
        0.0452,  # center
        0.6912,  # path_top
        -0.1824,  # mapped_near
        3.6095,  # mapped
        5.2204,  # shape
        0.3591,  # selector
        0.0208,  # partner
        -0.2908,  # rival
    ),
    "ssp": (
        -5.2861,  # intercept
        0.1416,  # path
        1.1263,  # support
        0.2161,  # strong
        0.5017,  # weak
        0.9451,  # label_hit
        0.4370,  # label_miss
        3.4536,  # margin
        0.0315,  # center
        -0.0000,  # path_top
        -0.0689,  # mapped_near
        2.0519,  # mapped
        5.2359,  # shape
        2.0292,  # selector
        0.4486,  # partner
        -0.0627,  # rival
    ),
}


def probability(method: str, evidence: Sequence[float]) -> float:
    """P(correct) of an answer of ``method`` with this ``evidence``."""
    weights = COEFFICIENTS[method]
    z = weights[0] + sum(w * x for w, x in zip(weights[1:], evidence, strict=True))
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def value_shape(value: str) -> str:
    """The value with digit runs as ``9``, capitalised words as ``Aa``,
    lower-case runs as ``a`` and upper-case runs as ``A``; other
    characters kept: the *data type* a reader sees (an ISBN, a price, a
    date, a name) without the data."""
    out: list[str] = []
    previous = ""
    for char in value[:_SHAPE_LENGTH]:
        kind = _char_kind(char)
        if kind == previous:
            continue
        if kind == "a" and previous == "A" and out and out[-1] == "A":
            out.append("a")  # "Aa": one capitalised word
        else:
            out.append(kind)
        previous = kind
    return "".join(out)


def _char_kind(char: str) -> str:
    """``9`` for a digit, ``A``/``a`` for an upper/lower-case letter, a
    space for any white space, else the character itself."""
    if char.isdigit():
        return "9"
    if char.isalpha():
        return "A" if char.isupper() else "a"
    if char.isspace():
        return " "
    return char


def shape_similarity(a: str, b: str) -> float:
    """Edit similarity of the shapes of two values (1.0: same data type)."""
    shape_a, shape_b = value_shape(a), value_shape(b)
    if shape_a == shape_b:
        return 1.0
    return float(Levenshtein.normalized_similarity(shape_a, shape_b))
