"""A list whose seeds each show one item is still a list (issue 11: no
list collapsed to one value). Five seed books with one author each made
the author one slot, and a page with three authors gave the first and
dropped the others. A ``<ul>`` or ``<ol>`` says its items are a list: its
one item with data becomes a list of one
(:func:`scrapy_wrapx.induction._sets.widen_lists`); a fixed entry (a menu
of one link) and an item that holds a list of its own (a category tree)
stay as they are.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

PEOPLE = [
    "Ann Lee", "Bo Chan", "Cy Young", "Di Ross", "Ed Wood", "Flo Hart", "Gus Van", "Hal Ford",
    "Ida Wells", "Jo March", "Kay Hart", "Lu Xun", "Mo Farah", "Ned Kelly", "Oz Perkins",
]  # fmt: skip
#: How a page lists its authors.
ITEMS = {
    "plain": "<li>{}</li>",
    "link": "<li><a href='/people/{slug}'>{}</a></li>",
    "with role": "<li><span class='name'>{}</span> <em>(editor)</em></li>",
}


def _page(rng: random.Random, people: list[str], item: str, tag: str) -> str:
    shown = "".join(
        ITEMS[item].format(person, slug=person.lower().replace(" ", "-")) for person in people
    )
    return (
        "<html><body><ul class='menu'><li><a href='/'>Home</a></li></ul>"
        f"<h1>Book {rng.randrange(1000)}</h1><{tag} class='authors'>{shown}</{tag}>"
        f"<p class='price'>${rng.randrange(5, 50)}.99</p><p>Copyright</p></body></html>"
    )


@pytest.mark.parametrize("counts", [(1, 1, 1, 1, 1), (0, 1, 0, 1, 1)])
@pytest.mark.parametrize("tag", ["ul", "ol"])
@pytest.mark.parametrize("item", sorted(ITEMS))
def test_a_list_every_seed_shows_one_item_of_takes_them_all(
    item: str, tag: str, counts: tuple[int, ...]
) -> None:
    rng = random.Random(f"{item}{tag}{counts}")
    pool = rng.sample(PEOPLE, len(PEOPLE))
    seeds = [dom.parse(_page(rng, [pool.pop() for _ in range(n)], item, tag)) for n in counts]
    template = induce_template(seeds)
    name_template(template, seeds)
    for size in (0, 1, 3):
        people = [pool.pop() for _ in range(size)]
        data = item_data(extract(template, _page(rng, people, item, tag)), template)
        found = [value for value in data.values() if isinstance(value, list)]
        shown = [
            person for values in found for person in people if any(person in str(v) for v in values)
        ]
        assert shown == people, data
        assert "Home" not in str(data)  # the menu of one fixed entry stays template


def test_an_item_with_a_list_of_its_own_stays():
    """A category tree (an item holding a list) is no list of one: its
    levels are named by the seeds' texts, which differ only by chance."""
    rng = random.Random(3)
    pages = []
    for index in range(5):
        leaf = f"<li class='current'><a href='/c/{index}'>Amish ({rng.randrange(99)})</a></li>"
        pages.append(
            "<html><body><ul class='tree'><li class='parent'><a href='/c'>All</a>"
            f"<ul>{leaf}</ul></li></ul><h1>Book {index}</h1><p>Copyright</p></body></html>"
        )
    template = induce_template(pages)
    assert not [name for name in template.set_names if "tree" in name or "parent" in name]
