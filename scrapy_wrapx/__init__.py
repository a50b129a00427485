"""scrapy-wrapx: Scrapy plugins that induce page templates without
supervision and keep declared targets working when a site changes.

The algorithm core (:mod:`~scrapy_wrapx.dom`, induction, extraction,
:mod:`~scrapy_wrapx.locate`) does not need Scrapy, so the Scrapy side
(:class:`Addon` and the components it installs) is imported only on use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy_wrapx.targets import Target

if TYPE_CHECKING:
    from scrapy_wrapx.addon import Addon

__version__ = "0.1.0"

__all__ = ["Addon", "Target", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "Addon":
        from scrapy_wrapx.addon import Addon

        return Addon
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
