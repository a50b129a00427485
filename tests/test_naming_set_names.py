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


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize(
    ("around", "wanted"),
    [
        ("<div class='user-reviews'>{}</div>", "user_reviews"),
        ("<h3>What owners say</h3><div>{}</div>", "what_owners_say"),
        ("<div>{}</div>", None),
    ],
)
def test_a_record_list_is_not_named_by_its_tag(idiom: str, around: str, wanted: str | None) -> None:
    """Rows without class words are named after the class words of what
    holds them, the heading of their section, or their first field with
    a name of its own: never ``li_list`` or ``tr_list``."""
    rng = random.Random(idiom + around)
    outer, row = IDIOMS[idiom]
    pages = []
    for n, count in enumerate((1, 3, 0, 2, 4)):
        rows = "".join(
            row.replace(' class="{row}"', "").format(
                row="", cells=CELLS[idiom].format(slug=name[:2].lower(), name=name, text=text)
            )
            for name, text in ((rng.choice(NAMES), rng.choice(WORDS)) for _ in range(count))
        )
        table = outer.replace(' class="{cls}"', "")
        pages.append(
            f"<html><body><h1>Lamp {n}</h1>{around.format(table.format(cls='', rows=rows))}"
            "<p>Footer</p></body></html>"
        )
    template = _named(pages)
    assert template.set_names, template.field_names
    for name in template.set_names:
        assert name.split("_")[0] not in {"li", "tr", "div", "p", "a", "td"}, template.set_names
    if wanted:
        assert any(wanted in name for name in template.set_names), template.set_names


def _grouped(rng: random.Random, group: str, row: str, groups: list[int], product: int) -> str:
    body = "".join(
        f"<div class='{group}'><ul>"
        + "".join(
            f"<li class='{row}'><a href='/u/{n.split()[0]}'>{n}</a><p>"
            + " ".join(rng.sample(WORDS, 2))
            + "</p></li>"
            for n in rng.sample(NAMES, count)
        )
        + "</ul></div>"
        for count in groups
    )
    return f"<html><body><h1>Lamp {product}</h1><div>{body}</div><p>Footer</p></body></html>"


@pytest.mark.parametrize(
    "groups", [[[1, 2], [3], [2, 1, 2], [1], [2, 2]], [[2], [1, 3], [1], [3, 1], [2]]]
)
def test_nested_record_lists_keep_their_keys_in_place(groups: list[list[int]]) -> None:
    """A list of groups, each a list of rows: after a redesign the outer
    list keeps the outer key and the inner the inner one, though both hold
    the same fields."""
    rng = random.Random(str(groups))
    # The new class words sort the other way round: no tie goes by name.
    old = _named([_grouped(rng, "group", "row", g, i) for i, g in enumerate(groups)])
    new = _named(
        [_grouped(rng, "x-set", "a-line", g, i) for i, g in enumerate(groups)], previous=old
    )
    before = item_data(extract(old, _grouped(rng, "group", "row", [2, 1], 40)), old)
    after = item_data(extract(new, _grouped(rng, "x-set", "a-line", [1, 2], 41)), new)

    def shape(data: object) -> object:
        if isinstance(data, dict):
            return {k: shape(v) for k, v in data.items() if isinstance(v, list)}
        if isinstance(data, list):
            return shape(data[0]) if data else None
        return None

    assert shape(before) and shape(after) == shape(before), (before, after)
