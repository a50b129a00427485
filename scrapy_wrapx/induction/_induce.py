"""The induction pipeline: seed pages in, one :class:`Template` out.

1. Parse the seeds and find their *template texts* (EXALG occurrence, see
   :mod:`._labels`).
2. Turn every seed into a fully fixed template, folding repeated records
   into sets bottom-up on the way (MDR/NET/SYNTHIA, :mod:`._fold`); a single
   seed page is enough for that.
3. Merge the seeds one by one, the largest first (partial tree alignment's
   seed tree), by peer alignment (:mod:`._merge`): unaligned parts become
   optional, differing texts variant; then revise the sets with all seeds
   in view (:mod:`._sets`).
4. Split variant texts into fixed tokens and slots (:mod:`._tokens`), number
   the nodes and name the fields (:mod:`._naming`).
5. Make template the slots that hold the same values on every seed once
   per-page tokens (session ids, tracking parameters) are normalised
   (:mod:`._pagetokens`): navigation, not data; and the slots that copy
   another's values on every seed (:mod:`._copies`): one datum, one field.

The working data of a run (:class:`._info.Info` per node) lives in its
:class:`._info.Scratch`, never on the template.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from lxml import etree

from scrapy_wrapx.dom import HEADINGS, PageTree, parse
from scrapy_wrapx.extraction import remembering_matches
from scrapy_wrapx.induction._copies import copied_fields, note_copies, version_copies
from scrapy_wrapx.induction._info import Scratch, refresh
from scrapy_wrapx.induction._instance import instance
from scrapy_wrapx.induction._labelled import open_label_alternatives, open_labelled_values
from scrapy_wrapx.induction._labels import (
    list_places,
    template_texts,
    text_places,
    varying_places,
)
from scrapy_wrapx.induction._latent import name_latent, note_latent_shares
from scrapy_wrapx.induction._merge import merge_nodes
from scrapy_wrapx.induction._naming import name_fields
from scrapy_wrapx.induction._pagetokens import drop_fields, template_fields
from scrapy_wrapx.induction._prose import blob_prose
from scrapy_wrapx.induction._rename import keep_names, keep_set_names
from scrapy_wrapx.induction._sets import (
    join_split_sets,
    unfold_constant_sets,
    widen_bylines,
    widen_lists,
)
from scrapy_wrapx.induction._tables import open_cells, widen_rows
from scrapy_wrapx.induction._tokens import derive_parts
from scrapy_wrapx.template import (
    Elem,
    Opt,
    Set,
    Template,
    Text,
    TNode,
    assign_sets,
    iter_nodes,
)

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
    _check_seeds(pages, urls)
    with remembering_matches():
        return _induce(_parse_seeds(pages, urls), previous)


def _induce(trees: list[PageTree], previous: Template | None) -> Template:
    scratch = Scratch()
    root = _merge_seeds(scratch, trees)
    unfold_constant_sets(scratch, root)
    if len(trees) > 1:
        blob_prose(scratch, root)
    # After prose is blobbed: runs of a paragraph's links joined would keep
    # it from reading as prose.
    join_split_sets(scratch, root)
    separators = widen_bylines(scratch, root) if len(trees) > 1 else []
    if len(trees) > 1:
        widen_rows(scratch, root)
        widen_lists(scratch, root)
    separators.extend(_tokenize_texts(scratch, root))
    labelled = {id(text) for text in open_labelled_values(root)}
    labelled.update(id(text) for text in open_label_alternatives(root))
    cells = {id(text) for text in open_cells(root)}
    _sign_fixed_subtrees(scratch, root)
    for text in separators:
        text.names = [""] * text.slots  # rendered, never a field
    template = Template(root, meta={"seeds": len(trees), "urls": [tree.url for tree in trees]})
    latent: list[tuple[Text, str, list[Elem]]] = []
    template.fields = name_fields(
        root,
        previous.fields if previous is not None else None,
        separators={id(text) for text in separators},
        latent=latent,
    )
    if len(trees) > 1:
        # One seed shows no variation at all: every text would be latent.
        name_latent(latent)
    if previous is not None:
        keep_names(template, previous, trees)
        keep_set_names(template, previous)
    # Table cells and labelled values are data even where every seed agrees.
    opened = cells | labelled
    columns = {info.name for info in template.fields if id(template.nodes[info.uid]) in opened}
    drop_fields(template, template_fields(template, trees, protected=columns))
    copied = version_copies(template)
    for dropped, kept in copied_fields(template, trees).items():
        copied.setdefault(dropped, copied.get(kept, kept))
    note_copies(template, copied)
    drop_fields(template, copied)
    assign_sets(template)
    note_latent_shares(template, trees)
    return template


def _check_seeds(
    pages: Sequence[str | bytes | PageTree], urls: Sequence[str | None] | None
) -> None:
    if not pages:
        raise ValueError(f"No seed pages to induce a template from: {pages!r}")
    if len(pages) > MAX_SEEDS:
        raise ValueError(f"Too many seed pages: {len(pages)!r} (at most {MAX_SEEDS})")
    if urls is not None and len(urls) != len(pages):
        raise ValueError(f"Got {len(urls)!r} URLs for {len(pages)!r} pages")


def _parse_seeds(
    pages: Sequence[str | bytes | PageTree], urls: Sequence[str | None] | None
) -> list[PageTree]:
    page_urls = urls if urls else [None] * len(pages)
    return [
        page if isinstance(page, PageTree) else parse(page, url)
        for page, url in zip(pages, page_urls, strict=True)
    ]


def _merge_seeds(scratch: Scratch, trees: list[PageTree]) -> Elem:
    """The merge of the seeds' instances, the largest first."""
    places = [text_places(tree) for tree in trees]
    texts, varying = template_texts(trees), varying_places(trees, places)
    lists = list_places(trees, places)
    instances = []
    scratch.pages = len(trees)
    for page, (tree, tree_places) in enumerate(zip(trees, places, strict=True)):
        scratch.page = page
        instances.append(instance(scratch, tree, texts, varying, tree_places, lists))
    seeds = sorted(instances, key=lambda e: -scratch[e].size)
    root = seeds[0]
    for seed in seeds[1:]:
        if seed.tag != root.tag:
            seed = Elem(root.tag, dict(seed.attrs), seed.children)
            refresh(scratch, seed)
        merged = merge_nodes(scratch, root, seed)
        assert isinstance(merged, Elem)
        root = merged
    return root


