"""A button's label is template: "Add To Cart" on every card of a list is
the site's word for an action, not the card's data, though a few cards say
"Preorder" or "Sold Out" instead. Look-alikes that stay data: a number on a
button ("Save 25%", a price), and a button-styled link whose text is the
card's own (its product's name)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

PRODUCTS = ["Lamp", "Chair", "Desk", "Shelf", "Stool", "Sofa", "Bench", "Rug"]
COLOURS = ["Red", "Blue", "Oak", "White", "Green", "Grey"]

#: Button markups: the label -> the element.
BUTTONS = {
    "button": lambda label: f"<button type='submit' name='add'>{label}</button>",
    "link class": lambda label: f"<a class='small-add-button cleartype' href='/cart'><span>{label}</span></a>",
    "camel class": lambda label: f"<span class='addToCartBtn'>{label}</span>",
    "btn words": lambda label: f"<a class='btn btn-primary' href='/cart'>{label}</a>",
}  # fmt: skip


def _label(rng: random.Random) -> str:
    return "Add To Cart" if rng.random() < 0.85 else rng.choice(["Preorder", "Sold Out"])


def _card(rng: random.Random, button: str, extra: str) -> tuple[str, str]:
    name = f"{rng.choice(COLOURS)} {rng.choice(PRODUCTS)} {rng.randrange(1000)}"
    price = f"${rng.randint(5, 300)}.{rng.randint(0, 99):02d}"
    if extra == "number":
        action = BUTTONS[button](f"Save {rng.randint(5, 60)}%")
    elif extra == "own text":
        action = BUTTONS[button](name)
    else:
        action = BUTTONS[button](_label(rng))
    card = (
        f"<li class='card'><a href='/p/{rng.randrange(10**5)}'>{name}</a>"
        f"<span class='price'>{price}</span>{action}</li>"
    )
    return card, name


def _page(rng: random.Random, button: str, extra: str = "") -> tuple[str, list[str]]:
    cards = [_card(rng, button, extra) for _ in range(rng.randint(3, 7))]
    html = (
        f"<html><body><h1>Shop {rng.randrange(100)}</h1><ul class='cards'>"
        f"{''.join(card for card, _ in cards)}</ul><p>Footer</p></body></html>"
    )
    return html, [name for _, name in cards]


def _values(template: object, html: str) -> list[str]:
    fields = extract(template, html).fields  # type: ignore[arg-type]
    return [value for values in fields.values() for value in values]


@pytest.mark.parametrize("button", sorted(BUTTONS))
@pytest.mark.parametrize("seed", range(3))
def test_a_buttons_label_is_template(seed: int, button: str) -> None:
    rng = random.Random(seed)
    template = induce_template([_page(rng, button)[0] for _ in range(5)])
    html, names = _page(rng, button)
    values = _values(template, html)
    assert not {"Add To Cart", "Preorder", "Sold Out"} & set(values), values
    assert set(names) <= set(values), values


@pytest.mark.parametrize("extra", ["number", "own text"])
@pytest.mark.parametrize("button", sorted(BUTTONS))
def test_a_number_and_a_cards_own_text_on_a_button_stay_data(button: str, extra: str) -> None:
    rng = random.Random(len(button) + len(extra))
    pages = [_page(rng, button, extra) for _ in range(6)]
    template = induce_template([html for html, _ in pages[:5]])
    html = pages[5][0]
    values = _values(template, html)
    if extra == "number":
        assert any(value.startswith("Save ") and value.endswith("%") for value in values), values
    else:
        assert sum(value in pages[5][1] for value in values) >= 2 * len(pages[5][1]), values
