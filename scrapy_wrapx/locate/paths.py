"""Path similarity of two leaves (thesis ch. 5, the SSP score).

A leaf is described by what its XPath carries: the tag path (with and
without sibling indexes), the attribute path (every layer's attributes, and
for a text leaf its text as the top layer's one unit, as in thesis
Figure 5.4), its affiliation and, inside a repeated structure, its list
order. :class:`PathFeatures` holds that for the target; :func:`path_score`
compares a candidate leaf of the variant page with it.

>>> tped(("div[2]", "div[2]", "table", "tr[1]", "td[2]", "text()"),
...      ("div[2]", "div[2]", "table", "tr[1]", "td[1]", "text()"))
0.8333333333333334
>>> ctpd(("div[2]", "div[2]", "table", "tr[1]", "td[2]", "text()"),
...      ("div[2]", "div[2]", "table", "tr[1]", "td[1]", "text()"))
0.5
>>> order_score((3, 9), (3, 10))
0.9
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from rapidfuzz.distance import Levenshtein

from scrapy_wrapx.dom import TEXT

if TYPE_CHECKING:
    from scrapy_wrapx.dom import Node

__all__ = [
    "PathFeatures",
    "attr_score",
    "ctpd",
    "order_score",
    "path_score",
    "tped",
    "unit_similarity",
]

#: A unit attribute of the candidate must reach this similarity to count as
#: a match of the target's (thesis §5.3.1, "a pre-defined threshold").
UNIT_MATCH_THRESHOLD = 0.5
#: Attribute values are cut to this length: long values (inline styles,
#: data blobs) carry little identity and would make the score slow.
MAX_ATTRIBUTE_LENGTH = 120
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

Units = tuple[tuple[tuple[str, str], ...], ...]


def tped(path_a: Sequence[str], path_b: Sequence[str]) -> float:
    """Tag path edit distance score, eq. 5.1: layers are the units."""
    longest = max(len(path_a), len(path_b))
    if not longest:
        return 1.0
    return 1.0 - Levenshtein.distance(path_a, path_b) / longest


def ctpd(path_a: Sequence[str], path_b: Sequence[str]) -> float:
    """Common tag path distance score, eq. 5.2: the shared head of the two
    paths against what differs after it."""
    common = 0
    for step_a, step_b in zip(path_a, path_b, strict=False):
        if step_a != step_b:
            break
        common += 1
    total = common + (len(path_a) - common) + (len(path_b) - common)
    return common / total if total else 1.0


def order_score(order_a: tuple[int, int], order_b: tuple[int, int]) -> float:
    """List order similarity, eq. 5.6, of ``(SIB, NUM)`` pairs."""
    sib_a, num_a = order_a
    sib_b, num_b = order_b
    most = max(num_a, num_b)
    return (1 - abs(sib_a - sib_b) / most) * (1 - abs(num_a - num_b) / most)


def _words(value: str) -> frozenset[str]:
    return frozenset(word.lower() for word in _WORD.findall(value))


def _clean_url(value: str) -> str:
    """The part of a URL that names a resource on its site: path and query,
    without scheme, host and fragment (which vary with mirrors and state)."""
    parts = urlsplit(value.strip())
    cleaned = parts.path + ("?" + parts.query if parts.query else "")
    return cleaned or value


def unit_similarity(name: str, value_a: str, value_b: str) -> float:
    """Similarity of two values of one attribute (thesis §5.3.1): id and
    class by the Jaccard index of their words, href and src by the edit
    similarity of the cleaned URLs, anything else by edit similarity."""
    if value_a == value_b:
        return 1.0
    if name in ("id", "class"):
        words_a, words_b = _words(value_a), _words(value_b)
        union = words_a | words_b
        return len(words_a & words_b) / len(union) if union else 0.0
    if name in ("href", "src"):
        value_a, value_b = _clean_url(value_a), _clean_url(value_b)
    return float(Levenshtein.normalized_similarity(value_a, value_b))


def leaf_units(node: Node) -> Units:
    """The attribute path of a leaf as unit attributes per layer (html and
    body left out); a text leaf's top layer holds its text."""
    layers: list[tuple[tuple[str, str], ...]] = []
    for step in node.path_nodes():
        if step.tag == TEXT:
            layers.append((("text", step.value[:MAX_ATTRIBUTE_LENGTH]),))
            continue
        units = []
        for name, value in step.element.attrib.items():
            if not isinstance(name, str) or name.startswith("on") or name == "style":
                continue
            value = " ".join(str(value).split())[:MAX_ATTRIBUTE_LENGTH]
            if value:
                units.append((name, value))
        layers.append(tuple(units))
    return tuple(layers)


