"""Extraction with an induced template, and rendering an extraction back.

:func:`extract` matches a page against a :class:`~scrapy_wrapx.template.Template`
(see :mod:`scrapy_wrapx.extraction._match` for how a misfit stays local) and
turns the environment it fills into fields and records; :func:`render` runs
the template on that environment, which on a seed page gives back the page's
normalized tree exactly (SYNTHIA's lossless separation).

Environment layout, keyed by template node ``uid``: a text with slots maps to
the tuple of its slot values (or to the whole text, a ``str``, where a page's
text did not fit the tokens); an element with variant attributes to the tuple
of their values (``None``: absent); an optional to a bool; a set to a list of
environments, one per repetition; a blob to its nodes in comparable form;
and under ``~uid`` (a negative key), an element of chrome taken whole to
its page node (see :class:`~scrapy_wrapx.extraction._compiled.Chrome`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import NamedTuple

from scrapy_wrapx.dom import Node, PageTree, gc_paused, parse
from scrapy_wrapx.extraction._collect import Fields, Records, attribute_value, collect
from scrapy_wrapx.extraction._compiled import Compiled, Env, compiled
from scrapy_wrapx.extraction._match import Matcher
from scrapy_wrapx.extraction._render import render_items
from scrapy_wrapx.extraction._tables import header_records
from scrapy_wrapx.template import Extraction, FormItem, Template

__all__ = ["extract", "remembering_matches", "render"]


class _Match(NamedTuple):
    """What matching a page against a template found, before its values are
    collected under the template's field names."""

    template: Template
    page: PageTree
    matched: float
    env: Env
    explained: int
    misfits: int
    #: The page's tables read by their own header, by template table uid.
    tables: dict[int, Node]


#: Matches remembered by page and template (see :func:`remembering_matches`);
#: None where nothing is remembered. Per thread: the induction extension
#: induces in a thread of the crawl's process.
_MATCHES: ContextVar[dict[tuple[int, int], _Match] | None] = ContextVar(
    "wrapx_matches", default=None
)


@contextlib.contextmanager
def remembering_matches() -> Iterator[None]:
    """Within this, a page extracted again with the same template is not
    matched again. Induction and naming extract each seed page five times
    with one template whose fields they drop and rename in between; the
    match depends on the template's structure only, which stays (names go
    to the collection, which is done again). Nothing is remembered past the
    block: a crawl extracts each page once, and a page's tree must not
    outlive it."""
    if _MATCHES.get() is not None:
        yield
        return
    token = _MATCHES.set({})
    try:
        yield
    finally:
        _MATCHES.reset(token)


def extract(template: Template, page: str | bytes | PageTree, url: str | None = None) -> Extraction:
    """Extract ``page`` (HTML text, bytes or an already parsed tree).

    ``score`` is the share of the template's required weight the page
    matched; ``coverage`` the share of the page's leaves the template
    explained. A page *matches* when it shows at least
    :attr:`Template.match_threshold` of the template and the template
    explains at least :attr:`Template.coverage_threshold` of the page: a
    page of the same kind may lack a block every seed had (its coverage
    stays whole), while a page of another kind, or a redesign, brings
    content the template does not know.
    """
    # The cyclic collector stays paused throughout: the match's tables and
    # a page tree parsed here have no reference cycles, so they go by
    # refcount when this returns, and a collection meanwhile would only
    # walk them for nothing.
    with gc_paused():
        if isinstance(page, PageTree):
            return _extract(template, page, url)
        return _extract(template, parse(page, url), url)


def _extract(template: Template, page: PageTree, url: str | None) -> Extraction:
    url = url if url is not None else page.url
    facts = compiled(template)
    found = _match(template, facts, page)
    env, root = found.env, template.root
    score = min(1.0, found.matched / root.weight) if root.weight else 1.0
    coverage = min(1.0, found.explained / len(page.leaves)) if page.leaves else 1.0
    fields: Fields = {name: [] for name in template.field_names}
    records: Records = {}
    collect(facts.program, env, fields, records, None)
    _read_tables(facts, found.tables, fields, records)
    ok = score >= template.match_threshold and coverage >= template.coverage_threshold
    if ok and found.misfits:
        # Only on a page of the template: on one that is not, a text that
        # differs in place is more likely another block's.
        _add_latent(facts, env, fields)
    if facts.fallbacks:
        _add_copies(facts, env, fields)
    return Extraction(fields, records, score, ok, url, env, coverage)


def _match(template: Template, facts: Compiled, page: PageTree) -> _Match:
    """Match ``page`` against ``template``, or take the match remembered
    (see :func:`remembering_matches`)."""
    memory = _MATCHES.get()
    key = (id(template), id(page))
    if memory is not None:
        found = memory.get(key)
        # Ids are those of objects alive: the entry holds them.
        if found is not None and found.template is template and found.page is page:
            return found
    matcher = Matcher(template, facts, page)
    env: Env = {}
    root = template.root
    if page.root.tag == root.tag:
        matched = matcher.elem(root, page.root, env)
    else:
        matched = matcher.lenient(root.children, page.root, 0, len(page.root.children), env)
    found = _Match(template, page, matched, env, matcher.explained, matcher.misfits, matcher.tables)
    if memory is not None:
        memory[key] = found
    return found


def _read_tables(
    facts: Compiled, tables: dict[int, Node], fields: Fields, records: Records
) -> None:
    """The records of tables whose columns vary from page to page, keyed
    by the page's own header cells (see :mod:`._tables`), in place of the
    records by position the template gave; the header's cells are no
    fields then."""
    for uid, node in tables.items():
        name, header = facts.header_tables[uid]
        if name in records:
            read = header_records(node.element)
            if read:
                records[name] = read
                for field in header:
                    fields[field] = []


def _add_copies(facts: Compiled, env: Env, fields: Fields) -> None:
    """A field the page does not show in its own place, from a copy of it
    that induction dropped (see :data:`scrapy_wrapx.template.COPY_FALLBACKS`),
    the first that has a value."""
    for name, copies in facts.fallbacks:
        if fields.get(name):
            continue
        for uid, index in copies:
            value = env.get(uid)
            found = attribute_value(value[index]) if isinstance(value, tuple) else None
            if found is not None:
                fields[name] = [found]
                break


def _add_latent(facts: Compiled, env: Env, fields: Fields) -> None:
    """The latent fields whose text differed on the page (see
    :mod:`scrapy_wrapx.induction._latent`), without a label of their own
    ("Team: ", or the ": " after a label before them); not a text the
    seeds showed in a latent place next to it (a menu shifted by an item)."""
    for uid, name in facts.latent.items():
        value = env.get(uid)
        if not value:
            continue
        label = facts.latent_labels[uid]
        value = value[len(label) :] if label and value.startswith(label) else value
        value = value.lstrip(": \t\n").rstrip()
        if not value or env[uid] in facts.latent_neighbours[uid]:
            continue
        # Twins share a name (see latent_fields): the first one found; a
        # field of another version of the block is empty on this page.
        if not fields.get(name):
            fields[name] = [value]


def render(template: Template, extraction: Extraction) -> tuple[FormItem, ...]:
    """Run the template on an extraction's environment: the comparable form
    of the page it came from (see :func:`scrapy_wrapx.template.normalized_form`)."""
    out: list[FormItem] = []
    render_items([template.root], extraction.data, 0, out)
    return tuple(out)
