"""One attribute shown in alternative places: fields that share an item key.

Pages of one kind do not always put a value in the same place: a product
page shows its "ISBN-13" in a details list on some pages and under a tab on
others (A/B layouts, optional blocks that move, a redesign rolled out page
by page). The template then has a field for each place, each optional, and
the names must differ (``isbn_13``, ``overview_details_isbn_13``), so an
item held the value under one name or the other depending on the page: no
field a user could read the attribute by.

Fields that are the same attribute by their label (the same label name),
by the class words that named them where no label did (``player_name``
and ``player_name_2``), or the page's title shown in two places
(``title`` and ``heading``), not in a set, and never showing different
values on one seed page are
*alternatives*: the template notes them (:data:`ALTERNATIVES` in its meta,
by field uid, so renames keep the note) and an item puts the value of
whichever a page shows under the name of the first, its *leader* (the one
with the bare label name where there is one). The same value shown by two of them is
given once; a page that shows two different values after all keeps the
second under its own name: nothing is lost or overwritten.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from scrapy_wrapx.induction._naming import field_label_name
from scrapy_wrapx.induction._rename import NAME_COUNTER
from scrapy_wrapx.template import FieldInfo, Template

#: Template meta key: groups of alternative fields, by uid, leader first.
ALTERNATIVES = "alternatives"


def note_alternatives(template: Template, values: Sequence[Mapping[int, list[str]]]) -> None:
    """Note the alternatives of ``template`` (see the module doc) from its
    values on the seed pages, by field uid."""
    groups: dict[str, list[FieldInfo]] = {}
    # A text of several slots has one uid for them all: no alternative.
    uids = Counter(info.uid for info in template.fields)
    for info in template.fields:
        base = _base_name(info)
        if base and uids[info.uid] == 1:
            groups.setdefault(base, []).append(info)
    noted: list[list[int]] = []
    for base, infos in groups.items():
        shown = [info for info in infos if any(_shown(page.get(info.uid)) for page in values)]
        if len(shown) < 2 or any(_together(shown, page) for page in values):
            continue
        leader = min(shown, key=lambda info: (info.name != base, len(info.name), info.uid))
        noted.append([leader.uid, *(info.uid for info in shown if info is not leader)])
    if noted:
        template.meta[ALTERNATIVES] = noted
    else:
        template.meta.pop(ALTERNATIVES, None)


def alternative_leaders(template: Template) -> dict[str, str]:
    """Field name -> the name of its group's leader, for every alternative
    that is not a leader (a template without the note, or with a note
    that no longer fits its fields, has none)."""
    noted = template.meta.get(ALTERNATIVES)
    if not isinstance(noted, list):
        return {}
    names = {info.uid: info.name for info in template.fields}
    leaders: dict[str, str] = {}
    for group in noted:
        if not isinstance(group, list) or not all(
            isinstance(uid, int) and uid in names for uid in group
        ):
            continue
        leader, *others = group
        leaders.update((names[uid], names[leader]) for uid in others)
    return leaders


def _base_name(info: FieldInfo) -> str:
    """The attribute a text field outside sets is by its label; or the
    page's title for a heading the naming called ``title`` or ``heading``
    (a title in two places: one is ``title``, the other ``heading``); or,
    for a field named after its element's class words, those words (one
    block marked up in two places, ``player-name`` in both: its fields
    are ``sdi_player_name`` and ``sdi_player_name_2``)."""
    if not info.slot.isdigit() or info.set:
        return ""
    if info.label:
        return field_label_name(info)
    base = NAME_COUNTER.sub("", info.name)
    if base in ("title", "heading"):
        return "title"
    if info.hint and base.replace("_", "") == info.hint.replace("_", ""):
        return base
    return ""


def _shown(values: list[str] | None) -> bool:
    return values is not None and any(value.strip() for value in values)


def _together(infos: list[FieldInfo], page: Mapping[int, list[str]]) -> bool:
    """Whether two of ``infos`` show different values on ``page`` (the
    same value in two places is one attribute shown twice)."""
    shown = {tuple(page.get(info.uid) or ()) for info in infos if _shown(page.get(info.uid))}
    return len(shown) > 1
