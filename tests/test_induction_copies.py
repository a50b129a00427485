"""A datum a page shows twice is one field (:mod:`scrapy_wrapx.induction._copies`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template, normalized_form
from scrapy_wrapx.unsupervised.items import build_item

PUBLISHERS = ["Zondervan", "Barbour Publishing", "Tyndale House", "Baker Books", "Crossway"]
TITLES = ["Dune", "Emma", "Ubik", "Solaris", "Kindred", "Beloved"]
PRICES = ["12.99", "8.50", "21.00", "5.75", "17.25", "9.99"]


def _page(index: int, copies: int, where: list[int]) -> str:
    """A detail page with its publisher shown ``copies`` extra times, at
    the block positions ``where`` (0 = before the title, 1 = after it,
    2 = in the footer)."""
    publisher = PUBLISHERS[index % len(PUBLISHERS)]
    blocks: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for copy in range(copies):
        blocks[where[copy]].append(f'<p class="copy{copy}"><b>From:</b> <i>{publisher}</i></p>')
    return (
        f"<body>{''.join(blocks[0])}<h1>{TITLES[index]}</h1>"
        f'<p class="price">Price: {PRICES[index]}</p>'
        f'<table><tr><td><b>Publisher:</b></td><td><span class="pub">{publisher}</span></td></tr></table>'
        f"{''.join(blocks[1])}<div id='foot'><p>Free delivery</p>{''.join(blocks[2])}</div></body>"
    )


def _named(pages: list[str]) -> Template:
    """The template induced from ``pages``, its fields named on them."""
    trees = [dom.parse(html) for html in pages]
    template = induce_template(trees)
    name_template(template, trees)
    return template


def _item(template: Template, html: str) -> dict[str, object]:
    extraction = extract(template, html)
    item = build_item(None, "", "", 0, extraction, template)
    return {
        k: v for k, v in item.items() if k not in ("url", "kind", "template_version", "partial")
    }


@pytest.mark.parametrize("seed", range(12))
def test_a_value_shown_again_is_one_field(seed: int) -> None:
    rng = random.Random(seed)
    copies = rng.choice([0, 1, 3])
    where = [rng.randrange(3) for _ in range(copies)]
    pages = [_page(i, copies, where) for i in range(5)]
    template = induce_template(pages)
    item = _item(template, _page(5, copies, where))
    shown = [value for value in item.values() if value]
    assert sorted(map(str, shown)) == sorted(["Beloved", "9.99", PUBLISHERS[0]])
    for html in pages:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)


@pytest.mark.parametrize("seed", range(6))
def test_values_that_agree_by_chance_stay_apart(seed: int) -> None:
    """Two prices that agree on some seeds but not all are two fields; so
    are two that agree on fewer seeds than the evidence needs."""
    rng = random.Random(seed)
    lists = rng.sample(PRICES, 5)
    sales = list(lists)
    sales[rng.randrange(5)] = "1.00"
    pages = [
        f"<body><h1>{TITLES[i]}</h1><p>List: <s>{lists[i]}</s></p><p>Sale: <b>{sales[i]}</b></p></body>"
        for i in range(5)
    ]
    template = induce_template(pages)
    assert len(template.field_names) == 3
    two = induce_template(pages[:2])
    assert len(two.field_names) >= 2


@pytest.mark.parametrize("crumbs", [0, 1, 2])
def test_the_heading_copy_is_the_field(crumbs: int) -> None:
    """A title the breadcrumb repeats is the heading's field, wherever the
    breadcrumb is and however many crumbs lead to it."""
    lead = "".join(f"<li>Level {k}</li>" for k in range(crumbs))

    def page(title: str) -> str:
        return f'<body><ul class="crumbs">{lead}<li>{title}</li></ul><h1>{title}</h1></body>'

    template = induce_template([page(title) for title in TITLES[:4]])
    assert [info.path.rpartition("/")[2] for info in template.fields] == ["h1"]
    assert extract(template, page("Beloved")).fields == {template.field_names[0]: ["Beloved"]}


YEARS = ["2008", "2004", "2010", "1999", "2015", "2021"]
#: How a details block labels a value: (label, value) -> markup.
LABEL_IDIOMS = {
    "bold": lambda label, value: f"<p><b>{label}:</b> {value}<br></p>",
    "table": lambda label, value: f"<table><tr><th>{label}</th><td>{value}</td></tr></table>",
    "dl": lambda label, value: f"<dl><dt>{label}</dt><dd>{value}</dd></dl>",
}


def _byline_page(index: int, label: str, idiom: str) -> str:
    """A byline holding publisher and year in one text of one element, and
    a details block that labels the year again."""
    publisher, year = PUBLISHERS[index % len(PUBLISHERS)], YEARS[index]
    details = LABEL_IDIOMS[idiom](label, year)
    return (
        f"<body><h1>{TITLES[index]}</h1>"
        f'<div class="product-publisher">{publisher} / {year}</div>'
        f'<p class="price">Price: {PRICES[index]}</p>'
        f'<div class="specs">{details}</div><div id="foot">Free delivery</div></body>'
    )


@pytest.mark.parametrize("idiom", sorted(LABEL_IDIOMS))
@pytest.mark.parametrize("label", ["Publication Date", "Released", "Year"])
def test_the_field_that_stays_takes_the_label_of_its_dropped_copy(label: str, idiom: str) -> None:
    """Two slots of one byline share their element's words; the label of
    the year's other copy names the year, and the first slot keeps the
    element's words."""
    pages = [_byline_page(i, label, idiom) for i in range(5)]
    template = _named(pages)
    fields = extract(template, _byline_page(5, label, idiom)).fields
    holders = {name for name, values in fields.items() if values}
    year_fields = [name for name in holders if fields[name] == [YEARS[5]]]
    publisher_fields = [name for name in holders if fields[name] == [PUBLISHERS[0]]]
    assert year_fields == ["_".join(label.lower().split())]
    assert len(publisher_fields) == 1
    assert "publisher" in publisher_fields[0]


