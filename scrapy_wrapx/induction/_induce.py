"""The induction pipeline: seed pages in, one :class:`Template` out.

1. Parse the seeds and find their *template texts* (EXALG occurrence, see
   :mod:`._instance`).
2. Turn every seed into a fully fixed template, folding repeated records
   into sets bottom-up on the way (MDR/NET/SYNTHIA, :mod:`._fold`); a single
   seed page is enough for that.
3. Merge the seeds one by one, the largest first (partial tree alignment's
   seed tree), by peer alignment (:mod:`._merge`): unaligned parts become
   optional, differing texts variant.
4. Split variant texts into fixed tokens and slots (:mod:`._tokens`), number
   the nodes and name the fields (:mod:`._naming`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from lxml import etree

from scrapy_wrapx.dom import PageTree, parse
from scrapy_wrapx.induction._instance import Info, instance, refresh, template_texts
from scrapy_wrapx.induction._merge import merge_hedges, merge_nodes
from scrapy_wrapx.induction._naming import name_fields
from scrapy_wrapx.induction._rename import keep_names
from scrapy_wrapx.induction._tokens import derive_parts
from scrapy_wrapx.template import Elem, Opt, Set, Template, Text, TNode, iter_nodes

#: Most seed pages one template is induced from.
MAX_SEEDS = 20


def induce_template(
    pages: Sequence[str | bytes | PageTree],
    urls: Sequence[str | None] | None = None,
    previous: Template | None = None,
) -> Template:
    """Induce the template of 1 to :data:`MAX_SEEDS` pages of one kind.

    ``pages`` are HTML (text or bytes) or parsed trees; ``urls`` their URLs;
    ``previous`` an older template of the same kind whose field names are
    kept for the same data (names stay stable across re-induction).
    """
    if not pages:
        raise ValueError(f"No seed pages to induce a template from: {pages!r}")
    if len(pages) > MAX_SEEDS:
        raise ValueError(f"Too many seed pages: {len(pages)!r} (at most {MAX_SEEDS})")
    if urls is not None and len(urls) != len(pages):
        raise ValueError(f"Got {len(urls)!r} URLs for {len(pages)!r} pages")
    trees = [
        page if isinstance(page, PageTree) else parse(page, urls[i] if urls else None)
        for i, page in enumerate(pages)
    ]
    texts = template_texts(trees)
    seeds = sorted((instance(tree, texts) for tree in trees), key=lambda e: -e.aux.size)
    root = seeds[0]
    for seed in seeds[1:]:
        if seed.tag != root.tag:
            seed = Elem(root.tag, dict(seed.attrs), seed.children)
            refresh(seed)
        merged = merge_nodes(root, seed)
        assert isinstance(merged, Elem)
        root = merged
    _unfold_constant_sets(root)
    separators: list[Text] = _widen_bylines(root) if len(trees) > 1 else []
    for node in iter_nodes(root):
        if isinstance(node, Text):
            if not node.fixed and node.aux.samples:
                node.parts = derive_parts(node.aux.samples)
            if node.aux is not None and node.aux.sep:
                separators.append(node)
    _sign_fixed_subtrees(root)
    for node in iter_nodes(root):
        node.aux = None
    for text in separators:
        text.names = [""] * text.slots  # rendered, never a field
    template = Template(
        root,
        meta={
            "seeds": len(trees),
            "urls": [tree.url for tree in trees],
        },
    )
    template.fields = name_fields(
        root,
        previous.fields if previous is not None else None,
        separators={id(text) for text in separators},
    )
    if previous is not None:
        keep_names(template, previous, trees)
    return template


def _unfold_constant_sets(root: Elem) -> None:
    """Replace every set that had the very same content in at least two
    instances (seed pages, or records of one page) by that content: a list
    that never varies is template, as EXALG reads a token occurring the same
    way on every page (social links, hidden form fields, a fixed menu that
    merely looks like a list)."""
    stack: list[TNode] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Elem | Set):
            children: list[TNode] = []
            for child in node.children:
                children.extend(_unfolded(child))
            node.children = children
            stack.extend(children)
        elif isinstance(node, Opt):
            inner = _unfolded(node.child)
            if len(inner) == 1:
                node.child = inner[0]
            else:
                # An optional constant list: optional as a whole, which an
                # Opt cannot hold, so it stays a set of its one content.
                node.child = Set(inner)
                node.child.aux = None
            stack.append(node.child)


def _unfolded(node: TNode) -> list[TNode]:
    if not isinstance(node, Set) or node.aux is None:
        return [node]
    if node.aux.raw is not None and node.aux.sig is not None and node.aux.count >= 2:
        return list(node.aux.raw)
    return _as_tuple(node) or [node]


def _slots_and_size(nodes: list[TNode]) -> tuple[int, int]:
    slots = size = 0
    for top in nodes:
        for node in iter_nodes(top):
            size += 1
            if isinstance(node, Text) and not node.fixed:
                slots += 1
            elif isinstance(node, Elem):
                slots += sum(value is None for value in node.attrs.values())
    return slots, size


def _as_tuple(node: Set) -> list[TNode] | None:
    """A "set" that has the same number ``k`` of repetitions in every one of
    its ``n >= 2`` instances may be a tuple: positions with roles of their
    own (hidden inputs named "sku", "action"...; share links to Facebook,
    Twitter...). SYNTHIA's MDL decides: unrolled, the template grows by
    ``k - 1`` bodies, the data shrinks by the slots that positions fix, on
    every instance. Unroll when that saves more than it costs."""
    instances = node.aux.instances
    if not instances or len(instances) < 2:
        return None
    k = len(instances[0])
    if k < 2 or any(len(reps) != k for reps in instances):
        return None
    positions: list[list[TNode]] = []
    for p in range(k):
        hedge = instances[0][p]
        for reps in instances[1:]:
            hedge = merge_hedges(hedge, reps[p])
        positions.append(hedge)
    body_slots, body_size = _slots_and_size(node.children)
    tuple_slots = sum(_slots_and_size(hedge)[0] for hedge in positions)
    saved = len(instances) * (k * body_slots - tuple_slots)
    if saved <= (k - 1) * body_size:
        return None
    return [item for hedge in positions for item in hedge]


def _sign_fixed_subtrees(root: Elem) -> None:
    """Give every maximal fully fixed element the digests of its seed
    elements' serializations (:attr:`~scrapy_wrapx.template.Elem.sigs`): an
    element of a page with one of those digests has exactly that subtree,
    so extraction takes it whole without walking it."""
    order = list(iter_nodes(root))
    fixed: dict[int, bool] = {}
    for node in reversed(order):
        if isinstance(node, Elem):
            fixed[id(node)] = all(v is not None for v in node.attrs.values()) and all(
                fixed.get(id(child), False) for child in node.children
            )
        elif isinstance(node, Text):
            fixed[id(node)] = node.fixed
    stack: list[tuple[TNode, bool]] = [(root, False)]
    while stack:
        node, inside_fixed = stack.pop()
        if isinstance(node, Elem):
            mine = fixed[id(node)]
            if mine and not inside_fixed and node.aux is not None:
                node.sigs = tuple(sorted({subtree_digest(e) for e in node.aux.sources}))
            stack.extend((child, mine) for child in node.children)
        elif isinstance(node, Set):
            stack.extend((child, False) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, False))


def subtree_digest(element: etree._Element) -> str:
    """Digest of an element's serialization (its tail left out): equal
    digests, equal subtrees, hence equal normalized subtrees."""
    data = etree.tostring(element, with_tail=False)
    return hashlib.blake2b(data, digest_size=8).hexdigest()


#: Inline elements that may hold one item of an inline list.
INLINE_TAGS = frozenset({"a", "span", "b", "strong", "em", "i", "cite"})


def _carries_data(node: Elem) -> bool:
    return any(
        (isinstance(n, Text) and not n.fixed)
        or (isinstance(n, Elem) and any(v is None for v in n.attrs.values()))
        for n in iter_nodes(node)
    )


def _widen_bylines(root: Elem) -> list[Text]:
    """Generalize a *byline* into a list of one: an inline element with data
    that closes its parent right after a text ("By: <a>Lynn A. Coleman</a>")
    becomes a set of ``[separator,] element``, so a page that names several
    (``By: <a>A</a>, <a>B</a>``) fits the template and every name lands in
    the one field. Seeds that happen to show one author each cannot reveal
    the list; the shape (label, then the element ending the line) is what
    bylines, "Publisher: <a>...</a>" and tag lines share. Returns the
    separator texts (never fields)."""
    separators: list[Text] = []
    for node in list(iter_nodes(root)):
        if not isinstance(node, Elem) or len(node.children) < 2:
            continue
        last, before = node.children[-1], node.children[-2]
        if (
            isinstance(last, Elem)
            and last.tag in INLINE_TAGS
            and isinstance(before, Text)
            and _carries_data(last)
        ):
            sep = Text([None])
            sep.aux = Info(frozenset({("#",)}), 1, [], "#", sep=True)
            wrapped = Opt(sep)
            wrapped.aux = sep.aux
            body = Set([wrapped, last])
            body.aux = last.aux
            node.children[-1] = body
            separators.append(sep)
    return separators
