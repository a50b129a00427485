"""How the matcher reads each hedge of a template: a plan per hedge.

Most hedges of a template need no search at all. A hedge of elements and
texts only fits a page's children position by position (plan
:data:`TAGS`). A hedge with optionals and sets is still *deterministic*
when it is LL(1) over the page's children: wherever the matcher must choose
(take an optional or skip it, repeat a set or leave it), no page node can
start both choices. Then one greedy left-to-right pass with one node of
look-ahead finds the only parse there is (plan :data:`GREEDY`), checking
and extracting at once. Everything else (sets whose body may be empty,
blobs, two optional ``<div>`` blocks that nothing at their top tells apart)
goes through the matcher's general parse (plan :data:`SEARCH`).

"Can start" is decided by the matcher's shallow fit (see
:meth:`._match.Matcher.shallow`): two elements *clash* when one page
element could fit both: the same tag, no fixed attribute that one requires
and the other forbids or fixes otherwise, and no two different fixed first
texts. A ``<div class="author">`` never clashes with a ``<div
class="publisher">``, nor an ``<li>`` that starts with "Fiction" with one
that starts with "Books". Texts clash unless both are fixed and differ.
"""

from __future__ import annotations

from collections.abc import Callable

from scrapy_wrapx.template import Elem, Opt, Set, Text, TNode

#: Plans: position by position; one greedy pass; general search.
TAGS, GREEDY, SEARCH = 0, 1, 2

#: The element and text items a node can start with and whether it can be
#: empty; None when it can start with anything (a blob) or its
#: repetitions can be empty.
First = tuple[tuple[TNode, ...], bool] | None

#: ``anchor(elem)``: the fixed first text of an element, or None.
Anchor = Callable[[Elem], "str | None"]


def first(item: TNode) -> First:
    if isinstance(item, (Elem, Text)):
        return (item,), False
    if isinstance(item, Opt):
        inner = first(item.child)
        return None if inner is None else (inner[0], True)
    if isinstance(item, Set):
        body = first_of_hedge(item.children)
        return None if body is None or body[1] else body
    return None


def first_of_hedge(items: list[TNode]) -> First:
    found_items: list[TNode] = []
    for item in items:
        found = first(item)
        if found is None:
            return None
        found_items.extend(found[0])
        if not found[1]:
            return tuple(found_items), False
    return tuple(found_items), True


def _texts_clash(a: Text, b: Text) -> bool:
    """Texts clash unless both are fixed and differ."""
    return not (a.fixed and b.fixed and a.parts[0] != b.parts[0])


def _excludes(x: Elem, y: Elem) -> bool:
    """Whether a fixed attribute of ``x`` is one that ``y`` forbids (does
    not have) or fixes to another value."""
    for name, value in x.attrs.items():
        if value is None:
            continue
        if name not in y.attrs:
            return True  # x requires it, y forbids it
        other = y.attrs[name]
        if other is not None and other != value:
            return True
    return False


def clash(a: TNode, b: TNode, anchor: Anchor) -> bool:
    """Whether one page node could fit both ``a`` and ``b`` shallowly."""
    if isinstance(a, Text) and isinstance(b, Text):
        return _texts_clash(a, b)
    if not (isinstance(a, Elem) and isinstance(b, Elem)) or a.tag != b.tag:
        return False
    if _excludes(a, b) or _excludes(b, a):
        return False
    first_a, first_b = anchor(a), anchor(b)
    return first_a is None or first_b is None or first_a == first_b


def _clashes(choice: tuple[TNode, ...], follow: tuple[TNode, ...], anchor: Anchor) -> bool:
    return any(clash(a, b, anchor) for a in choice for b in follow)


def deterministic(items: list[TNode], follow: tuple[TNode, ...], anchor: Anchor) -> bool:
    """Whether one node of look-ahead decides every choice in ``items``,
    when what comes after them starts with one of ``follow``."""
    after: list[tuple[TNode, ...]] = [follow] * (len(items) + 1)
    for index in range(len(items) - 1, -1, -1):
        found = first(items[index])
        if found is None:
            return False
        after[index] = found[0] + after[index + 1] if found[1] else found[0]
    return all(_deterministic_item(item, after[i + 1], anchor) for i, item in enumerate(items))


def _deterministic_item(item: TNode, follow: tuple[TNode, ...], anchor: Anchor) -> bool:
    if isinstance(item, (Elem, Text)):
        return True
    if isinstance(item, Opt):
        inner = first(item.child)
        if inner is None or inner[1] or _clashes(inner[0], follow, anchor):
            return False
        return _deterministic_item(item.child, follow, anchor)
    if isinstance(item, Set):
        body = first(item)
        if body is None or _clashes(body[0], follow, anchor):
            return False
        return deterministic(item.children, body[0] + follow, anchor)
    return False


def plan_of(items: list[TNode], anchor: Anchor) -> int:
    """The plan of a hedge that must end where its parent's span ends."""
    if all(isinstance(item, (Elem, Text)) for item in items):
        return TAGS
    return GREEDY if deterministic(items, (), anchor) else SEARCH