MAKERS = ["Nikon", "Olympus", "Kodak", "Samsung", "Canon", "Fujifilm"]
#: Markup around the first copy, and whether its class or id words are a
#: framework's generated id (then the other copy's label names the field)
#: or words a person chose (then they stay).
MARKUP = {
    "<div id='ctl00_plc1_divMfgLogo'><a href='/m/{v}'><b>{v}</b></a></div>": True,
    "<span class='x7k2-box'>{v}</span>": True,
    "<div class='vendor-box'><span>{v}</span></div>": False,
    "<p class='maker'><a href='/m/{v}'>{v}</a></p>": False,
}


def _maker_page(index: int, label: str, idiom: str, markup: str) -> str:
    """A maker shown first in markup whose class or id words name it,
    then again in a details block under the page's label."""
    maker = MAKERS[index]
    return (
        f"<body><h1>Camera {TITLES[index]}</h1>{markup.format(v=maker)}"
        f"<p class='price'>Price: {PRICES[index]}</p>"
        f"<div class='specs'>{LABEL_IDIOMS[idiom](label, maker)}</div>"
        "<div id='foot'>Free delivery</div></body>"
    )


@pytest.mark.parametrize("markup", sorted(MARKUP))
@pytest.mark.parametrize("idiom", sorted(LABEL_IDIOMS))
@pytest.mark.parametrize("label", ["Manufacturer", "Brand"])
def test_a_generated_id_gives_way_to_the_label_of_a_dropped_copy(
    label: str, idiom: str, markup: str
) -> None:
    """The copy that stays is named by the page's label of the other copy
    when its own words are a generated id (``ctl00_plc1_divMfgLogo``);
    class words a person chose name it themselves."""
    pages = [_maker_page(i, label, idiom, markup) for i in range(5)]
    template = _named(pages)
    fields = extract(template, _maker_page(5, label, idiom, markup)).fields
    holders = [name for name, values in fields.items() if values == [MAKERS[5]]]
    assert len(holders) == 1, fields
    if MARKUP[markup]:
        assert holders == [label.lower()], fields
    else:
        assert label.lower() not in holders[0], fields


COMPANIES = ["RMS Computer Corp", "Cybercoders", "Kaztronix, LLC", "Software Guidance", "Acme Inc"]


