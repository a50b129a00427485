"""Names a person would pick, from what the seed pages say about each field.

:mod:`._naming` names fields from the template alone. Once the template
exists, its fields' values on the seed pages show more, and a field takes
the strongest name the evidence gives, in this order:

1. the spider's own name: a declared target whose selector selects the
   field's values on the seeds (:func:`target_names`);
2. the page's label for the value (``Publisher:``, ``<th>``, ``<dt>``, a
   bold lead-in), already found by :mod:`._naming`; a label of function
   words only ("by") names nothing;
3. semantic markup: the microdata, JSON-LD or OpenGraph key whose value the
   field holds (:mod:`._semantic`); the shape of its values, ``email``,
   ``phone`` or ``website`` (:mod:`._shapes`), unless its class words say
   that already; and for a heading the page ``<title>`` holds, ``title``;
4. class and id words of the field's element and its two parents, layout
   words (:data:`LAYOUT_WORDS`) left out; a link or image takes the name of
   the text it holds (``author`` -> ``author_url``);
5. the tag, as the last resort, never alone for a heading (``heading``).

Names stay: with an older template of the kind, a field carried over by its
data (:func:`._rename.keep_names`) or by its profile (label, semantic key,
role, class words: :func:`._rename.carry_profiles`) keeps the old name, and
names a user pinned win over all.
"""

from __future__ import annotations

import itertools
import json
import re
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree
from lxml.html import defs as html_defs

from scrapy_wrapx.dom import HEADINGS, PageTree, fold_whitespace
from scrapy_wrapx.extraction import extract, remembering_matches
from scrapy_wrapx.induction._alternatives import note_alternatives
from scrapy_wrapx.induction._compound import split_compounds
from scrapy_wrapx.induction._copies import COPY_LABELS
from scrapy_wrapx.induction._keyvalue import KEY_VALUE_SETS, note_key_value_sets
from scrapy_wrapx.induction._naming import (
    DATA_ATTRIBUTES,
    LEAD_TAGS,
    field_label_name,
    label_like,
    label_name,
)
from scrapy_wrapx.induction._rename import (
    carry_lone_members,
    carry_profiles,
    fresh_name,
    keep_names,
    keep_set_names,
    rename_fields,
    rename_sets,
)
from scrapy_wrapx.induction._sections import listed_fields, note_sections
from scrapy_wrapx.induction._semantic import PageEvidence, canon, page_evidence
from scrapy_wrapx.induction._shapes import unit_quantity, value_role
from scrapy_wrapx.template import (
    COPY_FALLBACKS,
    Blob,
    Elem,
    FieldInfo,
    Opt,
    Set,
    Template,
    Text,
    TNode,
    element_look,
    iter_nodes,
    slug,
)

#: Most words of a heading row's text that names the list below it.
HEADING_ROW_WORDS = 4
#: Strength of each source of a name (see the module doc).
TARGET, LABEL, SEMANTIC, CLASS, TAG = 5, 4, 3, 2, 1
#: Share of the seed pages showing a field on which evidence must agree.
AGREEMENT = 0.5
#: Words of class and id values that name layout, not data.
LAYOUT_WORDS = frozenset(
    [
        "block",
        "body",
        "box",
        "clearfix",
        "cleartype",
        "col",
        "column",
        "container",
        "content",
        "data",
        "details",
        "div",
        "field",
        "fl",
        "fr",
        "holder",
        "info",
        "inner",
        "item",
        "left",
        "main",
        "middle",
        "module",
        "outer",
        "pad",
        "panel",
        "right",
        "row",
        "section",
        "span",
        "text",
        "txt",
        "value",
        "values",
        "wrap",
        "wrapper",
    ]
)
#: Words of class and id values that name a look (CSS's own vocabulary of
#: fonts, colours, sizes, positions and states), not data.
PRESENTATION_WORDS = frozenset(
    [
        "active",
        "align",
        "bg",
        "black",
        "blue",
        "bold",
        "border",
        "bottom",
        "center",
        "clear",
        "color",
        "colour",
        "dark",
        "default",
        "even",
        "first",
        "float",
        "font",
        "gray",
        "green",
        "grey",
        "hidden",
        "highlight",
        "italic",
        "large",
        "last",
        "light",
        "margin",
        "medium",
        "none",
        "normal",
        "odd",
        "padding",
        "red",
        "regular",
        "selected",
        "size",
        "small",
        "style",
        "top",
        "underline",
        "visible",
        "white",
    ]
)
#: Words of class and id values that name the site's navigation: where a
#: value sits, not what it is. A breadcrumb's crumb may be the company or
#: the category the page's details table labels (see
#: :func:`copy_label_name`).
NAVIGATION_WORDS = frozenset(
    [
        "breadcrumb",
        "breadcrumbs",
        "crumb",
        "crumbs",
        "footer",
        "header",
        "menu",
        "nav",
        "navbar",
        "navigation",
        "pager",
        "pagination",
        "sidebar",
        "tabs",
        "toolbar",
    ]
)
#: Key of :attr:`Template.meta` holding each field's naming profile.
PROFILES = "naming"

