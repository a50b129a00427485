"""An optional sibling's text is no label for a field: cards of which some
carry a badge ("Sale") do not name their card name after the badge
(:meth:`scrapy_wrapx.induction._naming._Namer.optional`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import slug
from scrapy_wrapx.unsupervised.items import build_item

NAMES = ["Red Kettle", "Blue Mug", "Oak Table", "Tin Lamp", "Wool Rug", "Glass Jar", "Iron Pan"]
BADGES = ["Sale", "New", "Hot deal", "Clearance"]


def _card(rng: random.Random, badge: str, where: str, share: float) -> str:
    mark = f'<span class="badge">{badge}</span>' if rng.random() < share else ""
    number = rng.randrange(100)
    name = f'<a href="/p/{number}">{rng.choice(NAMES)} {number}</a>'
    price = f'<span class="price">${number}.99</span>'
    parts = {"first": [mark, name, price], "middle": [name, mark, price]}[where]
    return f'<div class="card">{"".join(parts)}</div>'


def _page(rng: random.Random, cards: int, badge: str, where: str, share: float) -> str:
    body = "".join(_card(rng, badge, where, share) for _ in range(cards))
    return f"<body><h1>Shop</h1><div class='grid'>{body}</div><p>Footer</p></body>"


@pytest.mark.parametrize("seed", range(16))
def test_an_optional_badge_names_no_field(seed: int) -> None:
    rng = random.Random(seed)
    badge = rng.choice(BADGES)
    where = rng.choice(["first", "middle"])
    share = rng.choice([0.3, 0.5, 0.7])
    counts = [rng.choice([1, 2, 4, 6]) for _ in range(4)]
    pages = [_page(rng, count, badge, where, share) for count in counts]
    if badge not in "".join(pages) or all(
        f"{badge}</span>" in page.split("card")[1] for page in pages
    ):
        pages.append(_page(random.Random(seed + 100), 3, badge, where, 0.5))
    template = induce_template(pages)
    assert slug(badge) not in {name.rsplit("_", 1)[0] for name in template.field_names}
    assert not any(info.label == badge for info in template.fields)
    item = build_item(
        None, "", "", 0, extract(template, _page(rng, 3, badge, where, 0.5)), template
    )
    names = [v for v in item.values() if isinstance(v, list)]
    assert names, item


def test_a_label_inside_an_optional_part_labels_its_own_slot() -> None:
    """An optional row keeps its own label ("Series:")."""
    rows = [
        ("Dune", "Saga 1", "Ace"),
        ("Emma", None, "Penguin"),
        ("Ubik", "Saga 3", "Vintage"),
        ("Kindred", "Arc 2", "Beacon"),
    ]
    pages = [
        f"<body><h1>{title}</h1>"
        + (f'<p class="series"><b>Series:</b> {series}</p>' if series else "")
        + f'<p class="pub">{publisher}</p></body>'
        for title, series, publisher in rows
    ]
    template = induce_template(pages)
    assert [(info.name, info.label) for info in template.fields] == [
        ("h1", ""),
        ("series", "Series:"),
        ("pub", ""),
    ]


DIRECTORS = ["Ridley Scott", "Jane Campion", "Ang Lee", "Sofia Coppola", "Spike Lee"]
DIRECTORS += ["Agnes Varda", "Wim Wenders", "Mira Nair", "Bong Joon-ho", "Chloe Zhao"]
#: How a film page lists its rows (label, value).
ROWS = {
    "table": lambda rows: (
        "<table class='info'>"
        + "".join(f"<tr><td><b>{k}:</b></td><td>{v}</td></tr>" for k, v in rows)
        + "</table>"
    ),
    "dl": lambda rows: "<dl>" + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>",
    "lines": lambda rows: (
        "<div class='info'>" + "<br>".join(f"<b>{k}:</b> {v}" for k, v in rows) + "</div>"
    ),
    "paragraphs": lambda rows: "".join(f"<p><span class='k'>{k}:</span> {v}</p>" for k, v in rows),
}


def _film(rng: random.Random, index: int, idiom: str, director: bool, badge: bool) -> str:
    rows = [("Genre", rng.choice(["Drama", "Comedy", "Horror", "Western"]))]
    rows.append(("Runtime", f"{rng.randrange(80, 180)} min"))
    if director:
        rows.insert(1, ("Director", DIRECTORS[index]))
    mark = "<strong>New</strong>" if badge else ""
    return (
        f"<html><body><div id='nav'><a href='/'>Home</a></div>{mark}"
        f"<h1>Film {rng.randrange(1000)}</h1>{ROWS[idiom](rows)}<p>Copyright</p></body></html>"
    )


@pytest.mark.parametrize("idiom", sorted(ROWS))
@pytest.mark.parametrize("shown", [2, 3, 4])
def test_an_optional_rows_label_names_its_value(idiom: str, shown: int) -> None:
    """A row that some seeds show (its label and its value each optional,
    one after the other) is named by its label; a bold badge some pages
    show before the heading still names nothing."""
    rng = random.Random(f"{idiom}{shown}")
    seeds = [_film(rng, i, idiom, i < shown, i % 2 == 0) for i in range(5)]
    template = induce_template(seeds)
    for index in range(5, 10):
        item = build_item(
            None, "", "", 0, extract(template, _film(rng, index, idiom, True, True)), template
        )
        assert item["director"] == DIRECTORS[index], item
        assert "new" not in item, item