def _job(rng: random.Random, index: int, crumb: bool, form: str) -> tuple[str, str]:
    """A job page whose company is in the breadcrumb (first) and in a
    labelled row; ``crumb`` False leaves it out of the breadcrumb, as some
    pages of a site do."""
    company = f"{COMPANIES[index % len(COMPANIES)]} {rng.randrange(10, 99)}"
    link = f"<a href='/c/{rng.randrange(999)}'>{company}</a>" if form == "link" else company
    trail = f" &gt; <a href='/co?id={rng.randrange(999)}'>{company}</a>" if crumb else ""
    html = (
        f"<body><div class='crumbs'><a href='/'>Jobs</a>{trail}</div>"
        f"<h1>Engineer {rng.randrange(999)}</h1><table>"
        f"<tr><td><b>Location:</b></td><td>Town {rng.randrange(99)}</td></tr>"
        f"<tr><td><b>Company:</b></td><td>{link}</td></tr></table><p>Footer</p></body>"
    )
    return html, company


@pytest.mark.parametrize("form", ["link", "text"])
@pytest.mark.parametrize("seed", range(4))
def test_a_field_a_page_shows_only_in_a_dropped_copy_is_taken_from_it(form: str, seed: int) -> None:
    """The copy that stays is the breadcrumb's (it comes first); a page
    whose breadcrumb leaves the company out still has it in its labelled
    row, and the field takes it from there, also in a template stored
    and loaded again."""
    rng = random.Random(seed)
    seeds = [_job(rng, i, True, form)[0] for i in range(5)]
    template = induce_template(seeds)
    name_template(template, [dom.parse(page) for page in seeds])
    stored = Template.from_json(template.to_json())
    for crumb in (True, False):
        html, company = _job(rng, rng.randrange(9), crumb, form)
        for each in (template, stored):
            fields = extract(each, html).fields
            holders = [name for name, values in fields.items() if company in values]
            assert len(holders) == 1, (crumb, fields)


ISBNS = ["9780441013593", "9780141439587", "9780547572482", "9780307387073", "9780807083697"]
#: Where a page shows its ISBN a second time: (markup, the place's own).
SECOND_PLACES = {
    "table": "<table class='details'><tr><th>ISBN:</th><td>{}</td></tr></table>",
    "list": "<dl class='details'><dt>ISBN</dt><dd>{}</dd></dl>",
    "line": "<div class='details'><span>ISBN: {}</span></div>",
}


def _book(index: int, isbn: str, byline: bool, details: bool, place: str) -> str:
    shown = (
        f"<div class='byline'><span>Paperback</span> <span class='code'>{isbn}</span></div>"
        if byline
        else ""
    )
    second = SECOND_PLACES[place].format(isbn) if details else ""
    return (
        f"<body><h1>{TITLES[index % len(TITLES)]}</h1>{shown}"
        f"<p class='price'>Price: {PRICES[index % len(PRICES)]}</p>{second}"
        "<p>Free delivery</p></body>"
    )


@pytest.mark.parametrize("place", sorted(SECOND_PLACES))
@pytest.mark.parametrize("seed", range(3))
def test_a_value_shown_in_either_of_two_places_is_one_field(place: str, seed: int) -> None:
    """Most seeds show the ISBN twice, one in the byline only, one in the
    details only: one field, which a page fills from whichever place it
    shows; both places stay where the seeds never show both."""
    rng = random.Random(seed)
    only = rng.sample(range(5), 2)
    seeds = [
        _book(i, ISBNS[i], byline=i != only[0], details=i != only[1], place=place) for i in range(5)
    ]
    template = induce_template(seeds)
    for byline, details in ((True, True), (True, False), (False, True)):
        fields = extract(template, _book(5, "9780000000017", byline, details, place)).fields
        assert _holders(fields, "9780000000017") == 1, (byline, details, fields)
    apart = [_book(i, ISBNS[i], byline=i < 3, details=i >= 3, place=place) for i in range(5)]
    fields = extract(induce_template(apart), _book(5, "9780000000017", True, True, place)).fields
    assert _holders(fields, "9780000000017") == 2, fields


def _holders(fields: dict[str, list[str]], value: str) -> int:
    return sum(any(value in shown for shown in values) for values in fields.values())


@pytest.mark.parametrize("seed", range(3))
def test_a_list_of_one_that_copies_a_field_gives_way_to_it(seed: int) -> None:
    """A list that shows one item on every seed, the value a field outside
    lists holds too, is a copy of that field: the field stays, a scalar,
    even where the list comes first."""
    rng = random.Random(seed)
    publishers = rng.sample(PUBLISHERS, 5)
    pages = [
        f"<body><ul class='from'><li>{publisher}</li></ul><h1>{TITLES[i]}</h1>"
        f"<p class='pub'>Publisher: {publisher}</p><p>Free delivery</p></body>"
        for i, publisher in enumerate(publishers)
    ]
    template = induce_template(pages)
    item = _item(template, pages[0].replace(publishers[0], "Crossway Books"))
    holders = [key for key, value in item.items() if "Crossway Books" in str(value)]
    assert holders == ["publisher"], item


