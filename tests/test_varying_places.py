"""A value the seeds share with the site's menus (issue 11: recovery).

Seed pages of one site often come in runs of one make, team or brand, and
the site lists every make in a menu on every page: the heading's "2010
Hyundai Accent" is then a text every seed shows, which alone made it
template, and the one seed of another model held "2011 Hyundai Accent"
there, a different template text, so the two headings became two optional
blocks and a page of a third model fitted neither. A place the markup
names that holds one text on every seed, not the same one, is a slot: its
texts are data there, whatever else the page shows.
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.unsupervised.items import item_data

MODELS = ["2010 Hyundai Accent", "2011 Hyundai Accent", "2010 Honda Civic", "2011 Ford Fusion"]
TRIMS = ["GLS 4-Door", "GS 3-Door", "SE Sedan", "Base", "Limited", "Sport"]
#: How the page heads itself with the model: (markup, the field's name).
SLOTS = {
    "span in h1": (
        "<h1><span class='make-model'>{model}</span> <span class='trim'>{trim}</span></h1>",
        "make_model",
    ),
    "bare h1": ("<h1>{model}</h1><p class='trim'>{trim}</p>", "title"),
    "labelled row": (
        "<div class='specs'><span>Model:</span> <span>{model}</span></div><p class='trim'>{trim}</p>",
        "model",
    ),
    "div with id": ("<div id='vehicle'>{model}</div><p class='trim'>{trim}</p>", "vehicle"),
    "cell": (
        "<table><tr><td class='model-name'>{model}</td><td class='trim'>{trim}</td></tr></table>",
        "model_name",
    ),
}
#: How every page lists the models: the menu.
MENUS = {
    "list": "<ul class='models'>{}</ul>",
    "select": "<form><select name='m'>{}</select></form>",
    "footer": "<div class='footer'>{}</div>",
}
#: Which model each of the five seeds shows: runs of one, as pages come.
RUNS = {"four and one": [0, 0, 0, 0, 1], "three and two": [0, 1, 0, 1, 0]}


def _menu(menu: str) -> str:
    if menu == "select":
        items = "".join(f"<option>{model}</option>" for model in MODELS)
    elif menu == "list":
        items = "".join(f"<li><a href='/m/{i}'>{model}</a></li>" for i, model in enumerate(MODELS))
    else:
        items = " | ".join(f"<a href='/m/{i}'>{model}</a>" for i, model in enumerate(MODELS))
    return MENUS[menu].format(items)


def _page(rng: random.Random, model: str, slot: str, menu: str) -> str:
    head = SLOTS[slot][0].format(model=model, trim=rng.choice(TRIMS))
    return (
        f"<html><body><div class='top'><a href='/'>Cars</a></div>{head}"
        f"<p class='price'>MSRP: ${rng.randrange(9, 40)},{rng.randrange(100, 999)}</p>"
        f"{_menu(menu)}<p>All rights reserved</p></body></html>"
    )


@pytest.mark.parametrize("run", sorted(RUNS))
@pytest.mark.parametrize("menu", sorted(MENUS))
@pytest.mark.parametrize("slot", sorted(SLOTS))
def test_a_named_place_that_varies_is_a_slot_though_a_menu_lists_its_values(
    slot: str, menu: str, run: str
) -> None:
    rng = random.Random(f"{slot}{menu}{run}")
    seeds = [dom.parse(_page(rng, MODELS[i], slot, menu)) for i in RUNS[run]]
    template = induce_template(seeds)
    name_template(template, seeds)
    name = SLOTS[slot][1]
    for model in MODELS:
        extraction = extract(template, _page(rng, model, slot, menu))
        item = item_data(extraction, template)
        assert extraction.matched
        assert item[name] == model, item
        # The menu is the same on every page: no part of any item.
        assert sum(str(value).count("Ford Fusion") for value in item.values()) == (
            model == MODELS[3]
        )
