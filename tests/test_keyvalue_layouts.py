"""Label/value rows of table layouts: each value lands under its row's
label, however the site wraps the two cells (a ``<span>`` in both, a
``<div class>`` in both, a bold label), whether rows come and go between
pages, and with spacer cells or spacer rows drawn between them. A label
cell and its value cell are no two repetitions of one cell: the bold
lead-in says which is which, even for a label no other seed shows; a
set of spacer cells in every row is decoration, no nesting of data."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

LABELS = ["Cuisine", "Hours", "Location", "Reservations", "Phone", "Credit Cards"]
#: Rows some pages lack.
OPTIONAL = ("Location", "Reservations")
CELLS = {
    "spans, bold label": '<td><span class="s"><b>{l}</b></span></td><td><span class="s">{v}</span></td>',
    "bare spans": "<td><span><b>{l}</b></span></td><td><span>{v}</span></td>",
    "bold label, bare value": '<td><span class="s"><b>{l}</b></span></td><td>{v}</td>',
    "divs alike": '<td><div class="s">{l}</div></td><td><div class="s">{v}</div></td>',
}
SPACER = '<td width="5"><img src="/img/spacer.gif" width="5" height="5"></td>'
RULE = '<tr><td colspan="2"><img src="/img/spacer.gif" width="571" height="1"></td></tr>'


def _value(rng: random.Random, label: str) -> str:
    return {
        "Cuisine": rng.choice(["American", "Thai", "Italian, Pizza", "Seafood", "Cajun"]),
        "Hours": f"Daily {rng.randrange(6, 11)}am-{rng.randrange(2, 11)}pm",
        "Location": rng.choice(["Downtown", "Around Town", "Midtown", "Old Town"]),
        "Reservations": rng.choice(["Recommended", "Not accepted", "Required"]),
        "Phone": f"{rng.randrange(200, 999)}/{rng.randrange(200, 999)}-{rng.randrange(1000, 9999)}",
        "Credit Cards": rng.choice(["AE, MC, V", "DISC, MC, V", "AE, DC, DISC, MC, V"]),
    }[label]


def _page(
    rng: random.Random, cells: str, optional: bool, spacers: bool, rules: bool, link: bool = False
) -> tuple[str, dict[str, str]]:
    shown: dict[str, str] = {}
    rows = []
    for label in LABELS:
        if optional and label in OPTIONAL and rng.random() < 0.5:
            continue
        if link and label == "Phone" and rng.random() < 0.5:
            # A row whose value is a link, on some pages only.
            host = f"cafe{rng.randrange(999)}.com"
            shown["Web site"] = host
            pair = CELLS[cells].format(l="Web site", v=f'<a href="http://{host}/">{host}</a>')
            rows.append(f"<tr>{pair}</tr>")
        shown[label] = _value(rng, label)
        pair = CELLS[cells].format(l=label, v=shown[label])
        rows.append(f"<tr>{SPACER if spacers else ''}{pair}{SPACER if spacers else ''}</tr>")
        if rules:
            rows.append(
                RULE.replace("<tr>", f"<tr>{SPACER}").replace("</tr>", f"{SPACER}</tr>")
                if spacers
                else RULE
            )
    name = f"Cafe {rng.randrange(10_000)}"
    return f"<body><h1>{name}</h1><table>{''.join(rows)}</table><p>Footer</p></body>", shown


def _records(data: Any) -> list[dict[str, Any]]:
    """The item and every mapping nested in it."""
    found: list[dict[str, Any]] = []
    stack = [data]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            found.append(current)
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return found


LAYOUTS = [
    (False, False, False),
    (True, False, False),
    (True, True, False),
    (True, False, True),
    (True, True, True),
]


@pytest.mark.parametrize(
    "cells, optional, spacers, rules",
    [
        (cells, *layout)
        for cells in CELLS
        if cells != "divs alike"
        for layout in LAYOUTS
        # Not yet: a bare value cell among spacer cells and spacer rows
        # folds into a set of its own in each row.
        if (cells, layout) != ("bold label, bare value", (True, True, True))
    ]
    # Cells alike with no lead-in: only rows every seed shows say which
    # is the label (an optional row's label is known from no other seed).
    + [("divs alike", False, False, False), ("divs alike", False, True, False)],
)
def test_each_value_lands_under_its_rows_label(
    cells: str, optional: bool, spacers: bool, rules: bool
) -> None:
    rng = random.Random(f"{cells}{optional}{spacers}{rules}")
    seeds = [dom.parse(_page(rng, cells, optional, spacers, rules)[0]) for _ in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)
    for _ in range(3):
        html, shown = _page(rng, cells, optional, spacers, rules)
        item = item_data(extract(template, html), template)
        wanted = {label.lower().replace(" ", "_"): value for label, value in shown.items()}
        # One record holds them all, each under its label: not a list of
        # rows, one pair each.
        assert any(
            all(record.get(key) == value for key, value in wanted.items())
            for record in _records(item)
        ), (wanted, item)


@pytest.mark.parametrize("cells", ["spans, bold label", "bare spans", "bold label, bare value"])
def test_a_row_whose_value_is_a_link_is_a_pair_too(cells: str) -> None:
    """A "Web site" row on some pages, its value a link: its text is the
    row's value, beside the others in the one mapping."""
    rng = random.Random(cells)
    seeds = [dom.parse(_page(rng, cells, True, False, False, link=True)[0]) for _ in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)
    for _ in range(3):
        html, shown = _page(rng, cells, True, False, False, link=True)
        item = item_data(extract(template, html), template)
        wanted = {label.lower().replace(" ", "_"): value for label, value in shown.items()}
        assert any(
            all(record.get(key) == value for key, value in wanted.items())
            for record in _records(item)
        ), (wanted, item)


PRODUCTS = ["Lamp", "Chair", "Desk", "Sofa", "Shelf", "Rug", "Clock", "Vase", "Mirror", "Stool"]


def _grid(rng: random.Random, count: int, sale: float = 0.4) -> tuple[str, list[str]]:
    """A row of product cells, some with a bold "Sale" badge."""
    names = rng.sample(PRODUCTS, count)
    cells = "".join(
        f'<td><span class="p">{"<b>Sale</b> " if index % 2 or rng.random() < sale else ""}'
        f'<a href="/p/{name}">{name}</a> ${rng.randrange(5, 99)}.00</span></td>'
        for index, name in enumerate(names)
    )
    return f"<body><h1>Shop {rng.randrange(99)}</h1><table><tr>{cells}</tr></table></body>", names


@pytest.mark.parametrize("seed", range(6))
def test_cells_with_a_bold_badge_are_cells_of_the_list(seed: int) -> None:
    """A product's cell with a bold badge beside its name and price is no
    label cell: every product of the row is in the one list."""
    rng = random.Random(seed)
    seeds = [dom.parse(_grid(rng, rng.randrange(3, 6))[0]) for _ in range(5)]
    template = induce_template(seeds)
    name_template(template, seeds)
    html, names = _grid(rng, 5)  # every other cell on sale
    lists = [
        v for v in item_data(extract(template, html), template).values() if isinstance(v, list)
    ]
    assert len(lists) == 1, lists
    assert [record.get("p") for record in lists[0]] == names, lists
