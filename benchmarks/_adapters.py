"""Optional rival relocators for the relocation benchmark.

* ``scrapling``: Scrapling's adaptive selectors. The target's element is
  saved on the reference page (``auto_save``); on a variant the stored
  XPath is tried and, when it selects nothing, Scrapling relocates the
  element (``adaptive=True``). The value is the same ``text()[k]`` of the
  element the target was.
* ``autoscraper``: AutoScraper learns rules from the reference page and
  the target's values (``build(html=..., wanted_list=[...])``, one scraper
  per attribute) and applies them to the variant (``get_result_exact``, the
  one value per learned rule; ``get_result_similar`` returns every element
  of the rule's shape, which for a detail page is noise). Two limits are
  the library's own, not the adapter's: it matches a wanted value against a
  whole element's text, its direct text or an attribute, so a value that is
  one text node of a mixed-content element (``<b>ISBN-13:</b> 978...<br>``)
  cannot be learned and is reported so; and its rules match a missing
  ``class``/``style`` attribute with ``""``, which BeautifulSoup 4.13+
  no longer accepts (``""`` now matches nothing, every rule loses its
  path and selects the whole page). :class:`_AutoScraper` restores the
  intended meaning by writing ``None`` ("attribute absent") instead.

Both are used only when importable; neither is a dependency.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy_wrapx.dom import fold_whitespace

if TYPE_CHECKING:
    from benchmarks.relocate import SiteTarget

ADAPTERS = {"scrapling": "scrapling", "autoscraper": "autoscraper"}
Runner = Callable[["SiteTarget", str, str], list[str]]


def importable(method: str) -> bool:
    return importlib.util.find_spec(ADAPTERS[method]) is not None


def available(
    methods: list[str], html: str, url: str, targets: list[SiteTarget]
) -> dict[str, Runner]:
    runners: dict[str, Runner] = {}
    if "scrapling" in methods:
        runners["scrapling"] = _scrapling(html, url, targets)
    if "autoscraper" in methods:
        runners["autoscraper"] = _autoscraper(html, url, targets)
    return runners


def _scrapling(html: str, url: str, targets: list[SiteTarget]) -> Runner:
    from scrapling.parser import Selector

    logging.getLogger("scrapling").setLevel(logging.ERROR)
    folder = Path(tempfile.mkdtemp(prefix="wrapx-scrapling-"))
    storage = {"storage_file": str(folder / "elements.db"), "url": url}
    reference = Selector(html, url=url, adaptive=True, storage_args=storage)
    for target in targets:
        for number, (xpath, _) in enumerate(target.text_indexes):
            reference.xpath(xpath, auto_save=True, identifier=f"{target.attribute}/{number}")

    def run(target: SiteTarget, variant: str, variant_url: str) -> list[str]:
        page = Selector(variant, url=url, adaptive=True, storage_args=storage)
        values = []
        for number, (xpath, text_index) in enumerate(target.text_indexes):
            found = page.xpath(xpath, adaptive=True, identifier=f"{target.attribute}/{number}")
            for element in found[:1]:
                if text_index:
                    value = element.xpath(f"./text()[{text_index}]").get()
                else:
                    value = element.get_all_text()
                if value and value.strip():
                    values.append(fold_whitespace(str(value)))
        return values

    return run


def _autoscraper(html: str, url: str, targets: list[SiteTarget]) -> Runner:
    import warnings

    from autoscraper import AutoScraper

    class _AutoScraper(AutoScraper):  # type: ignore[misc]
        @staticmethod
        def _get_valid_attrs(item: Any) -> dict[str, Any]:
            # "" meant "absent" before BeautifulSoup 4.13; None means it now.
            attrs = AutoScraper._get_valid_attrs(item)
            return {key: None if value == "" else value for key, value in attrs.items()}

    # autoscraper calls BeautifulSoup's deprecated camelCase aliases.
    warnings.filterwarnings("ignore", category=DeprecationWarning, module="autoscraper")
    scrapers: dict[str, Any] = {}
    for target in targets:
        scraper = _AutoScraper()
        try:
            learned = scraper.build(html=html, wanted_list=list(target.values))
        except Exception as exc:
            print(f"  autoscraper cannot learn {target.attribute}: {exc!r}", file=sys.stderr)
            continue
        if not scraper.stack_list or not learned:
            print(
                f"  autoscraper cannot learn {target.attribute}: no element's text or "
                f"attribute equals {list(target.values)!r} (a text node inside "
                "mixed content)",
                file=sys.stderr,
            )
            continue
        scrapers[target.attribute] = scraper

    def run(target: SiteTarget, variant: str, variant_url: str) -> list[str]:
        scraper = scrapers.get(target.attribute)
        if scraper is None:
            return []
        try:
            found = scraper.get_result_exact(html=variant)
        except Exception:
            return []
        return [fold_whitespace(str(value)) for value in found if str(value).strip()]

    return run
