"""One attribute shown in alternative places (A/B layouts, a block that moves
from page to page) is one key of the item, whichever place a page uses.

Pages come from a generator: a book page whose details block (ISBN,
publisher) sits in the main column, the sidebar or a tab, chosen per page,
in three label idioms (``li``/``strong``, ``th``/``td``, ``dt``/``dd``).
Look-alikes that must stay apart: two prices both labelled "Price" that a
page shows together (a list price and a sale price) are two keys; the same
ISBN shown in two places on one page is given once.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

IDIOMS = {
    "li": ("<ul class='{cls}'>{rows}</ul>", "<li><strong>{label}</strong>: {value}</li>"),
    "th": ("<table class='{cls}'>{rows}</table>", "<tr><th>{label}</th><td>{value}</td></tr>"),
    "dl": ("<dl class='{cls}'>{rows}</dl>", "<dt>{label}</dt><dd>{value}</dd>"),
}
PLACES = ("main", "sidebar", "tab")
WORDS = ["dune", "emma", "ubik", "kindred", "beloved", "carrie", "solaris", "hyperion"]
PUBLISHERS = ["Ace", "Tor", "Orbit", "Gollancz", "Del Rey", "Baen", "Vintage"]


def _details(idiom: str, cls: str, rows: list[tuple[str, str]]) -> str:
    block, row = IDIOMS[idiom]
    return block.format(
        cls=cls, rows="".join(row.format(label=label, value=value) for label, value in rows)
    )


def _book(rng: random.Random) -> dict[str, str]:
    return {
        "title": " ".join(rng.sample(WORDS, 2)).title(),
        "isbn": "978" + "".join(rng.choice("0123456789") for _ in range(10)),
        "publisher": rng.choice(PUBLISHERS),
        "price": f"${rng.randint(5, 40)}.{rng.randint(10, 99)}",
    }


def _page(idiom: str, place: str, book: dict[str, str], twice: bool = False) -> str:
    details = _details(
        idiom, "details", [("ISBN-13", book["isbn"]), ("Publisher", book["publisher"])]
    )
    main = f"<div class='main'><h1>{book['title']}</h1><p class='price'>{book['price']}</p>"
    main += (details if place == "main" else "<p class='blurb'>A fine book.</p>") + "</div>"
    side = "<div class='sidebar'><h3>More</h3>" + (details if place == "sidebar" else "")
    side += "<a href='/help'>Help</a></div>"
    tab = "<div class='tabs'><h3>Specs</h3>"
    tab += (details if place == "tab" or twice else "<p>No specs.</p>") + "</div>"
    return f"<html><body><div class='nav'><a href='/'>Home</a></div>{main}{side}{tab}</body></html>"


def _named(seeds: list[str]) -> Template:
    trees = [dom.parse(page) for page in seeds]
    template = induce_template(trees)
    name_template(template, trees)
    return template


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(3))
def test_a_value_shown_in_alternative_places_is_one_key(idiom: str, seed: int) -> None:
    rng = random.Random(seed)
    places = [*PLACES, *rng.sample(PLACES, 2)]
    rng.shuffle(places)
    template = _named([_page(idiom, place, _book(rng)) for place in places])
    keys = set()
    for place in PLACES:
        book = _book(rng)
        item = item_data(extract(template, _page(idiom, place, book)), template)
        holders = [key for key, value in item.items() if value == book["isbn"]]
        assert len(holders) == 1, (place, item)
        keys.add(holders[0])
        assert [k for k, v in item.items() if v == book["publisher"]] == ["publisher"], item
    assert keys == {"isbn_13"}, keys


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_the_same_value_in_two_places_is_given_once(idiom: str) -> None:
    rng = random.Random(7)
    places = ["main", "tab", "sidebar", "main", "tab"]
    seeds = [_page(idiom, place, _book(rng), twice=n == 0) for n, place in enumerate(places)]
    template = _named(seeds)
    book = _book(rng)
    item = item_data(extract(template, _page(idiom, "main", book, twice=True)), template)
    assert [key for key, value in item.items() if value == book["isbn"]] == ["isbn_13"], item


def _prices(list_price: str | None, sale: str, idiom: str) -> str:
    old = _details(idiom, "was", [("Price", list_price)]) if list_price else ""
    now = _details(idiom, "now", [("Price", sale)])
    return f"<html><body><h1>Offer</h1><div class='a'>{old}</div><div class='b'>{now}</div></body></html>"


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_two_values_a_page_shows_together_stay_two_keys(idiom: str) -> None:
    """Both labelled "Price", shown together on a seed with different
    values: two attributes, whatever other seeds show one of them only."""
    seeds = [
        _prices("$20.00", "$15.00", idiom),
        _prices(None, "$9.99", idiom),
        _prices("$31.00", "$25.00", idiom),
        _prices(None, "$12.50", idiom),
    ]
    template = _named(seeds)
    item = item_data(extract(template, _prices("$44.00", "$39.00", idiom)), template)
    assert "$44.00" in item.values() and "$39.00" in item.values(), item
    keys = [key for key, value in item.items() if value in ("$44.00", "$39.00")]
    assert len(set(keys)) == 2, item


def test_show_says_which_key_an_alternative_is_held_under() -> None:
    from scrapy_wrapx.commands._show import template_schema

    rng = random.Random(1)
    template = _named([_page("li", place, _book(rng)) for place in [*PLACES, "main", "tab"]])
    lines = template_schema(template).splitlines()
    isbn = [line.split()[1] for line in lines if "(items: as isbn_13)" in line]
    assert isbn and "isbn_13" not in isbn, lines
    assert any(line.split()[1:2] == ["isbn_13"] for line in lines if line.startswith("#   "))


def _titled(place: str, book: dict[str, str]) -> str:
    heading = f"<h1>{book['title']}</h1>"
    top = f"<div class='masthead'>{heading if place == 'top' else '<p>Books</p>'}</div>"
    box = f"<div class='product'>{heading if place == 'box' else ''}"
    box += f"<p class='price'>{book['price']}</p></div>"
    return (
        f"<html><head><title>{book['title']} | Shop</title></head>"
        f"<body>{top}{box}<p>Free shipping.</p></body></html>"
    )


@pytest.mark.parametrize("seed", range(3))
def test_a_title_shown_in_alternative_places_is_the_title(seed: int) -> None:
    """The page's title as its heading, at the top on some pages and in the
    product box on others: one ``title`` key, whichever the page uses."""
    rng = random.Random(seed)
    places = ["top", "box", "top", "box", rng.choice(["top", "box"])]
    template = _named([_titled(place, _book(rng)) for place in places])
    for place in ("top", "box"):
        book = _book(rng)
        item = item_data(extract(template, _titled(place, book)), template)
        assert [key for key, value in item.items() if value == book["title"]] == ["title"], item


AUTHORS = ["Ann Leckie", "Octavia Butler", "Ted Chiang", "Ursula Le Guin", "Iain Banks"]


def _bylined(place: str, book: dict[str, str], rng: random.Random, both: bool = False) -> str:
    """The author, without a label, in an element named by its class
    words, in the main column on some pages and in the sidebar on others
    (``both``: a second author in the sidebar, on a page that shows two)."""
    author = f"<p class='author-name'>{rng.choice(AUTHORS)}</p>"
    main = f"<div class='main'><h1>{book['title']}</h1>{author if place == 'main' else ''}"
    main += f"<p class='price'>{book['price']}</p></div>"
    side_author = author if place == "sidebar" else ""
    if both:
        side_author = f"<p class='author-name'>{rng.choice(AUTHORS)} Jr.</p>"
    side = f"<div class='sidebar'>{side_author}<h3>More</h3><a href='/help'>Help</a></div>"
    return f"<html><body><div class='nav'><a href='/'>Home</a></div>{main}{side}</body></html>"


@pytest.mark.parametrize("seed", range(3))
def test_a_value_named_by_its_class_in_alternative_places_is_one_key(seed: int) -> None:
    rng = random.Random(seed)
    places = ["main", "sidebar", "main", "sidebar", rng.choice(["main", "sidebar"])]
    template = _named([_bylined(place, _book(rng), rng) for place in places])
    keys = set()
    for place in ("main", "sidebar"):
        page = _bylined(place, _book(rng), rng)
        item = item_data(extract(template, page), template)
        holders = [key for key, value in item.items() if value in AUTHORS]
        assert len(holders) == 1, (place, item)
        keys.add(holders[0])
    assert len(keys) == 1, keys


def test_values_named_by_one_class_that_a_page_shows_together_stay_two_keys() -> None:
    rng = random.Random(4)
    places = ["main", "sidebar", "main", "sidebar", "main"]
    seeds = [_bylined(place, _book(rng), rng, both=n == 2) for n, place in enumerate(places)]
    template = _named(seeds)
    item = item_data(extract(template, _bylined("main", _book(rng), rng, both=True)), template)
    authors = [value for value in item.values() if isinstance(value, str) and "Jr." not in value]
    juniors = [value for value in item.values() if isinstance(value, str) and value.endswith("Jr.")]
    assert len([a for a in authors if a in AUTHORS]) == 1 and len(juniors) == 1, item
