"""A definition whose term did not align is no value of the template's
term (issue 11: a wrong value is worse than an unset one).

A spec sheet as a ``<dl>``: ``<dt>Screen size</dt><dd>2.5 in</dd>...``,
each page a subset of the terms. A page that shows a term no seed showed,
where the template has another (``<dt>Resolution</dt><dd>201k dots</dd>``
against the template's screen size), misfits there, and the lenient
alignment skipped the two terms but paired the definitions: the item said
``screen_size: "201k dots"``. A definition is now taken only with its
term. The page's other terms keep their values. Pages come from a
generator: seeds draw their terms from one half of a vocabulary, the page
after them puts terms of the other half among them."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import slug
from scrapy_wrapx.unsupervised.items import item_data

SEEN = [
    ("Screen size", lambda rng: f"{rng.randint(2, 4)}.{rng.randint(0, 9)} in"),
    ("Weight", lambda rng: f"{rng.randint(100, 900)} g"),
    ("Battery", lambda rng: rng.choice(["Li-ion", "AA x2", "NiMH"])),
    ("Color", lambda rng: rng.choice(["Black", "Silver", "Red"])),
]
UNSEEN = [
    ("Resolution", lambda rng: f"{rng.randint(200, 999)}k dots"),
    ("Battery life", lambda rng: f"{rng.randint(150, 900)} shots"),
    ("Dimensions", lambda rng: f"{rng.randint(80, 140)} x {rng.randint(50, 90)} mm"),
]


def _page(rng: random.Random, terms: list[tuple[str, str]]) -> str:
    rows = "".join(f"<dt>{term}</dt><dd>{value}</dd>" for term, value in terms)
    return (
        f"<html><body><h1>Camera {rng.randint(1, 999)}</h1>"
        f"<dl class='specs'>{rows}</dl><p>Footer</p></body></html>"
    )


def _terms(rng: random.Random, vocabulary: list, keep: float) -> list[tuple[str, str]]:
    return [(term, make(rng)) for term, make in vocabulary if rng.random() < keep]


@pytest.mark.parametrize("seed", range(10))
def test_a_definition_is_taken_only_with_its_term(seed: int) -> None:
    rng = random.Random(seed)
    trees = [dom.parse(_page(rng, _terms(rng, SEEN, 0.75))) for _ in range(5)]
    template = induce_template(trees)
    name_template(template, trees)
    for _ in range(6):
        # Unseen terms in the places of seen ones.
        terms = []
        for (term, make), (other, make_other) in zip(SEEN, UNSEEN + UNSEEN[:1], strict=True):
            terms.append((other, make_other(rng)) if rng.random() < 0.5 else (term, make(rng)))
        item = item_data(extract(template, _page(rng, terms)), template)
        unseen = {value for term, value in terms if term in dict(UNSEEN)}
        for term, _ in SEEN:
            # No seen term's name holds an unseen term's value.
            assert item.get(slug(term)) not in unseen, (terms, item)


#: Idioms of a label before its value, with no element around the pair.
LABELLED_RUNS = {
    "bold": lambda terms: "".join(f"<b>{term}:</b> {value}<br>" for term, value in terms),
    "strong": lambda terms: "".join(
        f"<strong>{term}</strong> {value}<br>" for term, value in terms
    ),
    "terms": lambda terms: (
        "<dl>" + "".join(f"<dt>{t}</dt><dd>{v}</dd>" for t, v in terms) + "</dl>"
    ),
}


@pytest.mark.parametrize("idiom", sorted(LABELLED_RUNS))
@pytest.mark.parametrize("seed", range(4))
def test_a_value_after_a_label_is_taken_only_with_its_label(idiom: str, seed: int) -> None:
    """Every seed shows the same labels; a page shows another label in the
    place of one of them: its value is no value of the label it replaced
    (the director is no chancellor), and the other labels keep theirs."""
    rng = random.Random(seed)

    def page(terms: list[tuple[str, str]]) -> str:
        body = LABELLED_RUNS[idiom](terms)
        return f"<html><body><h1>Camera {rng.randint(1, 999)}</h1><div class='specs'>{body}</div></body></html>"

    trees = [dom.parse(page([(term, make(rng)) for term, make in SEEN])) for _ in range(5)]
    template = induce_template(trees)
    name_template(template, trees)
    for replaced in range(len(SEEN)):
        other, make_other = UNSEEN[replaced % len(UNSEEN)]
        terms = [(term, make(rng)) for term, make in SEEN]
        terms[replaced] = (other, make_other(rng))
        item = item_data(extract(template, page(terms)), template)
        assert slug(SEEN[replaced][0]) not in item, (terms, item)
        for term, value in terms:
            if term != other:
                assert item.get(slug(term)) == value, (terms, item)


def test_a_value_after_a_sign_or_badge_is_no_labelled_value() -> None:
    """A currency sign or a badge before a value is no label: a page in
    another currency, or with another badge, still gives its price."""
    rng = random.Random(7)

    def page(sign: str, badge: str) -> tuple[str, str]:
        price = f"{rng.randint(5, 99)}.99"
        html = (
            f"<html><body><h1>Camera {rng.randint(1, 999)}</h1><p class='price'>"
            f"<span class='cur'>{sign}</span>{price}</p><p class='name'><em>{badge}</em>"
            f" Camera {price}</p></body></html>"
        )
        return html, price

    trees = [dom.parse(page("$", "New")[0]) for _ in range(5)]
    template = induce_template(trees)
    name_template(template, trees)
    html, price = page("€", "Sale")
    assert price in item_data(extract(template, html), template).values()