_WORDS = re.compile(r"[a-z]+")
#: A word boundary inside a camelCase token (``defaultColorFont``).
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@dataclass
class FieldContext:
    """Where a field sits in the template: its element chain (the field's
    own element last), and for an attribute field the names of the text
    fields and the fixed text inside its element."""

    info: FieldInfo
    chain: list[Elem]
    inner_field: str = ""
    inner_text: str = ""
    order: int = 0
    evidence: dict[str, Any] = field(default_factory=dict)
    #: The slug of the last fixed heading before the field ("Reviews"):
    #: the section it is in, the last resort's context.
    section: str = ""


def field_contexts(template: Template) -> dict[str, FieldContext]:
    """Every field's :class:`FieldContext`, by name, in page order."""
    by_slot = {(info.uid, info.slot): info for info in template.fields}
    contexts: dict[str, FieldContext] = {}
    stack: list[tuple[TNode, list[Elem]]] = [(template.root, [])]
    section = ""
    while stack:
        node, chain = stack.pop()
        if isinstance(node, Elem):
            chain = [*chain, node]
            _elem_contexts(node, chain, by_slot, contexts, section)
        elif isinstance(node, Text):
            _text_contexts(node, chain, by_slot, contexts, section)
            heading = node.parts[0] if node.fixed and chain and chain[-1].tag in HEADINGS else None
            if isinstance(heading, str) and label_like(heading.strip()):
                section = slug(heading)
        stack.extend((child, chain) for child in reversed(_template_children(node)))
    for order, context in enumerate(contexts.values()):
        context.order = order
    return contexts


def _template_children(node: TNode) -> list[TNode]:
    if isinstance(node, (Elem, Set)):
        return node.children
    if isinstance(node, Opt):
        return [node.child]
    return []


def _elem_contexts(
    node: Elem,
    chain: list[Elem],
    by_slot: dict[tuple[int, str], FieldInfo],
    contexts: dict[str, FieldContext],
    section: str,
) -> None:
    for attr in node.names:
        info = by_slot.get((node.uid, attr))
        if info is not None:
            contexts[info.name] = _attr_context(info, node, chain)
            contexts[info.name].section = section


def _text_contexts(
    node: Text,
    chain: list[Elem],
    by_slot: dict[tuple[int, str], FieldInfo],
    contexts: dict[str, FieldContext],
    section: str,
) -> None:
    for slot in range(node.slots):
        info = by_slot.get((node.uid, str(slot)))
        if info is not None:
            contexts[info.name] = FieldContext(info, chain, section=section)


def _attr_context(info: FieldInfo, node: Elem, chain: list[Elem]) -> FieldContext:
    context = FieldContext(info, chain)
    for child in node.children:
        inner = child.child if isinstance(child, Opt) else child
        if isinstance(inner, Text) and inner.fixed and not context.inner_text:
            context.inner_text = inner.parts[0] or ""
        elif isinstance(inner, Text) and inner.names and not context.inner_field:
            context.inner_field = next((n for n in inner.names if n), "")
    return context


def class_words(elem: Elem) -> str:
    """The first class or id token of ``elem`` with a data word, as a name
    (``product-author``, ``productAuthor``, ``productauthor`` ->
    ``product_author``: see :mod:`._compound`), else ``""``."""
    for attr in ("itemprop", "class", "id", "name"):
        value = elem.attrs.get(attr)
        for token in (value or "").split():
            name = split_compounds(slug(_CAMEL.sub("_", token)))
            if name and set(_WORDS.findall(name)) - LAYOUT_WORDS - PRESENTATION_WORDS - {"product"}:
                return name
    return ""


def _votes(counts: Counter[str], pages: int) -> str:
    """The name most pages agree on, if enough of them do."""
    if not counts:
        return ""
    name, count = min(counts.items(), key=lambda item: (-item[1], item[0]))
    return name if count >= max(1, AGREEMENT * pages) else ""


def semantic_name(values: Sequence[list[str]], evidence: Sequence[PageEvidence]) -> str:
    """The semantic key whose values the field holds on most seed pages."""
    counts: Counter[str] = Counter()
    pages = 0
    for page_values, page in zip(values, evidence, strict=True):
        texts = [canon(v) for v in page_values if v.strip()]
        if not texts:
            continue
        pages += 1
        keys = set.intersection(*(page.keys.get(text, set()) for text in texts))
        counts.update(keys)
    return _votes(counts, pages)


def in_title(
    values: Sequence[list[str]], evidence: Sequence[PageEvidence], *, heading: bool = False
) -> bool:
    """Whether the page title holds the field's value on most seed pages
    (for a heading, or the heading opens with a part of the title: see
    :meth:`._semantic.PageEvidence.heads_title`)."""
    shown = [(v, e) for v, e in zip(values, evidence, strict=True) if v]
    hits = sum((e.heads_title if heading else e.in_title)(v[0]) for v, e in shown)
    return bool(shown) and hits >= max(1, AGREEMENT * len(shown))


