"""A text that every seed encloses in brackets ("(Save 14%)", "[Stock: 3
left]") has the brackets as template and the value inside, its unit kept
and its own brackets balanced: "14%", not "14%)"; "PCM (Stereo)", not
"PCM (Stereo" (a value that opens a bracket closes it too)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

PAIRS = [("(", ")"), ("[", "]")]
LEADS = ["", "Save ", "You save ", "Stock: "]


def _inner(rng: random.Random, kind: str) -> str:
    """A value of ``kind``: a share, a sum, a count with its noun, or a
    format with a bracketed part of its own."""
    number = rng.randrange(2, 95)
    return {
        "percent": f"{number}%",
        "dollars": f"${number}.{rng.randrange(100):02d}",
        "count": f"{number} left",
        "nested": f"{rng.choice(['Stereo', 'Mono', 'Surround', 'Quad', 'Dual'])} PCM ({number} kHz)",
    }[kind]


def _page(rng: random.Random, text: str) -> str:
    other = rng.randrange(1000)
    return (
        f"<body><h1>Item {other}</h1><div class='price'><b>Price:</b> ${other}.00</div>"
        f"<div class='deal'>{text}</div><p>Footer</p></body>"
    )


@pytest.mark.parametrize("kind", ["percent", "dollars", "count", "nested"])
@pytest.mark.parametrize("pair", PAIRS)
@pytest.mark.parametrize("lead", LEADS)
def test_an_enclosed_value_leaves_the_brackets_to_the_template(
    kind: str, pair: tuple[str, str], lead: str
) -> None:
    rng = random.Random(f"{kind}{pair}{lead}")
    opener, closer = pair
    seeds = [_page(rng, f"{opener}{lead}{_inner(rng, kind)}{closer}") for _ in range(5)]
    template = induce_template(seeds)
    inner = _inner(rng, kind)
    extraction = extract(template, _page(rng, f"{opener}{lead}{inner}{closer}"))
    values = [value for values in extraction.fields.values() for value in values]
    found = [value for value in values if inner in value]
    assert found, (inner, values)
    for value in found:
        # Its unit and its own brackets stay; the enclosing closer goes.
        assert value.count("(") == value.count(")"), value
        assert value.count("[") == value.count("]"), value
        assert value.endswith(inner), value


@pytest.mark.parametrize("seed", range(4))
def test_a_closer_inside_the_data_stays_with_it(seed: int) -> None:
    """Values that end with a bracket of their own, not enclosed by the
    template: nothing is cut from them."""
    rng = random.Random(seed)

    def text() -> str:
        return f"Model {rng.randrange(100, 999)} (rev. {rng.choice('ABCDE')})"

    seeds = [_page(rng, text()) for _ in range(5)]
    template = induce_template(seeds)
    wanted = text()
    extraction = extract(template, _page(rng, wanted))
    values = [value for values in extraction.fields.values() for value in values]
    assert any(value.endswith("(rev. " + wanted[-2:]) or value == wanted for value in values)
    assert all(value.count("(") == value.count(")") for value in values), values
