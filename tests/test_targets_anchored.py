"""A repair keeps a selector anchored on the page's own names, not on
positions (:mod:`scrapy_wrapx.locate.selectors`)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.locate.repair import TargetState
from scrapy_wrapx.locate.selectors import anchored_selector

#: How a page marks its title element: (markup with {text}, class or id it carries).
TITLES = [
    '<h1 class="title">{text}</h1>',
    '<h1 id="product-name">{text}</h1>',
    '<div class="name"><span>{text}</span></div>',
]
LOOK_ALIKES = [
    '<h1 class="promo">Members save 10%</h1>',
    '<h1 id="banner">Free shipping</h1>',
    '<div class="promo"><span>Gift cards</span></div>',
]


def _page(rng: random.Random, title: str, text: str, look_alike: bool) -> str:
    before = rng.choice(LOOK_ALIKES) if look_alike else ""
    return (
        f'<html><body><nav><a href="/">Home</a></nav><main><div class="head">{before}'
        f"{title.format(text=text)}<p>Price: $9</p></div></main></body></html>"
    )


def _title_xpath(tree: dom.PageTree, text: str) -> str:
    return next(leaf.xpath for leaf in tree.leaves if leaf.value == text)


@pytest.mark.parametrize("seed", range(9))
def test_the_anchored_selector_holds_with_and_without_the_look_alike(seed: int) -> None:
    rng = random.Random(seed)
    title = TITLES[seed % len(TITLES)]
    tree = dom.parse(_page(rng, title, "Widget 1", look_alike=True))
    selector = anchored_selector(tree, [_title_xpath(tree, "Widget 1")])
    assert selector is not None and "[" in selector  # names, no positions
    for look_alike in (False, True):
        page = dom.parse(_page(rng, title, "Widget 2", look_alike))
        assert [str(v) for v in page.document.xpath(selector)] == ["Widget 2"]


def test_list_members_share_one_anchored_selector() -> None:
    rows = "".join(f'<div class="opt"><span class="p">${n}.00</span></div>' for n in (5, 7, 9))
    tree = dom.parse(f'<html><body><div class="options"><h4>Options</h4>{rows}</div></body></html>')
    xpaths = [leaf.xpath for leaf in tree.leaves if leaf.value.startswith("$")]
    selector = anchored_selector(tree, xpaths)
    assert selector == "//span[@class='p']/text()"


def test_no_names_no_anchored_selector() -> None:
    """Without ids or classes that tell the node apart, the repair keeps
    the absolute XPath."""
    tree = dom.parse("<html><body><div><p>a</p><p>b</p></div></body></html>")
    assert anchored_selector(tree, [_title_xpath(tree, "b")]) is None
    state = TargetState("f", "//p[@class='gone']/text()")
    for _ in range(3):
        repaired = state.record_relocation(["/html/body/div/p[2]/text()[1]"], 3, tree)
    assert repaired == "/html/body/div/p[2]/text()[1]"


def test_a_generated_id_is_no_anchor() -> None:
    tree = dom.parse('<html><body><p id="row-1234">a</p><p id="row-5678">b</p></body></html>')
    assert anchored_selector(tree, [_title_xpath(tree, "b")]) is None
