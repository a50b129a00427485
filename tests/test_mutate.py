"""Seeded page mutations for the relocation benchmark."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.locate.confidence import value_shape
from tests.mutate import SEVERITIES, mutate

PAGE = (
    "<html><body><div id='top' class='header nav'><a href='/'>Home</a></div>"
    "<table class='layout'><tr><td><h1>Title</h1><p class='by'>By <a href='/a'>Ann</a></p></td>"
    "<td><ul><li>One</li><li>Two</li></ul><img src='/c.jpg'></td></tr></table>"
    "<div class='foot'><span>Contact</span></div></body></html>"
)


def texts(html: str) -> list[str]:
    return [leaf.value for leaf in dom.parse(html).leaves if leaf.is_text]


@pytest.mark.parametrize("severity", list(SEVERITIES))
def test_mutation_is_deterministic_and_keeps_every_text(severity: str) -> None:
    first = mutate(PAGE, severity, seed=3)
    assert first == mutate(PAGE, severity, seed=3)
    original = texts(PAGE)
    mutated = texts(first)
    for text in original:
        assert text in mutated
    assert first != PAGE


def test_seeds_differ() -> None:
    assert len({mutate(PAGE, "medium", seed=seed) for seed in range(5)}) > 1


def test_heavy_turns_the_layout_table_into_divs() -> None:
    heavy = dom.parse(mutate(PAGE, "heavy", seed=1))
    assert not any(node.tag in ("table", "tr", "td") for node in heavy.nodes)
    light = dom.parse(mutate(PAGE, "light", seed=1))
    assert any(node.tag == "table" for node in light.nodes)


def test_unknown_severity() -> None:
    with pytest.raises(ValueError, match="'extreme'"):
        mutate(PAGE, "extreme")


def test_heavy_inserts_look_alikes_of_the_same_shape() -> None:
    from tests.mutate import look_alike_text

    heavy = texts(mutate(PAGE, "heavy", seed=2))
    shapes = {value_shape(text) for text in texts(PAGE)}
    new = [text for text in heavy if text not in texts(PAGE)]
    assert new, "no look-alike inserted"
    # Look-alikes have the shape of a text of the page (promo blocks aside).
    assert any(value_shape(text) in shapes for text in new)
    assert value_shape(look_alike_text("ISBN-13: 978", random.Random(0))) == value_shape(
        "ISBN-13: 978"
    )


def _redesign2() -> ModuleType:
    """``benchmarks/redesign2.py`` (the benchmarks are no package of the
    tests' import path)."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "redesign2.py"
    spec = importlib.util.spec_from_file_location("redesign2", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("redesign2", module)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def test_the_reporting_generator_keeps_protected_texts() -> None:
    redesign = _redesign2().redesign

    for seed in range(5):
        heavy = redesign(PAGE, "heavy", seed=seed, keep=frozenset({"Title", "Ann", "Two"}))
        assert heavy == redesign(PAGE, "heavy", seed=seed, keep=frozenset({"Title", "Ann", "Two"}))
        kept = texts(heavy)
        assert {"Title", "Ann", "Two"} <= set(kept)
        assert "<table" not in heavy
    with pytest.raises(ValueError, match="'extreme'"):
        redesign(PAGE, "extreme")
