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

from scrapy_wrapx.dom import TEXT, PageTree, parse
from scrapy_wrapx.extraction._match import Compiled, Env, Matcher
from scrapy_wrapx.template import Blob, Elem, Extraction, FormItem, Opt, Set, Template, Text, TNode

__all__ = ["extract", "render"]


def _compiled(template: Template) -> Compiled:
    compiled = template.__dict__.get("_compiled")
    if compiled is None:
        compiled = Compiled(template)
        compiled.data = _data_nodes(template)
        compiled.program = _program(template.root.children, compiled.data)
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


#: Steps of a collection program (see :func:`_program`).
_TEXT, _ATTRS, _SET, _BLOB = 0, 1, 2, 3


def _program(items: list[TNode], data: frozenset[int]) -> list[tuple[Any, ...]]:
    """The data nodes below ``items`` as a flat list of steps, in page
    order. Elements and optionals need no step of their own: the
    environment is flat within a record (keyed by uid) and holds nothing
    for an absent optional, so only sets, which open a record each, nest."""
    steps: list[tuple[Any, ...]] = []
    for item in items:
        if item.uid not in data:
            continue
        if isinstance(item, Elem):
            if item.names:
                fields = tuple(
                    (index, item.names[name])
                    for index, name in enumerate(item.variant_attrs)
                    if item.names.get(name)
                )
                steps.append((_ATTRS, item.uid, fields))
            steps.extend(_program(item.children, data))
        elif isinstance(item, Text):
            steps.append((_TEXT, item.uid, tuple(item.names)))
        elif isinstance(item, Opt):
            steps.extend(_program([item.child], data))
        elif isinstance(item, Set):
            steps.append((_SET, item.uid, item.name, _program(item.children, data)))
        elif isinstance(item, Blob):
            steps.append((_BLOB, item.uid, item.name))
    return steps


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
    _collect(compiled.program, env, fields, records, None)
    ok = score >= template.match_threshold and coverage >= template.coverage_threshold
    return Extraction(fields, records, score, ok, url, env, coverage)


def _collect(
    program: list[tuple[Any, ...]],
    env: Env,
    fields: dict[str, list[str]],
    records: dict[str, list[dict[str, Any]]],
    record: dict[str, Any] | None,
) -> None:
    """Run a collection program (:func:`_program`) on an environment,
    gathering field values in page order; inside a set, also into the
    current record."""
    get = env.get
    for step in program:
        kind, uid = step[0], step[1]
        value = get(uid)
        if value is None:
            continue
        if kind == _TEXT:
            names = step[2]
            if isinstance(value, str):
                if names and names[0] and value:
                    _add(fields, record, names[0], value)
            else:
                for name, slot in zip(names, value, strict=True):
                    if name and slot:
                        _add(fields, record, name, slot)
        elif kind == _ATTRS:
            for index, name in step[2]:
                attr = value[index]
                if attr:
                    _add(fields, record, name, attr)
        elif kind == _SET:
            rows: list[dict[str, Any]] = []
            for rep in value:
                row: dict[str, Any] = {}
                _collect(step[3], rep, fields, {}, row)
                rows.append(row)
            target = records if record is None else record
            target.setdefault(step[2], []).extend(rows)
        else:
            texts = [str(label) for _, tag, label in value if tag == TEXT]
            if texts and step[2]:
                _add(fields, record, step[2], " ".join(texts))


def _add(
    fields: dict[str, list[str]], record: dict[str, Any] | None, name: str, value: str
) -> None:
    fields.setdefault(name, []).append(value)
    if record is not None:
        if name in record:
            record[name] = f"{record[name]} {value}"
        else:
            record[name] = value


def render(template: Template, extraction: Extraction) -> tuple[FormItem, ...]:
    """Run the template on an extraction's environment: the comparable form
    of the page it came from (see :func:`scrapy_wrapx.template.normalized_form`)."""
    out: list[FormItem] = []
    _render_items([template.root], extraction.data, 0, out)
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
                out.append(
                    (
                        depth,
                        TEXT,
                        "".join(next(slots) if part is None else part for part in item.parts),
                    )
                )
        elif isinstance(item, Opt):
            if env.get(item.uid):
                _render_items([item.child], env, depth, out)
        elif isinstance(item, Set):
            for rep in env.get(item.uid, []):
                _render_items(item.children, rep, depth, out)
        else:
            out.extend((depth + level, tag, label) for level, tag, label in env.get(item.uid, []))
