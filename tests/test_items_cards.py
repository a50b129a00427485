"""Card lists whose cards differ by optional parts (a badge on some, a
price missing on others) fold into one set of records, on the seeds and
in extraction: every card of a page is one record of one list."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Template, normalized_form
from scrapy_wrapx.unsupervised.items import build_item

WORDS = ["Red", "Blue", "Old", "New", "Deep", "Wild", "Tide", "Moon", "Lamp", "Fox"]


def card(rng: random.Random, *, badge: bool, price: bool) -> str:
    flag = "<span class='badge'>Sale</span>" if badge else ""
    cost = (
        f"<span class='price'>${rng.randint(1, 99)}.{rng.randint(10, 99)}</span>" if price else ""
    )
    name = " ".join(rng.choice(WORDS) for _ in range(3))
    return (
        f"<div class='card'>{flag}<a class='card-link' href='/p/{rng.randint(1, 9999)}'>"
        f"<img src='/i/{rng.randint(1, 9999)}.jpg'>{name}</a>{cost}</div>"
    )


def list_page(rng: random.Random, cards: int) -> tuple[str, list[str]]:
    """A page of ``cards`` cards, badges at random positions (at least one
    card with and one without, when there are two), and its card links."""
    badges = [rng.random() < 0.3 for _ in range(cards)]
    if cards >= 2:
        with_badge, without = rng.sample(range(cards), 2)
        badges[with_badge], badges[without] = True, False
    html = [card(rng, badge=b, price=rng.random() < 0.8) for b in badges]
    links = [part.split("href='")[1].split("'")[0] for part in html]
    body = "".join(html)
    page = f"<html><body><h1>Shop</h1><div class='list'>{body}</div><p>Footer</p></body></html>"
    return page, links


def _item(template: Template, html: str) -> dict[str, object]:
    item = build_item(None, "http://x/1", "x/k", 1, extract(template, html), template)
    assert isinstance(item, dict)
    return item


def _records(item: dict[str, object]) -> list[dict[str, str]]:
    lists = [value for value in item.values() if isinstance(value, list)]
    assert len(lists) == 1, item
    records = lists[0]
    assert all(isinstance(record, dict) for record in records)
    return records  # type: ignore[no-any-return]


@pytest.mark.parametrize("cards", [1, 3, 10, 25])
@pytest.mark.parametrize("seed", range(6))
def test_cards_with_optional_parts_are_one_list(seed: int, cards: int) -> None:
    rng = random.Random(seed * 100 + cards)
    # Seed pages show the list with about ``cards`` cards, some with more
    # (a list is known from a page that repeats).
    sizes = [cards, cards + 2, max(cards - 1, 1), cards, cards + 1]
    seeds = [list_page(rng, size) for size in sizes]
    template = induce_template([html for html, _ in seeds])
    # No positional card fields: one set, its fields each named once.
    assert len(template.set_names) == 1, template.set_names
    assert not any(name[-1].isdigit() for name in template.field_names), template.field_names
    for html, _ in seeds:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)
    for count in (1, 3, 10, 25):
        html, links = list_page(rng, count)
        item = _item(template, html)
        assert item["partial"] is False
        records = _records(item)
        assert [record.get(_link_key(records)) for record in records] == links
        assert any("Sale" not in str(record.values()) for record in records)


def _link_key(records: list[dict[str, str]]) -> str:
    return next(key for key, value in records[0].items() if value.startswith("/p/"))


def test_a_badge_only_some_cards_carry_is_optional_in_the_record() -> None:
    rng = random.Random(7)
    seeds = [list_page(rng, 10)[0] for _ in range(5)]
    template = induce_template(seeds)
    html, links = list_page(rng, 10)
    records = _records(_item(template, html))
    assert len(records) == len(links) == 10
    prices = [record for record in records if any(v.startswith("$") for v in record.values())]
    assert 0 < len(prices) <= 10


def test_rows_with_different_labels_do_not_fold() -> None:
    """A details list whose rows open with other labels stays rows."""
    rng = random.Random(3)
    pages = [
        "<html><body><ul class='details'>"
        f"<li><b>Publisher:</b> P{rng.randint(1, 99)}</li>"
        f"<li><b>Pages:</b> {rng.randint(50, 900)}</li>"
        f"<li><b>Format:</b> F{rng.randint(1, 9)}</li>"
        "</ul></body></html>"
        for _ in range(4)
    ]
    template = induce_template(pages)
    assert not template.set_names
    assert {"publisher", "pages", "format"} <= set(template.field_names)


def rated_card(rng: random.Random) -> str:
    """A card with two optional parts, a badge before its link and a
    rating after its price."""
    badge = "<span class='badge'>Sale</span>" if rng.random() < 0.3 else ""
    stars = f"<span class='stars'>{rng.randint(1, 5)} stars</span>" if rng.random() < 0.6 else ""
    name = " ".join(rng.choice(WORDS) for _ in range(2))
    return (
        f"<div class='card'>{badge}<a href='/p/{rng.randint(1, 99999)}'>{name}</a>"
        f"<span class='price'>${rng.randint(5, 99)}.99</span>{stars}</div>"
    )


@pytest.mark.parametrize("seed", range(8))
def test_cards_one_seed_folds_in_two_runs_are_one_list(seed: int) -> None:
    """A seed whose cards fold into two runs (each page's lists are folded
    on that page alone) gave two sets side by side, a page's cards split
    between two fields (:func:`scrapy_wrapx.induction._sets.join_split_sets`)."""
    rng = random.Random(seed)

    def page(cards: int) -> tuple[str, list[str]]:
        html = [rated_card(rng) for _ in range(cards)]
        body = "".join(html)
        links = [part.split("href='")[1].split("'")[0] for part in html]
        return f"<html><body><h1>Kitchen</h1><div class='grid'>{body}</div></body></html>", links

    template = induce_template([page(rng.randint(3, 8))[0] for _ in range(5)])
    assert len(template.set_names) == 1, template.set_names
    for count in (1, 4, 12):
        html, links = page(count)
        records = _records(_item(template, html))
        assert [record.get(_link_key(records)) for record in records] == links