def own_class_words(chain: Sequence[Elem]) -> str:
    """The class words of an element (the last of ``chain``) or of the
    nearer of the two above it that has some, or ``""``."""
    for elem in reversed(chain[-3:]):
        words = class_words(elem)
        if words:
            return words
    return ""


#: What an element's data attribute is, by the element's tag (a link's,
#: a frame's, an object's: ``url``).
_ATTR_SUFFIXES = {"img": "image", "input": "value", "video": "video", "audio": "audio"}


def _attr_name(context: FieldContext) -> tuple[str, int]:
    """A link or image named after what it holds (``author_url``), else
    after its class words."""
    element = context.chain[-1]
    if context.info.slot not in DATA_ATTRIBUTES:
        # A describing attribute (a rating's title): what the element
        # shows, named by its class words, not a link's or image's suffix.
        words = own_class_words(context.chain) or ancestor_words(context.chain)
        if words:
            return words, CLASS
        return f"{element.tag}_{slug(context.info.slot)}", TAG
    suffix = _ATTR_SUFFIXES.get(element.tag, "url")
    base = context.inner_field or label_name(context.inner_text) or own_class_words(context.chain)
    if element.tag == "img":
        base = base or slug(element.attrs.get("alt") or "")
    if base:
        return _suffixed(base, suffix), CLASS
    # The last resort: what it is, after the data words of the nearest
    # ancestor that has some (``cover_box_image``), never its tag
    # (``img_src``, ``a_href``).
    words = ancestor_words(context.chain)
    return (_suffixed(words, suffix) if words else suffix), TAG


def _suffixed(base: str, suffix: str) -> str:
    """``base`` ending in ``suffix`` (``author_url``), once."""
    return base if suffix in base.split("_") else f"{base}_{suffix}"


def ancestor_words(chain: Sequence[Elem]) -> str:
    """The class words of the nearest ancestor of an element (the last of
    ``chain``) that has some, or ``""``."""
    for elem in reversed(chain[:-1]):
        words = class_words(elem)
        if words:
            return words
    return ""


#: Elements that strike their text through: a value no longer current
#: (the price before a sale, beside the price now).
STRUCK_TAGS = frozenset({"s", "strike", "del"})


def propose(
    context: FieldContext, values: Sequence[list[str]], evidence: Sequence[PageEvidence]
) -> tuple[str, int]:
    """The best name the evidence gives the field, and its strength; a text
    struck through is the ``old_`` one of what its element's words say (the
    price beside it keeps the plain name, whether or not the seeds showed an
    old price), unless a label or class words of its own name it
    (``<del class="price was">``)."""
    info = context.info
    if info.slot.isdigit() and (label := field_label_name(info)):
        return _with_medium(context, label, values) or info.name, LABEL
    name, strength = _propose(context, values, evidence)
    element = context.chain[-1] if context.chain else None
    if (
        info.slot.isdigit()
        and element is not None
        and element.tag in STRUCK_TAGS
        and not class_words(element)
    ):
        return f"old_{name}", strength
    return name, strength


def _propose(
    context: FieldContext, values: Sequence[list[str]], evidence: Sequence[PageEvidence]
) -> tuple[str, int]:
    info = context.info
    semantic = semantic_name(values, evidence)
    context.evidence["key"] = semantic
    if semantic:
        return semantic, SEMANTIC
    if not info.slot.isdigit():
        return _attr_name(context)
    words = own_class_words(context.chain)
    role = value_role(values)
    if role and role not in words.split("_"):
        context.evidence["role"] = role
        # Class words say which price it is ("list", "sale", "final"),
        # where a phone's or an address's name a block.
        return (f"{words}_{role}" if words and role == "price" else role), SEMANTIC
    tag = _tag(context)
    heading = tag in HEADINGS or big_text(context.chain)
    if heading and in_title(values, evidence, heading=True):
        context.evidence["role"] = "title"
        return "title", SEMANTIC
    if words:
        return words, CLASS
    quantity = "" if heading else unit_quantity(values)
    if quantity:
        # What the value measures, by its unit ("36 mpg"): not the tag.
        context.evidence["role"] = quantity
        return quantity, CLASS
    return ("heading" if heading else _tag_name(context, tag)), TAG


#: Roles of contact data, with the words that already say so in a name:
#: a label names whose number or address it is ("Admission Office",
#: "Sales"), the value's shape what it is.
MEDIUM_WORDS = {
    "phone": frozenset({"phone", "telephone", "tel", "fax", "mobile", "cell", "call"}),
    "email": frozenset({"email", "mail"}),
    "website": frozenset({"website", "web", "site", "url", "homepage", "www", "link"}),
}


def _with_medium(context: FieldContext, name: str, values: Sequence[list[str]]) -> str:
    """A label's name with the contact role its values have, where the
    label does not say it: "Admission Office" over "(325) 674-2000" is an
    ``admission_office_phone``; "" where there is nothing to add."""
    role = value_role(values)
    words = MEDIUM_WORDS.get(role)
    if words is None or words & set(name.split("_")):
        return ""
    context.evidence["role"] = role
    return f"{name}_{role}"


