"""A page's blocks that some seeds show and others lack are parts, not records.

Pages build their layout from blocks of one markup (``<div class="box">``
with a head, a body and a foot; a layout table's rows): a promotion box
before the product box on most pages, or a banner row before the content
row. On a page that shows both, folding reads them as two records of one
list; on a page that lacks the promotion, or whose banner is marked up
differently, there is nothing to fold. The merged template then held a
list of boxes, and every field of the page sat in the item's
``box_list[0]``, or in ``box_list[1]`` where the promotion came first:
the item's shape, and the names a crawl keeps across template versions,
depended on which seeds showed the promotion. Parts unlike each other
(:func:`scrapy_wrapx.induction._sets._as_parts`) are the page's parts
however many of them a seed shows; a part some seeds lack is optional.

Look-alikes that must stay lists, with 1 to N repetitions per page: cards
of which some carry a badge, reviews of which some carry a reply, rows in
alternating styles (``odd``, ``even``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

PRODUCTS = ["Lamp", "Chair", "Desk", "Shelf", "Stool", "Sofa"]
COLOURS = ["Red", "Blue", "Green", "Oak", "White"]
MAKERS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli"]

#: The product block in three markups: rows (label, value) -> markup.
SPECS = {
    "table": lambda rows: (
        "<table class='specs'>"
        + "".join(f"<tr><th>{label}</th><td>{value}</td></tr>" for label, value in rows)
        + "</table>"
    ),
    "dl": lambda rows: (
        "<dl class='specs'>"
        + "".join(f"<dt>{label}</dt><dd>{value}</dd>" for label, value in rows)
        + "</dl>"
    ),
    "p": lambda rows: "".join(
        f"<p class='spec'>{label}: <b>{value}</b></p>" for label, value in rows
    ),
}


def _product(index: int) -> dict[str, str]:
    rng = random.Random(index)
    return {
        "title": f"{rng.choice(COLOURS)} {rng.choice(PRODUCTS)} {index}",
        "price": f"${rng.randint(10, 400)}.{rng.randint(0, 99):02d}",
        "maker": rng.choice(MAKERS),
    }


#: The optional box before the product box: a promotion (a list of
#: links), or a notice whose tag paths are all in the product box too
#: (records of a list look like that: one is the other with more parts),
#: which says the same on every page it is on.
PROMOS = {
    "links": (
        "<div class='box'><div class='box-head'>Deals</div><ul class='links'>"
        "<li><a href='/d/1'>Lamps</a></li><li><a href='/d/2'>Chairs</a></li>"
        "<li><a href='/d/3'>Desks</a></li></ul><div class='box-foot'>See all</div></div>"
    ),
    "notice": (
        "<div class='box'><div class='box-head'>Free delivery this week</div>"
        "<div class='box-foot'>See all</div></div>"
    ),
}


def _box_page(
    index: int, promo: bool, specs: str, promo_kind: str = "links"
) -> tuple[str, dict[str, str]]:
    """A page of boxes: an optional promotion box, then the product box,
    both with the site's box head and foot."""
    values = _product(index)
    promo_box = PROMOS[promo_kind]
    rows = [("Price", values["price"]), ("Maker", values["maker"])]
    product_box = (
        f"<div class='box'><div class='box-head'>{values['title']}</div>"
        f"{SPECS[specs](rows)}<div class='box-foot'>See all</div></div>"
    )
    html = (
        f"<html><head><title>{values['title']}</title></head><body><div id='page'>"
        f"{promo_box if promo else ''}{product_box}</div><p>Footer</p></body></html>"
    )
    return html, values


def _induced(pages: list[str]) -> Template:
    urls = [f"http://shop.test/p/{i}" for i in range(len(pages))]
    trees = [dom.parse(html, url) for html, url in zip(pages, urls, strict=True)]
    template = induce_template(trees, urls=urls)
    name_template(template, trees)
    return template


def _item(template: Template, html: str) -> dict:
    return item_data(extract(template, html, "http://shop.test/p/new"), template)


@pytest.mark.parametrize("promo_kind", sorted(PROMOS))
@pytest.mark.parametrize("specs", sorted(SPECS))
@pytest.mark.parametrize("shown", ["11011", "10101", "01111", "11110"])
def test_a_block_some_seeds_lack_leaves_the_product_fields_at_the_top(
    specs: str, shown: str, promo_kind: str
) -> None:
    template = _induced(
        [_box_page(i, flag == "1", specs, promo_kind)[0] for i, flag in enumerate(shown)]
    )
    for index, promo in ((40, True), (41, False)):
        html, values = _box_page(index, promo, specs, promo_kind)
        item = _item(template, html)
        # Every value is at the top of the item: no list of boxes holds them.
        assert set(values.values()) <= _top_values(item), item
        assert not any(_records(value) for value in item.values()), item


def _top_values(item: dict) -> set[str]:
    """The texts of an item's top-level keys (a scalar, or a list of texts)."""
    found: set[str] = set()
    for value in item.values():
        found.update(
            v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)
        )
    return found


def _records(value: object) -> bool:
    return isinstance(value, list) and bool(value) and isinstance(value[0], dict)


