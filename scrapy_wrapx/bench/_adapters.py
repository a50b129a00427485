"""Optional rival relocators for the relocation benchmark.

* ``scrapling``: Scrapling's adaptive selectors. The target's element is
  saved on the reference page (``auto_save``); on a variant the stored
  XPath is tried and, when it selects nothing, Scrapling relocates the
  element (``adaptive=True``). The value is the same ``text()[k]`` of the
  element the target was.
* ``autoscraper``: AutoScraper learns rules from the reference page and
  the target's values (``build(wanted_list=...)``) and applies them to the
  variant (``get_result_exact``).

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

from scrapy_wrapx._text import fold_whitespace

if TYPE_CHECKING:
    from .relocate import SiteTarget

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
            reference.xpath(
                xpath, auto_save=True, identifier=f"{target.attribute}/{number}"
            )

    def run(target: SiteTarget, variant: str, variant_url: str) -> list[str]:
        page = Selector(variant, url=url, adaptive=True, storage_args=storage)
        values = []
        for number, (xpath, text_index) in enumerate(target.text_indexes):
            found = page.xpath(
                xpath, adaptive=True, identifier=f"{target.attribute}/{number}"
            )
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
    from autoscraper import AutoScraper  # type: ignore[import-untyped]

    scrapers: dict[str, Any] = {}
    for target in targets:
        scraper = AutoScraper()
        try:
            scraper.build(html=html, wanted_list=list(target.values))
        except Exception:  # noqa: BLE001 - autoscraper fails on pages it cannot learn
            print(f"  autoscraper cannot learn {target.attribute}", file=sys.stderr)
            continue
        scrapers[target.attribute] = scraper

    def run(target: SiteTarget, variant: str, variant_url: str) -> list[str]:
        scraper = scrapers.get(target.attribute)
        if scraper is None:
            return []
        try:
            found = scraper.get_result_exact(html=variant)
        except Exception:  # noqa: BLE001 - a rival's crash counts as no answer
            return []
        return [fold_whitespace(str(value)) for value in found if str(value).strip()]

    return run