#: ``<font size>`` values that set a text larger than the page's own: a
#: step up ("+1") or an absolute size above the default 3.
_BIG_SIZE = re.compile(r"\s*(?:\+[1-7]|[4-7])\s*$")


def big_text(chain: Sequence[Elem]) -> bool:
    """Whether a text's element or one of the two above sets it in a
    larger font (``<font size="+1"><strong>Bob's Steak House``): the
    heading of a page written before CSS, in the role of an ``<h1>``."""
    return any(
        elem.tag == "font" and _BIG_SIZE.match(elem.attrs.get("size") or "") for elem in chain[-3:]
    )


def _tag(context: FieldContext) -> str:
    return context.chain[-1].tag if context.chain else ""


def _heading_rank(
    context: FieldContext,
    values: Sequence[Mapping[str, list[str]]],
    evidence: Sequence[PageEvidence],
) -> tuple[float, int, bool]:
    """Which of several fields proposed as the title is the page's title
    (the first of equals in page order): the one the title holds first (a
    title names its entity first: "2010 Acura ZDX Summary" holds the
    ``h1`` "2010 Acura ZDX" before the ``h2`` "Shop for a Acura ZDX"),
    then the highest heading (a field in no heading, which a semantic key
    named title, after every heading), then one without a label."""
    tag = _tag(context)
    per_page = (page.get(context.info.name, []) for page in values)
    positions = [e.title_position(v[0]) for v, e in zip(per_page, evidence, strict=True) if v]
    known = [p for p in positions if p is not None]
    return (
        statistics.median(known) if known else float("inf"),
        int(tag[1:]) if tag in HEADINGS else len(HEADINGS) + 1,
        bool(context.info.label),
    )


def _title_field(
    names: Sequence[str],
    contexts: Mapping[str, FieldContext],
    values: Sequence[Mapping[str, list[str]]],
    evidence: Sequence[PageEvidence],
) -> str:
    """Where no heading is the page's title, the field among ``names``
    (texts with nothing better than a tag to name them, one value each)
    that the page ``<title>`` holds on most seeds, the longest if several:
    a title set in ``<strong>`` or ``<font size="+1">`` on an old site."""
    found: list[tuple[float, str]] = []
    for name in names:
        context = contexts[name]
        if not context.info.slot.isdigit() or context.info.set:
            continue
        per_page = [page.get(name, []) for page in values]
        if in_title(per_page, evidence):
            shown = [len(v[0]) for v in per_page if v]
            found.append((sum(shown) / len(shown), name))
    return max(found)[1] if found else ""


def _tag_name(context: FieldContext, tag: str) -> str:
    """The last resort: the field's name from induction, unless it says
    nothing but how the value looks (``bold_text``); then the tag, after
    the data words of the nearest ancestor that has some (``specs_td``).
    Never the tag alone: without such words, a ``text`` or ``link``, after
    the heading of its section if there is one (``reviews_text``)."""
    name = context.info.name
    if set(_WORDS.findall(name)) - LAYOUT_WORDS - PRESENTATION_WORDS - {tag}:
        return name
    words = ancestor_words(context.chain)
    if words:
        return f"{words}_{tag}"
    kind = "link" if tag == "a" else "text"
    return f"{context.section}_{kind}" if context.section else kind


#: The words of the last resort's names (:func:`_tag_name`).
_LAST_RESORT = frozenset({"text", "link", "url", "image"})


def name_template(
    template: Template,
    trees: Sequence[PageTree],
    previous: Template | None = None,
    targets: Mapping[str, str] | None = None,
    pinned: Mapping[str, str] | None = None,
) -> None:
    """Rename the fields of ``template`` (induced from ``trees``) after the
    evidence of the pages, keeping ``previous``'s names for the same data,
    the spider's ``targets`` (name -> XPath) and the user's ``pinned``
    names (current or older name -> name); see the module doc."""
    with remembering_matches():
        _name_template(template, trees, previous, targets, pinned)


def _name_template(
    template: Template,
    trees: Sequence[PageTree],
    previous: Template | None,
    targets: Mapping[str, str] | None,
    pinned: Mapping[str, str] | None,
) -> None:
    contexts = field_contexts(template)
    values = [extract(template, tree).fields for tree in trees]
    uids = {info.name: info.uid for info in template.fields}
    evidence = [page_evidence(tree) for tree in trees]
    kept = set(previous.field_names) if previous is not None else set()
    wanted = _wanted_names(template, contexts, values, evidence, kept)
    final = rename_fields(template, wanted)
    contexts = {final.get(n, n): c for n, c in contexts.items()}
    _name_tag_sets(template, contexts)
    if previous is not None:
        keep_names(template, previous, trees)
        carry_profiles(template, previous, _profiles(contexts, template))
        keep_set_names(template, previous)
        carry_lone_members(template, previous)
    if targets:
        rename_fields(template, target_names(template, trees, targets), force=True)
    if pinned:
        rename_fields(template, pinned_names(template, pinned), force=True)
    note_key_value_sets(template, trees)
    _name_key_value_sets(template)
    note_sections(template, trees)
    profiles = _profiles(field_contexts(template), template)
    _add_examples(profiles, template, trees)
    template.meta[PROFILES] = profiles
    note_alternatives(
        template, [{uids[n]: v for n, v in page.items() if n in uids} for page in values]
    )


