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

from collections.abc import Sequence

from ..dom import PageTree, parse
from ..template import Elem, Template, Text, iter_nodes
from ._instance import instance, refresh, template_texts
from ._merge import merge_nodes
from ._naming import name_fields
from ._tokens import derive_parts

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
    for node in iter_nodes(root):
        if isinstance(node, Text) and not node.fixed:
            node.parts = derive_parts(node.aux.samples)
        node.aux = None
    template = Template(root, meta={
        "seeds": len(trees),
        "urls": [tree.url for tree in trees],
    })
    template.fields = name_fields(root, previous.fields if previous is not None else None)
    return template
