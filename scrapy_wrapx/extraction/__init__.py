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
environments, one per repetition; a blob to its nodes in comparable form.
"""

from __future__ import annotations

from typing import Any

from ..dom import TEXT, PageTree, parse
from ..template import Blob, Elem, Extraction, FormItem, Opt, Set, Template, Text, TNode
from ._match import Compiled, Env, Matcher

__all__ = ["extract", "render"]


def _compiled(template: Template) -> Compiled:
    compiled = template.__dict__.get("_compiled")
    if compiled is None:
        compiled = Compiled(template)
        compiled.data = _data_nodes(template)
        template.__dict__["_compiled"] = compiled
    return compiled


def _data_nodes(template: Template) -> frozenset[int]:
    """Uids of the nodes with a field at or below them: the only ones
    :func:`_collect` needs to visit (fixed chrome is most of a page)."""
    data: set[int] = set()
    for node in reversed(template.nodes):
        if isinstance(node, Elem):
            if node.names or any(child.uid in data for child in node.children):
                data.add(node.uid)
        elif isinstance(node, Text):
            if any(node.names):
                data.add(node.uid)
        elif isinstance(node, Opt):
            if node.child.uid in data:
                data.add(node.uid)
        elif isinstance(node, Set):
            if any(child.uid in data for child in node.children):
                data.add(node.uid)
        elif node.name:
            data.add(node.uid)
    return frozenset(data)


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
    if not isinstance(page, PageTree):
        page = parse(page, url)
    url = url if url is not None else page.url
    compiled = _compiled(template)
    matcher = Matcher(template, compiled, page)
    env: Env = {}
    root = template.root
    if page.root.tag == root.tag:
        matched = matcher.elem(root, page.root, env)
    else:
        matched = matcher.lenient(root.children, page.root, 0, len(page.root.children), env)
    score = min(1.0, matched / root.weight) if root.weight else 1.0
    coverage = min(1.0, matcher.explained / len(page.leaves)) if page.leaves else 1.0
    fields: dict[str, list[str]] = {name: [] for name in template.field_names}
    records: dict[str, list[dict[str, Any]]] = {}
    _collect(root.children, env, fields, records, None, compiled.data)
    ok = score >= template.match_threshold and coverage >= template.coverage_threshold
    return Extraction(fields, records, score, ok, url, env, coverage)


def _collect(items: list[TNode], env: Env, fields: dict[str, list[str]],
             records: dict[str, list[dict[str, Any]]], record: dict[str, Any] | None,
             data: frozenset[int]) -> None:
    """Walk the template in page order, gathering field values; inside a set,
    also into the current record."""
    for item in items:
        if item.uid not in data:
            continue
        if isinstance(item, Elem):
            values = env.get(item.uid)
            if values is not None and item.names:
                for name, value in zip(item.variant_attrs, values, strict=True):
                    field = item.names.get(name)
                    if field and value:
                        _add(fields, record, field, value)
            _collect(item.children, env, fields, records, record, data)
        elif isinstance(item, Text):
            value = env.get(item.uid)
            if isinstance(value, str):
                if item.names and item.names[0] and value:
                    _add(fields, record, item.names[0], value)
            elif value is not None:
                for name, slot in zip(item.names, value, strict=True):
                    if name and slot:
                        _add(fields, record, name, slot)
        elif isinstance(item, Opt):
            if env.get(item.uid):
                _collect([item.child], env, fields, records, record, data)
        elif isinstance(item, Set):
            rows: list[dict[str, Any]] = []
            for rep in env.get(item.uid, []):
                row: dict[str, Any] = {}
                _collect(item.children, rep, fields, {}, row, data)
                rows.append(row)
            if record is None:
                records.setdefault(item.name, []).extend(rows)
            else:
                record.setdefault(item.name, []).extend(rows)
        elif isinstance(item, Blob):
            texts = [str(label) for _, tag, label in env.get(item.uid, []) if tag == TEXT]
            if texts and item.name:
                _add(fields, record, item.name, " ".join(texts))


def _add(fields: dict[str, list[str]], record: dict[str, Any] | None, name: str, value: str) -> None:
    fields.setdefault(name, []).append(value)
    if record is not None:
        if name in record:
            record[name] = f"{record[name]} {value}"
        else:
            record[name] = value


def render(template: Template, env: Env) -> tuple[FormItem, ...]:
    """Run the template on an environment: the comparable form of the page
    it came from (see :func:`scrapy_wrapx.template.normalized_form`)."""
    out: list[FormItem] = []
    _render_items([template.root], env, 0, out)
    return tuple(out)


def _render_items(items: list[TNode], env: Env, depth: int, out: list[FormItem]) -> None:
    for item in items:
        if isinstance(item, Elem):
            attrs = {k: v for k, v in item.attrs.items() if v is not None}
            values = env.get(item.uid)
            if values is not None:
                for name, value in zip(item.variant_attrs, values, strict=True):
                    if value is not None:
                        attrs[name] = value
            out.append((depth, item.tag, tuple(sorted(attrs.items()))))
            _render_items(item.children, env, depth + 1, out)
        elif isinstance(item, Text):
            value = env.get(item.uid)
            if item.fixed:
                out.append((depth, TEXT, item.parts[0]))
            elif isinstance(value, str):
                out.append((depth, TEXT, value))
            elif value is not None:
                slots = iter(value)
                out.append((depth, TEXT, "".join(
                    next(slots) if part is None else part for part in item.parts
                )))
        elif isinstance(item, Opt):
            if env.get(item.uid):
                _render_items([item.child], env, depth, out)
        elif isinstance(item, Set):
            for rep in env.get(item.uid, []):
                _render_items(item.children, rep, depth, out)
        else:
            out.extend((depth + level, tag, label) for level, tag, label in env.get(item.uid, []))