def _wanted_names(
    template: Template,
    contexts: Mapping[str, FieldContext],
    values: Sequence[Mapping[str, list[str]]],
    evidence: Sequence[PageEvidence],
    kept: set[str],
) -> dict[str, str]:
    """The name each field not in ``kept`` should take (see :func:`propose`)."""
    wanted: dict[str, str] = {}
    title_taken = "title" in kept
    unnamed: list[str] = []
    # Texts first: a link is named after the text it holds.
    ordered = sorted(contexts.items(), key=lambda item: not item[1].info.slot.isdigit())
    headings: list[str] = []
    by_class: list[str] = []
    for name, context in ordered:
        if name in kept:
            continue
        context.inner_field = wanted.get(context.inner_field, context.inner_field)
        per_page = [page.get(name, []) for page in values]
        proposal, strength = propose(context, per_page, evidence)
        if strength == CLASS and context.info.slot.isdigit() and not context.info.set:
            by_class.append(name)
        weak = strength == TAG or (
            strength == CLASS
            and (proposal in wanted.values() or _generated(proposal) or _navigation(proposal))
        )
        if weak or _holds_its_copy(template, context.info):
            proposal = copy_label_name(template, context.info) or proposal
        if proposal == "title":
            headings.append(name)
            proposal = "heading"
        if strength == TAG and proposal == _tag_name(context, _tag(context)):
            unnamed.append(name)
        wanted[name] = proposal
    _tell_apart_by_class(wanted, by_class, contexts)
    if headings and not title_taken:
        best = min(headings, key=lambda name: _heading_rank(contexts[name], values, evidence))
        wanted[best] = "title"
        title_taken = True
    if not title_taken:
        title = _title_field(unnamed, contexts, values, evidence) or _sole_h1(contexts, wanted)
        if title:
            wanted[title] = "title"
    return wanted


def _tell_apart_by_class(
    wanted: dict[str, str], by_class: list[str], contexts: Mapping[str, FieldContext]
) -> None:
    """Text fields that their elements' class words would name alike
    (``<span class="price old">``, ``<span class="price sale">``,
    ``<span class="price">``: ``price``, ``price_2``, ``price_3`` by page
    order) take the class words that tell their elements apart
    (``price_old``, ``price_sale``, ``price``), where every such word is
    one of letters and the names stay apart."""
    groups: dict[str, list[str]] = {}
    for name in by_class:
        groups.setdefault(wanted[name], []).append(name)
    for base, names in groups.items():
        if len(names) < 2:
            continue
        tokens = {name: _class_tokens(contexts[name].chain[-1]) for name in names}
        common = set.intersection(*tokens.values())
        proposals = {
            name: "_".join([base, *sorted(tokens[name] - common - set(base.split("_")))])
            for name in names
        }
        words = [w for p in proposals.values() for w in p.split("_")]
        if len(set(proposals.values())) == len(names) and all(w.isalpha() for w in words):
            wanted.update(proposals)


def _class_tokens(elem: Elem) -> set[str]:
    """An element's class tokens, as names."""
    return {slug(token) for token in (elem.attrs.get("class") or "").split() if slug(token)}


def _sole_h1(contexts: Mapping[str, FieldContext], wanted: Mapping[str, str]) -> str:
    """Where nothing else is the page's title, the one field that is the
    text of an ``<h1>`` with nothing but its tag to name it (a product's
    name on a shop whose ``<title>`` says something else): a page's one
    top heading names what the page is about."""
    found = [
        name
        for name, proposal in wanted.items()
        if proposal == "heading"
        and _tag(contexts[name]) == "h1"
        and contexts[name].info.slot.isdigit()
        and not contexts[name].info.set
    ]
    return found[0] if len(found) == 1 else ""


#: What a key/value set is named when its element has no class words.
KEY_VALUE_NAME = "details"


def _name_key_value_sets(template: Template) -> None:
    """Name each key/value set (a mapping in the item) after the heading
    right before the element that holds its rows (``<h3>Display</h3><table
    class="specs">``: a sheet in sections has a table of one class per
    section), else the class words of that element, else
    :data:`KEY_VALUE_NAME`: not after the tag it repeats (``tr_list``)."""
    noted = template.meta.get(KEY_VALUE_SETS)
    if not isinstance(noted, dict):
        return
    holders = _set_holders(template.root)
    headed = _headed_elements(template.root)
    taken = set(template.field_names) | set(template.set_names)
    renamed: dict[str, Any] = {}
    for old, where in noted.items():
        node, holder = holders.get(old, (None, None))
        if node is None:
            renamed[old] = where
            continue
        # The mapping replaces its own label and value fields in the item.
        own = {old, where["cells"]} - {""}  # "": no set, the top level
        taken -= {info.name for info in template.fields if info.set in own}
        taken.discard(old)
        base = (
            (headed.get(holder.uid) or class_words(holder)) if holder is not None else ""
        ) or KEY_VALUE_NAME
        name = fresh_name(base, taken)
        taken.add(name)
        node.name = name
        for info in template.fields:
            if info.set == old:
                info.set = name
        renamed[name] = where
    template.meta[KEY_VALUE_SETS] = renamed


