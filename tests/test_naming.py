"""Field names a person would pick, and names that stay (induction/_pagenames)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from scrapy_wrapx.demo import build_site
from scrapy_wrapx.dom import parse
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import load_pins, name_template, pins_for
from scrapy_wrapx.store.sqlite import SqliteStore
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.kinds import KindIndex, page_signature
from scrapy_wrapx.unsupervised.routing import KindRouter
from scrapy_wrapx.unsupervised.templates import TemplateRecord, save_template

BOOKS = [
    ("Dune", "Frank Herbert", "9.99", "Ace"),
    ("Emma", "Jane Austen", "7.50", "Penguin"),
    ("Ubik", "Philip K. Dick", "5.25", "Vintage"),
]


def _named(
    pages: list[str],
    urls: list[str] | None = None,
    previous: Template | None = None,
    **kwargs: Any,
) -> Template:
    urls = urls or [f"http://shop.test/book/{i}.html" for i in range(len(pages))]
    template = induce_template(pages, urls=urls, previous=previous)
    trees = [parse(page, url) for page, url in zip(pages, urls, strict=True)]
    name_template(template, trees, previous, **kwargs)
    return template


def _shop(title: str, author: str, price: str, publisher: str) -> str:
    return (
        f"<html><head><title>{title} - Shop</title>"
        '<script type="application/ld+json">'
        f'{{"@type": "Book", "offers": {{"price": "{price}"}}}}</script></head><body>'
        f"<h1>{title}</h1>"
        f'<h3 class="author">by <a href="/a/{author}">{author}</a></h3>'
        f"<span>{price}</span>"
        f"<table><tr><td><b>Publisher:</b></td><td>{publisher}</td></tr></table>"
        "</body></html>"
    )


def test_names_come_from_title_markup_labels_and_classes() -> None:
    template = _named([_shop(*book) for book in BOOKS])
    fields = extract(template, _shop("Solaris", "Stanislaw Lem", "6.10", "Faber")).fields
    assert fields["title"] == ["Solaris"]  # the <h1> the page <title> holds
    assert fields["price"] == ["6.10"]  # JSON-LD offers.price
    assert fields["publisher"] == ["Faber"]  # a bold lead label two levels off
    assert fields["author"] == ["Stanislaw Lem"]  # "by" names nothing: the class does
    assert fields["author_url"] == ["/a/Stanislaw Lem"]  # a link named after its text


def test_spider_targets_and_pins_name_slots() -> None:
    pages = [_shop(*book) for book in BOOKS]
    template = _named(pages, targets={"book_price": "//span/text()"}, pinned={"author": "writer"})
    names = set(template.field_names)
    assert {"book_price", "writer", "title"} <= names
    assert "price" not in names and "author" not in names


def test_pins_setting_reads_dict_or_json_file(tmp_path: Path) -> None:
    pins = {"*": {"h1": "heading"}, "shop.test": {"by": "author"}}
    path = tmp_path / "names.json"
    path.write_text(json.dumps(pins))
    assert load_pins(str(path)) == load_pins(pins) == pins
    assert pins_for(pins, "shop.test/book-1a2b3c") == {"h1": "heading", "by": "author"}
    with pytest.raises(ValueError, match="WRAPX_ITEMS_FIELD_NAMES"):
        load_pins({"*": ["h1"]})


def test_names_stay_across_the_demo_redesign() -> None:
    old_site, new_site = build_site(seed=2, books=12), build_site(seed=2, books=12, redesigned=True)
    paths = old_site.detail_pages
    old = _named([old_site.pages[p] for p in paths[:5]])
    new = _named([new_site.pages[p] for p in paths[5:10]], previous=old)
    for path in paths[10:]:
        before = extract(old, old_site.pages[path]).fields
        after = extract(new, new_site.pages[path]).fields
        for attr in ("title", "price", "isbn", "publisher", "description"):
            for value in old_site.truth[path][attr]:
                was = {n for n, v in before.items() if value in v}
                now = {n for n, v in after.items() if value in v}
                assert was and was <= now, (attr, was, now)


def test_a_redesign_under_the_same_urls_is_the_same_kind(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "wrapx.sqlite3")
    router = KindRouter(store, KindIndex(), lambda _: None)
    old, new = build_site(seed=1, books=4), build_site(seed=1, books=4, redesigned=True)
    path = old.detail_pages[0]
    url = f"http://shop.test{path}"
    kind = router.route(page_signature(old.pages[path], url))
    redesigned = page_signature(
        new.pages[old.detail_pages[1]], f"http://shop.test{old.detail_pages[1]}"
    )
    assert router.index.match(redesigned)[0] is None
    template = induce_template([old.pages[p] for p in old.detail_pages[:2]])
    save_template(store, TemplateRecord(kind.key, 1, template))
    assert router.route(redesigned) is kind
    store.close()


def test_without_a_template_a_new_structure_founds_a_kind(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "wrapx.sqlite3")
    router = KindRouter(store, KindIndex(), lambda _: None)
    old, new = build_site(seed=1, books=4), build_site(seed=1, books=4, redesigned=True)
    first = router.route(
        page_signature(old.pages[old.detail_pages[0]], "http://s.test/book/a.html")
    )
    other = router.route(
        page_signature(new.pages[old.detail_pages[1]], "http://s.test/book/b.html")
    )
    assert other is not first
    store.close()


@pytest.mark.parametrize(
    ("classes", "name"),
    [
        ("defaultColorFont", None),
        ("bold-text red", None),
        ("font_large center", None),
        ("defaultColorFont modelYear", "model_year"),
        ("smallFont unitPrice", "unit_price"),
        ("productWeight", "product_weight"),
        # Words run together read as a person reads them.
        ("defaultcolorfont", None),
        ("boldtext", None),
        ("defaultcolorfont modelyear", "model_year"),
        ("productweight", "product_weight"),
        ("product-weight", "product_weight"),
        ("product_weight", "product_weight"),
        ("shippingweightinpounds", "shipping_weight_in_pounds"),
        # Abbreviations are no words run together: they stay whole.
        ("msonormal", "msonormal"),
        ("prodwt", "prodwt"),
        ("asin", "asin"),
    ],
)
def test_class_words_name_data_not_looks(classes: str, name: str | None) -> None:
    """A class that says how a value looks (CSS's own words, camelCase,
    run together or not) names nothing; one with a data word names the
    field."""
    pages = [
        f"<html><body><p class='intro'>Thanks for visiting our little shop today, we hope you enjoy it.</p><span class='{classes}'>{n * 7} x</span>"
        "<p>Footer</p></body></html>"
        for n in range(1, 5)
    ]
    template = _named(pages)
    (field,) = template.field_names
    if name is None:
        assert not set(field.split("_")) & {"default", "color", "font", "bold", "red", "large"}
    else:
        assert field == name


@pytest.mark.parametrize(
    ("markup", "name"),
    [
        ("<img src='/p/{n}.jpg'>", "image"),
        ("<a href='/p/{n}'>&#187;</a>", "url"),
        ("<input type='text' value='{n}z'>", "value"),
        ("<div class='cover-box'><img src='/p/{n}.jpg'></div>", "cover_box_image"),
        (
            "<div class='gallery'><div class='wrap'><a href='/p/{n}'>&#187;</a></div></div>",
            "gallery_url",
        ),
    ],
)
def test_a_link_or_image_without_words_is_named_what_it_is(markup: str, name: str) -> None:
    """The last resort for a data attribute is what it is (after the data
    words of an ancestor), never its tag: no ``img_src``, no ``a_href``."""
    pages = [
        "<html><body><p class='intro'>Thanks for visiting our little shop today.</p>"
        f"{markup.format(n=n * 7)}<p>Footer</p></body></html>"
        for n in range(1, 5)
    ]
    assert _named(pages).field_names == [name]


def _form_pages(kind: str, value: str) -> list[str]:
    return [
        f"<html><body><h1>Lamp {n}</h1><form>"
        f"<input type='{kind}' name='token' value='{value.format(n=n * 7)}'>"
        "</form><p>Footer</p></body></html>"
        for n in range(1, 6)
    ]


@pytest.mark.parametrize("kind", ["checkbox", "radio", "submit", "button"])
@pytest.mark.parametrize("value", ["84552{n}", "Add {n} to cart", "on{n}"])
def test_a_form_controls_value_is_no_field(kind: str, value: str) -> None:
    """The codes of boxes to tick and the captions of buttons are no data
    a reader sees: the item leaves them out, the text beside them stays."""
    assert _named(_form_pages(kind, value)).field_names == ["title"]


@pytest.mark.parametrize("kind", ["hidden", "HIDDEN", " Hidden "])
@pytest.mark.parametrize(
    "value",
    [
        "{n}7a3f9e0c41b2d8e6aa",  # a digest
        "80216b319b58718834f0c459c901df16b1a5{n}",
        "1290752126{n:03d}",  # a time stamp in milliseconds
        "1290752{n:03d}",  # in seconds
        "wEPDwUJOTM5MD{n}YzNjkzD2QWAmYPZBYCAggPZBYGAgQ",  # a view state
        "1b4e28ba-2fa1-11d2-883f-0016d3cca4{n:02d}",  # a UUID
    ],
)
def test_a_hidden_form_token_is_template(kind: str, value: str) -> None:
    """A hidden input whose value is a form token on every seed is state
    the form sends back, not data; it differs on every page all the same."""
    assert _named(_form_pages(kind, value)).field_names == ["title"]


@pytest.mark.parametrize("value", ["84552444253{n}", "SKU-{n}", "{n}", "A{n}B"])
def test_a_hidden_id_stays_a_field(value: str) -> None:
    """A hidden input may hold the product's id: that is data."""
    assert len(_named(_form_pages("hidden", value)).field_names) == 2


