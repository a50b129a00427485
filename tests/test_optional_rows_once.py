"""A labelled row that one seed alone shows is data on the next page too
(issue 11: data recovered). Its texts are all fixed for want of a second
sample, and the template's optional row matched only a page with the very
same director, so a page with another director gave none. A value right
after its label in an optional row is a slot as in a row every seed shows
(:func:`scrapy_wrapx.induction._labelled.open_labelled_values`), and so is
an optional row of one text with its own label ("Director: Ed Wood").
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

#: How a page writes a row, and the element around the rows.
ROWS = {
    "header cell": ("table", "<tr><th>{label}</th><td>{value}</td></tr>"),
    "definition list": ("dl", "<dt>{label}</dt><dd>{value}</dd>"),
    "bold lead-in": ("div", "<p><b>{label}:</b> {value}</p>"),
    "label in the text": ("ul", "<li>{label}: {value}</li>"),
}
PEOPLE = ["Ann Lee", "Bo Chan", "Cy Young", "Di Ross", "Ed Wood", "Flo Hart", "Gus Van"]
GENRES = ["Drama", "Comedy", "Horror", "Action", "Western", "Musical"]


def _page(rng: random.Random, idiom: str, director: str | None) -> str:
    box, row = ROWS[idiom]
    rows = [row.format(label="Genre", value=rng.choice(GENRES))]
    if director is not None:
        rows.append(row.format(label="Director", value=director))
    rows.append(row.format(label="Runtime", value=f"{rng.randrange(80, 180)} min"))
    return (
        f"<html><body><h1>Film {rng.randrange(10000)}</h1><{box} class='info'>"
        f"{''.join(rows)}</{box}><p>Copyright</p></body></html>"
    )


@pytest.mark.parametrize("shown_on", [0, 2, 4])
@pytest.mark.parametrize("idiom", sorted(ROWS))
def test_a_row_one_seed_shows_gives_the_next_pages_value(idiom: str, shown_on: int) -> None:
    rng = random.Random(f"{idiom}{shown_on}")
    people = rng.sample(PEOPLE, len(PEOPLE))
    seeds = [
        dom.parse(_page(rng, idiom, people.pop() if i == shown_on else None)) for i in range(5)
    ]
    template = induce_template(seeds)
    name_template(template, seeds)
    director = people.pop()
    item = item_data(extract(template, _page(rng, idiom, director)), template)
    assert item.get("director") == director, item
    without = item_data(extract(template, _page(rng, idiom, None)), template)
    assert "director" not in without, without
