"""A field whose values all have the shape of an e-mail address, a phone
number, a web address or a postal address is named so, when no label, markup or class word
of its own says it (:mod:`scrapy_wrapx.induction._shapes`); look-alikes
(ISBNs, dates, prices, versions) keep their names. Lines alike in markup
whose values each have a role of their own are fields named by it; lines
of one role, or of none, stay one list field."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template


def _named(pages: list[str]) -> Template:
    """The template induced from ``pages``, its fields named on them."""
    template = induce_template(pages)
    name_template(template, [dom.parse(page) for page in pages])
    return template


def _phone(rng: random.Random) -> str:
    a, b, c = rng.randrange(200, 999), rng.randrange(200, 999), rng.randrange(1000, 9999)
    return rng.choice([f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"+1 {a} {b} {c}"])


def _site(rng: random.Random) -> str:
    host = "".join(rng.choice("abcdefghij") for _ in range(rng.randrange(3, 8)))
    return rng.choice([f"www.{host}.edu", f"http://www.{host}.com/", f"{host}.org"])


def _email(rng: random.Random) -> str:
    return f"info{rng.randrange(99)}@{_site(rng).split('//')[-1].strip('/').removeprefix('www.')}"


def _street(rng: random.Random) -> str:
    name = rng.choice(["West Centerville", "Main", "North Galloway", "Oak", "Elm Park"])
    suffix = rng.choice(["Road", "Rd.", "Street", "St", "Ave.", "Boulevard", "Dr", "Way"])
    suite = rng.choice(["", f", Suite {rng.randrange(1, 400)}", f" #{rng.randrange(1, 40)}"])
    return f"{rng.randrange(1, 99999)} {name} {suffix}{suite}"


def _city(rng: random.Random) -> str:
    city = rng.choice(["Garland", "Mesquite", "Fort Worth", "St. Paul", "Dallas"])
    return f"{city}, {rng.choice(['TX', 'MN', 'CA'])} {rng.randrange(10000, 99999)}"


def _address(rng: random.Random) -> str:
    """A postal address on one line: the street, then the place."""
    city = rng.choice(["Leadville", "Fort Worth", "St. Paul", "Boston"])
    place = rng.choice(
        [
            f"{city}, {rng.choice(['CO', 'TX', 'MN'])}",
            _city(rng),
            f"{city}, {rng.choice(['Colorado', 'Texas', 'Minnesota'])}",
        ]
    )
    return f"{_street(rng)}, {place}"


SHAPES = {
    "address": _address,
    "phone": _phone,
    "website": _site,
    "email": _email,
    "street_address": _street,
    "city_state_zip": _city,
}


def _page(
    rng: random.Random, shapes: list[str], wrapper: str, tag: str
) -> tuple[str, dict[str, str]]:
    values = {shape: SHAPES[shape](rng) for shape in shapes}
    # Each value in an element of its own, named by nothing but layout.
    own = {
        "address": "var",
        "phone": "b",
        "email": "i",
        "website": "em",
        "street_address": "small",
        "city_state_zip": "tt",
    }
    lines = "".join(f"<{own[shape]}{tag}>{value}</{own[shape]}>" for shape, value in values.items())
    number = rng.randrange(10_000)
    html = (
        f"<body><h1>Place {number}</h1><div{wrapper}><h3>Main Address</h3>"
        f"<span>Box {number}</span>{lines}</div><p>Footer</p></body>"
    )
    return html, values


@pytest.mark.parametrize("seed", range(10))
def test_contact_values_are_named_by_their_shape(seed: int) -> None:
    rng = random.Random(seed)
    shapes = rng.sample(sorted(SHAPES), rng.randrange(1, 4))
    wrapper = rng.choice(["", ' id="main_address"', ' class="block"'])
    tag = rng.choice(["", ' class="txt"', ' class="line"'])
    pages = [_page(rng, shapes, wrapper, tag)[0] for _ in range(5)]
    template = _named(pages)
    html, values = _page(rng, shapes, wrapper, tag)
    fields = extract(template, html).fields
    for shape, value in values.items():
        holders = [name for name, found in fields.items() if value in found]
        # The role, or words that already say it (an address in a block
        # whose id is "main_address").
        assert len(holders) == 1, (shape, value, fields)
        assert holders == [shape] or set(shape.split("_")) <= set(holders[0].split("_")), (
            shape,
            value,
            fields,
        )


LOOK_ALIKES = {
    "isbn": lambda rng: f"978-{rng.randrange(10**9, 10**10)}",
    "date": lambda rng: (
        f"20{rng.randrange(10, 25)}-{rng.randrange(1, 13):02d}-1{rng.randrange(10)}"
    ),
    "price": lambda rng: f"${rng.randrange(10, 999)}.{rng.randrange(100):02d}",
    "version": lambda rng: f"{rng.randrange(1, 9)}.{rng.randrange(10)}",
    "name": lambda rng: rng.choice(["Mr.Smith", "Dr.Who", "St.Louis", "Ms.Jones"]),
    "title": lambda rng: rng.choice(["12 Angry Men", "2 Way Street Blues", "101 Dalmatians"]),
    "count": lambda rng: f"{rng.randrange(2, 99)} Main Streets of Texas",
    "title in a town": lambda rng: rng.choice(
        ["12 Angry Men, Boston, MA", "101 Dalmatians, London, UK", "3 Amigos, Austin, TX"]
    ),
}


@pytest.mark.parametrize("kind", sorted(LOOK_ALIKES))
def test_look_alikes_keep_their_names(kind: str) -> None:
    rng = random.Random(kind)

    def page() -> str:
        value = LOOK_ALIKES[kind](rng)
        return f"<body><h1>Item {rng.randrange(99)}</h1><span>{value}</span><p>Footer</p></body>"

    pages = [page() for _ in range(5)]
    template = _named(pages)
    assert not set(SHAPES) & set(template.field_names), template.field_names


def _sum(rng: random.Random) -> str:
    whole, cents = rng.randrange(1, 3000), rng.randrange(100)
    return rng.choice(
        [
            f"${whole:,}.{cents:02d}",
            f"€ {whole},{cents:02d}",
            f"{whole}.{cents:02d} USD",
            f"£{whole}",
        ]
    )


@pytest.mark.parametrize("seed", range(8))
def test_a_sum_with_its_currency_is_a_price(seed: int) -> None:
    """An unlabelled sum with its currency, in an element whose class
    words say nothing a reader knows ("zmp") or nothing at all, is a price;
    the class words stay as which price; a bare number is none."""
    rng = random.Random(seed)
    markup = rng.choice(["<h3 class='zmp'>{}</h3>", "<span>{}</span>", "<b class='final'>{}</b>"])

    def page() -> tuple[str, str, str]:
        amount, count = _sum(rng), f"{rng.randrange(1, 99)}.{rng.randrange(10)}"
        html = (
            f"<body><h1>Item {rng.randrange(999)}</h1><div>{markup.format(amount)}</div>"
            f"<p><i>{count}</i></p><p>Footer</p></body>"
        )
        return html, amount, count

    pages = [page()[0] for _ in range(5)]
    template = _named(pages)
    html, amount, count = page()
    fields = extract(template, html).fields
    price = [name for name, values in fields.items() if amount in values]
    other = [name for name, values in fields.items() if count in values]
    assert len(price) == 1 and "price" in price[0].split("_"), fields
    assert other and "price" not in other[0].split("_"), fields


#: Labels that say whose contact data follows, not what it is.
PARTIES = {
    "Admission Office": "admission_office",
    "Sales": "sales",
    "Customer Service": "customer_service",
    "Head Coach": "head_coach",
}
#: Labels that already say what it is: the name they give, the shape.
MEDIA = {
    "Phone": ("phone", "phone"),
    "Fax": ("fax", "phone"),
    "Tel": ("tel", "phone"),
    "E-mail": ("e_mail", "email"),
    "Web site": ("web_site", "website"),
}


@pytest.mark.parametrize("seed", range(12))
def test_a_label_that_names_a_party_gets_the_contact_role(seed: int) -> None:
    """A label names whose number or address it is; the value's shape what
    it is: "Sales:" over a phone number is ``sales_phone``, "Fax:" stays
    ``fax``, and a label of a value that has no contact shape stays as it
    is."""
    rng = random.Random(seed)
    shape = rng.choice(["phone", "email", "website"])
    party = rng.choice(sorted(PARTIES))
    medium = rng.choice(sorted(MEDIA))
    markup = rng.choice(["<b>{}:</b> {}", "<dt>{}</dt><dd>{}</dd>", "<th>{}</th><td>{}</td>"])

    def page() -> tuple[str, dict[str, str]]:
        values = {
            "party": SHAPES[shape](rng),
            "medium": SHAPES[MEDIA[medium][1]](rng),
            "plain": rng.choice(["Open daily", "Closed Mondays", "By appointment", "Summer"]),
        }
        rows = [
            markup.format(party, values["party"]),
            markup.format(medium, values["medium"]),
            markup.format("Hours", values["plain"]),
        ]
        if markup.startswith("<th>"):
            body = "<table>" + "".join(f"<tr>{row}</tr>" for row in rows) + "</table>"
        elif markup.startswith("<dt>"):
            body = "<dl>" + "".join(rows) + "</dl>"
        else:
            body = "".join(f"<p>{row}</p>" for row in rows)
        return f"<body><h1>Place {rng.randrange(999)}</h1>{body}<p>Footer</p></body>", values

    pages = [page()[0] for _ in range(5)]
    template = _named(pages)
    html, values = page()
    fields = extract(template, html).fields
    holders = {
        key: [n for n, found in fields.items() if value in found] for key, value in values.items()
    }
    assert holders["party"] == [f"{PARTIES[party]}_{shape}"], (holders, fields)
    assert holders["medium"] == [MEDIA[medium][0]], (holders, fields)
    assert holders["plain"] == ["hours"], (holders, fields)


CITIES = ["Plano", "New Bedford", "St. Paul", "Fort Worth", "Eden Prairie", "O'Fallon"]
STATES = [("TX", "Texas"), ("MA", "Massachusetts"), ("MN", "Minnesota"), ("NC", "North Carolina")]
#: The ways sites write a place (a city, its state, its country).
PLACES = [
    lambda city, code, name: f"{city}, {code}",
    lambda city, code, name: f"{city}, {name}",
    lambda city, code, name: f"{city}, {name}, United States",
    lambda city, code, name: f"{city},United States",
    lambda city, code, name: f"United States, {name}, {city}",
    lambda city, code, name: f"US-{code}-{city}",
]


@pytest.mark.parametrize("form", range(len(PLACES)))
def test_a_place_in_any_common_form_is_a_location(form: int) -> None:
    """A job's or a shop's place, unlabelled in an element whose class
    words name a block (``jt_detail``), is a ``location`` in each way
    sites write one; names in the same form ("Doe, John") are not."""
    rng = random.Random(form)

    def page() -> tuple[str, str, str]:
        code, name = rng.choice(STATES)
        place = PLACES[form](rng.choice(CITIES), code, name)
        person = f"{rng.choice(['Doe', 'Smith', 'Lee', 'Khan'])}, {rng.choice(['John', 'Ann'])}"
        html = (
            f"<body><h1>Job {rng.randrange(999)}</h1><div class='jt_detail'>"
            f"<span>{place}</span><em>{person}</em></div><p>Footer</p></body>"
        )
        return html, place, person

    pages = [page()[0] for _ in range(5)]
    template = _named(pages)
    html, place, person = page()
    fields = extract(template, html).fields
    assert [n for n, values in fields.items() if place in values] == ["location"], fields
    assert "location" not in [n for n, values in fields.items() if person in values], fields


MEASURES = {
    "fuel_economy": lambda r: f"{r.randrange(12, 40)} mpg City / {r.randrange(20, 50)} MPG Hwy",
    "horsepower": lambda r: f"{r.randrange(1, 6)}.{r.randrange(10)}L V6, {r.randrange(90, 500)} hp",
    "weight": lambda r: r.choice([f"{r.randrange(150, 300)} lbs", f"{r.randrange(90, 900)} g"]),
    "capacity": lambda r: f"{r.choice([4, 8, 16, 32, 64])} GB",
}


@pytest.mark.parametrize("quantity", sorted(MEASURES))
@pytest.mark.parametrize("markup", ["<div>{}</div>", "<li>{}</li>", "<td>{}</td>", "<b>{}</b>"])
def test_a_measure_is_named_by_what_its_unit_measures(quantity: str, markup: str) -> None:
    """A value with nothing but its tag around it, written in a unit of
    measure, is named after what the unit measures, not after the tag."""
    rng = random.Random(f"{quantity}{markup}")
    outer = "table><tr" if markup.startswith("<td") else "ul" if markup.startswith("<li") else "div"
    close = "tr></table" if outer.startswith("table") else outer
    pages = [
        f"<html><body><h1>Item {n}</h1><{outer}>{markup.format(MEASURES[quantity](rng))}"
        f"</{close}><p>Footer</p></body></html>"
        for n in range(5)
    ]
    template = _named(pages)
    assert quantity in template.field_names, template.field_names


@pytest.mark.parametrize(
    "values",
    [["5G LTE", "4G"], ["12 Angry Men", "7 Samurai"], ["4 GB", "23 mpg"], ["Blue", "12 g"]],
)
def test_no_unit_no_quantity(values: list[str]) -> None:
    """Look-alikes keep their tag's name: a generation of a network, a
    title with a number, units of two quantities, a value without one."""
    pages = [
        f"<html><body><h1>Item {n}</h1><div>{values[n % 2]} {n}</div><p>Footer</p></body></html>"
        for n in range(5)
    ]
    template = _named(pages)
    assert not set(template.field_names) & {"weight", "capacity", "fuel_economy"}


#: Street lines in their common forms, and the form some seeds show: a
#: street named by its name alone.
STREET_FORMS = [
    lambda n: f"{n} West Centerville Road",
    lambda n: f"{n} Pennsylvania Avenue NW",
    lambda n: f"{n} North Hwy 360",
    lambda n: f"{n} Snider Plaza",
    lambda n: f"{n} Mckinney Ave. #101",
    lambda n: f"{n} Oak St, Suite 20",
]
BARE_STREETS = ["North Galloway", "Broadway", "Elm Park"]


@pytest.mark.parametrize("bare", [0, 1, 2])
@pytest.mark.parametrize("seed", range(4))
def test_street_lines_are_named_so_when_some_lack_their_street_word(seed: int, bare: int) -> None:
    """A street line every seed shows, some by the street's name alone
    ("1336 North Galloway"): the field is a ``street_address``."""
    rng = random.Random(seed)

    def page(street: str) -> str:
        return (
            f"<body><h1>Diner {rng.randrange(999)}</h1><div>{street}</div>"
            f"<p>Dallas, TX 7520{rng.randrange(10)}</p><p>Footer</p></body>"
        )

    streets = [rng.choice(STREET_FORMS)(rng.randrange(1, 9999)) for _ in range(5 - bare)]
    streets += [f"{rng.randrange(1, 9999)} {rng.choice(BARE_STREETS)}" for _ in range(bare)]
    rng.shuffle(streets)
    pages = [page(street) for street in streets]
    template = _named(pages)
    street = rng.choice(STREET_FORMS)(42)
    fields = extract(template, page(street)).fields
    assert [name for name, found in fields.items() if found == [street]] == ["street_address"]


def test_numbered_titles_are_no_street_lines() -> None:
    """Titles that open with a number, one of them ending in a street word."""
    titles = ["101 Dalmatians", "12 Angry Men", "300 Spartans Return", "1 Long Road", "7 Samurai"]
    pages = [f"<body><h1>Film</h1><span>{title}</span><p>Footer</p></body>" for title in titles]
    template = _named(pages)
    assert "street_address" not in template.field_names, template.field_names


#: How an address block puts its lines: rows, blocks, items, lines of one
#: element.
LINE_MARKUPS = {
    "rows": lambda lines: "<table>" + "".join(f"<tr><td>{v}</td></tr>" for v in lines) + "</table>",
    "divs": lambda lines: "<div>" + "".join(f"<div>{v}</div>" for v in lines) + "</div>",
    "items": lambda lines: "<ul>" + "".join(f"<li>{v}</li>" for v in lines) + "</ul>",
    "breaks": lambda lines: "<p>" + "<br>".join(lines) + "</p>",
}
LINE_ROLES = ["street_address", "city_state_zip", "phone", "website"]


@pytest.mark.parametrize("markup", sorted(LINE_MARKUPS))
@pytest.mark.parametrize("seed", range(4))
def test_lines_of_roles_of_their_own_are_fields(markup: str, seed: int) -> None:
    """An address block whose lines are alike but for what they hold (a
    street, a city line, a phone): each line is a field named by its role,
    not one list of the block's lines."""
    rng = random.Random(seed)
    roles = rng.sample(LINE_ROLES, rng.randrange(2, 5))
    makers = {"street_address": _street, "city_state_zip": _city, "phone": _phone}
    makers["website"] = _site

    def page() -> tuple[str, dict[str, str]]:
        values = {role: makers[role](rng) for role in roles}
        block = LINE_MARKUPS[markup](list(values.values()))
        return f"<body><h1>Diner {rng.randrange(999)}</h1>{block}<p>Footer</p></body>", values

    pages = [page()[0] for _ in range(5)]
    template = _named(pages)
    html, values = page()
    fields = extract(template, html).fields
    for role, value in values.items():
        assert [name for name, found in fields.items() if value in found] == [role], fields


