"""One line in ``settings.py`` enables scrapy-wrapx::

    ADDONS = {"scrapy_wrapx.Addon": 0}

The add-on installs every component at its usual place; each component can
also be enabled alone through the ``*_MIDDLEWARES`` settings (see the docs),
and each one switches itself off with its ``WRAPX_*_ENABLED`` setting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_wrapx.extensions.induction import WrapxInductionExtension
from scrapy_wrapx.middlewares.seeds import WrapxCaptureMiddleware, WrapxSeedsMiddleware
from scrapy_wrapx.middlewares.targets import WrapxTargetsMiddleware

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

#: Close to the spider, so declared fields are filled before other spider
#: middlewares (which may drop or reshape items) see them.
TARGETS_MIDDLEWARE_ORDER = 850
#: Below ``HttpCompressionMiddleware`` (590), so bodies are measured
#: decompressed, and below ``RedirectMiddleware`` (600), so only final
#: responses are seen.
CAPTURE_MIDDLEWARE_ORDER = 580
#: Farther from the spider than the targets middleware: variant-data items
#: are yielded after the spider's (already filled) items, and do not pass
#: through the targets middleware.
SEEDS_MIDDLEWARE_ORDER = 800
INDUCTION_EXTENSION_ORDER = 500


class Addon:
    """The scrapy-wrapx add-on (Scrapy ``ADDONS`` setting). A component the
    project already lists keeps the project's order."""

    def update_settings(self, settings: BaseSettings) -> None:
        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", WrapxTargetsMiddleware, TARGETS_MIDDLEWARE_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "DOWNLOADER_MIDDLEWARES", WrapxCaptureMiddleware, CAPTURE_MIDDLEWARE_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", WrapxSeedsMiddleware, SEEDS_MIDDLEWARE_ORDER
        )
        settings.setdefault_in_component_priority_dict(
            "EXTENSIONS", WrapxInductionExtension, INDUCTION_EXTENSION_ORDER
        )
