"""Card lists whose cards differ by optional parts (a badge on some, a
price missing on others) fold into one set of records, on the seeds and
in extraction: every card of a page is one record of one list."""

from __future__ import annotations

import random
import re

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


def pool_card(product: dict[str, str]) -> str:
    """A related product's card: its rating and its button's label take a
    few values only ("4 out of 5 stars", "Add To Cart" or "Preorder"), so
    seeds repeat them, and a product two seeds both show is the very same
    card on both."""
    badge = "<span class='badge'>Sale</span>" if product["badge"] else ""
    stars = (
        f"<div class='rating'><a class='stars'>{product['stars']} out of 5 stars</a></div>"
        if product["stars"]
        else ""
    )
    return (
        f"<li class='product'><a class='product-image' href='{product['link']}'>"
        f"<img src='{product['image']}'></a>{badge}{stars}"
        f"<a class='product-title' href='{product['link']}'>{product['name']}</a>"
        f"<em class='product-price'>{product['price']}</em>"
        + (
            f"<a class='cart' href='/cart?add={product['link'][3:]}'>{product['button']}</a>"
            if product["button"]
            else ""
        )
        + "</li>"
    )


def related_page(
    rng: random.Random, pool: list[dict[str, str]], count: int
) -> tuple[str, list[str]]:
    """A product page with ``count`` related products drawn from ``pool``."""
    shown = rng.sample(pool, count)
    cards = "".join(pool_card(product) for product in shown)
    related = f"<h2>Customers also bought</h2><ul class='products'>{cards}</ul>" if shown else ""
    page = (
        f"<html><body><div id='nav'><a href='/'>Home</a></div><h1>Book {rng.randint(1, 999)}</h1>"
        f"<p class='by'>by Author {rng.randint(1, 99)}</p>{related}<p>Footer</p></body></html>"
    )
    return page, [product["link"] for product in shown]


def related_pool(rng: random.Random, size: int, buttons: bool = True) -> list[dict[str, str]]:
    return [
        {
            "name": f"{' '.join(rng.choice(WORDS) for _ in range(3))} {number}",
            "link": f"/p/{1000 + number}",
            "image": f"/i/{1000 + number}.jpg",
            "price": f"${rng.randint(1, 99)}.{rng.randint(10, 99)}",
            "badge": "yes" if rng.random() < 0.3 else "",
            "stars": rng.choice(["", "3", "4", "5"]),
            "button": rng.choice(["Add To Cart", "Add To Cart", "Preorder"]) if buttons else "",
        }
        for number in range(size)
    ]


@pytest.mark.parametrize("buttons", [True, False])
@pytest.mark.parametrize("seed", range(12))
def test_cards_seeds_share_are_one_list(seed: int, buttons: bool) -> None:
    """Related products drawn from a small pool: seeds show some of the
    same cards, in other places, and a card may be on every seed. A shared
    card was paired as the same subtree and stood between the list's runs
    as an item of its own (positional fields, or a list in three), and
    cards of different ratings or button labels as alternatives: every
    card of a page is one record of one list."""
    rng = random.Random(seed)
    pool = related_pool(rng, rng.choice([6, 8, 10, 14]), buttons)
    sizes = [rng.randint(4, min(7, len(pool))) for _ in range(5)]
    if seed % 2:
        sizes[2] = 0  # a page without related products: the list is optional
    template = induce_template([related_page(rng, pool, size)[0] for size in sizes])
    assert len(template.set_names) == 1, template.set_names
    positional = [name for name in template.field_names if re.search(r"_\d+$", name)]
    assert not positional, template.field_names
    for count in (1, 2, len(pool)) if not seed % 2 else (0, 1, 2, len(pool)):
        html, links = related_page(rng, pool, count)
        item = _item(template, html)
        assert item["partial"] is False
        if not links:
            assert not [value for value in item.values() if isinstance(value, list)]
            continue
        records = _records(item)
        assert [record.get(_link_key(records)) for record in records] == links


def test_labelled_rows_beside_a_list_of_links_stay_apart() -> None:
    """Look-alike: a details list whose rows share their class with the
    author links after them; the rows open with labels of their own
    ("<b>Pages:</b>"), so the two runs are not one list, however alike
    their class says they are."""
    rng = random.Random(11)

    def page() -> tuple[str, list[str]]:
        rows = [
            f"<li class='detail'><b>Publisher:</b> {rng.choice(WORDS)} Press</li>",
            f"<li class='detail'><b>Pages:</b> {rng.randint(50, 900)}</li>",
            f"<li class='detail'><b>Format:</b> {rng.choice(['Paperback', 'Hardcover'])}</li>",
        ]
        shown = "".join(row for row in rows if rng.random() < 0.8)
        links = [f"/a/{rng.randint(1, 999)}" for _ in range(rng.randint(2, 4))]
        authors = "".join(
            f"<li class='detail'><a href='{link}'>A{rng.randint(1, 99)} {rng.choice(WORDS)}</a></li>"
            for link in links
        )
        html = f"<html><body><h1>Book</h1><ul class='details'>{shown}{authors}</ul></body></html>"
        return html, links

    template = induce_template([page()[0] for _ in range(6)])
    html, links = page()
    item = _item(template, html)
    lists = [
        value
        for value in item.values()
        if isinstance(value, list) and all(isinstance(record, dict) for record in value)
    ]
    authors = [
        records
        for records in lists
        if any(str(v).startswith("/a/") for r in records for v in r.values())
    ]
    assert len(authors) == 1, item
    assert [v for r in authors[0] for v in r.values() if str(v).startswith("/a/")] == links
    assert not any("Press" in str(v) for r in authors[0] for v in r.values())
