"""A ``javascript:`` link runs a script (bookmark the page, switch a tab):
its "address" is no data. A field of such links only is no field; a link
field whose page holds one now and then keeps its real addresses."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

NAMES = ["Bob's Steak House", "Ming's Star", "Abacus", "Mignon", "Napoli's Pizza", "Jasmine"]


def _page(rng: random.Random, name: str) -> str:
    menu = (
        "javascript:void(0)"
        if rng.random() < 0.3
        else f"http://example.test/menu/{rng.randrange(9999)}"
    )
    return (
        "<html><body>"
        f"<a href=\"javascript:bookmarksite('{name}', 'http://example.test/r/{rng.randrange(99)}')\">"
        f"Bookmark</a><h1>{name}</h1>"
        f"<a class='menu' href='{menu}'>Menu</a>"
        f"<a class='tab' href=\"javascript:changeTab({rng.randrange(5)})\">Reviews</a>"
        f"<p>{rng.randrange(2, 90)} reviews</p></body></html>"
    )


@pytest.mark.parametrize("seed", range(6))
def test_script_links_are_no_values(seed: int) -> None:
    rng = random.Random(seed)
    template = induce_template([_page(rng, name) for name in NAMES[:5]])
    for _ in range(4):
        page = _page(rng, NAMES[5])
        fields = extract(template, page).fields
        values = [value for found in fields.values() for value in found]
        assert not [value for value in values if value.lower().startswith("javascript:")]
        real = page.split("class='menu' href='")[1].split("'")[0]
        if not real.startswith("javascript:") and "/menu/" in str(template.to_json()):
            assert real in values
    # The bookmark and tab links are no fields; the menu link is.
    links = [info.name for info in template.fields if info.slot == "href"]
    assert len(links) <= 1, links
