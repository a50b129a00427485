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
from typing import Any

from scrapy_wrapx.dom import HEADINGS, PageTree
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction._naming import field_label_name, label_name
from scrapy_wrapx.induction._pagenames import ancestor_words, own_class_words
from scrapy_wrapx.induction._shapes import unit_quantity
from scrapy_wrapx.template import (
    LATENT_LABEL,
    LATENT_SHARES,
    LATENT_TWINS,
    Elem,
    FieldInfo,
    Opt,
    Template,
    Text,
    TNode,
    element_look,
    text_ancestors,
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
    """Note the latent texts that are another place of a datum, where no
    seed (``trees``) shows both places:

    * a field's datum (:data:`~scrapy_wrapx.template.LATENT_SHARES`):
      named as the one text field outside lists whose label names it. A
      specification row the seeds marked up in two ways (a highlight's
      class on some) is two places; where the seeds of one all had one
      engine, that text is latent there, and an item read it as
      ``engine_2`` on the pages that show it, ``engine`` on the others;
    * an earlier latent text's datum
      (:data:`~scrapy_wrapx.template.LATENT_TWINS`): of its base name, in
      an element that looks the same. A player's name block that each
      seed wraps differently (page by page variants of the markup) is a
      latent text per wrapper, each one seed's: one name, not five.

    A text the seeds showed beside the other (a compared car's engine,
    labelled alike; a menu's items) is another datum."""
    by_label: dict[str, list[FieldInfo]] = {}
    for info in template.fields:
        name = field_label_name(info)
        if name and info.slot.isdigit() and not info.set:
            by_label.setdefault(name, []).append(info)
    above = _optionals_above(template.root)
    latent = [
        node
        for node in template.nodes
        if isinstance(node, Text) and node.latent and node.uid in above
    ]
    candidates = [text for text in latent if len(by_label.get(text.latent, ())) == 1]
    alike = _alike_places(template, [text for text in latent if text not in candidates])
    shares: list[list[int]] = []
    twins: list[list[int]] = []
    if candidates or alike:
        seeds = [extract(template, tree) for tree in trees]
        shown = {
            text.uid: [all(seed.data.get(opt) is True for opt in above[text.uid]) for seed in seeds]
            for text in latent
        }
        for text in candidates:
            info = by_label[text.latent][0]
            fields = [bool(seed.fields.get(info.name)) for seed in seeds]
            if not _together(shown[text.uid], fields):
                shares.append([text.uid, info.uid])
        twins = [pair for group in alike for pair in _twins(group, shown)]
    for key, pairs in ((LATENT_SHARES, shares), (LATENT_TWINS, twins)):
        if pairs:
            template.meta[key] = pairs
        else:
            template.meta.pop(key, None)


def _alike_places(template: Template, texts: list[Text]) -> list[list[Text]]:
    """Groups of ``texts`` of one base name whose elements look the same."""
    holders = text_ancestors(template.root, lists=False)
    places: dict[tuple[Any, ...], list[Text]] = {}
    for text in texts:
        chain = holders.get(text.uid)
        if chain:
            places.setdefault((text.latent, element_look(chain[-1])), []).append(text)
    return [group for group in places.values() if len(group) > 1]


def _together(a: list[bool], b: list[bool]) -> bool:
    """Whether a seed shows both (per seed, whether it shows each)."""
    return any(x and y for x, y in zip(a, b, strict=True))


def _twins(texts: list[Text], shown: dict[int, list[bool]]) -> list[list[int]]:
    """``[text uid, first text uid]`` for each of ``texts`` (in page
    order) that no seed shows together with an earlier one it joins."""
    firsts: list[tuple[int, list[bool]]] = []
    pairs: list[list[int]] = []
    for text in texts:
        seen = shown[text.uid]
        for first, together in firsts:
            if not _together(seen, together):
                pairs.append([text.uid, first])
                together[:] = [a or b for a, b in zip(seen, together, strict=True)]
                break
        else:
            firsts.append((text.uid, list(seen)))
    return pairs


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
