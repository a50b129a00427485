"""A value with an ampersand or a plus in it stays one value
(induction/_tokens): "Point & Shoot Digital Camera", "Simon & Schuster",
"Wi-Fi + Bluetooth" join words of one name, even where every seed shows
one; " / " and " | " are the separators that cut a text into fields.

Generated shops vary the markup, where the joined words sit (every seed
the same words after the ampersand, or different ones), and the pages'
count of joined values.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scrapy_wrapx.dom import parse
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

BRANDS = ("Canon", "Nikon", "Sony", "Fujifilm", "Olympus", "Pentax", "Kodak")
MODELS = ("A3100 IS", "SX200", "D10", "XP10", "TG-5", "WG-3", "Z950", "C180")
HOUSES = ("Simon", "Farrar", "Harper", "Little", "Barnes", "Houghton", "Ticknor")
PARTNERS = ("Schuster", "Straus", "Row", "Brown", "Noble", "Mifflin", "Fields")
FEATURES = ("Wi-Fi", "GPS", "NFC", "HDR", "4K Video", "Bluetooth", "USB-C")
MARKUP = {
    "h1": "<h1>{title}</h1>",
    "span": '<div class="name"><span class="product-title">{title}</span></div>',
    "td": "<table><tr><td>Product</td><td>{title}</td></tr></table>",
}


def _page(rng: random.Random, markup: str, same_tail: bool) -> tuple[str, list[str]]:
    tail = "Shoot Digital Camera" if same_tail else rng.choice(("Shoot", "Click", "Snap"))
    title = f"{rng.choice(BRANDS)} {rng.choice(MODELS)} Point & {tail}"
    publisher = f"{rng.choice(HOUSES)} & {rng.choice(PARTNERS)}"
    features = f"{rng.choice(FEATURES)} + {rng.choice(FEATURES[::-1])}"
    html = (
        "<html><body>"
        + MARKUP[markup].format(title=title)
        + f'<p class="maker">Made by {publisher}</p>'
        + f'<ul class="specs"><li>Connectivity: {features}</li>'
        + f"<li>Price: ${rng.randint(50, 900)}.99</li></ul>"
        + "</body></html>"
    )
    return html, [title, publisher, features]


def _template(pages: list[str]) -> Template:
    urls = [f"http://cams.test/p/{i}.html" for i in range(len(pages))]
    trees = [parse(page, url) for page, url in zip(pages, urls, strict=True)]
    template = induce_template(trees, urls=urls)
    name_template(template, trees)
    return template


def _values(template: Template, page: str) -> list[str]:
    """Every string of the page's item, nested ones too."""
    found: list[str] = []
    stack: list[Any] = [item_data(extract(template, page), template)]
    while stack:
        data = stack.pop()
        if isinstance(data, dict):
            stack.extend(data.values())
        elif isinstance(data, list):
            stack.extend(data)
        elif isinstance(data, str):
            found.append(data)
    return found


@pytest.mark.parametrize("same_tail", [True, False], ids=["same_tail", "other_tails"])
@pytest.mark.parametrize("markup", sorted(MARKUP))
@pytest.mark.parametrize("seed", range(3))
def test_joined_words_stay_one_value(seed: int, markup: str, same_tail: bool) -> None:
    rng = random.Random(seed)
    pages = [_page(rng, markup, same_tail) for _ in range(10)]
    template = _template([html for html, _ in pages[:5]])
    for html, wanted in pages[5:]:
        values = _values(template, html)
        title, publisher, features = wanted
        assert title in values, (title, values)
        # The maker and the features keep their joined words (a leading
        # "Made by " or "Connectivity: " may go).
        assert any(value.endswith(publisher) for value in values), (publisher, values)
        assert any(value.endswith(features) for value in values), (features, values)
        halves = {part for joined in wanted for part in joined.replace(" + ", " & ").split(" & ")}
        assert not halves & set(values), (halves & set(values), values)
