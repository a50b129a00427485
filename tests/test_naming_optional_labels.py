"""An optional sibling's text is no label for a field: cards of which some
carry a badge ("Sale") do not name their card name after the badge
(:meth:`scrapy_wrapx.induction._naming._Namer.optional`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._naming import slug
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
