"""Fields their class words would name alike take the class words that
tell them apart (issue 11: names a person would pick). A product page
shows ``<span class="price old">`` and ``<span class="price sale">`` on
sale, ``<span class="price">`` otherwise: the three were ``price``,
``price_2`` and ``price_3`` by page order, so a reader could not tell the
sale price from the crossed-out one. They are ``price_old``,
``price_sale`` and ``price``; the related products' prices, in records,
keep a name of their own."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

WORDS = ["Red", "Blue", "Oak", "Tin", "Wool", "Glass", "Iron", "Clay", "Silk", "Jade"]
THINGS = ["Kettle", "Mug", "Table", "Lamp", "Rug", "Jar", "Pan", "Pot"]
#: The markups of a price on sale: the crossed-out one's and the sale's.
SALES = {
    "span classes": ("<span class='price old'>{}</span>", "<span class='price sale'>{}</span>"),
    "del and ins": ("<del class='price was'>{}</del>", "<ins class='price now'>{}</ins>"),
}


def _money(rng: random.Random) -> str:
    return f"${rng.randint(5, 90)}.{rng.randint(10, 99)}"


def _page(rng: random.Random, name: str, markup: str, sale: bool, related: int) -> str:
    if sale:
        was, now = SALES[markup]
        price = was.format(_money(rng)) + " " + now.format(_money(rng))
    else:
        price = f"<span class='price'>{_money(rng)}</span>"
    cards = "".join(
        f"<div class='card'><span class='name'>{rng.choice(WORDS)} {rng.choice(THINGS)}</span>"
        f"<span class='price'>{_money(rng)}</span></div>"
        for _ in range(related)
    )
    return (
        f"<html><head><title>{name}</title></head><body><h1 class='name'>{name}</h1>"
        f"<div class='buy'>{price}</div><div class='related'>{cards}</div><p>Foot</p></body></html>"
    )


def _induced(rng: random.Random, markup: str) -> Template:
    pages = [
        _page(rng, f"{rng.choice(WORDS)} {rng.choice(THINGS)}", markup, n % 2 == 0, 2 + n % 3)
        for n in range(5)
    ]
    trees = [dom.parse(html, f"http://shop.example/p/{n}") for n, html in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


@pytest.mark.parametrize("markup", sorted(SALES))
@pytest.mark.parametrize("seed", range(3))
def test_prices_alike_by_class_are_told_apart_by_their_other_class_words(
    markup: str, seed: int
) -> None:
    rng = random.Random(seed)
    template = _induced(rng, markup)
    was, now = ("old", "sale") if markup == "span classes" else ("was", "now")
    on_sale = item_data(extract(template, _page(rng, "Iron Kettle", markup, True, 3)), template)
    assert on_sale[f"price_{now}"].startswith("$"), on_sale
    assert on_sale[f"price_{was}"].startswith("$"), on_sale
    regular = item_data(extract(template, _page(rng, "Iron Kettle", markup, False, 2)), template)
    assert regular["price"].startswith("$"), regular
    assert not {f"price_{was}", f"price_{now}"} & set(regular), regular
