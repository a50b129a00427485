"""One line in ``settings.py`` enables scrapy-wrapx::

    ADDONS = {"scrapy_wrapx.Addon": 0}

The add-on installs every component at its usual place; each component can
also be enabled alone through the ``*_MIDDLEWARES`` settings (see the docs),
and each one switches itself off with its ``WRAPX_*_ENABLED`` setting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy_wrapx.middlewares.targets import WrapxTargetsMiddleware

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

#: Close to the spider, so declared fields are filled before other spider
#: middlewares (which may drop or reshape items) see them.
TARGETS_MIDDLEWARE_ORDER = 850


class Addon:
    """The scrapy-wrapx add-on (Scrapy ``ADDONS`` setting)."""

    def update_settings(self, settings: BaseSettings) -> None:
        settings.set_in_component_priority_dict(
            "SPIDER_MIDDLEWARES", WrapxTargetsMiddleware, TARGETS_MIDDLEWARE_ORDER
        )
