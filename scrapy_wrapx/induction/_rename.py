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

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from scrapy_wrapx.dom import PageTree
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.template import Elem, Set, Template, Text, enclosing_sets, set_parents

#: The counter that keeps a name unique (``tr_list_2``).
NAME_COUNTER = re.compile(r"_\d+$")
#: Share of a new field's non-empty pages on which an old field must hold
#: the very same values for the old name to carry over.
SAME_DATA_SHARE = 0.5


def keep_names(template: Template, previous: Template, trees: Sequence[PageTree]) -> None:
    """Rename the fields of ``template`` that hold the same data on
    ``trees`` as fields of ``previous`` to those fields' names."""
    pairs, present = _same_data(template, previous, trees)
    labels = {info.name: info.label for info in template.fields}
    old_labels = {info.name: info.label for info in previous.fields}
    renamed: dict[str, str] = {}
    taken: set[str] = set()
    for (new, old), count in _ranked(pairs, template, previous):
        if new in renamed or old in taken or count < SAME_DATA_SHARE * present[new]:
            continue
        if _unlike_labels(labels.get(new, ""), old_labels.get(old, "")):
            continue
        renamed[new] = old
        taken.add(old)
    if any(new != old for new, old in renamed.items()):
        _apply(template, renamed, taken)


#: Most words of a text read as a row's label (see :func:`_unlike_labels`).
ROW_LABEL_WORDS = 3


def _unlike_labels(label: str, before: str) -> bool:
    """Whether a field's label and an older field's are two row labels
    (a few words, no number) without a word in common: "Material" in the
    place of "Warranty" is another row, whose value an older template
    matched in that place, the same data by position only; "Item weight"
    may well be "Weight", and a text of data before a field ("1.5L I-4
    engine") is no label to compare.

    >>> _unlike_labels("Material", "Warranty"), _unlike_labels("Item weight:", "Weight")
    (True, False)
    >>> _unlike_labels("1.3L I-4 engine", "1.5L I-4 engine"), _unlike_labels("", "Color")
    (False, False)
    """
    if any(not 0 < len(_words(text)) <= ROW_LABEL_WORDS for text in (label, before)):
        return False
    if any(char.isdigit() for text in (label, before) for char in text):
        return False
    return not _words(label) & _words(before)


def keep_set_names(template: Template, previous: Template) -> None:
    """Give each set of ``template`` the name of the set of ``previous``
    that holds most of the same fields (by name, once :func:`keep_names`
    has carried them over): a set is a key of the item (a list of records),
    and a user reads ``reviews`` after the redesign too. Run once the
    fields have their final names. One old name per set; a set whose own
    name an old one took gets a counter."""
    new_sets, old_sets = _set_shapes(template), _set_shapes(previous)
    # A list that holds only a list holds the same fields: depth tells them.
    pairs = sorted(
        (-len(new & old), len(new ^ old), abs(new_depth - old_depth), new_name, old_name)
        for new_name, (new, new_depth) in new_sets.items()
        for old_name, (old, old_depth) in old_sets.items()
        if new & old
    )
    fields = set(template.field_names)
    renamed: dict[str, str] = {}
    for *_, new_name, old_name in pairs:
        if new_name not in renamed and old_name not in renamed.values() and old_name not in fields:
            renamed[new_name] = old_name
    if all(new == old for new, old in renamed.items()):
        return
    used = fields | set(renamed.values())
    rename_sets(
        template, {name: renamed.get(name) or _unused(name, used) for name in template.set_names}
    )


def _unused(name: str, used: set[str]) -> str:
    """``name`` if no other set or field has it, else its base with a new
    counter (``tr_list_2`` taken: ``tr_list_3``, not ``tr_list_2_2``)."""
    if name not in used:
        used.add(name)
        return name
    return fresh_name(NAME_COUNTER.sub("", name), used)


def carry_lone_members(template: Template, previous: Template) -> None:
    """In a set that kept its name (:func:`keep_set_names`), the one text
    field (or one field of an attribute) the older set held and no field
    holds now takes that field's name, when it is the only one of its kind
    left in the set: the review's text after its markup and class words
    changed, where nothing else says which field it was."""
    inside = enclosing_sets(template.root)
    names, old_names = set(template.field_names), set(previous.field_names)
    left: dict[tuple[str, str], list[str]] = defaultdict(list)
    for info in previous.fields:
        if info.set and info.name not in names:
            left[info.set, _kind(info.slot)].append(info.name)
    unnamed: dict[tuple[str, str], list[str]] = defaultdict(list)
    for info in template.fields:
        in_set = inside.get(info.uid, "")
        if in_set and info.name not in old_names:
            unnamed[in_set, _kind(info.slot)].append(info.name)
    wanted = {
        news[0]: left[key][0]
        for key, news in unnamed.items()
        if len(news) == 1 and len(left.get(key, ())) == 1
    }
    if wanted:
        rename_fields(template, wanted)


def _kind(slot: str) -> str:
    return "text" if slot.isdigit() else slot


