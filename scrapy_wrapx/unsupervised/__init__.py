"""The unsupervised mode's crawl-side logic, one module per job: capture
rules (:mod:`.capture`) and the page tree of a response (:mod:`.responses`),
routing pages to kinds (:mod:`.routing`, over :mod:`.kinds`), the seed
collector (:mod:`.seeds`), what happens to one page (:mod:`.pages`), item
building and the buffer of waiting pages (:mod:`.items`), templates in the
store (:mod:`.templates`) and induction claims (:mod:`.claims`), the end of
a crawl (:mod:`.flush`, :mod:`.report`), pages held while the store is away
(:mod:`.offline`), and the crawl's state (:mod:`.state`). The Scrapy
components in :mod:`scrapy_wrapx.middlewares` and
:mod:`scrapy_wrapx.extensions` are thin adapters over it."""
