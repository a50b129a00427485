"""Typed values next to the text (``WRAPX_ITEMS_TYPED_VALUES``): prices by
price-parser, dates by dateparser, the text kept as on the page, and no
typed value for what only looks like one.

Values come from generators of each family (currencies before and after
the amount, with and without labels; dates in numeric and written forms,
to the day or the month) beside their look-alikes (years, counts, phone
numbers, ISBNs, relative dates, sentences that mention a price); a real
crawl of the demo shop checks the setting end to end.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from scrapy.crawler import CrawlerRunner

from scrapy_wrapx.unsupervised.typed import require_libraries, typed_text, typed_values
from tests.conftest import DemoEndpoint
from tests.crawling import collect_items, crawl_settings
from tests.test_e2e_unsupervised import FollowSpider

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"]


def _price_text(rng: random.Random) -> tuple[str, Decimal, str]:
    whole, cents = rng.randrange(1, 99_999), rng.randrange(100)
    amount = Decimal(f"{whole}.{cents:02d}")
    sign = rng.choice(["$", "€", "£", "USD", "EUR"])
    number = f"{whole:,}.{cents:02d}" if sign != "€" else f"{whole}.{cents:02d}"
    text = rng.choice([f"{sign}{number}", f"{sign} {number}", f"{number} {sign}"])
    label = rng.choice(["", "Price: ", "Our price: ", "Starting at "])
    return label + text, amount, sign


@pytest.mark.parametrize("seed", range(40))
def test_a_price_gets_its_amount_and_currency(seed: int) -> None:
    rng = random.Random(seed)
    text, amount, sign = _price_text(rng)
    typed = dict(typed_text(text))
    assert Decimal(typed["_amount"]) == amount, (text, typed)
    assert typed["_currency"] == sign, (text, typed)


@pytest.mark.parametrize("seed", range(30))
def test_a_date_gets_its_iso_form_to_the_precision_given(seed: int) -> None:
    rng = random.Random(seed)
    day = datetime.date(rng.randrange(1950, 2025), rng.randrange(1, 9), rng.randrange(1, 29))
    month = MONTHS[day.month - 1]
    forms = [
        (f"{month} {day.day}, {day.year}", day.isoformat()),
        (f"{month[:3]} {day.day}, {day.year}", day.isoformat()),
        (f"{day.day} {month} {day.year}", day.isoformat()),
        (day.strftime("%m/%d/%Y"), day.isoformat()),
        (f"{month} {day.year}", day.isoformat()[:7]),
        (f"Released {month} {day.day}, {day.year} Nationwide", day.isoformat()),
    ]
    text, iso = rng.choice(forms)
    assert dict(typed_text(text)).get("_date") == iso, text


@pytest.mark.parametrize(
    "text",
    [
        "1984",
        "2010",
        "352 pages",
        "Rated 4.5 out of 5",
        "(800) 460-6228",
        "972-613-0800",
        "978-0-316-12558-1",
        "9780316125581",
        "2 days ago",
        "yesterday",
        "1 hr. 59 min.",
        "From 1999 to 2004",
        "Save $5 on your next order of books today",
        "Mass Market Paperback",
        "3.0L Diesel I6, 265 HP",
        "",
    ],
)
def test_look_alikes_get_no_typed_value(text: str) -> None:
    assert typed_text(text) == ()


def test_typed_keys_sit_beside_the_text_and_never_replace_a_field() -> None:
    data = {
        "title": "Dune",
        "price": "$ 9.99",
        "price_amount": "a field of the page",
        "offers": [{"seller": "A", "price": "€ 12,50"}, {"seller": "B", "price": "n/a"}],
        "specs": {"Released": "June 2010"},
    }
    typed = typed_values(data)
    assert list(typed)[:4] == ["title", "price", "price_currency", "price_amount"]
    assert typed["price_amount"] == "a field of the page"
    assert typed["offers"][0] == {
        "seller": "A",
        "price": "€ 12,50",
        "price_amount": "12.50",
        "price_currency": "€",
    }
    assert typed["offers"][1] == {"seller": "B", "price": "n/a"}
    assert typed["specs"] == {"Released": "June 2010"}  # a mapping keeps the page's labels


@pytest.mark.parametrize("value", [["english"], ["en", "DE!"], [""]])
def test_a_bad_language_setting_is_a_clear_error(value: list[str]) -> None:
    with pytest.raises(ValueError, match="WRAPX_ITEMS_TYPED_VALUES"):
        require_libraries(tuple(value))


@pytest_twisted.inlineCallbacks
def test_a_crawl_with_the_setting_types_prices_and_dates(
    demo_server: DemoEndpoint, tmp_path: Path
) -> Iterator[Any]:
    runner = CrawlerRunner(
        crawl_settings(tmp_path / "wrapx.sqlite3", WRAPX_ITEMS_TYPED_VALUES=["en"])
    )
    crawler = runner.create_crawler(FollowSpider)
    items = collect_items(crawler)
    yield runner.crawl(crawler, start_url=demo_server.url)
    books = [item for item in items if "/book/" in item["url"]]
    assert books
    priced = [item for item in books if "price" in item]
    assert priced and all(
        Decimal(item["price_amount"]) == Decimal(item["price"].lstrip("$"))
        and item["price_currency"] == "$"
        for item in priced
    ), priced[:2]
    dated = [item for item in books if "publication_date" in item]
    assert dated and all(
        datetime.datetime.strptime(item["publication_date"], "%B %d, %Y").date().isoformat()
        == item["publication_date_date"]
        for item in dated
    ), dated[:2]
