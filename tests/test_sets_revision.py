"""Revising a merged template's sets keeps induction's working data whole:
an optional list that repeats the same content on two seeds is unfolded
into a set of that content (an optional holds one node), and the new set
must carry its :class:`~scrapy_wrapx.induction._info.Info` like every
other node, or a later step that merges it (two adjacent sets of the same
rows joined into one, :func:`~scrapy_wrapx.induction._sets.join_split_sets`)
fails. It failed induction on redesigned player pages whose stats rows
held an optional run of identical cells: the pages are the repository's
benchmark data, redesigned as the naming benchmark does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.induce import _load_site
from benchmarks.redesign2 import redesign
from scrapy_wrapx.induction import induce_template

SITE = Path(__file__).parent.parent / "benchmarks" / "data" / "swde" / "nbaplayer" / "slam"


@pytest.mark.skipif(not SITE.is_dir(), reason="the repository's benchmark data is not here")
def test_redesigned_player_pages_induce() -> None:
    site = _load_site(SITE)
    pages = []
    for index, page in enumerate(site.pages[:5]):
        keep = frozenset(
            v for by_page in site.truth.values() for v in by_page.get(page.page_id, [])
        )
        pages.append(redesign(page.html, "medium", seed=index % 3, keep=keep))
    template = induce_template(pages)
    assert template.field_names
