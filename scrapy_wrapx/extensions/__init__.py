"""Scrapy extensions of scrapy-wrapx."""

from __future__ import annotations

from .induction import WrapxInductionExtension

__all__ = ["WrapxInductionExtension"]