@pytest.mark.parametrize("markup", sorted(LINE_MARKUPS))
@pytest.mark.parametrize("lines", ["phones", "names"])
def test_lines_of_one_role_stay_a_list(markup: str, lines: str) -> None:
    """Two phones, or two names, on every seed: records, one list."""
    rng = random.Random(markup + lines)

    def page() -> tuple[str, list[str]]:
        if lines == "phones":
            values = [_phone(rng), _phone(rng)]
        else:
            first = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
            last = ["Lee", "Diaz", "Young", "Park", "Wood", "Moss", "Hart", "Nash"]
            values = [f"{rng.choice(first)} {rng.choice(last)}" for _ in range(2)]
        block = LINE_MARKUPS[markup](values)
        return f"<body><h1>Diner {rng.randrange(999)}</h1>{block}<p>Footer</p></body>", values

    pages = [page()[0] for _ in range(5)]
    template = _named(pages)
    html, values = page()
    fields = extract(template, html).fields
    assert any(found == values for found in fields.values()), fields


PARTS = ["Widget", "Gadget", "Sprocket", "Bolt", "Washer", "Gear", "Spring", "Lever"]
#: Columns of an order's lines without a header row, by what they hold.
COLUMNS = {
    "name": lambda rng: f"{rng.choice(PARTS)} {rng.randrange(100, 999)}",
    "quantity": lambda rng: str(rng.randrange(1, 40)),
    "price": lambda rng: f"${rng.randrange(1, 99)}.{rng.randrange(100):02d}",
    "date": lambda rng: f"2010-{rng.randrange(1, 13):02d}-1{rng.randrange(10)}",
}