#: Where a page shows a value first: markup around it, and whether its
#: class or id words say no more than that it sits in the site's navigation
#: (then the page's label of its other copy names the field).
NAVIGATION = {
    "<div class='breadcrumbs'><a href='/'>Jobs</a> / <a href='/c?id={n}'>{v}</a></div>": True,
    "<ul class='breadcrumb nav'><li><a href='/'>Home</a></li><li>{v}</li></ul>": True,
    "<div id='crumbs'><span class='crumb'>{v}</span></div>": True,
    "<div class='sidebar-menu'><a href='/c?id={n}'>{v}</a></div>": True,
    "<div class='company-name'><a href='/c?id={n}'>{v}</a></div>": False,
}


def _navigated_page(index: int, label: str, idiom: str, markup: str) -> str:
    value = f"{COMPANIES[index % len(COMPANIES)]} {index}"
    return (
        f"<body>{markup.format(v=value, n=index)}<h1>Engineer {TITLES[index]}</h1>"
        f"<div class='specs'>{LABEL_IDIOMS[idiom](label, value)}</div>"
        "<div id='foot'>Free delivery</div></body>"
    )


@pytest.mark.parametrize("markup", sorted(NAVIGATION))
@pytest.mark.parametrize("idiom", sorted(LABEL_IDIOMS))
@pytest.mark.parametrize("label", ["Company", "Category"])
def test_a_copy_in_the_navigation_takes_the_label_of_the_other(
    label: str, idiom: str, markup: str
) -> None:
    """A value a breadcrumb or menu shows before a details block labels it
    is named by the label: ``breadcrumbs`` or ``nav_menu`` says where the
    value sits, not what it is. Class words that name the value stay."""
    pages = [_navigated_page(i, label, idiom, markup) for i in range(5)]
    template = _named(pages)
    page = _navigated_page(5, label, idiom, markup)
    fields = extract(template, page).fields
    value = f"{COMPANIES[0]} 5"
    holders = [name for name, values in fields.items() if values == [value]]
    assert len(holders) == 1, fields
    if NAVIGATION[markup]:
        assert holders == [label.lower()], fields
    else:
        assert holders == ["company_name"], fields


SITES = ["http://www.abac.edu", "http://bccc.example.org", "http://www.ccsf.edu", "http://x.edu"]
SITES += ["http://www.yale.edu", "http://www.mit.edu"]
#: Markup of a link that shows its own URL: class words of a look, of a
#: role a person chose, none.
SHOWN_LINKS = {
    "look": "<a class='regGrgElevenMedBluUnd' href='{v}' target='_blank'>{v}</a>",
    "role": "<a class='homepage-link' href='{v}'>{v}</a>",
    "bare": "<span class='data'><a href='{v}'>{v}</a></span>",
}


def _school_page(index: int, label: str, idiom: str, markup: str) -> str:
    link = SHOWN_LINKS[markup].format(v=SITES[index])
    return (
        f"<body><h1>College {TITLES[index]}</h1>"
        f"<div class='contact'>{LABEL_IDIOMS[idiom](label, link)}"
        f"{LABEL_IDIOMS[idiom]('Phone', f'555-010{index}')}</div>"
        "<div id='foot'>Contact us</div></body>"
    )


@pytest.mark.parametrize("markup", sorted(SHOWN_LINKS))
@pytest.mark.parametrize("idiom", sorted(LABEL_IDIOMS))
@pytest.mark.parametrize("label", ["Website", "Home page"])
def test_a_link_that_shows_its_url_is_named_by_its_label(
    label: str, idiom: str, markup: str
) -> None:
    """The link's text and its ``href`` are one datum; the field that
    stays is named by the page's label of the link ("Website:"), before
    the link's class words, as the text would have been."""
    pages = [_school_page(i, label, idiom, markup) for i in range(5)]
    template = _named(pages)
    fields = extract(template, _school_page(5, label, idiom, markup)).fields
    holders = [name for name, values in fields.items() if values == [SITES[5]]]
    assert holders == ["_".join(label.lower().split())], fields
    assert fields.get("phone") == ["555-0105"], fields
