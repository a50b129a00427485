"""Data told only by an attribute of an element with no content (issue 11:
the variant data, names a person would pick). Shops draw star ratings with
a style and say the rating in the element's ``title`` or accessible name,
or keep it in a ``data-`` attribute for their scripts: ``<span
class="stars" title="4 out of 5 stars"></span>``. The page tree dropped
such elements as empty formatting, so the rating was in no item.

Now an element whose tag has no data attribute of its own is a leaf when
its ``title``, ``aria-label`` or a ``data-`` attribute holds a value a
person reads (a few short words: :func:`scrapy_wrapx.dom.describes`), and
the variant one is a field named by the element's class words. Ids,
digests, addresses and time stamps kept in such attributes are no data,
and neither is one that is the same on every seed (an icon's "Cart").

Pages come from generators: detail pages in several idioms with noise
beside the rating, and list pages whose cards carry a rating or not."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

WORDS = ["Alpha", "Bravo", "Delta", "Echo", "Golf", "Hotel", "India", "Kilo", "Lima"]

#: Idioms: (the rating's markup, the value an item should hold).
IDIOMS = {
    "data": lambda r: (f"<div class='rating' data-score='{r}.0'><i></i></div>", f"{r}.0"),
    "title": lambda r: (
        f"<span class='stars' title='{r} out of 5 stars'></span>",
        f"{r} out of 5 stars",
    ),
    "aria": lambda r: (
        f"<span class='rating' role='img' aria-label='Rated {r} out of 5'></span>",
        f"Rated {r} out of 5",
    ),
    "both": lambda r: (
        f"<div class='review-score' data-value='{r}' title='Score: {r}'></div>",
        f"Score: {r}",
    ),
}
#: Beside the rating: an icon's fixed title, a widget's fixed settings, a
#: nonce and a time stamp that differ on every page.
NOISE = (
    "<span class='icon icon-cart' title='Cart'></span>"
    "<div class='fb-like' data-href='http://x.example/' data-layout='button'></div>"
    "<div class='tracker' data-nonce='{nonce}' data-ts='{stamp}'></div>"
    "<span class='session' data-sid='{sid}'></span>"
)


def _name(rng: random.Random) -> str:
    return f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randint(2, 999)}"


def _detail(rng: random.Random, idiom: str) -> tuple[str, str]:
    markup, want = IDIOMS[idiom](rng.randint(1, 5))
    noise = NOISE.format(
        nonce="".join(rng.choice("0123456789abcdef") for _ in range(32)),
        stamp=rng.randint(1_290_000_000, 1_300_000_000),
        sid=f"{rng.getrandbits(64):016x}-{rng.getrandbits(32):08x}",
    )
    words = " ".join(rng.choice(WORDS) for _ in range(12))
    html = (
        f"<html><body>{noise}<h1>{_name(rng)}</h1><div class='meta'>{markup}"
        f"<span class='price'>${rng.randint(5, 99)}.99</span></div>"
        f"<p class='desc'>{words}</p></body></html>"
    )
    return html, want


def _induced(pages: list[str]) -> Template:
    trees = [dom.parse(html, f"http://x.example/p/{i}") for i, html in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(3))
def test_a_rating_told_by_an_attribute_is_a_field_of_its_own(idiom: str, seed: int) -> None:
    rng = random.Random(seed)
    template = _induced([_detail(rng, idiom)[0] for _ in range(5)])
    for _ in range(3):
        html, want = _detail(rng, idiom)
        item = item_data(extract(template, html), template)
        ratings = {name: value for name, value in item.items() if value == want}
        assert len(ratings) == 1, item
        # Named by the element's class words, not by its tag or attribute.
        assert next(iter(ratings)) in {"rating", "stars", "review_score"}, item
        # No nonce, stamp, session id or fixed setting is a value.
        assert set(item) == {"title", "price", "desc", *ratings}, item


def _card(rng: random.Random) -> tuple[str, dict[str, str]]:
    name, price = _name(rng), f"${rng.randint(5, 99)}.99"
    want = {"name": name, "price": price}
    rating = ""
    if rng.random() < 0.6:
        stars, count = rng.choice(["3.5", "4.0", "4.5", "5.0"]), rng.randint(1, 60)
        want["rating"] = f"Customer Rating: {stars} ({count} Reviews)"
        rating = (
            f"<div class='rev'><div class='lbl'>Customer Rating:</div>"
            f"<a href='/p/{count}#reviews'><span class='review rating_{stars.replace('.', '_')}'"
            f" title='{want['rating']}'>&nbsp;</span></a></div>"
        )
    body = (
        f"<a class='name' href='/p/{rng.randint(1, 9999)}'>{name}</a>"
        f"<span class='price'>{price}</span>{rating}"
    )
    return f"<li class='card'>{body}</li>", want


def _list_page(rng: random.Random, cards: int) -> tuple[str, list[dict[str, str]]]:
    made = [_card(rng) for _ in range(cards)]
    body = "".join(markup for markup, _ in made)
    html = (
        f"<html><body><h1>Results</h1><ul class='results'>{body}</ul><p>Eats Inc.</p></body></html>"
    )
    return html, [want for _, want in made]


@pytest.mark.parametrize("seed", range(4))
def test_cards_with_and_without_a_rating_are_one_record_set(seed: int) -> None:
    rng = random.Random(seed)
    template = _induced([_list_page(rng, rng.randint(3, 8))[0] for _ in range(5)])
    for cards in (1, 4, 9):
        html, wants = _list_page(rng, cards)
        item = item_data(extract(template, html), template)
        (records,) = [value for value in item.values() if isinstance(value, list)]
        assert len(records) == cards, item
        for record, want in zip(records, wants, strict=True):
            shown = {value for value in record.values() if isinstance(value, str)}
            assert set(want.values()) <= shown, (record, want)
            # A card without a rating has none, not its neighbour's.
            assert ("rating" in want) == any("Customer Rating" in v for v in shown), record


def test_a_readable_description_is_told_from_ids_and_settings() -> None:
    readable = ["4.5 out of 5 stars", "Rated 4/5", "2020-03-01", "7", "In stock"]
    unreadable = [
        "",
        "   ",
        "http://x.example/a",
        "/img/a.png",
        "80216b319b58718834f0c459c901df16b1a562c0",
        '{"autoplay": true}',
        "a " * 12,
        "x" * 70,
    ]
    assert all(dom.describes(value) for value in readable)
    assert not any(dom.describes(value) for value in unreadable)


def test_an_image_or_link_without_its_data_attribute_stays_formatting() -> None:
    """An image's ``alt`` is its link's caption or a copy of a text beside
    it; an image without a source is no data leaf for its title either."""
    tree = dom.parse(
        "<html><body><p>x</p><img title='Logo'><a title='Home'></a>"
        "<span title='4 of 5'></span></body></html>"
    )
    leaves = [(leaf.tag, leaf.value, leaf.data_attribute) for leaf in tree.leaves]
    assert leaves == [("#text", "x", None), ("span", "4 of 5", "title")]