@pytest.mark.parametrize("seed", range(8))
def test_the_cells_of_headerless_rows_are_columns(seed: int) -> None:
    """A table without a header row whose cells hold a text, a number, a
    price by place: each row is a record of one field per column, not a
    list of its cells."""
    rng = random.Random(seed)
    columns = ["name", *rng.sample(["quantity", "price", "date"], rng.randrange(1, 4))]

    def page(count: int) -> tuple[str, list[list[str]]]:
        rows = [[COLUMNS[column](rng) for column in columns] for _ in range(count)]
        body = "".join("<tr>" + "".join(f"<td>{v}</td>" for v in row) + "</tr>" for row in rows)
        html = (
            f"<body><h1>Order {rng.randrange(9999)}</h1><table>{body}</table><p>Footer</p></body>"
        )
        return html, rows

    pages = [page(rng.randrange(1, 6))[0] for _ in range(5)]
    template = _named(pages)
    for count in (1, 4):
        html, rows = page(count)
        records = [r for rs in extract(template, html).records.values() for r in rs]
        found = [sorted(v for v in r.values() if isinstance(v, str)) for r in records]
        assert sorted(found) == sorted(sorted(row) for row in rows), records


@pytest.mark.parametrize("cells", ["cards", "names"])
def test_cells_of_one_kind_stay_a_list(cells: str) -> None:
    """A grid of product cards, or of names, three to a row: records."""
    rng = random.Random(cells)

    def cell() -> str:
        name = f"{rng.choice(PARTS)} {rng.randrange(100, 999)}"
        if cells == "names":
            return f"<td>{name}</td>"
        return f"<td><a href='/p/{rng.randrange(999)}'>{name}</a> <b>${rng.randrange(9, 99)}.99</b></td>"

    def page() -> str:
        rows = "".join("<tr>" + cell() + cell() + cell() + "</tr>" for _ in range(2))
        return f"<body><h1>Shop</h1><table>{rows}</table><p>Footer</p></body>"

    pages = [page() for _ in range(5)]
    template = _named(pages)
    fields = extract(template, page()).fields
    assert max(len(values) for values in fields.values()) >= 3, fields


@pytest.mark.parametrize("markup", ["<span class='poi-addr'>{}</span>", "<p>{}</p>", "<td>{}</td>"])
@pytest.mark.parametrize("seed", range(4))
def test_an_address_on_one_line_is_named_so(markup: str, seed: int) -> None:
    """A street line, a comma and the place, in one text: ``address``,
    whatever the element's class words (``poi_addr``) or tag."""
    rng = random.Random(f"{markup}{seed}")

    def page() -> tuple[str, str]:
        value = _address(rng)
        cell = markup.format(value)
        body = f"<table><tr>{cell}</tr></table>" if cell.startswith("<td") else cell
        return f"<body><h1>Cafe {rng.randrange(999)}</h1>{body}<p>Footer</p></body>", value

    template = _named([page()[0] for _ in range(5)])
    html, value = page()
    fields = extract(template, html).fields
    assert [name for name, found in fields.items() if value in found] == ["address"], fields