def _headed_elements(root: Elem) -> dict[int, str]:
    """The elements right after a heading of one fixed text, by uid: the
    slug of that text."""
    found: dict[int, str] = {}
    stack: list[TNode] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Opt):
            stack.append(node.child)
            continue
        if not isinstance(node, Elem | Set):
            continue
        heading = ""
        for child in node.children:
            inner = child.child if isinstance(child, Opt) else child
            if isinstance(inner, Elem) and heading:
                found[inner.uid] = heading
            heading = _heading_text(inner)
            stack.append(inner)
    return found


def _heading_text(node: TNode) -> str:
    """The slug of a heading's one fixed text, label-like; else ``""``."""
    if not isinstance(node, Elem) or node.tag not in HEADINGS or len(node.children) != 1:
        return ""
    text = node.children[0]
    if not isinstance(text, Text) or not text.fixed:
        return ""
    value = (text.parts[0] or "").strip().rstrip(":")
    return slug(value) if label_like(value) else ""


#: Words a set's name from induction may hold that say only which markup
#: repeats (``tr_list``, ``a_href_2_list``).
_MARKUP_WORDS = frozenset(html_defs.tags) | {"href", "src", "list"}


def _name_tag_sets(template: Template, contexts: Mapping[str, FieldContext]) -> None:
    """Name each set that induction named after the tag it repeats
    (``tr_list``: its element had no class words) after the class words of
    the element holding it, else the heading of its section, else its
    first text field with a name of its own (``author_list``), else its
    first text field (``link_list``): a record list is a key of the item,
    read as such."""
    holders = _set_holders(template.root)
    headed = _heading_rows(template.root)
    taken = set(template.field_names) | set(template.set_names)
    members: dict[str, list[FieldInfo]] = {}
    for info in template.fields:
        members.setdefault(info.set, []).append(info)
    renamed: dict[str, str] = {}
    for name, (_, holder) in holders.items():
        if not set(_WORDS.findall(name)) <= _MARKUP_WORDS:
            continue
        infos = members.get(name, [])
        texts = [i.name for i in infos if i.slot.isdigit() and not _generated(i.name)]
        named = [n for n in texts if not set(_WORDS.findall(n)) <= _MARKUP_WORDS | _LAST_RESORT]
        context = contexts.get(infos[0].name) if infos else None
        section = context.section if context is not None else ""
        words = class_words(holder) if holder is not None else ""
        if headed.get(name):
            base = headed[name]
        elif words and not _generated(words):
            base = words
        elif section:
            base = section
        elif named or texts:
            base = f"{(named or texts)[0]}_list"
        else:
            continue
        taken.discard(name)
        # Beside fields of that name (``overview``, ``overview_2``) a
        # list is told apart as one.
        if base in taken and not base.endswith("_list"):
            base = f"{base}_list"
        renamed[name] = fresh_name(base, taken)
    rename_sets(template, renamed)


def _heading_rows(root: Elem) -> dict[str, str]:
    """The sets (by name) right after an element that holds one short
    fixed text and nothing else, a heading row of the list below it
    (``<tr><td colspan=2><b>Cast</b></td></tr>``, then the cast's rows;
    ``<strong>Crew</strong>``, then a ``<ul>`` of the crew), each with
    that text as a name; not a list of blocks (lists in its records), nor
    one after optional headings alike (blocks of a heading and a list,
    repeated, whose headings a record shows one of)."""
    found: dict[str, str] = {}
    stack: list[TNode] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Elem | Set):
            items = [item.child if isinstance(item, Opt) else item for item in node.children]
            for at, (before, item) in enumerate(itertools.pairwise(items), 1):
                listed = _listed(item)
                if listed is None or not isinstance(before, Elem) or _alternative(node, at):
                    continue
                text = _only_text(before)
                nested = any(
                    isinstance(inner, Set) for inner in iter_nodes(listed) if inner is not listed
                )
                if (
                    text
                    and label_like(text)
                    and len(text.split()) <= HEADING_ROW_WORDS
                    and not nested
                ):
                    found[listed.name] = slug(text)
            stack.extend(items)
    return found


def _alternative(node: Elem | Set, at: int) -> bool:
    """Whether the heading before ``node.children[at]`` is one of optional
    headings alike, one of which a record shows (blocks of a heading and
    a list, repeated: which heading is not the list's)."""
    before = node.children[at - 1]
    earlier = node.children[at - 2] if at > 1 else None
    return (
        isinstance(before, Opt)
        and isinstance(earlier, Opt)
        and isinstance(before.child, Elem)
        and isinstance(earlier.child, Elem)
        and element_look(before.child) == element_look(earlier.child)
    )


