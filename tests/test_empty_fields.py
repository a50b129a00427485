"""A field a page leaves empty is unset, never its label (issue 11: a
wrong value is worse than none). A page's text is whitespace-folded, so
"Code: " with no code reads "Code:", which fitted no slot of "Code: {code}"
and became the field's value whole; a seed with the empty field made
induction miss the label altogether, so every page's field held its label
and data run together ("Code: 7044"). The empty slot now takes the blank
beside it (:func:`scrapy_wrapx.template.split_folded`), induction takes the
template the other seeds share where the bare one fits it, and a label
alone is a label (:func:`scrapy_wrapx.induction._labels.label_prefix`).
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

#: Where a page shows the code (``{code}``), beside another field.
IDIOMS = {
    "paragraph": "<p>Board code: {code}</p>",
    "span": "<div><span>Board code: {code}</span></div>",
    "list item": "<ul><li>Board code: {code}</li><li>Weight: {weight}</li></ul>",
    "cell": "<table><tr><td>Board code: {code}</td></tr></table>",
    "labelled run, code first": "<p>Board code: {code} | Weight: {weight}</p>",
    "labelled run, code last": "<p>Weight: {weight} | Board code: {code}</p>",
}


def _page(rng: random.Random, idiom: str, code: str) -> str:
    shown = IDIOMS[idiom].format(code=code, weight=f"{rng.randrange(100, 999)} lbs")
    return (
        "<html><body><div id='nav'><a href='/'>Home</a></div>"
        f"<h1>Item {rng.randrange(10000)}</h1><div class='main'>{shown}"
        f"<p>{rng.choice(['Fine print', 'Small print here', 'More words'])}</p></div>"
        "<p>Copyright</p></body></html>"
    )


def _code(rng: random.Random) -> str:
    return str(rng.randrange(1000, 9999))


@pytest.mark.parametrize("empty_seed", [None, 0, 3])
@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_an_empty_field_is_unset_and_a_filled_one_is_its_data(
    idiom: str, empty_seed: int | None
) -> None:
    rng = random.Random(f"{idiom}{empty_seed}")
    seeds = [dom.parse(_page(rng, idiom, "" if i == empty_seed else _code(rng))) for i in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)

    code = _code(rng)
    filled = item_data(extract(template, _page(rng, idiom, code)), template)
    assert filled.get("board_code") == code, filled

    empty = item_data(extract(template, _page(rng, idiom, "")), template)
    assert "board_code" not in empty, empty
    assert not [value for value in _texts(empty) if "code" in value.lower()], empty


def _texts(item: dict[str, object]) -> list[str]:
    found: list[str] = []
    stack: list[object] = [item]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found
