"""Benchmarks of scrapy-wrapx on real pages (``python -m benchmarks``).

Not part of the installed package: run from the repository root (or an
unpacked sdist) with the package installed. Each benchmark is a module with
a ``main(argv)`` function; they share the SWDE loader in
:mod:`benchmarks._swde`, take the helpers they share with the tests (page
mutations, the confidence-model fit, value comparison, a link-following
crawl) from :mod:`tests`, and report medians of many runs next to lxml's own
parse time of the same pages.
"""