def _listed(item: TNode) -> Set | None:
    """A set, or the one set an element holds (``<ul>`` of ``<li>``)."""
    if isinstance(item, Elem) and len(item.children) == 1:
        inner = item.children[0]
        item = inner.child if isinstance(inner, Opt) else inner
    return item if isinstance(item, Set) else None


def _only_text(elem: Elem) -> str:
    """The one fixed text below ``elem`` when it holds nothing else and
    reads as a heading: in a lead element (``<b>``, ``<th>``, a heading)
    or a cell across the row (``colspan``)."""
    texts = []
    heading = False
    for node in iter_nodes(elem):
        if isinstance(node, Text):
            if not node.fixed:
                return ""
            texts.append(node.parts[0] or "")
        elif isinstance(node, Set | Opt | Blob) or (isinstance(node, Elem) and node.names):
            return ""
        elif isinstance(node, Elem):
            heading = heading or node.tag in LEAD_TAGS or "colspan" in node.attrs
    return texts[0].strip() if heading and len(texts) == 1 else ""


def _set_holders(root: Elem) -> dict[str, tuple[Set, Elem | None]]:
    """Each set by name, with the element it sits in."""
    found: dict[str, tuple[Set, Elem | None]] = {}
    stack: list[tuple[TNode, Elem | None]] = [(root, None)]
    while stack:
        node, holder = stack.pop()
        if isinstance(node, Set):
            found[node.name] = (node, holder)
            stack.extend((child, holder) for child in node.children)
        elif isinstance(node, Elem):
            stack.extend((child, node) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, holder))
    return found


def _generated(name: str) -> bool:
    """Whether a name from class or id words holds a word of letters and
    digits run together (``ctl00``, ``plc1``): an id a framework made up,
    not a word a person chose.

    >>> _generated("ctl00_plc1_div_mfg_logo"), _generated("product_publisher")
    (True, False)
    >>> _generated("f_2009_endowment")
    False
    """
    return any(
        any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word)
        for word in name.split("_")
    )


def _navigation(name: str) -> bool:
    """Whether a name from class words says no more than that the value
    sits in the site's navigation (``breadcrumbs``, ``nav_menu``; also
    as compound splitting leaves it, ``bread_crumb``)."""
    words = _WORDS.findall(name)
    covered: set[int] = set()
    for i, word in enumerate(words):
        if word in NAVIGATION_WORDS:
            covered.add(i)
        if i + 1 < len(words) and word + words[i + 1] in NAVIGATION_WORDS:
            covered |= {i, i + 1}
    rest = {word for i, word in enumerate(words) if i not in covered}
    return bool(covered) and not rest - LAYOUT_WORDS - PRESENTATION_WORDS


def copy_label_name(template: Template, info: FieldInfo) -> str:
    """The name the label of a dropped copy of the field gives (see
    :mod:`._copies`), or "". It names a field whose own evidence is a tag,
    class words an earlier field already took (two slots of one byline,
    "WaterBrook Press / 2010", share their element's words, where the
    details table's "Publication Date:" says which the second is), or
    words of a generated id (:func:`_generated`: the maker in a logo link
    of ``id="ctl00_plc1_divMfgLogo"`` is the details table's
    "Manufacturer:"), or words of navigation only (:func:`_navigation`:
    a breadcrumb's crumb is the details table's "Company:"). Class words
    a person wrote for the value ("product-publisher") stay: they name
    the field itself, the label only its copy."""
    labels = template.meta.get(COPY_LABELS)
    if not isinstance(labels, dict):
        return ""
    label = labels.get(f"{info.uid}/{info.slot}")
    return label_name(label) if isinstance(label, str) else ""


def _holds_its_copy(template: Template, info: FieldInfo) -> bool:
    """Whether ``info`` is an attribute of an element whose own text was
    dropped as its copy: a link that shows its URL (``<a href="http://x.edu">
    http://x.edu</a>``). A label of that text ("Website:") is the page's
    label for the link itself, so it names the field before class words
    do, as it would have named the text."""
    if info.slot.isdigit():
        return False
    found = template.meta.get(COPY_FALLBACKS)
    copies = found.get(f"{info.uid}/{info.slot}") if isinstance(found, dict) else None
    if not isinstance(copies, list) or not 0 <= info.uid < len(template.nodes):
        return False
    texts = {
        str(node.uid) for node in iter_nodes(template.nodes[info.uid]) if isinstance(node, Text)
    }
    return any(isinstance(copy, str) and copy.partition("/")[0] in texts for copy in copies)


#: Example values kept per field for ``scrapy wrapx show``.
EXAMPLES = 3
#: Characters of an example value kept.
EXAMPLE_CHARS = 60


