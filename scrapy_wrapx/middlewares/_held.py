"""Items held for example targets not seen yet.

A target declared by an example value has no reference until a page shows
that value; items of pages crawled before then would miss the field only
because of crawl order. They are held here with their page tree (at most
``WRAPX_TARGETS_HOLD_ITEMS``; past it the oldest goes out as it is), filled
once the example's reference exists, and released at the end of the crawl.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter

if TYPE_CHECKING:
    from scrapy_wrapx import dom

logger = logging.getLogger(__name__)


@dataclass
class _Held:
    """An item waiting for example targets' first references: its page's
    tree, and the fields still waiting."""

    item: Any
    tree: dom.PageTree
    waiting: set[str] = field(default_factory=set)


class HeldItems:
    """The held items, whose still unset fields ``names`` are filled by
    ``fill(adapter, names, tree)`` once the references they wait for are
    taken; ``count`` increments a stat."""

    def __init__(
        self,
        limit: int,
        fill: Callable[[ItemAdapter, list[str], dom.PageTree], None],
        count: Callable[[str], None],
    ) -> None:
        self.limit = limit
        self._fill = fill
        self._count = count
        self._held: deque[_Held] = deque()
        #: Held items ready to go out with the next output.
        self._ready: list[Any] = []
        #: Example targets whose first reference was just taken.
        self._new_references: set[str] = set()

    def __len__(self) -> int:
        return len(self._held)

    def hold(self, item: Any, tree: dom.PageTree, waiting: set[str]) -> bool:
        """Hold ``item`` for the ``waiting`` fields; False when holding is
        off (a limit of 0)."""
        if not waiting or self.limit <= 0:
            return False
        self._held.append(_Held(item, tree, waiting))
        self._count("held_count")
        while len(self._held) > self.limit:
            self._ready.append(self._released(self._held.popleft()))
        return True

    def reference_taken(self, name: str) -> None:
        """Target ``name`` has its first reference: items waiting for it
        can be filled."""
        self._new_references.add(name)

    def take_ready(self) -> list[Any]:
        """Held items filled by references taken since the last call."""
        if self._new_references and self._held:
            names, self._new_references = self._new_references, set()
            still: deque[_Held] = deque()
            for held in self._held:
                self._fill_held(held, names)
                (still if held.waiting else self._ready).append(held if held.waiting else held.item)
            self._held = still
        self._new_references.clear()
        ready, self._ready = self._ready, []
        return ready

    def release_all(self) -> list[Any]:
        """The end of the crawl: every held item goes out."""
        ready = self.take_ready()
        count = len(self._held)
        ready.extend(self._released(held) for held in self._held)
        self._held.clear()
        if count:
            logger.warning(
                "Released %d held items at the end of the crawl with example targets unset",
                count,
            )
        return ready

    def drop(self) -> None:
        """The crawl ended without releasing them (it was stopped): say so."""
        if self._held:
            self._count("lost_count")
            logger.error("The spider closed with %d held items not released", len(self._held))
            self._held.clear()

    def _fill_held(self, held: _Held, names: set[str]) -> None:
        """Fill the held item's fields among ``names`` from its page."""
        filling = held.waiting & names
        if filling:
            held.waiting -= filling
            self._fill(ItemAdapter(held.item), sorted(filling), held.tree)

    def _released(self, held: _Held) -> Any:
        """A held item let go with its waiting fields unset."""
        self._count("released_count")
        logger.info(
            "Releasing a held item of %s with %s unset: no page showed the example yet",
            held.tree.url,
            ", ".join(sorted(held.waiting)),
        )
        return held.item