@pytest.mark.parametrize(
    ("lead", "close"),
    [
        ("<b>&nbsp;<font size='2'>", "</font></b>"),
        ("<strong><span class='lbl'>", "</span></strong>"),
        ("<b><i>", "</i></b>"),
    ],
)
def test_a_styled_lead_label_names_its_value(lead: str, close: str) -> None:
    """``<b><font size="2">Cuisine:</font></b> PIZZA``: the styling inside
    the bold lead-in does not hide the label."""
    cuisines = ["PIZZA", "THAI", "STEAK HOUSE", "SEAFOOD", "ITALIAN"]
    pages = [
        f"<html><body><h3>Place {n}</h3><table><tr><td><font face='Arial'>"
        f"{lead}Cuisine:{close} {cuisine}</font></td></tr>"
        f"<tr><td><font face='Arial'>{lead}Price:{close} {n}-{n + 9}</font></td></tr></table>"
        "<p>Footer</p></body></html>"
        for n, cuisine in enumerate(cuisines, 3)
    ]
    names = set(_named(pages).field_names)
    assert {"cuisine", "price"} <= names, names


@pytest.mark.parametrize("wrap", ["<strong>{}</strong>", "<font size='+1'><b>{}</b></font>"])
def test_a_title_in_bold_is_the_title_when_no_heading_is(wrap: str) -> None:
    """On a site without headings, the text the page ``<title>`` holds
    (set in bold) is the title; another value the title also holds but
    that is shorter is not."""
    films = [("Autumn Sun", "Drama"), ("Black Cat", "Comedy"), ("Ubik Rises", "Horror")]
    films += [("The Long Night", "Thriller"), ("Moon Tide", "Romance")]
    pages = [
        f"<html><head><title>{film} ({genre}) - Movies</title></head><body>"
        f"<table><tr><td>{wrap.format(film)}</td></tr>"
        f"<tr><td><font>{genre}</font></td></tr></table><p>Footer</p></body></html>"
        for film, genre in films
    ]
    template = _named(pages)
    fields = extract(template, pages[0]).fields
    assert fields.get("title") == ["Autumn Sun"], fields


