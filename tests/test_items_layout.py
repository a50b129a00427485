"""Layout is template, not records: rows of a layout table, the tabs of the
page's own entity and the bullets before a link do not shape an item.

Three families, each from a generator that varies it, with the case that
must keep its list beside it:

* a layout table whose rows (banner, content, footer) are parts of their
  own, the same number on every page; beside it a list of as many
  products on every page, which stays records;
* tabs linking to the other views of the page's own entity, whose URLs
  hold the page's id (ids of 2 to 7 digits, as path segment or query
  parameter); the cover image and related items, which hold ids too, stay
  data;
* ``» <a>Name</a>`` rows, where the bullet leads no list in; a byline,
  ``By: <a>A</a>``, still does.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import build_item

WORDS = ["Red", "Blue", "Old", "New", "Deep", "Wild", "Tide", "Moon", "Sun", "Iron"]


def _words(rng: random.Random, count: int = 3) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def _item(template: Template, html: str, url: str = "http://x/1") -> dict[str, object]:
    item = build_item(None, url, "x/k", 1, extract(template, html, url), template)
    assert isinstance(item, dict)
    return item


def _lists(item: dict[str, object]) -> dict[str, list[object]]:
    return {k: v for k, v in item.items() if isinstance(v, list)}


# Layout tables --------------------------------------------------------------


def layout_page(rng: random.Random, *, rows: int, products: int) -> str:
    """A page laid out as one table of ``rows`` rows: a banner, the
    product, then (``rows`` > 2) a row of news and a footer; in the
    product row a list of exactly ``products`` related products."""
    related = "".join(
        f"<tr><td><a href='/p/{rng.randint(1000, 9999)}'>{_words(rng, 2)}</a></td>"
        f"<td>$ {rng.randint(5, 99)}.00</td></tr>"
        for _ in range(products)
    )
    optional = f"<p class='note'>Note: {_words(rng)}</p>" if rng.random() < 0.5 else ""
    banner = (
        f"<tr><td><table><tr><td><img src='/logo.gif'></td>"
        f"<td>Welcome back, {_words(rng, 1)}</td></tr></table></td></tr>"
    )
    product = (
        f"<tr><td><table><tr><td><h2>{_words(rng)}</h2>"
        f"<table><tr><td>Price:</td><td>$ {rng.randint(100, 999)}.00</td></tr>"
        f"<tr><td>Weight:</td><td>{rng.randint(1, 9)}.{rng.randint(0, 9)} kg</td></tr></table>"
        f"{optional}<table class='related'>{related}</table></td></tr></table></td></tr>"
    )
    rest = [
        f"<tr><td><table><tr><td><b>News</b></td><td>{_words(rng, 4)}</td></tr></table></td></tr>",
        "<tr><td><table><tr><td>About us</td><td>Contact</td></tr></table></td></tr>",
    ]
    body = banner + product + "".join(rest[: rows - 2])
    return f"<html><body><table>{body}</table></body></html>"


@pytest.mark.parametrize("rows", [2, 3, 4])
@pytest.mark.parametrize("products", [2, 3])
@pytest.mark.parametrize("seed", range(3))
def test_layout_rows_are_no_records(seed: int, rows: int, products: int) -> None:
    rng = random.Random(seed * 100 + rows * 10 + products)
    pages = [layout_page(rng, rows=rows, products=products) for _ in range(8)]
    template = induce_template(pages[:5])
    for html in pages[5:]:
        item = _item(template, html)
        # The product's own values are top-level fields, not members of a
        # "list" of layout rows...
        top = {v for v in item.values() if isinstance(v, str)}
        assert any(v.endswith(" kg") for v in top), item
        assert any(v.startswith("$ ") and int(v[2:].split(".")[0]) >= 100 for v in top), item
        # ...while the related products, as many on every page but other
        # products each time, stay one list of records.
        lists = _lists(item)
        assert len(lists) == 1, item
        (records,) = lists.values()
        assert len(records) == products
        assert all(isinstance(r, dict) and len(r) >= 2 for r in records), records


# Tabs of the page's own entity ---------------------------------------------


TABS = ["Overview", "Specs", "Photos", "Reviews", "Compare", "Dealers"]


def entity_page(rng: random.Random, *, digits: int, style: str, tabs: int) -> tuple[str, str]:
    """An entity's page and URL: tabs to its other views carry its id; its
    image's URL holds the id too; related entities link to their own ids."""
    entity = str(rng.randint(10 ** (digits - 1), 10**digits - 1))

    def view(name: str, ident: str) -> str:
        if style == "path":
            return f"/research/action/{name}/id/{ident}"
        return f"/research/{name.lower()}.jsp?itemId={ident}"

    tab_links = "".join(
        f"<li class='tab'><a href='{view(t, entity)}'>{t}</a></li>" for t in TABS[:tabs]
    )
    related = "".join(
        f"<li><a href='{view('Overview', str(rng.randint(10, 10**7)))}'>{_words(rng, 2)}</a></li>"
        for _ in range(3)
    )
    html = (
        f"<html><body><ul class='tabs'>{tab_links}</ul>"
        f"<h1>{_words(rng)}</h1><img class='photo' src='/img/{entity}.jpg'>"
        f"<p class='price'>$ {rng.randint(100, 999)}</p>"
        f"<ul class='related'>{related}</ul></body></html>"
    )
    return html, "http://cars.test" + view("Specs", entity)


