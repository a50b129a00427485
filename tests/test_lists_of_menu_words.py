"""A list of links whose items are also words of the site's menu stays
one list (issue 11: list targets are lists, not split across fields).

A film's genres are links, "Drama, Comedy, Western", and the site's menu
links every genre on every page: "Comedy" is then a text every seed shows,
which makes it template text (EXALG's occurrence vector), a symbol of its
own, and the genre that says it no record of the genres list. The list was
cut there: the genres before it in one set, the ones after in another, a
genre in a positional field. The same with a breadcrumb's categories, a
tag that names a menu section.

A place of links side by side that varies from page to page (each page
shows a few of the many texts the seeds show there) now holds data even
where its text is template elsewhere; only the items it shows on every seed
("Home") stay fixed. A menu (every page shows most of its links), the
links of a paragraph and one link per level of a nested tree are no such
lists. Pages come from generators."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

MENU = ["Drama", "Comedy", "Action", "Horror", "Family"]
OTHER = [
    "Western",
    "Sci-Fi",
    "Musical",
    "Noir",
    "Thriller",
    "Romance",
    "War",
    "Sport",
    "Crime",
    "Mystery",
    "Fantasy",
    "History",
]


def _page(
    rng: random.Random, separator: str, menu_share: float, home: bool
) -> tuple[str, list[str]]:
    count = rng.randint(1, 6)
    genres = list(
        dict.fromkeys(
            rng.choice(MENU) if rng.random() < menu_share else rng.choice(OTHER)
            for _ in range(count)
        )
    )
    links = [f"<a href='/genre/{genre.lower()}'>{genre}</a>" for genre in genres]
    if home:
        links.insert(0, "<a href='/'>Home</a>")
    menu = "".join(f"<li><a href='/genre/{genre.lower()}'>{genre}</a></li>" for genre in MENU)
    title = f"{rng.choice(OTHER)} {rng.choice(OTHER)} {rng.randint(1, 999)}"
    html = (
        f"<html><body><ul class='nav'>{menu}</ul><h1>{title}</h1>"
        f"<p class='genres'>Genres: {separator.join(links)}</p>"
        f"<p class='plot'>{title} is a film.</p></body></html>"
    )
    return html, genres


def _induced(pages: list[str]) -> Template:
    trees = [dom.parse(html) for html in pages]
    template = induce_template(trees)
    name_template(template, trees)
    return template


def _lists(item: dict[str, object]) -> list[list[str]]:
    """The lists of texts in an item: its lists of strings, and each
    field of its lists of records."""
    found: list[list[str]] = []
    for value in item.values():
        if not isinstance(value, list) or not value:
            continue
        if all(isinstance(v, str) for v in value):
            found.append([str(v) for v in value])
        elif all(isinstance(v, dict) for v in value):
            keys = {key for record in value for key in record}  # type: ignore[union-attr]
            found.extend([str(record.get(key)) for record in value] for key in keys)  # type: ignore[union-attr]
    return found


@pytest.mark.parametrize("separator", [", ", " / ", " | "])
@pytest.mark.parametrize("menu_share", [0.3, 0.6])
@pytest.mark.parametrize("seed", range(4))
def test_genres_that_the_menu_also_links_stay_one_list(
    separator: str, menu_share: float, seed: int
) -> None:
    rng = random.Random(seed)
    template = _induced([_page(rng, separator, menu_share, False)[0] for _ in range(5)])
    for _ in range(3):
        html, genres = _page(rng, separator, menu_share, False)
        item = item_data(extract(template, html), template)
        if len(genres) == 1:
            assert genres[0] in repr(item), item
            continue
        assert genres in _lists(item), item
        # The menu is template: no item carries it.
        assert not any(lst[: len(MENU)] == MENU for lst in _lists(item)), item


@pytest.mark.parametrize("seed", range(4))
def test_an_item_every_seed_shows_in_the_list_stays_template(seed: int) -> None:
    """A breadcrumb's "Home", first on every page, is no value."""
    rng = random.Random(seed)
    template = _induced([_page(rng, " &rsaquo; ", 0.5, True)[0] for _ in range(5)])
    for _ in range(3):
        html, genres = _page(rng, " &rsaquo; ", 0.5, True)
        item = item_data(extract(template, html), template)
        assert "'Home'" not in repr(item), item
        if len(genres) > 1:
            assert genres in _lists(item), item


def test_a_menu_with_its_current_item_marked_stays_template() -> None:
    """Every page shows all of the menu's links but the current one, which
    it marks: the menu is no list of data, whatever page is current."""
    rng = random.Random(3)
    pages = []
    for _ in range(6):
        current = rng.randrange(len(MENU))
        menu = "".join(
            f"<li class='on'><b>{genre}</b></li>"
            if i == current
            else f"<li><a class='m' href='/g/{genre.lower()}'>{genre}</a></li>"
            for i, genre in enumerate(MENU)
        )
        title = f"{rng.choice(OTHER)} {rng.randint(1, 999)}"
        pages.append(f"<html><body><ul class='nav'>{menu}</ul><h1>{title}</h1></body></html>")
    template = _induced(pages[:5])
    item = item_data(extract(template, pages[5]), template)
    assert not any(genre in repr(item) for genre in MENU if f"<b>{genre}</b>" not in pages[5]), item
