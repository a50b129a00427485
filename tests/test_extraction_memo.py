"""Induction and naming match each seed page once (extraction's
``remembering_matches``): the fields they drop and rename in between change
what is collected, never the match."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom, extraction
from scrapy_wrapx.extraction import extract, remembering_matches
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.induction._rename import rename_fields
from tests.test_induction import book_page


class _Counting:
    """Counts the matchers made (wraps the real one)."""

    def __init__(self, real: type) -> None:
        self.real, self.made = real, 0

    def __call__(self, *args: object) -> object:
        self.made += 1
        return self.real(*args)


@pytest.fixture
def matchers(monkeypatch: pytest.MonkeyPatch) -> _Counting:
    counting = _Counting(extraction.Matcher)
    monkeypatch.setattr(extraction, "Matcher", counting)
    return counting


@pytest.mark.parametrize("seed", range(3))
def test_a_renamed_template_collects_anew_from_one_match(seed: int, matchers: _Counting) -> None:
    rng = random.Random(seed)
    trees = [dom.parse(book_page(rng)) for _ in range(4)]
    template = induce_template(trees)
    plain = [extract(template, tree) for tree in trees]
    matchers.made = 0
    with remembering_matches():
        first = [extract(template, tree) for tree in trees]
        renamed = rename_fields(template, {name: f"x_{name}" for name in template.field_names})
        again = [extract(template, tree) for tree in trees]
    assert matchers.made == len(trees)
    for before, one, two in zip(plain, first, again, strict=True):
        assert one.fields == before.fields and one.score == before.score
        assert two.fields == {renamed[name]: values for name, values in before.fields.items()}
    matchers.made = 0
    extract(template, trees[0])
    extract(template, trees[0])
    assert matchers.made == 2  # nothing is remembered past the block


def test_induction_and_naming_match_each_seed_once_per_template(matchers: _Counting) -> None:
    rng = random.Random(7)
    trees = [dom.parse(book_page(rng)) for _ in range(5)]
    with remembering_matches():
        template = induce_template(trees)
        name_template(template, trees)
    assert matchers.made == len(trees)
