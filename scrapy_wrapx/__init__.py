"""scrapy-wrapx: Scrapy plugins that induce page templates without
supervision and keep declared targets working when a site changes."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
