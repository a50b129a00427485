"""One labelled datum that pages show in one of two places is one key of
the item (issue 11: names that stay), also where every seed of one place
agreed on it. A specification table sits in a promotion's section on some
pages and bare on others: induction aligns the two as alternatives. Where
the seeds of one place all showed one engine, that text is template there,
and latent data on a page where it differs (see
:mod:`scrapy_wrapx.induction._latent`): named by its label, it was
``engine_2`` beside the other place's field ``engine``, so the item's key
changed with the page's wrapper (and, after a redesign that wraps blocks
differently page by page, with the redesign). It is ``engine`` now. Two
data of one label on one page stay two keys, and a latent text named by
its class words alone is not taken for a field of that name."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template, latent_fields
from scrapy_wrapx.unsupervised.items import build_item

CARS = ["Cooper", "Clubman", "Paceman", "Roadster", "Coupe", "Countryman", "One", "Rover"]
ENGINES = ["1.6L I-4 16V DOHC", "1.6L I-4 Turbocharged", "2.0L I-4 Diesel", "1.5L I-3 12V"]
#: How a specification row is marked up: the block, a row.
IDIOMS = {
    "bold cell": (
        "<table>{}</table>",
        "<tr class='{cls}'><td><b>{label}</b></td><td>{value}</td></tr>",
    ),
    "th": ("<table>{}</table>", "<tr class='{cls}'><th>{label}</th><td>{value}</td></tr>"),
    "dl": (
        "<div class='spec'>{}</div>",
        "<div class='{cls}'><dt>{label}</dt><dd>{value}</dd></div>",
    ),
    "lead-in": ("<div class='spec'>{}</div>", "<p class='{cls}'><b>{label}:</b> {value}</p>"),
}
URL = "http://cars.example/specs/9"


def _page(
    rng: random.Random,
    car: str,
    engine: str | None,
    marked: bool,
    idiom: str,
    compared: str | None = None,
) -> str:
    """A car's page; ``marked``: its engine row has a class of its own (a
    highlight some pages give it); ``compared``: the engine of a car it
    is compared with, labelled alike, in a block of its own."""
    block, row = IDIOMS[idiom]
    price = f"${rng.randrange(15, 40)},{rng.randrange(100, 999)}"
    rows = row.format(cls="row", label="Model", value=car)
    if engine is not None:
        rows += row.format(cls="hl-row" if marked else "row", label="Engine", value=engine)
    rows += row.format(cls="row", label="Price", value=price)
    other = ""
    if compared is not None:
        other = "<h3>Compare</h3>" + block.format(
            row.format(cls="row", label="Engine", value=compared)
        )
    return (
        "<html><body><ul><li><a href='/'>Home</a></li><li><a href='/cars'>Cars</a></li></ul>"
        f"<h1>{car}</h1>{block.format(rows)}<div class='compare'>{other}</div>"
        "<p>Copyright Cars Example</p></body></html>"
    )


def _induced(pages: list[str]) -> Template:
    """Induced and named as the crawl does."""
    trees = [dom.parse(html, f"http://cars.example/specs/{n}") for n, html in enumerate(pages)]
    template = induce_template(trees)
    name_template(template, trees)
    return template


def _template(rng: random.Random, idiom: str, layouts: list[bool], engines: list[str]) -> Template:
    return _induced(
        [
            _page(rng, car, engine, wrapped, idiom)
            for car, engine, wrapped in zip(CARS, engines, layouts, strict=False)
        ]
    )


def _item(template: Template, html: str) -> dict[str, object]:
    extraction = extract(template, html, URL)
    assert extraction.matched
    return dict(build_item(None, URL, "cars.example/specs", 1, extraction, template))


def _engine_fields(item: dict[str, object]) -> dict[str, object]:
    return {name: value for name, value in item.items() if "engine" in name}


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize(
    "layouts",
    [
        [False, True, True, False, True],
        [True, False, False, True, False],
        [False, False, True, False, True],
    ],
)
def test_a_labelled_value_in_either_place_is_one_field(idiom: str, layouts: list[bool]) -> None:
    rng = random.Random(len(idiom))
    template = _template(rng, idiom, layouts, [ENGINES[i % 2] for i in range(5)])
    for wrapped in (False, True):
        item = _item(template, _page(rng, CARS[6], ENGINES[3], wrapped, idiom))
        assert _engine_fields(item) == {"engine": ENGINES[3]}
        assert item["price"].startswith("$")  # type: ignore[union-attr]
        assert not [name for name in item if name.startswith("price_")]


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_a_value_every_seed_of_one_place_agreed_on_takes_the_name(idiom: str) -> None:
    # The three wrapped seeds show one engine: there it is template text,
    # latent data where a page differs, and the same datum as ``engine``.
    rng = random.Random(3)
    layouts = [False, True, True, False, True]
    engines = [ENGINES[1], ENGINES[0], ENGINES[0], ENGINES[2], ENGINES[0]]
    template = _template(rng, idiom, layouts, engines)
    for wrapped in (False, True):
        item = _item(template, _page(rng, CARS[6], ENGINES[3], wrapped, idiom))
        assert _engine_fields(item) == {"engine": ENGINES[3]}


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_a_value_shown_beside_the_field_on_a_seed_is_another_datum(idiom: str) -> None:
    # Three seeds compare the car with one other car: its engine, labelled
    # alike, is latent, and the seeds show it beside the page's own.
    rng = random.Random(5)
    compared = [ENGINES[2], None, ENGINES[2], ENGINES[2], None]
    template = _induced(
        [
            _page(rng, car, ENGINES[i % 2], False, idiom, compared=compared[i])
            for i, car in enumerate(CARS[:5])
        ]
    )
    both = _item(template, _page(rng, CARS[6], ENGINES[3], False, idiom, compared=ENGINES[1]))
    assert both["engine"] == ENGINES[3]
    # A page without an engine row of its own: the compared car's engine
    # is not this car's.
    alone = _item(template, _page(rng, CARS[6], None, False, idiom, compared=ENGINES[1]))
    assert alone.get("engine") != ENGINES[1]


def test_a_latent_text_named_by_class_words_keeps_its_own_name() -> None:
    # A heading's class names both the model (a slot) and a banner text
    # all seeds agreed on: no label says they are one datum.
    def page(model: str, banner: str) -> str:
        return (
            "<html><body><h1 class='sub-hd'>" + model + "</h1>"
            "<div><p class='sub-hd'>" + banner + "</p></div><p>Footer</p></body></html>"
        )

    template = _induced([page(car, "Listings for the New") for car in CARS[:5]])
    latent = latent_fields(template)
    assert "sub_hd" in template.field_names
    assert "sub_hd" not in latent.values()
    item = _item(template, page(CARS[6], "Listings for the Old"))
    assert item["sub_hd"] == CARS[6]


PLAYERS = [
    "Glen Davis",
    "Avery Bradley",
    "Semih Erden",
    "Ray Allen",
    "Marquis Daniels",
    "Nate Robinson",
]
#: Each seed's wrapper around the name block: markup that varies page by page.
WRAPPERS = ["stat", "stat x8-stat", "x6-stat", "stat wide", "x2-stat"]


def _player(name: str, wrapper: str, menu: list[str]) -> str:
    items = "".join(f"<li class='tab'><span>{entry}</span></li>" for entry in menu)
    return (
        f"<html><body><ul class='tabs'>{items}</ul><div class='{wrapper}'>"
        f"<div class='name-box'><img src='/logo.png'><h2 class='name'>{name}</h2></div></div>"
        "<p>Copyright Hoops Example</p></body></html>"
    )


def test_a_block_each_seed_wraps_its_own_way_gives_one_name() -> None:
    # Each wrapper is one seed's: its name is fixed there, latent data on a
    # page of that wrapper; one datum in five places, never two at once.
    menu = ["Stats", "Bio", "News"]
    template = _induced(
        [_player(name, wrapper, menu) for name, wrapper in zip(PLAYERS, WRAPPERS, strict=False)]
    )
    keys = set()
    for wrapper in WRAPPERS:
        item = _item(template, _player(PLAYERS[5], wrapper, menu))
        keys |= {key for key, value in item.items() if value == PLAYERS[5]}
    assert len(keys) == 1, keys


def test_latent_texts_every_seed_shows_together_keep_their_names() -> None:
    # A menu's items are latent texts alike (one base name, one markup) but
    # every seed shows them together: a page where two differ gives both.
    menu = ["Stats", "Bio", "News"]
    template = _induced([_player(name, "stat", menu) for name in PLAYERS[:5]])
    item = _item(template, _player(PLAYERS[5], "stat", ["Scores", "Bio", "Video"]))
    values = set(item.values())
    assert {"Scores", "Video"} <= values, item
