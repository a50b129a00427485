"""Per-page data the locator derives from a :class:`~scrapy_wrapx.dom.PageTree`.

A middleware resolves several targets on one response, so what is derived
from a page (its array form for the mapping, leaf labels, per-property leaf
lists, path features of candidates) is computed once and kept for the few
most recent pages.
"""

from __future__ import annotations

import zlib
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from typing import Any

from scrapy_wrapx.dom import Node, PageTree, parse
from scrapy_wrapx.locate.mapping import ArrayTree
from scrapy_wrapx.locate.paths import PathFeatures

__all__ = ["PageIndex", "leaf_label", "page_index", "to_tree"]

_CACHE_SIZE = 8
_cache: OrderedDict[int, PageIndex] = OrderedDict()


def leaf_label(tag: str, value: str) -> tuple[str, int]:
    """A leaf's label for the mapping: its tag and a checksum of its value
    (a reference stores labels, never the page text)."""
    return (tag, zlib.crc32(value.encode("utf-8", "surrogatepass")))


def tag_path_below(leaf: Node, container: Node) -> tuple[str, ...]:
    """The tags (no sibling indexes) from just below ``container`` down to
    ``leaf``: the path a list's members share below the list."""
    steps = []
    node: Node | None = leaf
    while node is not None and node is not container:
        steps.append("text()" if node.is_text else node.tag)
        node = node.parent
    steps.reverse()
    return tuple(steps)


def to_tree(page: str | bytes | PageTree, url: str | None = None) -> PageTree:
    if isinstance(page, PageTree):
        return page
    return parse(page, url)


class PageIndex:
    """A page with the arrays and caches the locator works on."""

    def __init__(self, tree: PageTree) -> None:
        self.tree = tree
        labels: list[Any] = []
        parents: list[int] = []
        for node in tree.nodes:
            parents.append(node.parent.index if node.parent is not None else -1)
            if node.leaf_index >= 0:
                labels.append(leaf_label(node.tag, node.value))
            else:
                labels.append(node.tag)
        self.array = ArrayTree(labels, parents)
        self._by_prop: dict[str | None, list[int]] = {}
        self._features: dict[int, PathFeatures] = {}
        #: Unit attribute match results, shared by every score on this page.
        self.unit_cache: dict[Any, bool] = {}

    def leaves_of(self, prop: str | None) -> list[int]:
        """Leaf indexes of one property, left to right (the relative leaf
        array of thesis Definition 4.1)."""
        found = self._by_prop.get(prop)
        if found is None:
            found = self._by_prop[prop] = [
                leaf.leaf_index for leaf in self.tree.leaves if leaf.prop == prop
            ]
        return found

    def relative_rank(self, prop: str | None, leaf: int, rightwards: bool) -> int:
        """Index in the relative leaf array of ``leaf``, or of the first leaf
        of property ``prop`` from it towards the target (thesis §4.2.2)."""
        same = self.leaves_of(prop)
        if rightwards:
            return bisect_left(same, leaf)
        return bisect_right(same, leaf) - 1

    def features(self, leaf: int) -> PathFeatures:
        found = self._features.get(leaf)
        if found is None:
            found = self._features[leaf] = PathFeatures.of(self.tree.leaves[leaf])
        return found

    def path_distance(self, node: int, leaf: int) -> int:
        """Edges from ``node`` to leaf number ``leaf`` via their deepest
        common ancestor (thesis Definition 4.6)."""
        array = self.array
        other = self.tree.leaves[leaf].index
        common = other
        end = array.end
        while not common <= node <= end[common]:
            common = array.parents[common]
        return array.depth[node] + array.depth[other] - 2 * array.depth[common]


def page_index(tree: PageTree) -> PageIndex:
    """The :class:`PageIndex` of ``tree``, from a small cache of recent pages."""
    key = id(tree)
    found = _cache.get(key)
    if found is not None and found.tree is tree:
        _cache.move_to_end(key)
        return found
    found = PageIndex(tree)
    _cache[key] = found
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return found