def _set_shapes(template: Template) -> dict[str, tuple[set[str], int]]:
    """Per set of ``template``: the names of the fields inside it (nested
    sets' included), and how many sets it is inside."""
    inside = enclosing_sets(template.root)
    parent = set_parents(template)
    fields: dict[str, set[str]] = {name: set() for name in parent}
    for info in template.fields:
        name = inside.get(info.uid, "")
        while name:
            fields[name].add(info.name)
            name = parent.get(name, "")
    shapes: dict[str, tuple[set[str], int]] = {}
    for name, above in parent.items():
        depth = 0
        while above:
            depth, above = depth + 1, parent.get(above, "")
        shapes[name] = (fields[name], depth)
    return shapes


def rename_sets(template: Template, final: dict[str, str]) -> None:
    """Rename sets (current name -> new name) in the tree and in the
    fields' infos."""
    for node in template.nodes:
        if isinstance(node, Set):
            node.name = final.get(node.name, node.name)
    for info in template.fields:
        info.set = final.get(info.set, info.set)


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
    used = taken | set(template.set_names)
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


#: Weight of each profile feature two fields share (labels, semantic keys and
#: roles survive redesigns; class words often do, in part).
PROFILE_WEIGHTS = {"label": 3.0, "key": 3.0, "role": 3.0, "words": 2.0, "tag": 0.5}
#: Score a profile match needs (shared words alone need half of them).
PROFILE_THRESHOLD = 1.0


def rename_fields(
    template: Template, wanted: dict[str, str], *, force: bool = False
) -> dict[str, str]:
    """Rename fields (current name -> wanted name), in page order, keeping
    names unique with a counter; returns current name -> final name. With
    ``force``, the wanted names win and other fields holding one of them
    get the counter."""
    current = template.field_names
    # A field never takes a set's name: a record holds both by name.
    sets = set(template.set_names)
    if force:
        used = set(sets)
        final = {name: fresh_name(wanted[name], used) for name in current if name in wanted}
        final.update({name: fresh_name(name, used) for name in current if name not in final})
    else:
        used = {name for name in current if name not in wanted} | sets
        final = {
            name: fresh_name(wanted[name], used) if name in wanted else name for name in current
        }
    if any(old != new for old, new in final.items()):
        _apply_names(template, final)
    return final


def fresh_name(base: str, used: set[str]) -> str:
    """``base``, or ``base_2``, ``base_3``... the first not in ``used``;
    added to ``used``."""
    name, count = base, 1
    while name in used:
        count += 1
        name = f"{base}_{count}"
    used.add(name)
    return name


def _apply_names(template: Template, final: dict[str, str]) -> None:
    for node in template.nodes:
        if isinstance(node, Text):
            node.names = [final.get(name, name) if name else name for name in node.names]
        elif isinstance(node, Elem) and node.names:
            node.names = {attr: final.get(name, name) for attr, name in node.names.items()}
    for info in template.fields:
        info.name = final.get(info.name, info.name)


def profile_score(
    new: dict[str, Any], old: dict[str, Any], rarity: Mapping[str, float] | None = None
) -> float:
    """How surely two naming profiles (see :mod:`._pagenames`) describe the
    same field: 0 for fields of different slots (a text and a link).

    Class words count by their ``rarity`` (see :func:`word_rarity`), 1
    each without it: a word most of a site's fields share (its prefix,
    ``ct`` of ``ct-head``, ``ct-specs``...) says little about which is
    which.

    >>> profile_score({"slot": "text", "label": "publisher", "words": []},
    ...               {"slot": "text", "label": "publisher", "words": ["x"]})
    3.0
    >>> profile_score({"slot": "text", "label": "sale_price"}, {"slot": "text", "label": "price"})
    1.5
    >>> profile_score({"slot": "text", "words": ["buy", "price"]},
    ...               {"slot": "text", "words": ["price", "tag"]})
    1.0
    >>> profile_score({"slot": "text", "words": ["ct"]}, {"slot": "text", "words": ["ct"]},
    ...               {"ct": 0.0})
    0.0
    """
    if new.get("slot") != old.get("slot"):
        return 0.0
    score = 0.0
    for key in ("key", "role", "tag"):
        if new.get(key) and new.get(key) == old.get(key):
            score += PROFILE_WEIGHTS[key]
    label, before = new.get("label"), old.get("label")
    if label and before:
        # A label reworded keeps a word ("Sale price" for "Price", "Page
        # count" for "Pages"): the share of the longer one's words.
        said, known = _words(label), _words(before)
        score += PROFILE_WEIGHTS["label"] * len(said & known) / max(len(said), len(known))
    mine, theirs = set(new.get("words") or ()), set(old.get("words") or ())
    if mine and theirs:
        weights = rarity or {}
        # Overlap, not Jaccard: a redesign adds wrapper words around a field.
        smaller = min(sum(weights.get(w, 1.0) for w in words) for words in (mine, theirs))
        if smaller > 0:  # not only words every field has
            shared = sum(weights.get(w, 1.0) for w in mine & theirs)
            score += PROFILE_WEIGHTS["words"] * shared / smaller
    return score