@pytest.mark.parametrize("digits", [2, 4, 7])
@pytest.mark.parametrize("style", ["path", "query"])
@pytest.mark.parametrize("tabs", [3, 6])
def test_tabs_of_the_page_itself_are_template(digits: int, style: str, tabs: int) -> None:
    rng = random.Random(digits * 10 + tabs)
    pages = [entity_page(rng, digits=digits, style=style, tabs=tabs) for _ in range(8)]
    template = induce_template([h for h, _ in pages[:5]], urls=[u for _, u in pages[:5]])
    for html, url in pages[5:]:
        item = _item(template, html, url)
        entity = url.rsplit("/", 1)[-1].rsplit("=", 1)[-1]
        strings = [v for v in item.values() if isinstance(v, str)]
        listed = [
            value
            for records in _lists(item).values()
            for record in records
            if isinstance(record, dict)
            for value in record.values()
        ]
        values = strings[4:] + listed  # past url, kind, version
        # No tab link is a field...
        assert not [v for v in values if f"/{entity}" in v or f"={entity}" in v], item
        # ...the image and the related entities' links are.
        assert f"/img/{entity}.jpg" in strings, item
        assert len([v for v in listed if "/research/" in v]) == 3, item


def test_an_id_inside_a_longer_number_is_not_the_page_id() -> None:
    from scrapy_wrapx import dom
    from scrapy_wrapx.induction._pagetokens import MARK, normalize_own, own_tokens

    links = "".join(f"<a href='/v/{n}/item/395'>{n}</a>" for n in ("a", "b", "c"))
    tree = dom.parse(f"<html><body>{links}</body></html>", "http://u.test/item/395")
    tokens = own_tokens(tree)
    assert tokens == frozenset({"395"})
    assert normalize_own("/v/a/item/395", tokens) == f"/v/a/item/{MARK}"
    assert normalize_own("/v/a/item/13950", tokens) == "/v/a/item/13950"


# Bullets are no bylines -----------------------------------------------------


def bullet_page(rng: random.Random, *, count: int, bullet: str) -> str:
    rows = "".join(
        f"<div class='item'>{bullet}<a href='/c/{rng.randint(1000, 9999)}'>{_words(rng, 2)}</a></div>"
        for _ in range(count)
    )
    author = f"<a href='/a/{rng.randint(1, 999)}'>Ann {rng.randint(1, 999)}</a>"
    return (
        f"<html><body><h1>{_words(rng)}</h1><p class='by'>By: {author}</p>"
        f"<b>Similar:</b><br>{rows}<p>Footer text</p></body></html>"
    )


@pytest.mark.parametrize("bullet", ["&raquo;&nbsp;", "• ", "- ", "&gt; "])
@pytest.mark.parametrize("seed", range(3))
def test_a_bullet_leads_no_list_in(seed: int, bullet: str) -> None:
    rng = random.Random(seed)
    pages = [bullet_page(rng, count=rng.randint(2, 5), bullet=bullet) for _ in range(8)]
    template = induce_template(pages[:5])
    for html in pages[5:]:
        item = _item(template, html)
        lists = _lists(item)
        # The similar items are one list of flat records, no list nested in
        # each...
        rows = [records for records in lists.values() if len(records) >= 2]
        assert len(rows) == 1, item
        for record in rows[0]:
            assert isinstance(record, dict)
            assert not [v for v in record.values() if isinstance(v, list)], record
        # ...and the byline, one author on every seed, is still a list.
        authors = [records for records in lists.values() if len(records) == 1]
        assert authors and "Ann " in str(authors), item


