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

The coefficients below were fitted by :mod:`scrapy_wrapx.bench.calibrate`
(``python -m scrapy_wrapx.bench.calibrate``), never on the SWDE pages the
benchmark reports on: on generated bookstores
(:func:`scrapy_wrapx.demo.site.build_site` over many seeds, both designs,
references taken from either design) and on seeded mutations of their
pages (:mod:`scrapy_wrapx.bench.mutate`, three severities), with detail and
list pages as references. The script prints the block to paste here and the
calibration it reaches on held-out seeds.

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


FEATURES = Evidence._fields

# Fitted by ``python -m scrapy_wrapx.bench.calibrate`` (see the module doc):
# intercept, then one weight per feature in FEATURES order. Its report:
# samples drawn in 85 s
# ssnp: 14509 answers, 4342 held out: accuracy 0.810, log loss 0.144, ECE 0.018
#   P@0.5 0.953 (0.83) P@0.7 0.973 (0.79) P@0.9 0.989 (0.71)
# ssn: 14241 answers, 4221 held out: accuracy 0.739, log loss 0.127, ECE 0.008
#   P@0.5 0.960 (0.75) P@0.7 0.969 (0.73) P@0.9 0.985 (0.67)
# ssp: 14466 answers, 4343 held out: accuracy 0.771, log loss 0.134, ECE 0.014
#   P@0.5 0.943 (0.80) P@0.7 0.970 (0.75) P@0.9 0.992 (0.66)
# python -m scrapy_wrapx.bench.calibrate --seeds 40 --holdout 12 --variants 8 --l2 1.0
COEFFICIENTS: dict[str, tuple[float, ...]] = {
    "ssnp": (
        -11.9292,  # intercept
        1.7243,  # path
        0.1412,  # support
        1.1775,  # strong
        -0.2937,  # weak
        0.5690,  # label_hit
        -1.9104,  # label_miss
        0.2337,  # margin
        0.0545,  # center
        1.3760,  # path_top
        0.3895,  # mapped_near
        8.1144,  # mapped
        7.7979,  # shape
        2.2545,  # selector
        1.2237,  # partner
    ),
    "ssn": (
        -9.7480,  # intercept
        2.4561,  # path
        -0.3362,  # support
        1.6058,  # strong
        -0.1490,  # weak
        1.1260,  # label_hit
        -1.5936,  # label_miss
        0.6694,  # margin
        -1.3131,  # center
        1.4285,  # path_top
        -1.9525,  # mapped_near
        6.2370,  # mapped
        7.4932,  # shape
        1.8263,  # selector
        0.9674,  # partner
    ),
    "ssp": (
        -8.1012,  # intercept
        0.7768,  # path
        0.6159,  # support
        0.4229,  # strong
        -0.4697,  # weak
        1.1251,  # label_hit
        -1.1053,  # label_miss
        7.8936,  # margin
        -0.3272,  # center
        -0.0000,  # path_top
        0.1491,  # mapped_near
        3.9330,  # mapped
        6.9682,  # shape
        3.2812,  # selector
        2.4463,  # partner
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