def word_rarity(*groups: Mapping[str, Any]) -> dict[str, float]:
    """Each class word's weight as evidence, by how few of the profiles
    in ``groups`` (the old version's and the new one's) have it: its
    share of them counts down from 1 (one field's word) to 0 (every
    field's).

    >>> sorted(word_rarity({"a": {"words": ["ct", "views"]}, "b": {"words": ["ct"]}}).items())
    [('ct', 0.0), ('views', 0.5)]
    """
    counts: Counter[str] = Counter()
    total = 0
    for group in groups:
        for profile in group.values():
            if isinstance(profile, dict):
                total += 1
                counts.update(set(profile.get("words") or ()))
    return {word: 1.0 - count / total for word, count in counts.items()}


def _labelled_otherwise(new: dict[str, Any], old: dict[str, Any], old_name: str) -> bool:
    """Whether the page labels a field otherwise than the older field
    ``old_name`` was: fields the page labels without a word in common are
    different fields, whatever their markup shares ("Genres:" is no
    "Directors:", "Sale price:" may well be "Price:"); and a field the
    page labels now, by a word neither the old name nor the old field's
    class words have, with no semantic key or role to say they are one,
    is not that field either ("Genres:" before links is no
    ``movie_critic_name``, whose class words it shares but for that word;
    "Our price:" may well be ``price_now``).

    >>> _labelled_otherwise({"label": "genres"}, {"label": "directors"}, "directors")
    True
    >>> _labelled_otherwise({"label": "sale_price"}, {"label": "price"}, "price")
    False
    >>> _labelled_otherwise({"label": "genres"}, {"words": ["movie", "critic"]}, "movie_critic_name")
    True
    >>> _labelled_otherwise({"label": "our_price"}, {"words": ["now"]}, "price_now")
    False
    """
    label, before = new.get("label"), old.get("label")
    if not label:
        return False
    said = _words(label)
    if before:
        return not said & _words(before)
    for key in ("key", "role"):
        if new.get(key) and new.get(key) == old.get(key):
            return False
    known = _words(old_name) | {_stem(word) for word in old.get("words") or ()}
    return not said & known


def _words(text: str) -> set[str]:
    return {_stem(word) for word in _WORD.findall(text.casefold())}


#: A word of a name or label.
_WORD = re.compile(r"[a-z0-9]+")


def _stem(word: str) -> str:
    """A word without a plural's ``s`` (``genres``, ``genre``)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _labelled(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether either profile has a label of the page: a field the page
    labels is that label's, not the one left over of its markup."""
    return bool(new.get("label")) or bool(old.get("label"))


def carry_profiles(
    template: Template, previous: Template, profiles: dict[str, dict[str, Any]]
) -> None:
    """Give fields not carried over by their data the name of the older
    field whose stored profile is most like theirs (one-to-one, best
    first); then pair off fields that are the only ones of their slot and
    tag left on both sides."""
    stored = previous.meta.get("naming")
    if not isinstance(stored, dict):
        return
    names = set(template.field_names)
    old = {n: p for n, p in stored.items() if n not in names and isinstance(p, dict)}
    new = {n: p for n, p in profiles.items() if n in names and n not in previous.field_names}
    rarity = word_rarity(stored, profiles)
    wanted: dict[str, str] = {}
    for _, _, name, old_name in _profile_pairs(new, old, rarity):
        if name not in wanted and old_name not in wanted.values():
            wanted[name] = old_name
    wanted.update(_lone_pairs(new, old, wanted))
    if wanted:
        rename_fields(template, wanted)


def _profile_pairs(
    new: dict[str, dict[str, Any]], old: dict[str, dict[str, Any]], rarity: Mapping[str, float]
) -> list[tuple[float, int, str, str]]:
    """(new, old) pairs scoring at least :data:`PROFILE_THRESHOLD`, best
    first, then nearest in page order."""
    pairs = []
    for name, mine in new.items():
        for old_name, theirs in old.items():
            score = profile_score(mine, theirs, rarity)
            if score >= PROFILE_THRESHOLD and not _labelled_otherwise(mine, theirs, old_name):
                distance = abs(mine.get("order", 0) - theirs.get("order", 0))
                pairs.append((-score, distance, name, old_name))
    return sorted(pairs)


def _lone_pairs(
    new: dict[str, dict[str, Any]], old: dict[str, dict[str, Any]], taken: dict[str, str]
) -> dict[str, str]:
    def shapes(
        profiles: dict[str, dict[str, Any]], skip: set[str]
    ) -> dict[tuple[str, str], list[str]]:
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        for name, profile in profiles.items():
            if name not in skip:
                groups[str(profile.get("slot")), str(profile.get("tag"))].append(name)
        return groups

    mine = shapes(new, set(taken))
    theirs = shapes(old, set(taken.values()))
    return {
        names[0]: theirs[shape][0]
        for shape, names in mine.items()
        if len(names) == 1
        and len(theirs.get(shape, ())) == 1
        and not _labelled(new[names[0]], old[theirs[shape][0]])
    }
