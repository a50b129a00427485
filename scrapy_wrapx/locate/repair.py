"""Selector repair: when to replace a broken selector, and with what.

A relocation on one page can be a lucky guess; a relocation that lands on the
same place page after page is a repair. :class:`TargetState` counts
consecutive relocations that agree (after generalizing the XPaths of list
targets), replaces the selector once the streak reaches the threshold, and
keeps every replaced selector in its history so nothing is lost to a bad
repair. It is plain JSON so it lives in any store.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scrapy_wrapx.dom import PageTree
from scrapy_wrapx.locate.selectors import anchored_selector

__all__ = ["TargetState", "generalize_xpaths"]

_STEP = re.compile(r"^(?P<name>.*?)(?:\[(?P<position>\d+)\])?$")
#: Version of :meth:`TargetState.to_dict`'s format.
STATE_VERSION = 1


def _split_steps(xpath: str) -> list[str]:
    # Absolute XPaths from the page tree: "/"-separated steps, and quotes
    # only inside *[name()='...'] steps, which hold no "/".
    return xpath.split("/")


def generalize_xpaths(xpaths: Sequence[str]) -> str:
    """One XPath selecting all of ``xpaths``, stable when the list grows.

    Positions that differ between the paths are dropped, so the three
    authors ``.../li[1]/a``, ``.../li[2]/a``, ``.../li[3]/a`` give
    ``.../li/a``, which still selects all authors on a page with five.
    Paths of different shapes are joined with ``|``.

    >>> generalize_xpaths(["/html/body/ul/li[1]/a", "/html/body/ul/li[3]/a"])
    '/html/body/ul/li/a'
    >>> generalize_xpaths(["/html/body/h1/text()[1]"])
    '/html/body/h1/text()[1]'
    """
    if not xpaths:
        raise ValueError("Cannot generalize an empty list of XPaths")
    unique = list(dict.fromkeys(xpaths))
    if len(unique) == 1:
        return unique[0]
    split = [_split_steps(xpath) for xpath in unique]
    if len({len(steps) for steps in split}) != 1:
        return " | ".join(unique)
    merged = []
    for column in zip(*split, strict=True):
        if len(set(column)) == 1:
            merged.append(column[0])
            continue
        names = {_STEP.match(step).group("name") for step in column}  # type: ignore[union-attr]
        if len(names) != 1:
            return " | ".join(unique)
        merged.append(names.pop())
    return "/".join(merged)


@dataclass
class TargetState:
    """What scrapy-wrapx remembers about one declared target."""

    #: The declared field's name.
    name: str
    #: The selector in use (the declared one until a repair replaces it).
    selector: str | None
    #: The selector the spider declared, for reports.
    declared: str | None = None
    #: The locator's reference (``TargetReference`` JSON, parsed).
    reference: dict[str, Any] | None = None
    #: Earlier references taken on pages of other shapes (optional parts
    #: present or absent), newest first, as ``{"shape", "reference"}``:
    #: tried when the current one cannot relocate the target.
    alternates: list[dict[str, Any]] = field(default_factory=list)
    #: The shape of :attr:`reference` (see ``TargetReference.shape``).
    shape: str | None = None
    #: Replaced selectors, oldest first.
    history: list[dict[str, Any]] = field(default_factory=list)
    #: The current run of agreeing relocations: selector and length.
    streak_selector: str | None = None
    streak: int = 0

    def remember(self, reference: dict[str, Any], shape: str, keep: int = 3) -> None:
        """Make ``reference`` current, keeping up to ``keep - 1`` earlier
        references of other shapes as alternates."""
        earlier = list(self.alternates)
        if self.reference is not None and self.shape is not None:
            earlier.insert(0, {"shape": self.shape, "reference": self.reference})
        seen = {shape}
        alternates: list[dict[str, Any]] = []
        for entry in earlier:
            if entry["shape"] not in seen and len(alternates) < keep - 1:
                seen.add(entry["shape"])
                alternates.append(entry)
        self.reference, self.shape, self.alternates = reference, shape, alternates

    def record_selector_hit(self) -> None:
        """The selector worked: any relocation streak is over."""
        self.streak_selector = None
        self.streak = 0

    def record_relocation(
        self, xpaths: Sequence[str], repair_after: int, tree: PageTree | None = None
    ) -> str | None:
        """Count a relocation to ``xpaths``; return the new selector when
        this relocation completes a repair, else None. With the page's
        ``tree``, the new selector is anchored on the nodes' tags, ids and
        classes where such a selector selects exactly them
        (:func:`.selectors.anchored_selector`), not on their positions."""
        candidate = generalize_xpaths(xpaths)
        if candidate == self.streak_selector:
            self.streak += 1
        else:
            self.streak_selector, self.streak = candidate, 1
        if self.streak < repair_after or candidate == self.selector:
            return None
        anchored = anchored_selector(tree, xpaths) if tree is not None else None
        selector = anchored or candidate
        self.history.append({"selector": self.selector, "replaced_by": selector, "at": time.time()})
        self.selector = selector
        self.record_selector_hit()
        return selector

    def undo_repair(self) -> str | None:
        """Undo the last repair: the selector it replaced is back, and the
        reference is taken afresh from it (the one kept may have followed a
        bad repair). Returns the restored selector, None without a repair."""
        if not self.history:
            return None
        last = self.history.pop()
        self.selector = last["selector"]
        self.reference, self.shape, self.alternates = None, None, []
        self.record_selector_hit()
        return self.selector

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "field": self.name,
            "selector": self.selector,
            "declared": self.declared,
            "reference": self.reference,
            "shape": self.shape,
            "alternates": self.alternates,
            "history": self.history,
            "streak_selector": self.streak_selector,
            "streak": self.streak,
        }

    @classmethod
    def from_dict(cls, data: Any) -> TargetState:
        """Rebuild a state; :class:`ValueError` (and nothing else) for
        foreign, old or malformed data."""
        _check_version(data)
        texts = ("selector", "declared", "shape", "streak_selector")
        if not all(data.get(key) is None or isinstance(data.get(key), str) for key in texts):
            raise ValueError(f"Invalid target state of {data.get('field')!r:.60}: not text")
        reference, history = data.get("reference"), data.get("history") or []
        if reference is not None and not isinstance(reference, dict):
            raise ValueError(f"Invalid target state reference: {reference!r:.60}")
        if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
            raise ValueError(f"Invalid target state history: {history!r:.60}")
        try:
            return cls(
                name=str(data["field"]),
                selector=data["selector"],
                declared=data.get("declared"),
                reference=data.get("reference"),
                shape=data.get("shape"),
                alternates=_alternates(data.get("alternates")),
                history=list(history),
                streak_selector=data.get("streak_selector"),
                streak=int(data.get("streak") or 0),
            )
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise ValueError(f"Invalid target state: {exc!r:.80}") from exc


def _check_version(data: Any) -> None:
    """Refuse anything but a state of :data:`STATE_VERSION`."""
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        version = data.get("version") if isinstance(data, dict) else None
        raise ValueError(f"Unsupported target state version {version!r}")


def _alternates(entries: Any) -> list[dict[str, Any]]:
    """The well-formed entries of a stored list of alternate references."""
    if not isinstance(entries, list):
        return []
    return [
        entry
        for entry in entries
        if isinstance(entry, dict)
        and isinstance(entry.get("shape"), str)
        and isinstance(entry.get("reference"), dict)
    ]
