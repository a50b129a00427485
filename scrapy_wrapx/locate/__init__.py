"""The hybrid locator (thesis ch. 4-6): relocate a declared target on a
page where its stored selector no longer selects it, or selects the wrong
thing.

Plain Python over lxml, no Scrapy: :class:`HybridLocator` takes references
(:class:`TargetReference`, compact JSON) and returns :class:`Candidate`
nodes with a confidence, or a :class:`Resolution` that applies the
verify-then-relocate policy of the targets middleware.
"""

from __future__ import annotations

from scrapy_wrapx.locate.locator import Candidate, HybridLocator, Resolution
from scrapy_wrapx.locate.mapping import ArrayTree, map_trees, mapping_cost
from scrapy_wrapx.locate.reference import TargetReference

__all__ = [
    "ArrayTree",
    "Candidate",
    "HybridLocator",
    "Resolution",
    "TargetReference",
    "map_trees",
    "mapping_cost",
]