@pytest.mark.parametrize(
    ("wrap", "name"),
    [
        ("<font size='+1'><strong>{}</strong></font>", "heading"),
        ('<font size="5"><b>{}</b></font>', "heading"),
        ("<font face='Arial'><font size='+2'>{}</font></font>", "heading"),
        ("<font size='2'><b>{}</b></font>", None),
        ("<font size='-1'>{}</font>", None),
    ],
)
def test_a_text_set_large_is_a_heading(wrap: str, name: str | None) -> None:
    """A page written before CSS sets its heading in a larger font; with
    no ``<title>`` to hold it, it is a ``heading``, never a tag. A small
    font says nothing (the last resort stays)."""
    places = ["Bob's Steak House", "Ming's Star", "Abacus", "Mignon", "Napoli's Pizza"]
    pages = [
        "<html><head><title>Dallas restaurant guide</title></head><body><table><tr><td>"
        f"{wrap.format(place)}</td></tr><tr><td>{n} reviews</td></tr></table>"
        "<p>Footer</p></body></html>"
        for n, place in enumerate(places, 2)
    ]
    fields = extract(_named(pages), pages[0]).fields
    if name is None:
        assert not fields.get("heading"), fields
    else:
        assert fields.get(name) == [places[0]], fields


MODELS = ["Acura ZDX", "Mini Cooper S", "Ford Focus Wagon", "Kia Soul", "Audi A4 Avant"]
SEPARATORS = [" | ", " - ", " :: ", " \u2013 "]


