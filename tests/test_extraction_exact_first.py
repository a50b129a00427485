"""A hedge whose shallow parse keeps choosing the wrong branch (two
optional blocks alike at the top) is parsed by exact fit first once
earlier pages showed that (``Compiled.exact_first``): the very same
extraction, without matching the wrong branch deeply first."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.extraction._compiled import EXACT_FIRST_AFTER, compiled
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Template

COLORS = ["Red", "Blue", "Green", "Black", "White", "Amber", "Teal", "Rust"]


def _page(rng: random.Random, specs: bool, notes: bool) -> str:
    """Two optional blocks alike at the top (a ``div.box`` with a list),
    different below: specs hold label/value pairs, notes plain items."""
    spec = (
        "<div class='box'><ul>"
        + "".join(f"<li><b>Size:</b> {rng.randrange(1, 50)} cm</li>" for _ in range(2))
        + "</ul></div>"
        if specs
        else ""
    )
    note = (
        "<div class='box'><ul>"
        + "".join(f"<li><i>{rng.choice(COLORS)}</i></li>" for _ in range(rng.randrange(1, 4)))
        + "</ul></div>"
        if notes
        else ""
    )
    return (
        f"<html><body><h1>{rng.choice(COLORS)} chair {rng.randrange(99)}</h1>"
        f"{spec}{note}<p>Footer</p></body></html>"
    )


@pytest.mark.parametrize("seed", range(6))
def test_exact_first_extracts_the_same(seed: int) -> None:
    rng = random.Random(seed)
    seeds = [_page(rng, s, n) for s, n in [(1, 1), (1, 0), (0, 1), (1, 1), (0, 1)]]
    template = induce_template(seeds)
    pages = [_page(rng, rng.random() < 0.3, True) for _ in range(12)]
    for page in pages:
        learned = extract(template, page)
        fresh = extract(Template.from_json(template.to_json()), page)
        assert (learned.fields, learned.records, learned.score, learned.coverage) == (
            fresh.fields,
            fresh.records,
            fresh.score,
            fresh.coverage,
        )
    facts = compiled(template)
    assert any(corrected >= EXACT_FIRST_AFTER for _, corrected in facts.searches.values())
    assert any(facts.exact_first(items) for items in _hedges(template))


def _hedges(template: Template) -> list[list]:  # type: ignore[type-arg]
    return [node.children for node in template.nodes if hasattr(node, "children")]
