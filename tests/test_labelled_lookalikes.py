"""A page that lacks a labelled part every seed showed never gives the next
part's text under the missing one's name (issue 11: a wrong value is
worse than none). Every seed showed "List price: $X" then "Our price: $Y";
on a page without the list price, lenient alignment took "Our price:
$23.99" for the list price's element and kept the text whole, as its
value. A text that opens with another label than the one before a
template text's data is another field's
(:meth:`scrapy_wrapx.template.Text.foreign_label`), and an element that
opens with it is another row (:meth:`scrapy_wrapx.extraction._fit.Fits.other_label`).
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

#: How a page shows one labelled price.
ROWS = {
    "span": "<span>{label}: {price}</span> ",
    "div": "<div>{label}: {price}</div>",
    "list item": "<li>{label}: {price}</li>",
    "cell": "<td>{label}: {price}</td>",
    "bold label": "<p><b>{label}:</b> {price}</p>",
}
BOXES = {"span": "p", "div": "div", "list item": "ul", "cell": "table><tr", "bold label": "div"}


def _page(rng: random.Random, idiom: str, listed: bool) -> tuple[str, str]:
    row = ROWS[idiom]
    ours = f"${rng.randrange(5, 50)}.99"
    prices = row.format(label="List price", price=f"${rng.randrange(51, 99)}.99") if listed else ""
    prices += row.format(label="Our price", price=ours)
    box = BOXES[idiom]
    close = "</tr></table>" if box.startswith("table") else f"</{box}>"
    html = (
        "<html><body><div id='nav'><a href='/'>Home</a></div>"
        f"<h1>Item {rng.randrange(10000)}</h1><{box} class='prices'>{prices}{close}"
        f"<p>{rng.choice(['Fine print', 'Small print here', 'More words'])}</p></body></html>"
    )
    return html, ours


@pytest.mark.parametrize("idiom", sorted(ROWS))
def test_a_missing_labelled_part_lends_no_value_its_name(idiom: str) -> None:
    rng = random.Random(idiom)
    seeds = [dom.parse(_page(rng, idiom, listed=True)[0]) for _ in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)
    html, ours = _page(rng, idiom, listed=False)
    item = item_data(extract(template, html), template)
    assert "list_price" not in item, item
    assert item.get("our_price") == ours, item
