"""A sentence an inline element interrupts is wording, never a label or a
value (issue 11: names a person would pick). "Please click the
<b>"Calculate Shipping"</b> button below." named the next paragraph's
field ``button_below`` (the sentence's tail taken for a label), then
``calculate_shipping`` (the bold taken for a lead-in), and "<b>Note</b>
prices may change." made the tail a ``note`` value. A text that opens in
lower case and ends with a full stop is a sentence's tail
(:func:`scrapy_wrapx.induction._naming.sentence_tail`).
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

#: A sentence with an inline element inside, and the names its words would
#: wrongly give.
SENTENCES = {
    "bold button name": (
        '<p>Please enter your zip code and click the <b>"Calculate Shipping"</b> button below.</p>',
        {"button_below", "calculate_shipping"},
    ),
    "strong time": (
        "<p>Orders placed by <strong>3 PM</strong> ship today.</p>",
        {"ship_today", "f_3_pm", "pm"},
    ),
    "bold phone": ("<p>Call us at <b>800-555-0100</b> for help.</p>", {"for_help"}),
    "bold word first": ("<p><b>Note</b> prices may change.</p>", {"note"}),
}
BLURBS = ["Soft and warm", "Made to last for years", "A gift for any cook"]


def _page(rng: random.Random, sentence: str) -> tuple[str, str]:
    blurb = f"{rng.choice(BLURBS)}, model {rng.randrange(100, 999)}"
    html = (
        f"<html><body><div class='main'><h1>Item {rng.randrange(10000)}</h1>"
        f"<span class='price'>${rng.randrange(5, 99)}.99</span>{sentence}<p>{blurb}</p>"
        "</div></body></html>"
    )
    return html, blurb


@pytest.mark.parametrize("case", sorted(SENTENCES))
def test_a_sentence_around_an_inline_element_names_nothing(case: str) -> None:
    sentence, wrong = SENTENCES[case]
    rng = random.Random(case)
    seeds = [dom.parse(_page(rng, sentence)[0]) for _ in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)
    html, blurb = _page(rng, sentence)
    item = item_data(extract(template, html), template)
    holders = [name for name, value in item.items() if value == blurb]
    assert holders and not set(holders) & wrong, item
    assert not set(item) & wrong, item
