"""The shape of a template's items: which fields are scalars, which sets
are lists of values and which are key/value mappings.

An item is shaped by its template, never by one page's count (see
:func:`scrapy_wrapx.unsupervised.items.item_data`). The shape is worked
out once per template and kept: in a weak table by template object, and by
a :class:`~scrapy_wrapx.unsupervised.templates.TemplateHandle`, which
shapes the items of its kind's pages without the template rebuilt.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from scrapy_wrapx.induction._alternatives import alternative_leaders
from scrapy_wrapx.induction._keyvalue import KeyValueSet, key_value_sets
from scrapy_wrapx.template import Set, Template, enclosing_sets


@dataclass(frozen=True)
class ItemShape:
    """What the template says of its fields: the ones in sets (a field
    under no set, latent fields included, is a scalar), and the sets whose
    records hold one field (set name -> field name). Only the names in sets
    are kept: a template's latent fields number hundreds on some sites
    (every text of a menu), and a :class:`~scrapy_wrapx.unsupervised.templates.TemplateHandle` keeps
    a shape per kind."""

    field_names: list[str]
    set_names: list[str]
    in_sets: frozenset[str]
    single: dict[str, str]
    #: Key/value sets (set name -> label field, value field): one mapping
    #: each (:mod:`scrapy_wrapx.induction._keyvalue`).
    keyed: dict[str, KeyValueSet] = field(default_factory=dict)
    #: Alternative fields (field name -> its leader's name): a page's value
    #: goes under the leader's name where the leader shows none
    #: (:mod:`scrapy_wrapx.induction._alternatives`).
    leaders: dict[str, str] = field(default_factory=dict)


_SHAPES: weakref.WeakKeyDictionary[Template, ItemShape] = weakref.WeakKeyDictionary()


def item_shape(template: Template) -> ItemShape:
    """The shape of ``template``'s items (kept while its names stay)."""
    found = _SHAPES.get(template)
    if (
        found is not None
        and found.field_names == template.field_names
        and found.set_names == template.set_names
    ):
        return found
    inside = enclosing_sets(template.root)
    members: dict[str, list[str]] = {}
    for info in template.fields:
        members.setdefault(info.set, []).append(info.name)
    nesting = {inside[n.uid] for n in template.nodes if isinstance(n, Set)}
    single = {
        name: names[0]
        for name, names in members.items()
        if name and len(names) == 1 and name not in nesting
    }
    found = _SHAPES[template] = ItemShape(
        template.field_names,
        template.set_names,
        frozenset(name for set_name, names in members.items() if set_name for name in names),
        single,
        key_value_sets(template),
        alternative_leaders(template),
    )
    return found
