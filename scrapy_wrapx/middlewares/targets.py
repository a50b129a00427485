"""Fills the fields a spider declares in ``wrapx_targets``, self-healing.

For each item a callback yields, every declared field the callback left
unset is filled from the response: by the stored selector when it still
selects the right thing (each hit is verified against the target's
reference, because a selector that selects *something* can select the wrong
thing), else by the hybrid locator, which relocates the target and reports
a confidence. Weak relocations are refused and logged, not guessed. Once the
same relocation repeats on ``WRAPX_TARGETS_REPAIR_AFTER`` pages, the stored
selector is repaired; pages where the selector works refresh the reference,
so it follows gradual redesigns, and never count towards a repair.

A list target (:attr:`Target.is_list`, decided from the declaration) is a
list in every item, ``[]`` when the page has none. Items of pages crawled
before an example target's value was first seen are held (at most
``WRAPX_TARGETS_HOLD_ITEMS``) and come out, filled, after the page where it
is found; the end of the crawl releases the rest through one local
``data:`` request this middleware answers, so no field goes unset because
of crawl order.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from lxml import etree
from scrapy import Request, signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.http import TextResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.defer import deferred_from_coro

from scrapy_wrapx import dom
from scrapy_wrapx.locate import HybridLocator, Resolution, TargetReference
from scrapy_wrapx.locate.exclusive import exclusive
from scrapy_wrapx.locate.repair import TargetState
from scrapy_wrapx.middlewares._held import HeldItems
from scrapy_wrapx.settings import check_settings, wrapx_setting
from scrapy_wrapx.store._crawler import crawler_store
from scrapy_wrapx.targets import Target, absence_context, parse_targets
from scrapy_wrapx.unsupervised.capture import OPT_OUT_META, no_output
from scrapy_wrapx.unsupervised.responses import is_html, response_tree

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterable, Iterator

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from twisted.python.failure import Failure
    from typing_extensions import Self

    from scrapy_wrapx.store import WrapxStore

logger = logging.getLogger(__name__)

#: A target's value and its confidence (None where nothing was relocated).
Filled = tuple[Any, float | None]

NAMESPACE = "targets"
#: Meta key of the end-of-crawl request whose response releases held items.
RELEASE_META = "wrapx_targets_release"


class WrapxTargetsMiddleware(BaseSpiderMiddleware):
    """Spider middleware behind ``wrapx_targets`` (see the module doc)."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        settings = crawler.settings
        if not wrapx_setting(settings, "WRAPX_TARGETS_ENABLED"):
            raise NotConfigured("WrapxTargetsMiddleware requires WRAPX_TARGETS_ENABLED=True")
        check_settings(settings)
        # Targets declared on the spider class are checked now, so a typo
        # stops the crawl before it starts, like a bad setting.
        parse_targets(getattr(crawler.spidercls, "wrapx_targets", None))
        self.locator = HybridLocator(
            method=wrapx_setting(settings, "WRAPX_TARGETS_METHOD"),
            radius=wrapx_setting(settings, "WRAPX_TARGETS_RADIUS"),
        )
        self.min_confidence: float = wrapx_setting(settings, "WRAPX_TARGETS_MIN_CONFIDENCE")
        self.repair_after = wrapx_setting(settings, "WRAPX_TARGETS_REPAIR_AFTER")
        self.confidence_field = wrapx_setting(settings, "WRAPX_TARGETS_CONFIDENCE_FIELD")
        self.hold_limit: int = wrapx_setting(settings, "WRAPX_TARGETS_HOLD_ITEMS")
        self.max_size: int = wrapx_setting(settings, "WRAPX_TARGETS_MAX_BODY_SIZE")
        self.stats = crawler.stats
        self.targets: dict[str, Target] = {}
        self.states: dict[str, TargetState] = {}
        # The parsed form of each state's current reference, so a page does
        # not parse back the JSON the previous page just wrote.
        self._parsed: dict[str, tuple[dict[str, Any], TargetReference]] = {}
        self.held = HeldItems(self.hold_limit, self._fill_unset, self._inc)
        self._releasing = False
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    # Start-up -------------------------------------------------------------

    def spider_opened(self, spider: Spider) -> None:
        try:
            self.targets = parse_targets(getattr(spider, "wrapx_targets", None))
        except ValueError as exc:
            logger.error("%s; closing the spider", exc, extra={"spider": spider})
            _close_spider(self.crawler, spider, "wrapx_invalid_target")
            self.targets = {}
            return
        self.spider_name = spider.name
        if not self.targets:
            return
        self.store: WrapxStore = crawler_store(self.crawler)
        for name, target in self.targets.items():
            self.states[name] = self._load_state(spider, name, target)
        logger.info(
            "scrapy-wrapx targets for %s: %s",
            spider.name,
            ", ".join(sorted(self.targets)),
            extra={"spider": spider},
        )

    def _key(self, name: str) -> str:
        return f"{self.spider_name}/{name}"

    def _load_state(self, spider: Spider, name: str, target: Target) -> TargetState:
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
        self.store.set(NAMESPACE, self._key(state.name), state.to_dict())

    # Spider output ----------------------------------------------------------

    def process_spider_output(
        self, response: Response | None, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        for output in result:
            yield from self._output(output, response)
        yield from self._after(response)

    async def process_spider_output_async(
        self, response: Response | None, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        async for output in result:
            for processed in self._output(output, response):
                yield processed
        for processed in self._after(response):
            yield processed

    def _output(self, output: Any, response: Response | None) -> list[Any]:
        """What goes out for one output of the callback: a request as is;
        an item filled (or held), then any held items it made ready."""
        if isinstance(output, Request):
            return [output]
        held = self._process(output, response)
        return [*([] if held else [output]), *self.held.take_ready()]

    def _after(self, response: Response | None) -> list[Any]:
        """After a response's output: held items, all of them if this is
        the end-of-crawl release request."""
        request = response.request if response is not None else None
        if request is not None and request.meta.get(RELEASE_META):
            self._releasing = False
            return self.held.release_all()
        return self.held.take_ready()

    # Items ----------------------------------------------------------------

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        """Fill ``item``'s unset target fields from ``response`` (held
        items are the spider output's business: see :meth:`_output`)."""
        self._process(item, response)
        return item

    def _process(self, item: Any, response: Response | None) -> bool:
        """Fill ``item``; True when it is held for an example target."""
        if not self.targets or response is None or not is_html(response):
            return False
        try:
            adapter = ItemAdapter(item)
        except TypeError:
            return False  # not an item type itemadapter knows
        missing = [name for name in self.targets if _is_unset(adapter, name)]
        tree = self._tree(response) if missing else None
        if tree is None:
            return False
        self._fill_item(adapter, missing, tree)
        return self._maybe_hold(item, missing, tree)

    def _maybe_hold(self, item: Any, missing: list[str], tree: dom.PageTree) -> bool:
        """Hold ``item`` when an example target it misses is not seen yet."""
        waiting = {name for name in missing if self._waits_for_example(name)}
        return self.held.hold(item, tree, waiting)

    def _fill_unset(self, adapter: ItemAdapter, names: list[str], tree: dom.PageTree) -> None:
        """Fill those of ``names`` still unset (a held item's)."""
        self._fill_item(adapter, [n for n in names if _is_unset(adapter, n)], tree)

    def _fill_item(self, adapter: ItemAdapter, missing: list[str], tree: dom.PageTree) -> None:
        """Fill the ``missing`` fields, and the confidence field if set."""
        confidences = self._fill_missing(adapter, missing, tree)
        if self.confidence_field and confidences:
            with contextlib.suppress(KeyError):  # the item type has no such field
                known = adapter.get(self.confidence_field)
                adapter[self.confidence_field] = {
                    **(known if isinstance(known, dict) else {}),
                    **confidences,
                }

    # Held items -------------------------------------------------------------

    def _waits_for_example(self, name: str) -> bool:
        """Whether ``name`` is an example target not seen yet."""
        return self.targets[name].example is not None and self.states[name].reference is None

    def spider_idle(self, spider: Spider) -> None:
        """Release the held items before the spider closes, through one
        ``data:`` request whose response this middleware answers."""
        if not self.held and not self._releasing:
            return
        if not self._releasing:
            self._releasing = True
            request = Request(
                "data:text/plain,wrapx-targets-release",
                callback=no_output,
                errback=self._release_failed,
                dont_filter=True,
                priority=1000,
                meta={RELEASE_META: True, OPT_OUT_META: False},
            )
            if self.crawler.engine is not None:
                self.crawler.engine.crawl(request)
        raise DontCloseSpider

    def _release_failed(self, failure: Failure) -> None:
        self._releasing = False
        logger.error(
            "Could not release held items: %s",
            failure.value,
            extra={"spider": self.crawler.spider},
        )

    def spider_closed(self, spider: Spider) -> None:
        """Held items the crawl ended without (it was stopped): say so."""
        self.held.drop()

    def _tree(self, response: Response) -> dom.PageTree | None:
        """The page tree of an HTML response; None (logged) when it cannot
        be parsed, or is over ``WRAPX_TARGETS_MAX_BODY_SIZE``."""
        if self.max_size and len(response.body) > self.max_size:
            logger.warning(
                "Skipping wrapx targets on %s: %d bytes, over WRAPX_TARGETS_MAX_BODY_SIZE=%d",
                response.url,
                len(response.body),
                self.max_size,
                extra={"spider": self.crawler.spider},
            )
            self._inc("skipped_count")
            return None
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
        self, adapter: ItemAdapter, missing: list[str], tree: dom.PageTree
    ) -> dict[str, float]:
        """Fill the ``missing`` fields of the item; their confidences. A
        list target is a list even when nothing fills it. Every target is
        resolved first, then each node goes to one target
        (:func:`~scrapy_wrapx.locate.exclusive.exclusive`), then the
        outcomes count and log."""
        fresh: set[str] = set()
        outcomes = {name: self._outcome(name, tree, fresh) for name in missing}
        kept, taken = exclusive({n: o for n, o in outcomes.items() if isinstance(o, Resolution)})
        confidences: dict[str, float] = {}
        for name in missing:
            outcome = outcomes[name]
            filled = (
                self._settle(name, kept[name], taken.get(name), tree, name in fresh)
                if isinstance(outcome, Resolution)
                else outcome
            )
            if filled is None or filled[0] in (None, []):
                self._required_missing(name, tree.url or "")
            if filled is None:
                if not self.targets[name].is_list:
                    continue
                filled = ([], None)
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
            if confidence is not None:
                confidences[name] = confidence
        return confidences

    def _outcome(
        self, name: str, tree: dom.PageTree, fresh: set[str]
    ) -> Resolution | Filled | None:
        """How ``name`` resolves on the page, before anything is counted: a
        resolution, or its value when there is nothing to resolve (an
        absent part) or None (no reference yet). A target whose reference
        this page gives joins ``fresh``."""
        target = self.targets[name]
        state = self.states[name]
        reference = self._reference(state)
        if reference is None:
            reference = self._first_reference(name, target, state, tree)
            if reference is None:
                self._inc("missing_count", name)
                return None
            found = self.locator.resolve(reference, tree, min_confidence=0.0, many=target.is_list)
            fresh.add(name)  # the reference page: its selector's hits are the target
            return Resolution(found.values, found.xpaths, 1.0, "selector")
        if self._absent(target, state, tree):
            return ([], None) if target.is_list else None
        min_confidence = self._min_confidence(target)
        return self._resolve(state, reference, tree, min_confidence, target.is_list)

    def _settle(
        self,
        name: str,
        resolution: Resolution,
        taken_by: str | None,
        tree: dom.PageTree,
        fresh: bool,
    ) -> Filled | None:
        """Count and log ``name``'s resolution; its value and confidence."""
        target = self.targets[name]
        state = self.states[name]
        url = tree.url or ""
        if fresh:
            return self._value(target.is_list, resolution.values), resolution.confidence
        if resolution.source == "selector":
            self._selector_worked(name, state, tree)
        elif resolution.source == "relocated":
            self._relocated(name, state, resolution, tree)
        elif taken_by is not None:
            self._taken(name, taken_by, resolution, url)
            return None
        else:
            self._refused(name, target, resolution, self._min_confidence(target), url)
            return None
        return self._value(target.is_list, resolution.values), resolution.confidence

    def _absent(self, target: Target, state: TargetState, tree: dom.PageTree) -> bool:
        """Whether the declared selector selects nothing where its context
        is there (:func:`~scrapy_wrapx.targets.absence_context`): the target
        is absent from this page (an empty list, an optional part), which is
        no failure of the selector and nothing to relocate."""
        query = target.query
        if query is None or state.selector != target.selector:
            return False
        container = absence_context(query, target.is_list)
        if container is None:
            return False
        try:
            return not tree.document.xpath(query) and bool(tree.document.xpath(container))
        except (etree.XPathError, TypeError, ValueError):
            return False

    def _required_missing(self, name: str, url: str) -> None:
        """A ``required`` target stays unset on a page: count and log it."""
        if not self.targets[name].required:
            return
        self._inc("required_missing_count", name)
        logger.error(
            "Required target %r is missing on %s",
            name,
            url,
            extra={"spider": self.crawler.spider},
        )

    def _min_confidence(self, target: Target) -> float:
        """The target's own threshold, else ``WRAPX_TARGETS_MIN_CONFIDENCE``."""
        if target.min_confidence is not None:
            return target.min_confidence
        return self.min_confidence

    def _selector_worked(self, name: str, state: TargetState, tree: dom.PageTree) -> None:
        """The selector selected the target: end any relocation streak and
        refresh the reference from this page, so it follows gradual
        redesigns (a list's, from pages with several members)."""
        state.record_selector_hit()
        if state.selector is not None:
            try:
                fresh = self.locator.reference(tree, state.selector, url=tree.url)
            except ValueError:
                fresh = None
            if fresh is not None and self._richer(state, fresh):
                self._adopt(state, fresh)
        self._save(state)
        self._inc("extracted_count", name)

    def _richer(self, state: TargetState, fresh: TargetReference) -> bool:
        """Whether ``fresh`` may replace the current reference: a list's
        reference with several members holds its pattern, one with a
        single member does not."""
        if not self.targets[state.name].is_list or fresh.is_list:
            return True
        current = self._reference(state)
        return current is None or not current.is_list

    def _relocated(
        self, name: str, state: TargetState, resolution: Resolution, tree: dom.PageTree
    ) -> None:
        """The locator relocated the target: count it towards a repair."""
        url = tree.url or ""
        self._inc("relocated_count", name)
        logger.info(
            "Relocated target %r on %s (confidence %.2f): %s",
            name,
            url,
            resolution.confidence,
            resolution.xpaths,
            extra={"spider": self.crawler.spider},
        )
        repaired = state.record_relocation(resolution.xpaths, self.repair_after, tree)
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
        url: str,
    ) -> None:
        """No eligible relocation was confident enough: report the best
        eligible one's confidence and the threshold (an error for a required
        target)."""
        self._inc("refused_count", name)
        log = logger.error if target.required else logger.warning
        log(
            "Could not fill target %r on %s: best eligible relocation confidence %.2f"
            " is below the threshold %.2f",
            name,
            url,
            resolution.confidence,
            min_confidence,
            extra={"spider": self.crawler.spider},
        )

    def _taken(self, name: str, holder: str, resolution: Resolution, url: str) -> None:
        """Every node ``name`` relocated to is ``holder``'s value: unset."""
        self._inc("taken_count", name)
        logger.warning(
            "Could not fill target %r on %s: its relocation (confidence %.2f) landed on"
            " the value of target %r",
            name,
            url,
            resolution.confidence,
            holder,
            extra={"spider": self.crawler.spider},
        )

    def _resolve(
        self,
        state: TargetState,
        reference: TargetReference,
        tree: dom.PageTree,
        min_confidence: float,
        many: bool,
    ) -> Resolution:
        """Resolve with the current reference, then, if that is refused, with
        the references kept from pages of other shapes: a page may lack an
        optional part the current reference's page had."""
        resolution = self.locator.resolve(
            reference, tree, selector=state.selector, min_confidence=min_confidence, many=many
        )
        for entry in state.alternates:
            if resolution.source != "refused":
                break
            try:
                alternate = TargetReference.from_json(json.dumps(entry["reference"]))
            except ValueError:
                continue
            retry = self.locator.resolve(
                alternate, tree, selector=state.selector, min_confidence=min_confidence, many=many
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
        if target.example is not None:
            self.held.reference_taken(name)
        return reference

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


def _close_spider(crawler: Crawler, spider: Spider, reason: str) -> None:
    """Close the spider with ``reason`` (Scrapy 2.13's engine has no
    ``close_spider_async`` yet)."""
    engine = crawler.engine
    if engine is None:
        return
    close_async = getattr(engine, "close_spider_async", None)
    if close_async is not None:
        deferred_from_coro(close_async(reason=reason))
    else:
        engine.close_spider(spider, reason=reason)
