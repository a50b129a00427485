"""Settings of the example project.

Everything here is ordinary Scrapy. scrapy-wrapx plugs in through Scrapy's
add-on mechanism: once its add-on is enabled the demo crawl uses it with
one more line, ``ADDONS = {"scrapy_wrapx.Addon": 0}``.
"""

BOT_NAME = "bookstore"

SPIDER_MODULES = ["bookstore.spiders"]
NEWSPIDER_MODULE = "bookstore.spiders"

# scrapy-wrapx's components are enabled here: {"scrapy_wrapx.Addon": 0}.
ADDONS: dict[str, int] = {}

ROBOTSTXT_OBEY = True
USER_AGENT = "bookstore-example (+https://github.com/scrapy-wrapx)"

# The demo server runs on 127.0.0.1; no need to be gentle with it.
CONCURRENT_REQUESTS = 8
DOWNLOAD_DELAY = 0
AUTOTHROTTLE_ENABLED = False
TELNETCONSOLE_ENABLED = False

FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"
