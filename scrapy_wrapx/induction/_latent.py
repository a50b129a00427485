"""Latent fields: data every seed happened to agree on.

A text is template when it is the same on every seed, and with a handful of
seeds that is sometimes chance: five players of one team, five restaurants
of one price range, five cameras of one sensor size. On a page where such a
text differs, it is that page's data, and dropping it loses a value the
reader sees; keeping it as template on every page would instead fill items
with menus and headings.

So a fixed text that may be data (short, no label, outside any set: see
:func:`~._naming.latent_text`) gets a *latent* name here, and extraction
emits it under that name on the pages where it differs from the seeds',
and only where the page fits the template around it (see
:mod:`scrapy_wrapx.extraction._match`). Its name comes from what would
name a slot there: a label that says so (with a colon, in a lead element
or its column's header: the texts around a latent one are mostly others
like it, a menu's items), a label of its own ("Team: Boston Celtics"),
the class words of its element and the two above, what its unit measures
("175 hp": ``horsepower``), and only then its tag,
after the nearest ancestor's class words. Names are
made unique against the template's fields when extraction compiles the
template (:func:`~scrapy_wrapx.template.latent_fields`), so a field
renamed later never clashes with one.
"""

from __future__ import annotations

from collections.abc import Sequence

from scrapy_wrapx.dom import HEADINGS, PageTree
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction._naming import label_name
from scrapy_wrapx.induction._pagenames import ancestor_words, own_class_words
from scrapy_wrapx.induction._shapes import unit_quantity
from scrapy_wrapx.template import (
    LATENT_LABEL,
    LATENT_SHARES,
    Elem,
    FieldInfo,
    Opt,
    Template,
    Text,
    TNode,
)


def name_latent(candidates: list[tuple[Text, str, list[Elem]]]) -> None:
    """Give each candidate text (with its label and its elements, from
    :func:`~._naming.name_fields`) its latent name."""
    for text, label, chain in candidates:
        text.latent = latent_base(text.parts[0] or "", label, chain)


def latent_base(value: str, label: str, chain: list[Elem]) -> str:
    """The name of a latent field, before it is made unique.

    >>> from scrapy_wrapx.template import Elem
    >>> div, h2 = Elem("div", {"class": "team-info"}, []), Elem("h2", {}, [])
    >>> latent_base("Boston Celtics", "", [div, h2]), latent_base("8-14", "Price", [div])
    ('team_info', 'price')
    >>> row, cell, span = Elem("tr", {}, []), Elem("td", {}, []), Elem("span", {}, [])
    >>> latent_base("Team: Boston Celtics", "", [h2]), latent_base("Boston", "", [div, row, cell, span])
    ('team', 'team_info_span')
    >>> latent_base("Aliens vs. Predator: Requiem", "", [Elem("h1", {}, [])])
    'heading'

    """
    tag = chain[-1].tag if chain else "text"
    # The main heading states what the page is: "Aliens vs. Predator:
    # Requiem" is a title, not a label and its value.
    own = None if tag == "h1" else LATENT_LABEL.match(value)
    base = label_name(label) or (label_name(own.group()) if own else "")
    if base:
        return base
    words = own_class_words(chain)
    if words:
        return words
    quantity = unit_quantity([[value]])
    if quantity:
        return quantity
    if tag in HEADINGS:
        return "heading"
    words = ancestor_words(chain)
    return f"{words}_{tag}" if words else f"{tag}_text"


def note_latent_shares(template: Template, trees: Sequence[PageTree]) -> None:
    """Note the latent texts that are a field's datum shown in another
    place (:data:`~scrapy_wrapx.template.LATENT_SHARES`): named as the
    one text field outside lists whose label names it, and never shown
    on a seed (``trees``) that shows that field. A specification row the
    seeds marked up in two ways (a highlight's class on some) is two
    places; where the seeds of one all had one engine, that text is
    latent there, and an item read it as ``engine_2`` on the pages that
    show it, ``engine`` on the others. A text the seeds showed beside the
    field (a compared car's engine, labelled alike) is another datum."""
    by_label: dict[str, list[FieldInfo]] = {}
    for info in template.fields:
        name = label_name(info.label)
        if name and info.slot.isdigit() and not info.set:
            by_label.setdefault(name, []).append(info)
    above = _optionals_above(template.root)
    candidates = [
        (node.uid, by_label[node.latent][0])
        for node in template.nodes
        if isinstance(node, Text)
        and node.latent
        and len(by_label.get(node.latent, ())) == 1
        and node.uid in above
    ]
    shares: list[list[int]] = []
    if candidates:
        seeds = [extract(template, tree) for tree in trees]
        for uid, info in candidates:
            together = any(
                seed.fields.get(info.name) and all(seed.data.get(opt) is True for opt in above[uid])
                for seed in seeds
            )
            if not together:
                shares.append([uid, info.uid])
    if shares:
        template.meta[LATENT_SHARES] = shares
    else:
        template.meta.pop(LATENT_SHARES, None)


def _optionals_above(root: TNode) -> dict[int, list[int]]:
    """Per text outside lists (by uid), the optional nodes above it: a
    seed shows the text where it shows each of them."""
    found: dict[int, list[int]] = {}
    stack: list[tuple[TNode, list[int]]] = [(root, [])]
    while stack:
        node, opts = stack.pop()
        if isinstance(node, Text):
            found[node.uid] = opts
        elif isinstance(node, Elem):
            stack.extend((child, opts) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, [*opts, node.uid]))
    return found