def _tokenize_texts(scratch: Scratch, root: Elem) -> list[Text]:
    """Split every variant text into its fixed tokens and slots (a text in
    a heading into one slot at most, between its fixed prefix and suffix);
    returns the texts that separate repetitions (never fields)."""
    separators: list[Text] = []
    stack: list[tuple[TNode, bool]] = [(root, False)]
    while stack:
        node, in_heading = stack.pop()
        if isinstance(node, Elem):
            below = in_heading or node.tag in HEADINGS
            stack.extend((child, below) for child in reversed(node.children))
        elif isinstance(node, Set):
            stack.extend((child, in_heading) for child in reversed(node.children))
        elif isinstance(node, Opt):
            stack.append((node.child, in_heading))
        elif isinstance(node, Text):
            info = scratch[node]
            if not node.fixed and info.samples:
                node.parts = derive_parts(info.samples, whole=in_heading)
            if info.sep or (not node.fixed and _glyphs(info.samples)):
                separators.append(node)
    return separators


def _glyphs(samples: Sequence[str]) -> bool:
    """Whether every seed's text of a slot is one mark that is no letter or
    digit (a bullet, an asterisk, a ``+`` or ``-`` before pros and cons):
    list markers and footnote signs that vary between the items they mark,
    not data. A run of them (a rating in stars) may be data."""
    return bool(samples) and all(
        len(text) == 1 and not text.isalnum() for text in (sample.strip() for sample in samples)
    )


def _sign_fixed_subtrees(scratch: Scratch, root: Elem) -> None:
    """Give every maximal fully fixed element the digests of its seed
    elements' serializations (:attr:`~scrapy_wrapx.template.Elem.sigs`): an
    element of a page with one of those digests has exactly that subtree,
    so extraction takes it whole without walking it."""
    fixed = _fully_fixed(root)
    stack: list[tuple[TNode, bool]] = [(root, False)]
    while stack:
        node, inside_fixed = stack.pop()
        if isinstance(node, Elem):
            mine = fixed[id(node)]
            if mine and not inside_fixed:
                node.sigs = tuple(sorted({subtree_digest(e) for e in scratch[node].sources}))
            stack.extend((child, mine) for child in node.children)
        elif isinstance(node, Set):
            stack.extend((child, False) for child in node.children)
        elif isinstance(node, Opt):
            stack.append((node.child, False))


def _fully_fixed(root: Elem) -> dict[int, bool]:
    """Whether each element (by ``id``) is fully fixed: fixed attributes
    and fully fixed elements and fixed texts below; also each text's own
    fixedness."""
    fixed: dict[int, bool] = {}
    for node in reversed(list(iter_nodes(root))):
        if isinstance(node, Elem):
            fixed[id(node)] = all(v is not None for v in node.attrs.values()) and all(
                fixed.get(id(child), False) for child in node.children
            )
        elif isinstance(node, Text):
            fixed[id(node)] = node.fixed
    return fixed


def subtree_digest(element: etree._Element) -> str:
    """Digest of an element's serialization (its tail left out): equal
    digests, equal subtrees, hence equal normalized subtrees."""
    data = etree.tostring(element, with_tail=False)
    return hashlib.blake2b(data, digest_size=8).hexdigest()
