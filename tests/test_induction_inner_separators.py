"""A list whose items after the first open with a separator inside
(``<span><a>Sci-Fi</a></span><span><span>,</span><a>Action</a></span>``)
is one list: every item in one field, in page order, however many items
the seeds and the page show, also where every seed shows the same number
(:func:`scrapy_wrapx.induction._fold._fold_inner_separated`; a separator
is no role of a position, nor its label: :mod:`scrapy_wrapx.induction._sets`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

GENRES = ["Action", "Sci-Fi", "Drama", "Comedy", "Horror", "Family", "Thriller", "Crime"]
#: How a separator sits at the start of an item.
SEPARATORS = ["<span class='comma'>,</span>", ", ", "<span>|</span>", " / ", "<b>\u00b7</b>"]
#: An item's own markup.
ITEMS = ["<a href='/g/{slug}/'>{name}</a>", "<em>{name}</em>"]
#: Items per seed page: constant counts, and counts that vary.
COUNTS = [[2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [2, 1, 1, 3, 3], [1, 2, 3, 1, 2]]


def _page(rng: random.Random, title: str, genres: list[str], separator: str, item: str) -> str:
    spans = "".join(
        f"<span class='genre'>{separator if index else ''}"
        f"{item.format(slug=genre.lower(), name=genre)}</span>"
        for index, genre in enumerate(genres)
    )
    label = "Genre" if len(genres) == 1 else "Genres"
    return (
        f"<body><h1>{title}</h1><div class='info'><b>{label}:</b><div class='names'>{spans}</div>"
        f"</div><p>Runtime {rng.randrange(80, 180)} min</p><p>Footer</p></body>"
    )


@pytest.mark.parametrize("counts", COUNTS)
@pytest.mark.parametrize("item", range(len(ITEMS)))
@pytest.mark.parametrize("separator", range(len(SEPARATORS)))
def test_every_item_of_a_separated_list_is_in_one_field(
    separator: int, item: int, counts: list[int]
) -> None:
    rng = random.Random(separator * 10 + item + sum(counts))
    sep, markup = SEPARATORS[separator], ITEMS[item]
    seeds = [
        _page(rng, f"Movie {i}", rng.sample(GENRES, count), sep, markup)
        for i, count in enumerate(counts)
    ]
    template = induce_template(seeds)
    for count in (1, 2, 4):
        genres = rng.sample(GENRES, count)
        fields = extract(template, _page(rng, "Other", genres, sep, markup)).fields
        holders = {name for name, values in fields.items() if set(values) & set(genres)}
        assert len(holders) == 1, (count, fields)
        assert fields[holders.pop()] == genres
