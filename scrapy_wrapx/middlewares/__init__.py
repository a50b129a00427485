"""Scrapy middlewares of scrapy-wrapx: thin adapters over the core."""
