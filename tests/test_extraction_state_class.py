"""A block whose class carries a state every seed shared ("gauge low" on
five cheap cars, "stars s5" on five top-rated books) is still that block
on a page in another state ("gauge mid"): its data is found in its own
field (:func:`scrapy_wrapx.extraction._fit._state_class`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.extraction._compiled import compiled
from scrapy_wrapx.extraction._match import Matcher
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Elem

#: The class on every seed, and on the page.
STATES = [
    ("main low", "main mid"),
    ("main low", "main high"),
    ("stars s5", "stars s3"),
    ("badge in-stock", "badge sold-out"),
]


def _page(rng: random.Random, name: str, state: str) -> tuple[str, str]:
    price = f"${rng.randrange(9, 60)},{rng.randrange(100, 999)}"
    invoice = f"${rng.randrange(9, 60)},{rng.randrange(100, 999)}"
    features = "".join(f"<li>Feature {rng.randrange(99)}</li>" for _ in range(rng.randrange(1, 5)))
    promo = "<p class='promo'>Free shipping</p>" if rng.random() < 0.5 else ""
    html = (
        f"<body><h1>{name}</h1><ul>{features}</ul><div class='pricing'>"
        f"<div class='{state}'><div class='legend'>"
        f"<div class='msrp'>MSRP <span class='val'>{price}</span></div>"
        f"<div class='inv'>Invoice <span class='val'>{invoice}</span></div></div>"
        f"<img src='/gauge.png'></div>{promo}<div class='note'>Prices may vary</div></div>"
        "<p>Footer</p></body>"
    )
    return html, price


def _fields_holding(template: object, html: str, value: str) -> list[str]:
    fields = extract(template, html).fields  # type: ignore[arg-type]
    return [name for name, values in fields.items() if value in values]


@pytest.mark.parametrize("states", STATES)
@pytest.mark.parametrize("seed", range(3))
def test_a_block_in_another_state_is_the_same_block(states: tuple[str, str], seed: int) -> None:
    rng = random.Random(seed)
    on_seeds, on_page = states
    names = ["Accent GS", "Accent GLS", "Accent SE", "Accent Blue", "Accent 2011", "Civic Si"]
    template = induce_template([_page(rng, name, on_seeds)[0] for name in names[:5]])
    same, price = _page(rng, names[5], on_seeds)
    expected = _fields_holding(template, same, price)
    assert len(expected) == 1
    other, price = _page(rng, names[5], on_page)
    assert _fields_holding(template, other, price) == expected


@pytest.mark.parametrize(
    ("on_page", "fits"),
    [
        ("main mid", True),
        ("main high", True),
        ("box low", False),
        ("main", False),
        ("side mid", False),
    ],
)
def test_a_state_word_is_the_only_word_a_fit_lets_differ(on_page: str, fits: bool) -> None:
    """The fit itself: the seeds' ``main low`` block fits a page's ``main
    mid`` block; a block whose first word or number of words differs does
    not (a class of one word is an element's identity)."""
    rng = random.Random(2)
    names = ["A1", "A2", "A3", "A4", "A5", "B1"]
    template = induce_template([_page(rng, name, "main low")[0] for name in names[:5]])
    tree = dom.parse(_page(rng, names[5], on_page)[0])
    t = next(
        n for n in template.nodes if isinstance(n, Elem) and n.attrs.get("class") == "main low"
    )
    node = next(n for n in tree.nodes if n.element.get("class") == on_page)
    matcher = Matcher(template, compiled(template), tree)
    assert matcher.shallow(t, node) is fits