def attr_score(base: Units, other: Units, cache: dict[Any, bool] | None = None) -> float:
    """Attribute path score, eq. 5.5 / Algorithm 3: each unit attribute of
    ``base`` that finds a match anywhere in ``other`` earns its share of
    its layer's weight ``W_i = i``. Layers without attributes are left out
    of the normalisation, so a path scores 1 against itself."""
    by_name = _values_by_name(other)
    cache = {} if cache is None else cache
    earned = 0.0
    possible = 0.0
    for position, layer in enumerate(base, 1):
        if not layer:
            continue
        possible += position
        share = position / len(layer)
        for name, value in layer:
            if _unit_found(name, value, by_name, cache):
                earned += share
    return earned / possible if possible else 1.0


def _values_by_name(units: Units) -> dict[str, set[str]]:
    """Every value of each attribute name anywhere in ``units``."""
    by_name: dict[str, set[str]] = {}
    for layer in units:
        for name, value in layer:
            by_name.setdefault(name, set()).add(value)
    return by_name


def _unit_found(
    name: str, value: str, by_name: dict[str, set[str]], cache: dict[Any, bool]
) -> bool:
    """Whether a unit attribute matches one of the same name (eq. 5.5)."""
    values = by_name.get(name)
    if not values:
        return False
    return value in values or any(
        _unit_match(name, value, candidate, cache) for candidate in values
    )


def _unit_match(name: str, value: str, candidate: str, cache: dict[Any, bool]) -> bool:
    key = (name, value, candidate)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = unit_similarity(name, value, candidate) >= UNIT_MATCH_THRESHOLD
    return hit


def list_order(node: Node) -> tuple[int, int] | None:
    """``(SIB, NUM)`` of the nearest repeated ancestor-or-self (thesis §5.4:
    the node's branch among the similar siblings of its *fertile* node)."""
    current: Node | None = node
    while current is not None:
        repeat = current.repeat
        if repeat is not None:
            return repeat
        current = current.parent
    return None


@dataclass(frozen=True)
class PathFeatures:
    """What path similarity needs of a leaf; stored in a reference for its
    targets and computed on the fly for candidates."""

    tag_path: tuple[str, ...]
    tag_path_cut: tuple[str, ...]
    units: Units
    affiliation: str
    order: tuple[int, int] | None
    sequential: bool

    @classmethod
    def of(cls, node: Node) -> PathFeatures:
        return cls(
            node.tag_path,
            node.tag_path_cut,
            leaf_units(node),
            node.affiliation,
            list_order(node),
            node.sequential,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "tag_path": list(self.tag_path),
            "units": [[list(unit) for unit in layer] for layer in self.units],
            "affiliation": self.affiliation,
            "order": list(self.order) if self.order else None,
            "sequential": self.sequential,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PathFeatures:
        tag_path = tuple(str(step) for step in data["tag_path"])
        return cls(
            tag_path,
            tuple(_cut(step) for step in tag_path),
            tuple(
                tuple((str(name), str(value)) for name, value in layer) for layer in data["units"]
            ),
            str(data["affiliation"]),
            (int(data["order"][0]), int(data["order"][1])) if data["order"] else None,
            bool(data["sequential"]),
        )


def _cut(step: str) -> str:
    return step if step == "text()" else step.split("[", 1)[0]


def path_score(
    target: PathFeatures, candidate: PathFeatures, cache: dict[Any, bool] | None = None
) -> float:
    """PATHS, eq. 5.7: the mean of TAG (eq. 5.3, or eq. 5.4 for a target in
    a sequential structure), ATTR, AFFI and, for a sequential target whose
    candidate is in a list too, ORDER."""
    if target.sequential:
        tag = (
            tped(target.tag_path_cut, candidate.tag_path_cut)
            + ctpd(target.tag_path_cut, candidate.tag_path_cut)
        ) / 2
    else:
        tag = (
            tped(target.tag_path, candidate.tag_path)
            + tped(target.tag_path_cut, candidate.tag_path_cut)
            + ctpd(target.tag_path, candidate.tag_path)
            + ctpd(target.tag_path_cut, candidate.tag_path_cut)
        ) / 4
    scores = [tag, attr_score(target.units, candidate.units, cache)]
    scores.append(1.0 if target.affiliation == candidate.affiliation else 0.0)
    # List order is evidence only where both leaves sit in a list; a
    # redesign that dissolves the list (table rows turned into divs) says
    # nothing about order, so the score is then left out, not zeroed.
    if target.sequential and target.order is not None and candidate.order is not None:
        scores.append(order_score(target.order, candidate.order))
    return sum(scores) / len(scores)
