"""Seeded page mutations for the relocation benchmark."""

from __future__ import annotations

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.bench.mutate import SEVERITIES, mutate

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
