"""Typed values next to the text (``WRAPX_ITEMS_TYPED_VALUES``).

An item keeps each value as the page shows it ("$ 24,250", "Oct 26,
2005"); with the setting on, a value that reads as a price or a date also
gets its typed form under keys of its own, beside it, parsed by the
libraries the Scrapy ecosystem keeps for that (the ``typed`` extra:
``pip install scrapy-wrapx[typed]``):

* ``<field>_amount`` and ``<field>_currency`` from price-parser, for a
  short text with a currency (a number without one is no price: a year, a
  count, a page number);
* ``<field>_date`` from dateparser, ISO 8601 to the precision the text
  gives (``2005-10-26``, or ``2010-06`` for "June 2010"), for a short text
  with a year and a month; relative dates ("2 days ago") are left alone,
  since their meaning depends on the day of the crawl.

Typing never changes or drops the text, and a value that does not read
cleanly gets no typed keys (no guess). Records are typed member by member;
key/value mappings keep their page's labels untouched.

>>> typed_values({"price": "$ 24,250", "title": "1984", "date": "Oct 26, 2005"})
... # doctest: +NORMALIZE_WHITESPACE
{'price': '$ 24,250', 'price_amount': '24250', 'price_currency': '$',
 'title': '1984', 'date': 'Oct 26, 2005', 'date_date': '2005-10-26'}
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

#: Longest text read as a price or a date: longer ones are sentences that
#: merely mention one ("Save $5 on orders over $50").
MAX_CHARS = 40
#: Most letters a price's text may have besides its digits (a label such as
#: "Starting at", a currency code): more, and it is a sentence.
MAX_PRICE_LETTERS = 14
#: A year (1600-2099), or a numeric day/month/year: what a date needs to
#: be tried at all (dateparser is slow, and generous with what it reads).
_DATE_SHAPE = re.compile(r"\b(?:1[6-9]|20)\d\d\b|\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b")
_LETTER = re.compile(r"[^\W\d_]")
#: Distinct texts whose typed form is remembered.
CACHE_SIZE = 4096


_LANGUAGE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]+)?$")


def require_libraries(languages: tuple[str, ...]) -> None:
    """Fail clearly, when the crawl starts, if the setting is on without
    the ``typed`` extra or names something that is no language code."""
    bad = [code for code in languages if not isinstance(code, str) or not _LANGUAGE.match(code)]
    if bad:
        raise ValueError(
            f"Invalid setting WRAPX_ITEMS_TYPED_VALUES={list(languages)!r}: expected "
            f"dateparser language codes such as ['en'], not {bad!r}"
        )
    try:
        import dateparser  # noqa: F401
        import price_parser  # noqa: F401
    except ImportError as exc:
        raise RuntimeError(
            "WRAPX_ITEMS_TYPED_VALUES needs price-parser and dateparser: "
            "pip install 'scrapy-wrapx[typed]'"
        ) from exc


#: The languages dates are read in when the setting is just ``True``.
DEFAULT_LANGUAGES = ("en",)


def typed_values(
    data: dict[str, Any], languages: tuple[str, ...] = DEFAULT_LANGUAGES
) -> dict[str, Any]:
    """``data`` (an item's fields) with the typed keys of its texts added
    after each, records typed member by member; a key already in ``data``
    is never overwritten. Dates are read in ``languages`` (dateparser's
    codes: trying every language it knows costs a second a text)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        out[key] = value
        if isinstance(value, str):
            for suffix, typed in typed_text(value, languages):
                if f"{key}{suffix}" not in data:
                    out[f"{key}{suffix}"] = typed
        elif isinstance(value, list):
            out[key] = [typed_values(v, languages) if isinstance(v, dict) else v for v in value]
    return out


@lru_cache(maxsize=CACHE_SIZE)
def typed_text(
    text: str, languages: tuple[str, ...] = DEFAULT_LANGUAGES
) -> tuple[tuple[str, str], ...]:
    """The typed keys' suffixes and values of one text, empty for none."""
    text = text.strip()
    if not text or len(text) > MAX_CHARS:
        return ()
    return _price(text) or _date(text, languages)


def _price(text: str) -> tuple[tuple[str, str], ...]:
    from price_parser import Price

    if len(_LETTER.findall(text)) > MAX_PRICE_LETTERS:
        return ()
    price = Price.fromstring(text)
    if price.amount is None or not price.currency:
        return ()
    return (("_amount", format(price.amount, "f")), ("_currency", price.currency))


#: dateparser's settings: absolute dates only (no "2 days ago", no
#: timestamps), with a month and a year at least.
_DATE_SETTINGS = {
    "PARSERS": ["custom-formats", "absolute-time"],
    "REQUIRE_PARTS": ["month", "year"],
    "PREFER_DAY_OF_MONTH": "first",
    "RETURN_TIME_AS_PERIOD": False,
}


def _date(text: str, languages: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The one date ``text`` holds ("Released Feb 26, 1999 Nationwide"),
    to the precision it gives; none for no date or several."""
    if not _DATE_SHAPE.search(text):
        return ()
    from dateparser.search import search_dates

    found = search_dates(text, languages=list(languages), settings=_DATE_SETTINGS)
    if not found or len(found) != 1:
        return ()
    data = _date_parser(languages).get_date_data(found[0][0])
    when, period = data.date_obj, data.period
    if when is None:
        return ()
    if period == "month":
        return (("_date", when.strftime("%Y-%m")),)
    if period == "day":
        return (("_date", when.strftime("%Y-%m-%d")),)
    return ()


@lru_cache(maxsize=8)
def _date_parser(languages: tuple[str, ...]) -> Any:
    from dateparser.date import DateDataParser

    return DateDataParser(languages=list(languages), settings=_DATE_SETTINGS)
