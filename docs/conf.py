"""Sphinx configuration of the scrapy-wrapx documentation."""

from __future__ import annotations

import sys
from pathlib import Path

import scrapy_wrapx

# Local extensions: the settings reference generated from the code.
sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "scrapy-wrapx"
author = "scrapy-wrapx contributors"
copyright = "2024, scrapy-wrapx contributors"
release = scrapy_wrapx.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "wrapx_docs",
]

# The docs build offline (the tox env has no network to count on), so no
# intersphinx; type hints go in the description, not in long signatures.
autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True}

exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path: list[str] = []
