"""Benchmarks of scrapy-wrapx on real pages (``python -m scrapy_wrapx.bench``).

Each benchmark is a module with a ``main(argv)`` function; they share the
SWDE loader in :mod:`scrapy_wrapx.bench._swde` and report medians of many
runs next to lxml's own parse time of the same pages.
"""