def _list_values(item: dict) -> list[set[str]]:
    """The texts of each list of records in an item, one set per list."""
    return [
        set().union(*(_top_values(record) for record in records))
        for records in item.values()
        if _records(records)
    ]


def test_the_fields_keep_their_names_whichever_seeds_show_the_block() -> None:
    names = set()
    for shown in ("11111", "11011", "01110", "10000"):
        template = _induced([_box_page(i, flag == "1", "table")[0] for i, flag in enumerate(shown)])
        html, values = _box_page(50, False, "table")
        item = _item(template, html)
        names.add(
            tuple(
                sorted(key for key in item if _top_values({key: item[key]}) & set(values.values()))
            )
        )
    assert len(names) == 1, names


# Look-alikes: lists whose records differ, 1 to N of them per page.


def _cards_page(index: int, count: int) -> tuple[str, list[str]]:
    rng = random.Random(index)
    titles = [f"{rng.choice(COLOURS)} {rng.choice(PRODUCTS)} {index}-{n}" for n in range(count)]
    cards = "".join(
        f"<div class='card'><h3><a href='/p/{index}/{n}'>{title}</a></h3>"
        + ("<span class='badge'>New</span>" if n % 2 else "")
        + f"<p class='price'>${rng.randint(5, 90)}</p></div>"
        for n, title in enumerate(titles)
    )
    return (
        f"<html><body><h1>Deals {index}</h1><div class='cards'>{cards}</div></body></html>",
        titles,
    )


def _reviews_page(index: int, count: int) -> tuple[str, list[str]]:
    rng = random.Random(index)
    authors = [f"{rng.choice(['ann', 'bo', 'cy', 'di'])}{index}{n}" for n in range(count)]
    reviews = "".join(
        f"<div class='review'><span class='author'>{author}</span><p>{rng.choice(MAKERS)} is fine</p>"
        + ("<div class='reply'><b>Shop</b><p>Thanks!</p></div>" if n == 0 else "")
        + "</div>"
        for n, author in enumerate(authors)
    )
    return (
        f"<html><body><h1>Item {index}</h1><div class='reviews'>{reviews}</div></body></html>",
        authors,
    )


def _rows_page(index: int, count: int) -> tuple[str, list[str]]:
    rng = random.Random(index)
    names = [f"{rng.choice(PRODUCTS)} {index}-{n}" for n in range(count)]
    rows = "".join(
        f"<tr class='{'odd' if n % 2 == 0 else 'even'}'><td>{name}</td><td>{rng.randint(1, 9)}</td></tr>"
        for n, name in enumerate(names)
    )
    return f"<html><body><h1>Order {index}</h1><table>{rows}</table></body></html>", names


@pytest.mark.parametrize("page", [_cards_page, _reviews_page, _rows_page])
@pytest.mark.parametrize("counts", [(1, 2, 1, 2, 1), (2, 1, 1, 1, 2), (1, 2, 2, 2, 2)])
def test_lists_of_unlike_records_stay_lists(page, counts: tuple[int, ...]) -> None:
    template = _induced([page(i, count)[0] for i, count in enumerate(counts)])
    for index, count in ((61, 2), (62, 5)):
        html, wanted = page(index, count)
        item = _item(template, html)
        # All the page's records are in one list, none at the top.
        assert any(set(wanted) <= values for values in _list_values(item)), item


# Sections of one markup that the page names by ids, some of them optional.

SECTIONS = {
    "specs": [("Weight", lambda rng: f"{rng.randint(1, 9)} kg"), ("Colour", lambda rng: rng.choice(COLOURS))],
    "delivery": [("Days", lambda rng: str(rng.randint(1, 5))), ("Carrier", lambda rng: rng.choice(["UPS", "DHL"]))],
    "warranty": [("Years", lambda rng: str(rng.randint(1, 3))), ("Cover", lambda rng: rng.choice(["Full", "Parts"]))],
}  # fmt: skip


def _sections_page(
    index: int, shown: list[str], box_id: Callable[[int, int, str], str] | None = None
) -> tuple[str, dict[str, str]]:
    rng = random.Random(index)
    values = {"title": f"{rng.choice(COLOURS)} {rng.choice(PRODUCTS)} {index}"}
    boxes = ""
    for number, section in enumerate(SECTIONS):
        if section not in shown:
            continue
        rows = ""
        for label, make in SECTIONS[section]:
            values[f"{section}.{label}"] = value = make(rng)
            rows += f"<dt>{label}:</dt><dd>{value}</dd>"
        name = box_id(index, number, section) if box_id else f"box-{section}"
        boxes += f"<div class='box' id='{name}'><h3>{section.title()}</h3><dl>{rows}</dl></div>"
    html = (
        f"<html><body><h1>{values['title']}</h1><div class='boxes'>{boxes}</div>"
        "<p>Footer</p></body></html>"
    )
    return html, values


SHOWN = [
    ["specs delivery", "specs warranty", "specs delivery warranty", "delivery", "specs delivery"],
    ["specs", "specs warranty", "delivery warranty", "specs delivery", "specs warranty"],
    ["specs delivery warranty"] * 5,
]


