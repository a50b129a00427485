"""Fills the fields a spider declares in ``wrapx_targets``, self-healing.

For each item a callback yields, every declared field the callback left
unset is filled from the response: by the stored selector when it still
selects the right thing (each hit is verified against the target's
reference, because a selector that selects *something* can select the wrong
thing), else by the hybrid locator, which relocates the target and reports
a confidence. Weak relocations are refused and logged, not guessed. Once the
same relocation repeats on ``WRAPX_TARGETS_REPAIR_AFTER`` pages, the stored
selector is repaired; pages where the selector works refresh the reference,
so it follows gradual redesigns.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.defer import deferred_from_coro

from scrapy_wrapx import dom
from scrapy_wrapx.locate import HybridLocator, Resolution, TargetReference
from scrapy_wrapx.locate.repair import TargetState
from scrapy_wrapx.middlewares._responses import is_html, response_tree
from scrapy_wrapx.settings import wrapx_setting
from scrapy_wrapx.store._crawler import crawler_store
from scrapy_wrapx.targets import Target, parse_targets

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from typing_extensions import Self

    from scrapy_wrapx.store import WrapxStore

logger = logging.getLogger(__name__)

NAMESPACE = "targets"


class WrapxTargetsMiddleware(BaseSpiderMiddleware):
    """Spider middleware behind ``wrapx_targets`` (see the module doc)."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        settings = crawler.settings
        if not wrapx_setting(settings, "WRAPX_TARGETS_ENABLED"):
            raise NotConfigured("WrapxTargetsMiddleware requires WRAPX_TARGETS_ENABLED=True")
        self.locator = HybridLocator(
            method=wrapx_setting(settings, "WRAPX_TARGETS_METHOD"),
            radius=wrapx_setting(settings, "WRAPX_TARGETS_RADIUS"),
        )
        self.min_confidence: float = wrapx_setting(settings, "WRAPX_TARGETS_MIN_CONFIDENCE")
        self.repair_after = wrapx_setting(settings, "WRAPX_TARGETS_REPAIR_AFTER")
        self.confidence_field = wrapx_setting(settings, "WRAPX_TARGETS_CONFIDENCE_FIELD")
        self.stats = crawler.stats
        self.targets: dict[str, Target] = {}
        self.states: dict[str, TargetState] = {}
        # The parsed form of each state's current reference, so a page does
        # not parse back the JSON the previous page just wrote.
        self._parsed: dict[str, tuple[dict[str, Any], TargetReference]] = {}
        self.store: WrapxStore | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    # Start-up -------------------------------------------------------------

    def spider_opened(self, spider: Spider) -> None:
        try:
            self.targets = parse_targets(getattr(spider, "wrapx_targets", None))
        except ValueError as exc:
            logger.error("%s; closing the spider", exc, extra={"spider": spider})
            assert self.crawler.engine is not None
            deferred_from_coro(
                self.crawler.engine.close_spider_async(reason="wrapx_invalid_target")
            )
            self.targets = {}
            return
        if not self.targets:
            return
        self.store = crawler_store(self.crawler)
        for name, target in self.targets.items():
            self.states[name] = self._load_state(spider, name, target)
        logger.info(
            "scrapy-wrapx targets for %s: %s",
            spider.name,
            ", ".join(sorted(self.targets)),
            extra={"spider": spider},
        )

    def _key(self, name: str) -> str:
        assert self.crawler.spider is not None
        return f"{self.crawler.spider.name}/{name}"

    def _load_state(self, spider: Spider, name: str, target: Target) -> TargetState:
        assert self.store is not None
        stored = self.store.get(NAMESPACE, self._key(name))
        if stored is not None:
            try:
                state = TargetState.from_dict(stored)
            except ValueError as exc:
                logger.warning(
                    "Ignoring stored state of target %r: %s", name, exc, extra={"spider": spider}
                )
            else:
                if state.declared == target.selector:
                    return state
                # The spider now declares another selector: it wins.
        return TargetState(name=name, selector=target.selector, declared=target.selector)

    def _save(self, state: TargetState) -> None:
        assert self.store is not None
        self.store.set(NAMESPACE, self._key(state.name), state.to_dict())

    # Items ----------------------------------------------------------------

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if not self.targets or response is None or not is_html(response):
            return item
        try:
            adapter = ItemAdapter(item)
        except TypeError:
            return item  # not an item type itemadapter knows
        missing = [name for name in self.targets if _is_unset(adapter, name)]
        if missing:
            self._fill_item(adapter, missing, response)
        return item

    def _fill_item(self, adapter: ItemAdapter, missing: list[str], response: Response) -> None:
        """Fill the ``missing`` fields, and the confidence field if set."""
        tree = self._tree(response)
        if tree is None:
            return
        confidences = self._fill_missing(adapter, missing, tree, response)
        if self.confidence_field and confidences:
            with contextlib.suppress(KeyError):  # the item type has no such field
                adapter[self.confidence_field] = confidences

    def _tree(self, response: Response) -> dom.PageTree | None:
        """The page tree of an HTML response; None (logged) when it cannot
        be parsed."""
        try:
            assert isinstance(response, TextResponse)  # is_html()
            return response_tree(response)
        except ValueError as exc:
            logger.warning(
                "Skipping wrapx targets on %s: %s",
                response.url,
                exc,
                extra={"spider": self.crawler.spider},
            )
            self._inc("skipped_count")
            return None

    def _fill_missing(
        self, adapter: ItemAdapter, missing: list[str], tree: dom.PageTree, response: Response
    ) -> dict[str, float]:
        """Fill the ``missing`` fields of the item; their confidences."""
        confidences: dict[str, float] = {}
        for name in missing:
            filled = self._fill(name, tree, response)
            if filled is None:
                continue
            value, confidence = filled
            try:
                adapter[name] = value
            except KeyError:
                logger.warning(
                    "Item %s has no field %r for the wrapx target",
                    type(adapter.item).__name__,
                    name,
                    extra={"spider": self.crawler.spider},
                )
                continue
            confidences[name] = confidence
        return confidences

    def _fill(self, name: str, tree: dom.PageTree, response: Response) -> tuple[Any, float] | None:
        target = self.targets[name]
        state = self.states[name]
        reference = self._reference(state)
        if reference is None:
            reference = self._first_reference(name, target, state, tree)
            if reference is None:
                self._inc("missing_count", name)
                return None
            return self._value(reference.is_list, self._selector_values(reference, tree)), 1.0
        min_confidence = self._min_confidence(target)
        resolution = self._resolve(state, reference, tree, min_confidence)
        if resolution.source == "selector":
            self._selector_worked(name, state, tree, response)
        elif resolution.source == "relocated":
            self._relocated(name, state, resolution, response)
        else:
            self._refused(name, target, resolution, min_confidence, response)
            return None
        return self._value(reference.is_list, resolution.values), resolution.confidence

    def _min_confidence(self, target: Target) -> float:
        """The target's own threshold, else ``WRAPX_TARGETS_MIN_CONFIDENCE``."""
        if target.min_confidence is not None:
            return target.min_confidence
        return self.min_confidence

    def _selector_worked(
        self, name: str, state: TargetState, tree: dom.PageTree, response: Response
    ) -> None:
        """The selector selected the target: end any relocation streak and
        refresh the reference from this page, so it follows gradual
        redesigns."""
        state.record_selector_hit()
        if state.selector is not None:
            try:
                fresh = self.locator.reference(tree, state.selector, url=response.url)
            except ValueError:
                fresh = None
            if fresh is not None:
                self._adopt(state, fresh)
        self._save(state)
        self._inc("extracted_count", name)

    def _relocated(
        self, name: str, state: TargetState, resolution: Resolution, response: Response
    ) -> None:
        """The locator relocated the target: count it towards a repair."""
        self._inc("relocated_count", name)
        logger.info(
            "Relocated target %r on %s (confidence %.2f): %s",
            name,
            response.url,
            resolution.confidence,
            resolution.xpaths,
            extra={"spider": self.crawler.spider},
        )
        repaired = state.record_relocation(resolution.xpaths, self.repair_after)
        if repaired is not None:
            self._inc("repaired_count", name)
            logger.warning(
                "Repaired selector of target %r: %r replaces %r",
                name,
                repaired,
                state.history[-1]["selector"],
                extra={"spider": self.crawler.spider},
            )
        self._save(state)

    def _refused(
        self,
        name: str,
        target: Target,
        resolution: Resolution,
        min_confidence: float,
        response: Response,
    ) -> None:
        """No relocation was confident enough: report it, an error for a
        required target."""
        self._inc("refused_count", name)
        log = logger.error if target.required else logger.warning
        log(
            "Could not fill target %r on %s: best relocation confidence %.2f < %.2f",
            name,
            response.url,
            resolution.confidence,
            min_confidence,
            extra={"spider": self.crawler.spider},
        )

    def _resolve(
        self,
        state: TargetState,
        reference: TargetReference,
        tree: dom.PageTree,
        min_confidence: float,
    ) -> Resolution:
        """Resolve with the current reference, then, if that is refused, with
        the references kept from pages of other shapes: a page may lack an
        optional part the current reference's page had."""
        resolution = self.locator.resolve(
            reference, tree, selector=state.selector, min_confidence=min_confidence
        )
        for entry in state.alternates:
            if resolution.source != "refused":
                break
            try:
                alternate = TargetReference.from_json(json.dumps(entry["reference"]))
            except ValueError:
                continue
            retry = self.locator.resolve(
                alternate, tree, selector=state.selector, min_confidence=min_confidence
            )
            if retry.source != "refused" or retry.confidence > resolution.confidence:
                resolution = retry
        return resolution

    def _adopt(self, state: TargetState, reference: TargetReference) -> None:
        """Make ``reference`` the state's current one."""
        data = json.loads(reference.to_json())
        state.remember(data, reference.shape)
        self._parsed[state.name] = (data, reference)

    def _reference(self, state: TargetState) -> TargetReference | None:
        if state.reference is None:
            return None
        cached = self._parsed.get(state.name)
        if cached is not None and cached[0] is state.reference:
            return cached[1]
        try:
            return TargetReference.from_json(json.dumps(state.reference))
        except ValueError as exc:
            logger.warning(
                "Dropping unreadable reference of target %r: %s",
                state.name,
                exc,
                extra={"spider": self.crawler.spider},
            )
            state.reference = None
            return None

    def _first_reference(
        self, name: str, target: Target, state: TargetState, tree: dom.PageTree
    ) -> TargetReference | None:
        """Take the reference from the first page where the target is found."""
        try:
            if target.example is not None:
                reference = self.locator.reference_by_example(tree, target.example, url=tree.url)
                state.selector = reference.selector
            else:
                assert state.selector is not None
                reference = self.locator.reference(tree, state.selector, url=tree.url)
        except ValueError:
            return None
        self._adopt(state, reference)
        self._save(state)
        self._inc("extracted_count", name)
        return reference

    def _selector_values(self, reference: TargetReference, tree: dom.PageTree) -> list[str]:
        resolution = self.locator.resolve(reference, tree, min_confidence=0.0)
        return resolution.values

    @staticmethod
    def _value(is_list: bool, values: list[str]) -> Any:
        if is_list:
            return list(values)
        return values[0] if values else None

    def _inc(self, event: str, name: str | None = None) -> None:
        if self.stats is None:
            return
        self.stats.inc_value(f"wrapx/targets/{event}")
        if name is not None:
            self.stats.inc_value(f"wrapx/targets/{event}/{name}")


def _is_unset(adapter: ItemAdapter, name: str) -> bool:
    try:
        value = adapter.get(name)
    except KeyError:
        return True
    return value is None or value == "" or value == []
