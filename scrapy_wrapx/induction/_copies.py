"""Copies: one datum the page shows twice is one field.

Pages repeat their data: the publisher in the byline and again in the
details table, the product number in two hidden form inputs, the title in
the heading and in a caption. Each copy is a slot of its own in the
template, yet an item that holds the value twice, under two names, makes
its reader compare them. A slot that holds, on every seed page, exactly
the values another slot holds is a *copy*: it stays in the template (which
renders losslessly), and only the copy a reader would name is a field
(:func:`_rank`): one every page shows before one that some leave out, one
in a heading (where a page states its title, not its breadcrumb), else
the first in page order, the copy a reader meets first. (Not the copy with
a label: a details table may leave out the date row its byline still
shows, so the first copy is the likelier one to be there.)

Seeds are few, so the evidence must be more than chance: both slots show
the same values on at least :data:`._pagetokens.MIN_TEMPLATE_SEEDS` seed
pages, never different values on one seed, and the values differ between
pages (a value the same everywhere is template anyway). A seed may show
one of the two only: one page leaves its ISBN out of the byline, another
out of the details table, and the field takes it from either. A list
price and a sale price that agree on a few seeds still differ on one of
five; two copies of one publisher never do.

The copy that is dropped may be the one the page labels ("Publication
Date: 2010" in a details table, where the byline shows "2010" bare): its
label is kept in the template's meta (:data:`COPY_LABELS`) for the field
that stays, whose name the page-level naming may take from it
(:mod:`._pagenames`).

>>> copies(["publisher", "year", "vendor"],
...        {"publisher": (("Zondervan",), ("Barbour",), ("Tyndale",)),
...         "year": (("2008",), ("2004",), ("2010",)),
...         "vendor": (("Zondervan",), ("Barbour",), ("Tyndale",))})
{'vendor': 'publisher'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scrapy_wrapx.dom import HEADINGS, PageTree
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction._naming import field_label_name
from scrapy_wrapx.induction._pagetokens import MIN_TEMPLATE_SEEDS
from scrapy_wrapx.template import (
    COPY_FALLBACKS,
    Elem,
    FieldInfo,
    Opt,
    Set,
    Template,
    TNode,
    block_versions,
    enclosing_sets,
    iter_nodes,
)

#: A field's values on each seed page.
Profile = tuple[tuple[str, ...], ...]


#: Template meta key: ``"uid/slot"`` of a field -> the label of a copy of it
#: that was dropped.
COPY_LABELS = "copy_labels"


def copies(fields: Sequence[str], values: Mapping[str, Profile]) -> dict[str, str]:
    """The ``fields`` (best first) whose ``values`` per seed repeat those
    of a field before them, each mapped to that field: the same values on
    every seed that shows both, on enough seeds to be no chance
    (:func:`_evidence`), and on a seed that shows one of them only, none in
    the other (one page shows its ISBN in the details table only, another
    in the byline only: one field, its value found in either place).

    >>> copies(["isbn", "isbn_2"], {"isbn": ((), ("2",), ("3",), ("4",), ()),
    ...                             "isbn_2": (("1",), ("2",), ("3",), ("4",), ("5",))})
    {'isbn_2': 'isbn'}
    """
    # Fields that stay, by a value they show: (seed, values) -> names.
    staying: dict[tuple[int, tuple[str, ...]], list[str]] = {}
    dropped: dict[str, str] = {}
    for name in fields:
        profile = values.get(name)
        if profile is None:
            continue
        shown = [(seed, value) for seed, value in enumerate(profile) if value]
        if not shown:
            continue
        candidates = dict.fromkeys(other for key in shown for other in staying.get(key, ()))
        copied = next(
            (
                other
                for other in candidates
                if _evidence(_shared(profile, values[other]))
                and _compatible(profile, values[other])
            ),
            None,
        )
        if copied is not None:
            dropped[name] = copied
            continue
        for key in shown:
            staying.setdefault(key, []).append(name)
    return dropped


def _shared(a: Profile, b: Profile) -> Profile:
    """The values two profiles agree on, seed by seed (none elsewhere)."""
    return tuple(x if x == y else () for x, y in zip(a, b, strict=True))


def _compatible(a: Profile, b: Profile) -> bool:
    """Whether two profiles never show different values on one seed."""
    return all(x == y or not x or not y for x, y in zip(a, b, strict=True))


def _rank(info: FieldInfo, optional: bool) -> tuple[bool, bool]:
    """How a copy ranks among copies (lower first): required, then in a
    heading."""
    return (optional, info.path.rpartition("/")[2] not in HEADINGS)


def _optional_uids(root: TNode) -> set[int]:
    """The uids of the nodes under an optional node."""
    under: set[int] = set()
    stack: list[tuple[TNode, bool]] = [(root, False)]
    while stack:
        node, optional = stack.pop()
        if optional:
            under.add(node.uid)
        if isinstance(node, (Elem, Set)):
            stack.extend((child, optional) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, True))
    return under


def _evidence(profile: Profile) -> bool:
    """Whether values seen per seed can show a copy: shown on enough seeds
    and not the same on all of them."""
    shown = [value for value in profile if value]
    return len(shown) >= MIN_TEMPLATE_SEEDS and len(set(shown)) > 1


def copied_fields(template: Template, trees: Sequence[PageTree]) -> dict[str, str]:
    """The fields of ``template`` that copy another field on every seed page
    in ``trees`` (see the module docstring), each mapped to the field that
    stays. Fields outside sets, and those of a list that shows one record
    at most on every seed (a breadcrumb of one crumb, the heading's title):
    a record's values in a longer list are the record's, whatever another
    list repeats. Such a list's field is dropped for a field outside sets,
    never the other way round."""
    if len(trees) < MIN_TEMPLATE_SEEDS:
        return {}
    inside = enclosing_sets(template.root)
    per_page = [extract(template, tree).fields for tree in trees]
    candidates = [
        info
        for info in template.fields
        if not inside.get(info.uid, "")
        or all(len(fields.get(info.name, ())) <= 1 for fields in per_page)
    ]
    values = {
        info.name: tuple(tuple(fields.get(info.name, ())) for fields in per_page)
        for info in candidates
    }
    optional = _optional_uids(template.root)
    # sorted() is stable: among equals, page order decides.
    ranked = sorted(
        candidates,
        key=lambda info: (bool(inside.get(info.uid, "")), *_rank(info, info.uid in optional)),
    )
    return copies([info.name for info in ranked], values)


def version_copies(template: Template) -> dict[str, str]:
    """The fields of a later version of a block (see
    :func:`~scrapy_wrapx.template.block_versions`) that are a field of its
    first version, each mapped to that field: the same datum, which a page
    shows in the one version or the other, is one field, whichever version
    a page's block is (a price inside a deal wrapper on some pages and
    bare on others is ``price`` on all of them). A field is the first
    version's when it is of the same kind (text or attribute) and the one
    field of its version with its label, else with its class words and
    tags. Fields of lists, and versions inside a list, are left alone: a
    dropped copy fills its field from the page's environment, where a
    record's values are the record's."""
    inside = enclosing_sets(template.root)
    dropped: dict[str, str] = {}
    for versions in block_versions(template.root):
        fields = [_version_fields(template, version, inside) for version in versions]
        first = fields[0]
        for other in fields[1:]:
            for key, info in other.items():
                kept = first.get(key)
                if kept is not None and kept.name != info.name:
                    dropped[info.name] = kept.name
    return dropped


def _version_fields(
    template: Template, version: Elem, inside: Mapping[int, str]
) -> dict[tuple[str, ...], FieldInfo]:
    """The fields of one version of a block by their keys: a label, or
    class words and tags; a key two fields share keys neither."""
    if inside.get(version.uid, ""):
        return {}
    uids = {node.uid for node in iter_nodes(version)}
    keys: dict[tuple[str, ...], FieldInfo | None] = {}
    for info in template.fields:
        if info.uid not in uids or inside.get(info.uid, ""):
            continue
        kind = "text" if info.slot.isdigit() else info.slot
        key: tuple[str, ...]
        if field_label_name(info):
            key = (kind, "label", field_label_name(info))
        elif info.hint:
            key = (kind, "hint", info.hint, info.path)
        else:
            continue
        keys[key] = None if key in keys else info
    return {key: info for key, info in keys.items() if info is not None}


def note_copies(template: Template, copied: Mapping[str, str]) -> None:
    """Keep, for each field that stays, the label of a dropped copy of it
    when it has none of its own (see :data:`COPY_LABELS`), and where its
    dropped copies are (:data:`COPY_FALLBACKS`)."""
    by_name = {info.name: info for info in template.fields}
    labels: dict[str, str] = {}
    fallbacks: dict[str, list[str]] = {}
    for dropped, kept in copied.items():
        copy, stays = by_name[dropped], by_name[kept]
        key = f"{stays.uid}/{stays.slot}"
        if field_label_name(copy) and not field_label_name(stays):
            labels.setdefault(key, copy.label)
        fallbacks.setdefault(key, []).append(f"{copy.uid}/{copy.slot}")
    if labels:
        template.meta[COPY_LABELS] = labels
    if fallbacks:
        template.meta[COPY_FALLBACKS] = fallbacks