def _no_ids(index: int, number: int, section: str) -> str:
    return "box"  # one id for every section: its heading tells them apart


@pytest.mark.parametrize("box_id", [None, _no_ids], ids=["ids", "headings"])
@pytest.mark.parametrize("shown", SHOWN)
def test_sections_are_parts_whichever_the_seeds_show(
    shown: list[str], box_id: Callable[[int, int, str], str] | None
) -> None:
    """Sections named by ids of their own, or by their headings only."""
    template = _induced([_sections_page(i, s.split(), box_id)[0] for i, s in enumerate(shown)])
    for index, sections in ((40, list(SECTIONS)), (41, ["specs", "warranty"]), (42, ["delivery"])):
        html, values = _sections_page(index, sections, box_id)
        item = _item(template, html)
        assert not any(_records(value) for value in item.values()), item
        assert set(values.values()) <= _top_values(item), item


@pytest.mark.parametrize("box_id", [None, _no_ids], ids=["ids", "headings"])
def test_section_field_names_do_not_depend_on_the_seeds(
    box_id: Callable[[int, int, str], str] | None,
) -> None:
    names = set()
    html, values = _sections_page(50, list(SECTIONS), box_id)
    for shown in SHOWN:
        pages = [_sections_page(i, s.split(), box_id)[0] for i, s in enumerate(shown)]
        item = _item(_induced(pages), html)
        names.add(
            tuple(
                sorted(key for key in item if _top_values({key: item[key]}) & set(values.values()))
            )
        )
    assert len(names) == 1, names


def _numbered(index: int, number: int) -> str:
    return f"row{number}"


def _hashed(index: int, number: int) -> str:
    rng = random.Random(index * 10 + number)
    return "review-" + "".join(rng.choice("abcdef") for _ in range(6))


def _titled_reviews_page(
    index: int, count: int, box_id: Callable[[int, int], str] | None = None
) -> tuple[str, list[str]]:
    """Reviews under a heading each: the same heading on every other review
    ("Customer review"), or a title of the reviewer's own; with ids that
    number them, or that are each review's own."""
    rng = random.Random(index)
    texts = [
        f"{rng.choice(MAKERS)} {rng.choice(PRODUCTS)} is fine {index}-{n}" for n in range(count)
    ]
    reviews = "".join(
        f"<div class='review' id='{box_id(index, n) if box_id else 'r'}'>"
        f"<h4>{'Customer review' if n % 2 else f'Great {rng.randint(1, 99)}'}</h4>"
        f"<p>{text}</p><span class='by'>{rng.choice(['ann', 'bo'])}</span></div>"
        for n, text in enumerate(texts)
    )
    return (
        f"<html><body><h1>Item {index}</h1><div class='reviews'>{reviews}</div></body></html>",
        texts,
    )


@pytest.mark.parametrize("box_id", [None, _numbered, _hashed], ids=["no ids", "numbered", "hashed"])
@pytest.mark.parametrize("counts", [(1, 2, 1, 2, 1), (2, 1, 1, 1, 2), (1, 2, 2, 2, 2)])
def test_records_under_headings_or_ids_of_their_own_stay_a_list(
    counts: tuple[int, ...], box_id: Callable[[int, int], str] | None
) -> None:
    """Records are no parts by their headings (the same on several, or a
    title of their own) nor by their ids (``row1``, ``row2``; ids no other
    page shows)."""
    pages = [_titled_reviews_page(i, count, box_id)[0] for i, count in enumerate(counts)]
    template = _induced(pages)
    for index, count in ((61, 2), (62, 5)):
        html, wanted = _titled_reviews_page(index, count, box_id)
        item = _item(template, html)
        assert any(set(wanted) <= values for values in _list_values(item)), item


def _spaced_page(index: int, styled: bool) -> tuple[str, dict[str, str]]:
    """A layout table's rows: spacer images around the title row, whose
    heading some pages style with a class (a redesign rolled out page by
    page), then a row of details."""
    values = _product(index)
    spacer = "<tr><td><img src='/img/spacer.gif' width='1' height='8'></td></tr>"
    heading = f"<h1{' class=big' if styled else ''}>{values['title']}</h1>"
    details = f"<p>Price: <b>{values['price']}</b></p><p>Maker: <i>{values['maker']}</i></p>"
    rows = f"{spacer}{spacer}<tr><td>{heading}</td></tr>{spacer}<tr><td>{details}</td></tr>"
    html = f"<html><body><table class='frame'>{rows}</table><p>Footer</p></body></html>"
    return html, values


@pytest.mark.parametrize("styled", ["10110", "01001", "11100"])
def test_rows_in_their_places_are_parts_when_one_is_marked_up_two_ways(styled: str) -> None:
    template = _induced([_spaced_page(i, flag == "1")[0] for i, flag in enumerate(styled)])
    for index, flag in ((40, True), (41, False)):
        html, values = _spaced_page(index, flag)
        item = _item(template, html)
        assert not any(_records(value) for value in item.values()), item
        assert set(values.values()) <= _top_values(item), item
