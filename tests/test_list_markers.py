"""Items of one list marked by a class of their own (issue 11: all cards
are one record set): the first and last item of a list (``class="item
first"``, ``"item last"``), a featured card, the current entry. The marked
item was a record of its own, its fields scalars beside the list of the
others, and a page of one card had no list at all. A class in common and
the other classes words of place or state only
(:data:`scrapy_wrapx.induction._styles.MARK_WORDS`) make one list.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

NAMES = ["Red Kettle", "Blue Mug", "Oak Table", "Tin Lamp", "Wool Rug", "Glass Jar", "Iron Pan"]
#: Which classes the items of a list of ``n`` take, by position.
MARKS = {
    "first and last": lambda k, n: (
        "item" + (" first" if k == 0 else "") + (" last" if k == n - 1 else "")
    ),
    "featured": lambda k, n: "item featured" if k == 0 else "item",
    "active": lambda k, n: "item is-active" if k == 1 else "item",
    "odd": lambda k, n: "item odd" if k % 2 else "item",
}


def _page(rng: random.Random, count: int, marks: str) -> tuple[str, list[str]]:
    names = [f"{rng.choice(NAMES)} {rng.randrange(1000)}" for _ in range(count)]
    items = "".join(
        f"<li class='{MARKS[marks](k, count)}'><a href='/p/{rng.randrange(10**6)}'>{name}</a>"
        f" <span class='price'>${rng.randrange(5, 99)}.99</span></li>"
        for k, name in enumerate(names)
    )
    html = f"<html><body><h1>Kitchen</h1><ul class='products'>{items}</ul><p>Copyright</p></body></html>"
    return html, names


@pytest.mark.parametrize("marks", sorted(MARKS))
def test_marked_items_are_items_of_the_list(marks: str) -> None:
    rng = random.Random(marks)
    seeds = [dom.parse(_page(rng, count, marks)[0]) for count in (3, 5, 2, 6, 4)]
    template = induce_template(seeds)
    name_template(template, seeds)
    for count in (1, 2, 7):
        html, names = _page(rng, count, marks)
        data = item_data(extract(template, html), template)
        lists = [value for value in data.values() if isinstance(value, list)]
        assert len(lists) == 1, data
        assert [name for name in names if name in str(lists[0])] == names, data
        assert not [key for key, value in data.items() if not isinstance(value, list)], data
