"""The thesis's worked examples of the neighbour zone (ch. 4) as oracles.

The page is the camera detail page of thesis Figure 1.2, rebuilt from the
text: ``P1 = /html/body/div[2]/div[2]/table/tr[1]/td[2]/text()`` selects
the price (leaf 6); leaf 1 and leaf 4 are images; the node ``n`` of Figure
4.5 is the ``div`` holding leaves 2-4; ``div_price`` holds leaves 5-7; the
page variant inserts a cell with a thumbnail at the left of the price row.
"""

from __future__ import annotations

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.locate import HybridLocator
from scrapy_wrapx.locate._page import page_index
from scrapy_wrapx.locate.neighbour import (
    STRONG,
    WEAK,
    Vote,
    choose_center,
    unchanged_pairs,
    votes,
)
from scrapy_wrapx.locate.reference import TargetReference


def camera_page(inserted: bool = False) -> str:
    thumbnail = '<td><img src="/thumb.png"></td>' if inserted else ""
    return (
        "<html><body>"
        '<div><img src="/logo.png"></div>'  # leaf 1 (an image)
        "<div>"
        "<div><h1>Canon IXY160</h1>"  # n: leaves 2, 3, 4
        '<p>キヤノン<span><img src="/stars.png"></span></p></div>'
        '<div id="price"><table><tr>'  # div_price: leaves 5, 6, 7
        f"{thumbnail}<td>Price:</td><td>¥8,699</td><td>free shipping</td>"
        "</tr></table></div>"
        "<div><p>Product Information</p>"  # leaf 8, then leaves 9-12
        "<table><tr><td>Resolution</td><td>20 megapixels</td></tr>"
        "<tr><td>Screen Size</td><td>2.7Inch</td></tr></table></div>"
        "</div></body></html>"
    )


PRICE = "/html/body/div[2]/div[2]/table/tr/td[2]/text()"


@pytest.fixture
def page() -> dom.PageTree:
    return dom.parse(camera_page())


@pytest.fixture
def reference(page: dom.PageTree) -> TargetReference:
    # The window covers the whole small page, so the pruned reference tree
    # is the page tree and node numbers are the same in both.
    return HybridLocator().reference(page, PRICE)


def leaf(tree: dom.PageTree, number: int) -> dom.Node:
    """Leaf ``number`` in the thesis's 1-based numbering."""
    return tree.leaves[number - 1]


def element(tree: dom.PageTree, xpath: str) -> dom.Node:
    found = tree.node_for(tree.document.xpath(xpath)[0])
    assert found is not None
    return found


def test_the_rebuilt_page_matches_the_figure(page: dom.PageTree) -> None:
    assert len(page.leaves) == 12
    assert [leaf(page, n).prop for n in (1, 4)] == ["image", "image"]
    assert leaf(page, 6).value == "¥8,699"
    assert len(page.document.xpath("/html/body/div[2]/div[2]/table/tr[1]/td[2]/text()")) == 1


def test_node_distance_of_figure_4_5(page: dom.PageTree, reference: TargetReference) -> None:
    """l = leaf 6, n = lml 2 / rml 4: LB = rml(n) = 4, ALD = 4 - 6 = -2,
    RLD = 3 - 4 = -1 (relative leaf array [2, 3, 5, 6, 7, ...]; leaf 4 takes
    the relative index of leaf 5), PD = 5 + 1 = 6 via dca = body/div[2]."""
    target = reference.targets[0]
    n = element(page, "/html/body/div[2]/div[1]")
    assert (n.first_leaf + 1, n.last_leaf + 1) == (2, 4)
    ald, rld, pd, side = target.triples[n.index]
    assert (ald, rld, pd) == (-2, -1, 6)
    assert side == 1  # the rightmost leaf is the nearer boundary


def test_node_distance_triples_of_table_4_1(page: dom.PageTree, reference: TargetReference) -> None:
    triples = reference.targets[0].triples
    div_price = element(page, "//div[@id='price']")
    assert triples[leaf(page, 4).index][:3] == (-2, -1, 9)
    assert triples[leaf(page, 6).index][:3] == (0, 0, 0)
    assert triples[leaf(page, 8).index][:3] == (2, 2, 8)
    # Equal leaf distances to both boundaries: the leftmost one (eq. 4.3).
    assert triples[div_price.index] == (-1, -1, 4, 0)


def test_center_selection_of_section_4_3_3() -> None:
    """C1 = leaf 5 (from div_price, |ALD| 1) and C2 = leaf 6 (from leaves 6
    and 8, |ALD| 0 and 2) tie on the mean |ALD|; C2 has more votes."""
    c1, c2 = 4, 5  # 0-based leaf indexes of leaves 5 and 6
    cast = [Vote(c1, 1, STRONG, 0), Vote(c2, 0, STRONG, 0), Vote(c2, 2, STRONG, 0)]
    assert choose_center(cast) == c2
    # Nearer supporters win before majority: C2 supported from further away.
    assert (
        choose_center([Vote(c1, 1, STRONG, 0), Vote(c2, 0, STRONG, 0), Vote(c2, 4, STRONG, 0)])
        == c1
    )
    # Only the strongest class present counts (Algorithm 2, lines 18-20).
    assert choose_center([Vote(c1, 0, WEAK, 0), Vote(c2, 9, STRONG, 0)]) == c2
    assert choose_center([]) is None


def test_center_generation_on_the_page_variant_of_table_4_1(
    page: dom.PageTree, reference: TargetReference
) -> None:
    """The unchanged pairs of Table 4.1 applied to the variant with the
    inserted thumbnail cell: leaves 6 and 8 are strong stable nodes pointing
    at the price, leaf 4 only a weak one (its ALD lands on leaf 5), and
    the center is the price."""
    variant = dom.parse(camera_page(inserted=True))
    index = page_index(variant)
    # Variant leaves: 1, 2, 3, 4, inserted, 5, 6, 7, ... (one-based).
    assert leaf(variant, 5).value == "/thumb.png"
    pairs = [
        (leaf(page, 4).index, leaf(variant, 4).index),
        (leaf(page, 6).index, leaf(variant, 7).index),
        (leaf(page, 8).index, leaf(variant, 9).index),
        (element(page, "//div[@id='price']").index, element(variant, "//div[@id='price']").index),
    ]
    ref_tree = reference.tree()
    unchanged = unchanged_pairs(ref_tree, index.array, pairs)
    assert len(unchanged) == 4
    cast = {vote.anchor: vote for vote in votes(ref_tree, reference.targets[0], unchanged, index)}
    price = leaf(variant, 7).leaf_index
    assert cast[leaf(variant, 7).index] == Vote(price, 0, STRONG, leaf(variant, 7).index)
    assert cast[leaf(variant, 9).index].leaf == price
    assert cast[leaf(variant, 9).index].strength == STRONG
    assert cast[leaf(variant, 4).index].strength == WEAK
    assert choose_center(list(cast.values())) == price


def test_relocation_of_the_price_after_the_insertion(reference: TargetReference) -> None:
    variant = camera_page(inserted=True)
    assert dom.parse(variant).document.xpath(PRICE)[0] == "Price:"  # P1 now misses
    best = HybridLocator().locate(reference, variant)[0]
    assert best.text == "¥8,699"
    assert best.xpath == "/html/body/div[2]/div[2]/table/tr/td[3]/text()[1]"
    assert best.confidence >= 0.9
