"""Template texts and labels: the textual symbols alignment compares.

*Template text* follows EXALG's occurrence vectors, reduced to what a handful
of seeds can support: a text value that occurs on every seed page is
template (data values do repeat across pages — tags, reviewers, prices —
but rarely on all of them). Template texts are what keeps a menu of fixed labels from folding into
a set of "records", and "Publisher" from aligning with "ISBN-13".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scrapy_wrapx.dom import TEXT, PageTree

#: A label: words ending in a colon ("Price:", "ISBN-13:"); "12:30" and
#: "http://x" are none.
_LABEL = r"[^\W\d_][^:]{0,30}?:"
#: A text that opens with a label, then a space ("Price: $12").
_LABEL_PREFIX = re.compile(rf"({_LABEL})\s")
#: A label opening a text, or the whole text: "Price: $12", "UPC:".
_OPENING_LABEL = re.compile(rf"({_LABEL})(?:\s|$)")

#: Marks a label among the template texts, so that no text value can
#: collide with it.
_LABEL_MARK = "\x00"


def template_texts(trees: Sequence[PageTree]) -> frozenset[str]:
    """Text values that occur on every page (EXALG's root occurrence
    vector, ``<1, 1, ...>``, read as "at least once")."""
    if len(trees) < 2:
        return frozenset()
    need = len(trees)
    counts: dict[str, int] = {}
    for tree in trees:
        for value in _page_symbols(tree):
            counts[value] = counts.get(value, 0) + 1
    return frozenset(value for value, count in counts.items() if count >= need)


def _page_symbols(tree: PageTree) -> set[str]:
    """A page's distinct text values, and the labels that open them:
    labels that open a text on every page ("Price: 12", "Price: 9") are
    template too."""
    values = {leaf.value for leaf in tree.leaves if leaf.tag == TEXT}
    labels = {_LABEL_MARK + prefix for prefix in map(label_prefix, values) if prefix}
    return values | labels


def opening_label(value: str) -> str:
    """The label a text opens with or is ("Price:" of "Price: $12", "UPC:"
    of "UPC:"), or "", whether or not other pages share it."""
    match = _OPENING_LABEL.match(value.strip())
    return match.group(1) if match is not None else ""


def label_prefix(value: str) -> str:
    """The label a text opens with ("Price:" of "Price: $12"), or ""."""
    match = _LABEL_PREFIX.match(value)
    return match.group(1) if match is not None else ""


def text_label(value: str, template: frozenset[str]) -> str:
    """The symbol of a text: the text itself when it is template text; the
    label it opens with when that label opens a text on every seed page,
    marked ``#:``, so that "Price: 12" and "ISBN: 3" are different symbols
    although both carry data (a title such as "Dune: Part One" opens with
    no *template* label); else ``#``."""
    if value in template:
        return f"#{value}"
    prefix = label_prefix(value)
    return f"#:{prefix}" if prefix and _LABEL_MARK + prefix in template else "#"


def label_only(value: str) -> bool:
    """Whether a text is a label and nothing else ("Dimensions:")."""
    opening = opening_label(value)
    return bool(opening) and opening == value.strip()
