"""One node, one target: the resolutions of a spider's targets on one page.

Each target is relocated on its own, so two of them can land on one node:
on a redesigned page with no variants, the variants' price column finds
the product's price, and the colour column the "Sale" badge another target
declares. A node is the value of one target: what a selector verified
holds its nodes, and relocations take theirs in order of confidence, each
losing the nodes a surer target already holds. A list keeps its other
members; a target left with nothing stays unset (a wrong value is worse
than none), and who held its node is said.

>>> from scrapy_wrapx.locate.locator import Resolution
>>> kept, taken = exclusive({
...     "price": Resolution(["$9"], ["/p/b"], 0.97, "relocated"),
...     "variant_prices": Resolution(["$9"], ["/p/b"], 0.94, "relocated"),
... })
>>> kept["variant_prices"].values, taken
([], {'variant_prices': 'price'})
"""

from __future__ import annotations

from collections.abc import Mapping

from scrapy_wrapx.locate.locator import Resolution

__all__ = ["exclusive"]


def exclusive(
    resolutions: Mapping[str, Resolution],
) -> tuple[dict[str, Resolution], dict[str, str]]:
    """The ``resolutions`` (target name -> resolution) with every node
    kept by one target only (see the module doc), and for each target that
    lost a node, the target that holds it. Selector hits are kept as they
    are: declarations may overlap on purpose."""
    holder: dict[str, str] = {}
    for name, resolution in resolutions.items():
        if resolution.source == "selector":
            for xpath in resolution.xpaths:
                holder.setdefault(xpath, name)
    kept = dict(resolutions)
    taken: dict[str, str] = {}
    relocated = [name for name, r in resolutions.items() if r.source == "relocated"]
    # sorted() is stable: among equally sure targets, declaration order.
    for name in sorted(relocated, key=lambda n: -resolutions[n].confidence):
        resolution = resolutions[name]
        lost = [xpath for xpath in resolution.xpaths if xpath in holder]
        if lost:
            taken[name] = holder[lost[0]]
            pairs = [
                (value, xpath)
                for value, xpath in zip(resolution.values, resolution.xpaths, strict=True)
                if xpath not in holder
            ]
            kept[name] = Resolution(
                [value for value, _ in pairs],
                [xpath for _, xpath in pairs],
                resolution.confidence,
                "relocated" if pairs else "refused",
            )
        for xpath in kept[name].xpaths:
            holder.setdefault(xpath, name)
    return kept, taken