def _model_page(rng: random.Random, model: str, heading: str, others: str, sep: str) -> str:
    """A model page whose ``<title>`` opens with the model and year; the
    main heading says the same, maybe with words after it; other headings
    hold the model too, lower or labelled, before or after it."""
    year = rng.choice(["2010", "2011"])
    main = f"<h1>{heading.format(f'{year} {model}')}</h1>"
    shop = f"<h2>Shop for a {model}</h2>"
    trim = f"<h3>{model} {rng.choice(['LX', 'EX', 'SE'])}</h3>"
    body = {"before": shop + main + trim, "after": main + trim + shop}[others]
    return (
        f"<html><head><title>{year} {model}{sep}Autos Site</title></head><body>"
        f"<div id='HeaderFix'>{body}</div><p>Price {rng.randint(9, 60)},000</p></body></html>"
    )


@pytest.mark.parametrize("heading", ["{}", "{} TECH SPECS", "{} Summary"])
@pytest.mark.parametrize("others", ["before", "after"])
@pytest.mark.parametrize("seed", range(2))
def test_the_heading_the_title_opens_with_is_the_title(
    heading: str, others: str, seed: int
) -> None:
    """Of several headings that hold the model, the title is the one the
    page ``<title>`` holds first, or opens with ("2010 MINI COOPER TECH
    SPECS" under "2010 MINI Cooper | Autoweb.com"), wherever it stands
    and whatever its class or id says; not the labelled "Shop for a
    ..." heading, nor a lower one."""
    rng = random.Random(seed)
    sep = rng.choice(SEPARATORS)
    pages = [_model_page(rng, model, heading, others, sep) for model in MODELS]
    template = _named(pages)
    fields = extract(template, _model_page(rng, "Volvo V60", heading, others, sep)).fields
    assert [value.split()[1:3] for value in fields.get("title", [])] == [["Volvo", "V60"]], fields


