"""Decorations are template: a spacer, a bullet or a divider in each row of
a list whose rows vary in number gives no value, since every seed shows
the same images, however often. Images that say something about the page
(a gallery, a rating of a few values, one photo) stay data."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

WORDS = ["Harbor", "Lantern", "Saffron", "Juniper", "Maple", "Copper", "Willow", "Ember"]
DECORATIONS = ["/img/spacer.gif", "/img/bullet.gif", "/img/arrow.gif", "/img/rule.gif"]


def _row(rng: random.Random, decoration: str, layout: str) -> str:
    """A row of a side list: a decoration, then a link."""
    link = f"<a href='/see/{rng.randrange(10_000)}'>{rng.choice(WORDS)} {rng.randrange(99)}</a>"
    image = f"<img src='{decoration}' width='8' height='8'>"
    if layout == "table":
        return f"<tr><td>{image}</td><td>{link}</td></tr>"
    return f"<li class='side'>{image}{link}</li>"


def _side(rng: random.Random, decorations: list[str], layout: str) -> str:
    """The side list: 2 to 6 rows, each with one of ``decorations``
    (every one of them on every page, in some rows)."""
    chosen = list(decorations) + [rng.choice(decorations) for _ in range(rng.randint(1, 4))]
    rng.shuffle(chosen)
    rows = "".join(_row(rng, decoration, layout) for decoration in chosen)
    return f"<table class='side'>{rows}</table>" if layout == "table" else f"<ul>{rows}</ul>"


def _page(rng: random.Random, side: str, extra: str = "") -> str:
    title = f"{rng.choice(WORDS)} Cafe {rng.randrange(1000)}"
    return (
        f"<html><body><div id='nav'><a href='/'>Home</a></div>{side}<h1>{title}</h1>"
        f"<p class='addr'>{rng.randrange(10, 999)} Main St</p>{extra}<p>Footer</p></body></html>"
    )


def _values(template: object, html: str) -> list[str]:
    fields = extract(template, html).fields  # type: ignore[arg-type]
    return [value for values in fields.values() for value in values]


@pytest.mark.parametrize("layout", ["table", "list"])
@pytest.mark.parametrize("kinds", [1, 2, 3])
@pytest.mark.parametrize("seed", range(3))
def test_decorations_in_rows_of_a_varying_list_are_template(
    seed: int, kinds: int, layout: str
) -> None:
    rng = random.Random(seed * 10 + kinds)
    decorations = DECORATIONS[:kinds]
    template = induce_template([_page(rng, _side(rng, decorations, layout)) for _ in range(5)])
    html = _page(rng, _side(rng, decorations, layout))
    values = _values(template, html)
    assert not [value for value in values if value in DECORATIONS], values
    # The rows' links and the page's own data stay.
    assert any(value.startswith("/see/") for value in values), values
    assert any("Main St" in value for value in values), values


def test_a_gallery_a_rating_and_a_photo_stay_data() -> None:
    """Look-alikes: images that vary from page to page, as a set or
    repeated (a rating drawn from a few star images), and one photo."""
    rng = random.Random(5)
    stars = [f"/img/stars{n}.gif" for n in range(1, 6)]

    def extra() -> str:
        gallery = "".join(
            f"<li class='shot'><img src='/photos/{rng.randrange(100_000)}.jpg'></li>"
            for _ in range(rng.randint(2, 5))
        )
        reviews = "".join(
            f"<div class='review'><img src='{rng.choice(stars)}'><p>{rng.choice(WORDS)} food</p></div>"
            for _ in range(rng.randint(2, 4))
        )
        photo = f"<img class='main' src='/main/{rng.randrange(100_000)}.jpg'>"
        return f"{photo}<ul class='gallery'>{gallery}</ul><div class='reviews'>{reviews}</div>"

    side = _side(rng, DECORATIONS[:2], "list")
    template = induce_template([_page(rng, side, extra()) for _ in range(5)])
    html = _page(rng, side, extra())
    values = _values(template, html)
    assert any(value.startswith("/main/") for value in values), values
    assert sum(value.startswith("/photos/") for value in values) >= 2, values
    assert any(value.startswith("/img/stars") for value in values), values
