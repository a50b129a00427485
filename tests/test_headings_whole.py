"""A heading names one thing, so its text is one value however separators
cut it: "Nikon Coolpix 12.0 MegaPixel - Red - L22" is a camera's name, not
a name, a colour and a code. The same separators outside a heading still
split a text into fields ("Value Books / 2008 / Paperback"), and a
heading's fixed label still goes ("Reviews of Dune" gives "Dune")."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

BRANDS = ["Nikon Coolpix", "Sony Cyber-shot", "Kodak EasyShare", "Olympus", "Canon PowerShot"]
COLORS = ["Red", "Silver", "Black", "Grey", "Dark Blue"]
SEPARATORS = [" - ", " / ", " | ", " :: "]


def _name(rng: random.Random, sep: str) -> str:
    return sep.join(
        [
            f"{rng.choice(BRANDS)} {rng.randint(8, 16)}.{rng.randint(0, 9)} MegaPixel Camera",
            rng.choice(COLORS),
            f"{rng.choice('LSXZ')}{rng.randint(10, 99)}",
        ]
    )


def _page(rng: random.Random, name: str, sep: str, level: int, wrap: str) -> str:
    details = sep.join([f"Maker {rng.randint(1, 99)}", str(rng.randint(2001, 2011)), "Boxed"])
    return (
        f"<html><body><div class='nav'><a href='/'>Home</a></div>"
        f"<h{level}>{wrap.format(name)}</h{level}><p class='details'>{details}</p>"
        f"<p>Price ${rng.randint(50, 500)}.99</p></body></html>"
    )


@pytest.mark.parametrize("wrap", ["{}", "<span>{}</span>", "Reviews of {}"])
@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("seed", range(4))
def test_a_heading_is_one_value(seed: int, level: int, wrap: str) -> None:
    rng = random.Random(seed)
    sep = SEPARATORS[seed % len(SEPARATORS)]
    template = induce_template([_page(rng, _name(rng, sep), sep, level, wrap) for _ in range(5)])
    name = _name(rng, sep)
    fields = extract(template, _page(rng, name, sep, level, wrap)).fields
    holders = [field for field, values in fields.items() if name in values]
    assert len(holders) == 1, fields
    # Outside the heading, the same separators still cut fields.
    assert not any(
        sep.strip() in value for values in fields.values() for value in values if value != name
    ), fields