# Navigation blocks some pages lack, and menus with an entry naming the page --


def listing_page(
    rng: random.Random, *, owner: bool, owner_links: int, menu: int
) -> tuple[str, str]:
    """A listing's page: a menu of ``menu`` fixed entries of which one
    bookmarks the listing by name; an optional block of owner links that
    carry the listing's id (absent on listings whose owner has them all);
    the listing's data."""
    ident = f"dfw{rng.randint(10**9, 10**10 - 1)}"
    name = _words(rng, 2).upper()
    entries = ["Home", "About Us", "Contact Us", "Media", "Help", "Jobs"][: menu - 1]
    cells = [f"<td><a href='/{e.lower().replace(' ', '')}.htm'>{e}</a></td>" for e in entries]
    cells.insert(1, f"<td><a href=\"javascript:mark('{name}')\">Bookmark {name}</a></td>")
    kinds = ("menu", "coupon", "website", "photos", "hours", "wine")[:owner_links]
    links = "".join(f"<a href='/add{kind}.asp?qid={ident}'>Add your {kind}</a> " for kind in kinds)
    block = f"<div class='owner'>{links}</div>" if owner else ""
    html = (
        f"<html><body><table><tr>{''.join(cells)}</tr></table>"
        f"<h1>{name}</h1><p class='phone'>{rng.randint(200, 999)}-{rng.randint(1000, 9999)}</p>"
        f"{block}<p>Footer</p></body></html>"
    )
    return html, f"http://eat.test/info.asp?id={ident}"


@pytest.mark.parametrize("menu", [4, 6])
@pytest.mark.parametrize("owner_links", [3, 6])
@pytest.mark.parametrize("seed", range(3))
def test_menus_and_optional_navigation_are_template(seed: int, owner_links: int, menu: int) -> None:
    rng = random.Random(seed * 100 + owner_links * 10 + menu)
    shown = [True, False, True, True, False, True, False, True]  # 3 of 5 seeds
    pages = [listing_page(rng, owner=o, owner_links=owner_links, menu=menu) for o in shown]
    template = induce_template([h for h, _ in pages[:5]], urls=[u for _, u in pages[:5]])
    for html, url in pages[5:]:
        item = _item(template, html, url)
        values = list(item.values())[4:]
        # No owner link, no fixed menu entry; the entry naming the page is
        # a value of its own, not a list of menu entries.
        assert not [v for v in values if "/add" in str(v) or ".htm" in str(v)], item
        assert not _lists(item), item
        assert any(str(v).startswith("Bookmark ") for v in values), item


# Rows each with a label of its own ------------------------------------------


ROW_LABELS = ["Genres:", "Running Time:", "Release Date:", "MPAA Rating:", "Box Office:"]


def details_page(rng: random.Random, *, rows: int) -> str:
    """A details table whose rows, the same ones on every page, each pair a
    label cell with a value cell, alike in markup."""
    body = "".join(
        f"<tr><td align='right' width='113'><font face='arial'><b>{label}</b></font></td>"
        f"<td width='257'><font face='arial'>{_words(rng, rng.randint(1, 4))}</font></td></tr>"
        for label in ROW_LABELS[:rows]
    )
    return f"<html><body><h1>{_words(rng)}</h1><table>{body}</table><p>Footer</p></body></html>"


@pytest.mark.parametrize("rows", [2, 3, 5])
@pytest.mark.parametrize("seed", range(3))
def test_rows_with_labels_of_their_own_are_named_values(seed: int, rows: int) -> None:
    from scrapy_wrapx import dom
    from scrapy_wrapx.induction._pagenames import name_template

    rng = random.Random(seed * 10 + rows)
    pages = [details_page(rng, rows=rows) for _ in range(8)]
    template = induce_template(pages[:5])
    name_template(template, [dom.parse(html) for html in pages[:5]])
    for html in pages[5:]:
        item = _item(template, html)
        assert not _lists(item), item
        wanted = {label.rstrip(":").lower().replace(" ", "_") for label in ROW_LABELS[:rows]}
        assert wanted <= set(item), item