ROLES = ["Directed by:", "Written by:", "Sold by:", "Starring:"]
FIRST = ["Joel", "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
LAST = ["Schumacher", "Lee", "Chan", "Twombly", "Prima", "Wood", "Ray", "Moss"]


def _credits_page(rng: random.Random, wrap: str) -> str:
    """Credits rows: a label cell, then a cell of one to three linked
    names joined by commas; a breadcrumb of short texts before, each
    followed by a link."""
    rows = "".join(
        f"<tr><td><font size='-1'>{role}</font></td><td><font size='-1'>"
        + ", ".join(
            wrap.format(
                f"<a href='/p/{rng.randint(1, 999)}'>{rng.choice(FIRST)} {rng.choice(LAST)}</a>"
            )
            for _ in range(rng.randint(1, 3))
        )
        + "</font></td></tr>"
        for role in ROLES
    )
    crumbs = f"<div class='crumbs'>Home <a href='/c/{rng.randint(1, 99)}'>Films</a></div>"
    return (
        f"<html><body>{crumbs}<h1>Film {rng.randint(1, 9999)}</h1>"
        f"<table>{rows}</table><p>Footer</p></body></html>"
    )


@pytest.mark.parametrize("wrap", ["{}", "<span>{}</span>", "<i>{}</i>"])
@pytest.mark.parametrize("seed", range(3))
def test_a_label_with_a_colon_names_the_links_after_it(seed: int, wrap: str) -> None:
    """ "Directed by:" names the linked names in the next cell (a label with
    a colon names its role even when it ends in "by"); "Home" names no
    link after it."""
    rng = random.Random(seed)
    template = _named([_credits_page(rng, wrap) for _ in range(5)])
    names = set(template.field_names)
    assert {"directed_by", "written_by", "sold_by", "starring"} <= names, names
    assert not any(name.startswith("home") for name in names), names


@pytest.mark.parametrize("link", ["Bookmark", "4.5 out of 5 stars", "<b>Reviews</b>"])
def test_a_link_is_no_label_for_the_value_after_it(link: str) -> None:
    """A link's words name where it leads, not the value that follows."""
    titles = ["Dune", "Emma", "Ubik", "Solaris", "Kindred"]
    pages = [
        f"<html><body><div><a href='/x'>{link}</a> <span>{title} {n}</span></div></body></html>"
        for n, title in enumerate(titles)
    ]
    names = _named(pages).field_names
    assert names and not any(
        word in name for name in names for word in ("bookmark", "stars", "reviews")
    ), names


def test_extruct_is_read_only_where_a_page_has_semantic_markup() -> None:
    """extruct is slow to import (every syntax it knows comes with it), and
    a page worker names seeds of many sites: a page without JSON-LD or
    microdata must not load it; a page with them still names by them."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from scrapy_wrapx.dom import parse\n"
        "from scrapy_wrapx.induction._semantic import page_evidence\n"
        'page_evidence(parse(\'<html><body><h1>Dune</h1><p itemprop="price">9</p>'
        "</body></html>'))\n"
        "print('extruct' in sys.modules)\n"
        'evidence = page_evidence(parse(\'<html><head><script type="application/ld+json">'
        '{"@type": "Book", "isbn": "9780441172719"}'
        "</script></head><body><h1>Dune</h1></body></html>'))\n"
        "print('extruct' in sys.modules, 'isbn' in str(vars(evidence)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["False", "True True"], out


@pytest.mark.parametrize("fixed", ["5 speed manual transmission", "Leather seats", "Associate"])
@pytest.mark.parametrize("wrap", ["{}", "<span>{}</span>", "<em>{}</em>"])
@pytest.mark.parametrize("tag", ["ul", "ol"])
def test_a_list_item_is_no_label_of_the_next(fixed: str, wrap: str, tag: str) -> None:
    """Items of one list are peers: where every seed agrees on one item,
    the item after it is not named after it (``f_5_speed_manual``)."""
    pages = [
        f"<html><body><h1>Car {n}</h1><{tag} class='specs'>"
        f"<li>{wrap.format(fixed)}</li><li>{20 + n} mpg city / {30 + n} mpg hwy</li>"
        f"</{tag}><p>Footer</p></body></html>"
        for n in range(1, 6)
    ]
    template = _named(pages)
    fixed_words = set(re.findall(r"[a-z0-9]+", fixed.lower()))
    for name in template.field_names:
        assert not fixed_words & set(name.split("_")), template.field_names


@pytest.mark.parametrize("label", ["Fuel economy:", "MPG:"])
def test_a_list_item_with_a_colon_labels_the_next(label: str) -> None:
    pages = [
        f"<html><body><h1>Car {n}</h1><ul><li>{label}</li><li>{20 + n} mpg</li></ul>"
        "<p>Footer</p></body></html>"
        for n in range(1, 6)
    ]
    names = _named(pages).field_names
    assert any(set(name.split("_")) & {"fuel", "mpg"} for name in names), names


TAGS = ["b", "i", "div", "p", "span", "font", "td", "em", "a", "dd", "li"]


@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize(
    "heading", ["", "<h3>Our verdict</h3>", "<div><div><h3>Our verdict</h3></div></div><hr>"]
)
def test_a_field_is_never_named_by_its_tag_alone(tag: str, heading: str) -> None:
    """With no label, class word, markup or shape to name it, a field is a
    ``text`` (a ``link``), after its section's heading where it has one;
    never ``b`` or ``td_2``."""
    rng = random.Random(tag + heading)
    words = ["quiet", "sturdy", "bright", "heavy", "compact", "cheap", "odd", "fine"]
    inner = {"td": "<table><tr><td>{}</td></tr></table>", "dd": "<dl><dd>{}</dd></dl>"}
    inner["li"] = "<ul><li>{}</li></ul>"
    pages = []
    for n in range(5):
        texts = [" ".join(rng.sample(words, 3)) for _ in range(2)]
        body = "".join(
            inner.get(tag, f"<{tag}>{{}}</{tag}>").replace(f"<{tag}>", f"<{tag} href='/x{n}'>")
            if tag == "a"
            else inner.get(tag, f"<{tag}>{{}}</{tag}>")
            for _ in texts
        ).format(*texts)
        pages.append(
            f"<html><body><h1>Item {n}</h1>{heading}<div>{body}</div><p>Footer</p></body></html>"
        )
    names = [name for name in _named(pages).field_names if name != "title"]
    assert names
    for name in names:
        assert re.sub(r"_\d+$", "", name) not in TAGS, names
        if heading:
            assert name.startswith("our_verdict"), names


@pytest.mark.parametrize("flags", [["true", "0"], ["Browse", "none", "False"], ["1"]])
def test_hidden_form_state_with_a_token_among_it_is_template(flags: list[str]) -> None:
    """ASP.NET's hidden inputs: a view state among flags, as many as the
    form needs on the page. The token says what they all are."""
    pages = []
    for n in range(5):
        state = f"wEPDwUJOTM5MD{n}YzNjkzD2QWAmYPZBYCAggPZBYGAgQ"
        values = [state, *flags[: 1 + n % len(flags)], *(["x"] * (n % 2))]
        inputs = "".join(
            f"<input type='hidden' name='f{i}' value='{v}'>" for i, v in enumerate(values)
        )
        pages.append(
            f"<html><body><h1>College {n}</h1><form>{inputs}</form><p>Footer</p></body></html>"
        )
    assert _named(pages).field_names == ["title"]


def test_a_list_of_hidden_inputs_is_form_state_a_cards_hidden_id_is_data() -> None:
    """Hidden inputs repeated on their own are a form's values without the
    names that say what each is (a job's title, city and id, the apply
    address): no list a reader can use. A hidden id in each product card,
    beside the card's name, stays the card's data."""
    rng = random.Random(3)
    pages = []
    for n in range(5):
        values = [f"Job {n}", f"City {n}", str(1000 + n), f"/apply?job={n}"][: 2 + n % 3]
        inputs = "".join(
            f"<input type='hidden' name='p{i}' value='{v}'>" for i, v in enumerate(values)
        )
        cards = "".join(
            f"<li><a href='/p/{k}'>Lamp {k}</a><input type='hidden' name='sku' value='{k}77'></li>"
            for k in rng.sample(range(100, 999), 1 + n % 3)
        )
        pages.append(
            f"<html><body><h1>Job {n}</h1><form>{inputs}</form><ul>{cards}</ul>"
            "<p>Footer</p></body></html>"
        )
    template = _named(pages)
    extraction = extract(template, pages[4])
    values = {value for found in extraction.fields.values() for value in found}
    assert not values & {"City 4", "1004", "/apply?job=4"}, extraction.fields
    cards = [row for rows in extraction.records.values() for row in rows]
    assert cards and all(any(str(v).endswith("77") for v in row.values()) for row in cards)


FILMS = [
    ("Inherit the Wind", "1960"),
    ("Silence of the North", "1981"),
    ("Love and the Midnight Auto Supply", "1978"),
    ("Amélie", "2001"),
    ("Dune", "2021"),
    ("The Long Goodbye", "1973"),
]


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("{film} ({year})", "{film} {year} | Movie Trailer, Reviews | Films Site"),
        ("{film}: {year}", "{film} - {year} | Films Site"),
        ("{film} \u2013 {year}", "Watch {film} ({year}) online"),
    ],
)
def test_a_heading_the_title_words_hold_is_the_title(heading: str, title: str) -> None:
    """The page ``<title>`` and the main heading hold the same words with
    other punctuation ("Inherit the Wind (1960)" under "Inherit the Wind
    1960 | ..."): the heading is the title, not its wrapper's class."""
    pages = [
        f"<html><head><title>{title.format(film=film, year=year)}</title></head><body>"
        f"<div class='hdr07'><h1>{heading.format(film=film, year=year)}</h1></div>"
        f"<p class='plot'>Plot {index} of a film.</p></body></html>"
        for index, (film, year) in enumerate(FILMS)
    ]
    template = _named(pages[:5])
    fields = extract(template, pages[5]).fields
    assert fields.get("title") == [heading.format(film="The Long Goodbye", year="1973")], fields
