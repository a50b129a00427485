"""Page workers: processes that parse, extract and induce off the crawl's
process (the protocol, the worker run as ``python -m
scrapy_wrapx.workers.worker``, and the pool that talks to them)."""
