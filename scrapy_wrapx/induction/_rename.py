"""Keeping field names across re-induction (DESIGN.md: "keep field names
stable across the change").

Names derived from the template's content are stable as long as that
content is: a label that appears next to a title ("New!") on the new seeds
would rename it. So with an older template of the same kind, names follow
the *data*: the new template and the old one both extract the new seed
pages, and a new field whose values equal an old field's values on most
pages where it has any takes over the old field's name. Fields the old
template cannot see keep the names derived from the content (or from the
old template's naming keys, see :class:`~scrapy_wrapx.template.FieldInfo`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from scrapy_wrapx.dom import PageTree
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.template import Elem, Template, Text

#: Share of a new field's non-empty pages on which an old field must hold
#: the very same values for the old name to carry over.
SAME_DATA_SHARE = 0.5


def keep_names(template: Template, previous: Template, trees: Sequence[PageTree]) -> None:
    """Rename the fields of ``template`` that hold the same data on
    ``trees`` as fields of ``previous`` to those fields' names."""
    pairs, present = _same_data(template, previous, trees)
    renamed: dict[str, str] = {}
    taken: set[str] = set()
    for (new, old), count in _ranked(pairs, template, previous):
        if new in renamed or old in taken or count < SAME_DATA_SHARE * present[new]:
            continue
        renamed[new] = old
        taken.add(old)
    if any(new != old for new, old in renamed.items()):
        _apply(template, renamed, taken)


def _same_data(
    template: Template, previous: Template, trees: Sequence[PageTree]
) -> tuple[Counter[tuple[str, str]], Counter[str]]:
    """On how many pages each (new, old) pair of fields holds the same
    values, and on how many each new field holds any."""
    pairs: Counter[tuple[str, str]] = Counter()
    present: Counter[str] = Counter()
    for tree in trees:
        new_fields = extract(template, tree).fields
        by_values = _names_by_values(extract(previous, tree).fields)
        for name, values in new_fields.items():
            if values:
                present[name] += 1
                for old in by_values.get(tuple(values), ()):
                    pairs[(name, old)] += 1
    return pairs, present


def _names_by_values(fields: dict[str, list[str]]) -> dict[tuple[str, ...], list[str]]:
    by_values: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for name, values in fields.items():
        if values:
            by_values[tuple(values)].append(name)
    return by_values


def _ranked(
    pairs: Counter[tuple[str, str]], template: Template, previous: Template
) -> list[tuple[tuple[str, str], int]]:
    """The pairs, most pages first; of equal ones, those whose naming keys
    agree, then those of one name, then by name."""
    old_keys = {info.name: info.key for info in previous.fields}
    new_keys = {info.name: info.key for info in template.fields}
    return sorted(
        pairs.items(),
        key=lambda item: (
            -item[1],
            old_keys.get(item[0][1]) != new_keys.get(item[0][0]),
            item[0][0] != item[0][1],
            item[0],
        ),
    )


def _apply(template: Template, renamed: dict[str, str], taken: set[str]) -> None:
    """Rename fields; a field whose name an old one took gets a counter."""
    final = _final_names(template, renamed, taken)
    for node in template.nodes:
        if isinstance(node, Text):
            node.names = [final.get(name, name) if name else name for name in node.names]
        elif isinstance(node, Elem) and node.names:
            node.names = {attr: final.get(name, name) for attr, name in node.names.items()}
    for info in template.fields:
        info.name = final[info.name]


def _final_names(template: Template, renamed: dict[str, str], taken: set[str]) -> dict[str, str]:
    used = set(taken)
    final: dict[str, str] = {}
    for info in template.fields:
        name = renamed.get(info.name)
        if name is None:
            name, count = info.name, 1
            while name in used:
                count += 1
                name = f"{info.name}_{count}"
            used.add(name)
        final[info.name] = name
    return final
