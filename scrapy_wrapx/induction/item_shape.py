"""The shape of a template's items: which fields are scalars, which sets
are lists of values and which are key/value mappings.

An item is shaped by its template, never by one page's count (see
:func:`scrapy_wrapx.unsupervised.items.item_data`). The shape is worked
out once per template and kept: in a weak table by template object, and by
a :class:`~scrapy_wrapx.unsupervised.templates.TemplateHandle`, which
shapes the items of its kind's pages without the template rebuilt. A page
worker works it out with the template it induces and sends it along
(:meth:`ItemShape.to_dict`): it is part of the core so that workers can.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from scrapy_wrapx.induction._alternatives import alternative_leaders
from scrapy_wrapx.induction._keyvalue import KeyValueSet, key_value_sets
from scrapy_wrapx.induction._sections import section_sets
from scrapy_wrapx.template import Template, set_parents


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
    #: Sets whose records are sections of the page: their data goes in
    #: the record or item around them (:mod:`scrapy_wrapx.induction._sections`).
    sections: frozenset[str] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        """The shape as JSON data: a page worker sends it with the template
        it induced, so the crawl's process need not rebuild the template
        to shape its items."""
        return {
            "field_names": self.field_names,
            "set_names": self.set_names,
            "in_sets": sorted(self.in_sets),
            "single": self.single,
            "keyed": {
                name: [kv.label, kv.value, kv.cells, " ".join(kv.others)]
                for name, kv in self.keyed.items()
            },
            "leaders": self.leaders,
            "sections": sorted(self.sections),
        }

    @classmethod
    def from_dict(cls, data: Any) -> ItemShape:
        """The shape of :meth:`to_dict`; :class:`ValueError` when ``data``
        is not one."""
        if not isinstance(data, dict):
            raise ValueError(f"Item shape is not an object: {data!r:.60}")
        keyed = data.get("keyed")
        if not isinstance(keyed, dict) or not all(
            # Three parts: a shape sent before values in other markups.
            isinstance(v, list) and len(v) in (3, 4) and all(isinstance(x, str) for x in v)
            for v in keyed.values()
        ):
            raise ValueError(f"Item shape with invalid key/value sets: {keyed!r:.60}")
        return cls(
            _strings(data.get("field_names"), "field_names"),
            _strings(data.get("set_names"), "set_names"),
            frozenset(_strings(data.get("in_sets"), "in_sets")),
            _names(data.get("single"), "single"),
            {
                str(name): KeyValueSet(
                    parts[0], parts[1], parts[2], tuple(parts[3].split()) if parts[3:] else ()
                )
                for name, parts in keyed.items()
            },
            _names(data.get("leaders"), "leaders"),
            # Absent from a shape sent before sections were noted.
            frozenset(_strings(data.get("sections", []), "sections")),
        )


def _strings(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ValueError(f"Item shape with invalid {what}: {value!r:.60}")
    return value


def _names(value: Any, what: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(x, str) for x in value.values()):
        raise ValueError(f"Item shape with invalid {what}: {value!r:.60}")
    return value


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
    members: dict[str, list[str]] = {}
    for info in template.fields:
        members.setdefault(info.set, []).append(info.name)
    nesting = set(set_parents(template).values())
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
        frozenset(section_sets(template)),
    )
    return found
