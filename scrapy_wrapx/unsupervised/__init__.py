"""The unsupervised mode's crawl-side logic, one module per job, under the
thin Scrapy components of :mod:`scrapy_wrapx.middlewares`,
:mod:`scrapy_wrapx.extensions` and :mod:`scrapy_wrapx.pipelines`."""
