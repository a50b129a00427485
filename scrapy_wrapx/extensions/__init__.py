"""Scrapy extensions of scrapy-wrapx."""

from __future__ import annotations

from scrapy_wrapx.extensions.induction import WrapxInductionExtension

__all__ = ["WrapxInductionExtension"]