def _add_examples(profiles: dict[str, Any], template: Template, trees: Sequence[PageTree]) -> None:
    """Record, per field, whether it holds a list (it repeats in a set that
    is not sections, or holds several values on a seed) and a few example
    values."""
    in_sets = listed_fields(template)
    for tree in trees:
        for name, got in extract(template, tree).fields.items():
            profile = profiles.get(name)
            if profile is None:
                continue
            profile["many"] = profile.get("many", name in in_sets) or len(got) > 1
            examples = profile.setdefault("examples", [])
            for value in got:
                short = fold_whitespace(value)[:EXAMPLE_CHARS]
                if short and short not in examples and len(examples) < EXAMPLES:
                    examples.append(short)


def _profiles(contexts: Mapping[str, FieldContext], template: Template) -> dict[str, Any]:
    """What named each field, stored with the template so that a later
    version can recognize the field (:func:`._rename.carry_profiles`)."""
    old = template.meta.get(PROFILES) or {}
    profiles: dict[str, Any] = {}
    for name, context in contexts.items():
        words = sorted(
            {w for e in context.chain[-3:] for w in _WORDS.findall(class_words(e))}
            - LAYOUT_WORDS
            - {"product"}
        )
        label = field_label_name(context.info)
        inner = contexts.get(context.inner_field)
        if not label and inner is not None:
            # A link's address is labelled as the link's text is.
            label = field_label_name(inner.info)
        profile = {
            "label": label,
            "key": context.evidence.get("key", ""),
            "role": context.evidence.get("role", ""),
            "words": words,
            "slot": "text" if context.info.slot.isdigit() else context.info.slot,
            "tag": context.chain[-1].tag if context.chain else "",
            "order": context.order,
        }
        previous = old.get(name) if isinstance(old, dict) else None
        if isinstance(previous, dict):
            for key in ("key", "role"):
                profile[key] = profile[key] or previous.get(key, "")
        profiles[name] = profile
    return profiles


def target_names(
    template: Template, trees: Sequence[PageTree], targets: Mapping[str, str]
) -> dict[str, str]:
    """Field -> target name, for each target (name -> XPath) whose values
    on the seeds a field holds on most pages where the target selects
    something."""
    values = [extract(template, tree).fields for tree in trees]
    renamed: dict[str, str] = {}
    for target, xpath in sorted(targets.items()):
        counts: Counter[str] = Counter()
        pages = 0
        for tree, fields in zip(trees, values, strict=True):
            selected = _select(tree, xpath)
            if not selected:
                continue
            pages += 1
            counts.update(
                name
                for name, got in fields.items()
                if name not in renamed and selected & {canon(v) for v in got}
            )
        chosen = _votes(counts, pages)
        if chosen:
            renamed[chosen] = target
    return renamed


def _select(tree: PageTree, xpath: str) -> set[str]:
    try:
        result = tree.document.getroottree().getroot().xpath(xpath)
    except etree.XPathError:
        return set()
    found: set[str] = set()
    for item in result if isinstance(result, list) else [result]:
        text = (
            "".join(str(t) for t in item.itertext())
            if isinstance(item, etree._Element)
            else str(item)
        )
        if fold_whitespace(text):
            found.add(canon(text))
    return found


def pinned_names(template: Template, pinned: Mapping[str, str]) -> dict[str, str]:
    """Field -> pinned name: a pin names a field by its current name, or by
    a name it had in ``previous`` (carried over by the same data)."""
    return {name: pinned[name] for name in template.field_names if name in pinned}


def load_pins(value: Any) -> dict[str, dict[str, str]]:
    """The ``WRAPX_ITEMS_FIELD_NAMES`` mapping, read from its JSON file when
    ``value`` is a path; :class:`ValueError` when it is not a mapping of
    mappings of names."""
    if value is None or value == "":
        return {}
    data = json.loads(Path(value).read_text(encoding="utf-8")) if isinstance(value, str) else value
    if not isinstance(data, Mapping) or not all(
        isinstance(names, Mapping)
        and all(isinstance(k, str) and isinstance(v, str) and slug(v) for k, v in names.items())
        for names in data.values()
    ):
        raise ValueError(
            f"Invalid setting WRAPX_ITEMS_FIELD_NAMES={value!r:.80}: "
            "expected {kind, URL pattern, site or '*': {name: name}}"
        )
    return {str(scope): dict(names) for scope, names in data.items()}


def pins_for(
    pins: Mapping[str, Mapping[str, str]], kind_key: str, url_pattern: str = ""
) -> dict[str, str]:
    """The names pinned for a kind: ``"*"``, then its site, its URL pattern
    and its key, the more specific winning.

    >>> pins_for({"*": {"h1": "heading"}, "/book/*.html": {"h1": "title"}},
    ...          "books.example/book-55088d", "/book/*.html")
    {'h1': 'title'}
    """
    domain = kind_key.rpartition("/")[0]
    merged: dict[str, str] = {}
    for scope in ("*", domain, url_pattern, kind_key):
        if scope:
            merged.update(pins.get(scope, {}))
    return merged
