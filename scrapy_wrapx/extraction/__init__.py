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
        template.__dict__["_compiled"] = compiled
    return compiled


def extract(template: Template, page: str | bytes | PageTree, url: str | None = None) -> Extraction:
    """Extract ``page`` (HTML text, bytes or an already parsed tree)."""
    if not isinstance(page, PageTree):
        page = parse(page, url)
    url = url if url is not None else page.url
    matcher = Matcher(template, _compiled(template))
    env: Env = {}
    root = template.root
    if page.root.tag == root.tag:
        matched = matcher.extract_elem(root, page.root, env)
    else:
        matched = matcher.lenient_hedge(root.children, page.root, env)
    score = min(1.0, matched / root.weight) if root.weight else 1.0
    fields: dict[str, list[str]] = {name: [] for name in template.field_names}
    records: dict[str, list[dict[str, Any]]] = {}
    _collect(root.children, env, fields, records, None)
    return Extraction(fields, records, score, score >= template.match_threshold, url, env)


def _collect(items: list[TNode], env: Env, fields: dict[str, list[str]],
             records: dict[str, list[dict[str, Any]]], record: dict[str, Any] | None) -> None:
    """Walk the template in page order, gathering field values; inside a set,
    also into the current record."""
    for item in items:
        if isinstance(item, Elem):
            values = env.get(item.uid)
            if values is not None and item.names:
                for name, value in zip(item.variant_attrs, values):
                    field = item.names.get(name)
                    if field and value:
                        _add(fields, record, field, value)
            _collect(item.children, env, fields, records, record)
        elif isinstance(item, Text):
            value = env.get(item.uid)
            if isinstance(value, str):
                if item.names and value:
                    _add(fields, record, item.names[0], value)
            elif value is not None:
                for name, slot in zip(item.names, value):
                    if slot:
                        _add(fields, record, name, slot)
        elif isinstance(item, Opt):
            if env.get(item.uid):
                _collect([item.child], env, fields, records, record)
        elif isinstance(item, Set):
            rows: list[dict[str, Any]] = []
            for rep in env.get(item.uid, []):
                row: dict[str, Any] = {}
                _collect(item.children, rep, fields, {}, row)
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
                for name, value in zip(item.variant_attrs, values):
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
