"""A record list keeps its key across a redesign (induction/_rename).

An item holds a set as a list of records under the set's name; a redesign
that renames the list's markup must not move the records to a new key when
the records hold the same fields.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.dom import parse
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Template
from scrapy_wrapx.unsupervised.items import item_data

NAMES = ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Eze", "Ed Fox", "Flo Gray", "Gus Hale"]
WORDS = ["great", "slow", "sturdy", "cheap", "loud", "light", "bulky", "fine", "odd"]

#: (list, row) markup of the reviews: before and after a redesign.
IDIOMS = {
    "ul": ('<ul class="{cls}">{rows}</ul>', '<li class="{row}">{cells}</li>'),
    "div": ('<div class="{cls}">{rows}</div>', '<div class="{row}">{cells}</div>'),
    "table": ('<table class="{cls}">{rows}</table>', '<tr class="{row}">{cells}</tr>'),
}
CELLS = {
    "ul": '<a href="/u/{slug}">{name}</a><p>{text}</p>',
    "div": '<a href="/u/{slug}">{name}</a><p>{text}</p>',
    "table": '<td><a href="/u/{slug}">{name}</a></td><td>{text}</td>',
}


def _page(rng: random.Random, idiom: str, cls: str, count: int, product: int) -> str:
    outer, row = IDIOMS[idiom]
    rows = "".join(
        row.format(
            row=f"{cls}-item",
            cells=CELLS[idiom].format(
                slug=name.split()[0].lower(),
                name=name,
                text=" ".join(rng.sample(WORDS, 3)),
            ),
        )
        for name in rng.sample(NAMES, count)
    )
    return (
        f"<html><head><title>Lamp {product}</title></head><body>"
        f'<div class="{cls}-page"><h1>Lamp {product}</h1>'
        f"<p>Price: ${10 + product}.00</p>"
        f"<h2>Reviews</h2>{outer.format(cls=cls, rows=rows)}</div></body></html>"
    )


def _named(pages: list[str], previous: Template | None = None) -> Template:
    urls = [f"http://shop.test/lamp/{i}" for i in range(len(pages))]
    template = induce_template(pages, urls=urls, previous=previous)
    name_template(template, [parse(p, u) for p, u in zip(pages, urls, strict=True)], previous)
    return template


def _list_keys(item: dict[str, object]) -> set[str]:
    return {key for key, value in item.items() if isinstance(value, list)}


@pytest.mark.parametrize("before", sorted(IDIOMS))
@pytest.mark.parametrize("after", sorted(IDIOMS))
@pytest.mark.parametrize("counts", [(1, 3, 2, 4, 0), (0, 2, 5, 1, 3)])
def test_a_record_list_keeps_its_key_across_a_redesign(
    before: str, after: str, counts: tuple[int, ...]
) -> None:
    rng = random.Random(f"{before}{after}{counts}")
    old = _named([_page(rng, before, "reviews", n, i) for i, n in enumerate(counts)])
    new = _named([_page(rng, after, "rv-x", n, i + 10) for i, n in enumerate(counts)], previous=old)
    page_before = _page(rng, before, "reviews", 3, 40)
    page_after = _page(rng, after, "rv-x", 3, 41)
    old_item = item_data(extract(old, page_before), old)
    new_item = item_data(extract(new, page_after), new)
    keys = _list_keys(old_item)
    assert keys, old_item
    assert _list_keys(new_item) == keys, (old_item, new_item)
    for key in keys:
        assert new_item[key][0].keys() == old_item[key][0].keys()
