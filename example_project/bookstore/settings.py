"""Settings of the example project: ordinary Scrapy, plus one line.

``ADDONS = {"scrapy_wrapx.Addon": 0}`` enables both modes of scrapy-wrapx:
the *targets* the spider declares (``wrapx_targets``) are filled and kept
working when the site changes, and the *unsupervised* mode induces every page
kind's template and emits each page's variant data as items of its own.

Everything the crawl writes goes to one output directory,
``BOOKSTORE_OUTPUT`` in the environment or ``example_project/output``: the
items (``items.jsonl``) and the scrapy-wrapx store (``wrapx.sqlite3``). The
store is what scrapy-wrapx learns — target references, repaired selectors,
page kinds, templates — so a second crawl with the same store reuses it;
``run_demo.py`` deletes it first, so every demo run starts from nothing and
its log shows the induction and the relocations again.
"""

from __future__ import annotations

import os
from pathlib import Path

BOT_NAME = "bookstore"

SPIDER_MODULES = ["bookstore.spiders"]
NEWSPIDER_MODULE = "bookstore.spiders"

# scrapy-wrapx ---------------------------------------------------------------

ADDONS = {"scrapy_wrapx.Addon": 0}

# The same, component by component (each one can be enabled alone; the
# numbers are the orders the add-on uses):
#
# DOWNLOADER_MIDDLEWARES = {
#     "scrapy_wrapx.middlewares.seeds.WrapxCaptureMiddleware": 580,
# }
# SPIDER_MIDDLEWARES = {
#     "scrapy_wrapx.middlewares.seeds.WrapxSeedsMiddleware": 800,
#     "scrapy_wrapx.middlewares.targets.WrapxTargetsMiddleware": 850,
# }
# EXTENSIONS = {
#     "scrapy_wrapx.extensions.induction.WrapxInductionExtension": 500,
# }

OUTPUT_DIR = Path(
    os.environ.get("BOOKSTORE_OUTPUT") or Path(__file__).resolve().parent.parent / "output"
)

#: The store, next to the items (the default is ``.scrapy/wrapx/wrapx.sqlite3``
#: in the project's data directory).
WRAPX_STORE_SQLITE_PATH = str(OUTPUT_DIR / "wrapx.sqlite3")
#: Items filled by the targets middleware say how sure it was of each field.
WRAPX_TARGETS_CONFIDENCE_FIELD = "confidence"

FEEDS = {
    str(OUTPUT_DIR / "items.jsonl"): {"format": "jsonlines", "overwrite": True},
}
FEED_EXPORT_ENCODING = "utf-8"

# Plain Scrapy ---------------------------------------------------------------

ROBOTSTXT_OBEY = True
USER_AGENT = "bookstore-example (+https://github.com/scrapy-wrapx)"

# The demo server runs on 127.0.0.1; no need to be gentle with it.
CONCURRENT_REQUESTS = 8
DOWNLOAD_DELAY = 0
AUTOTHROTTLE_ENABLED = False
TELNETCONSOLE_ENABLED = False

LOG_LEVEL = "INFO"
