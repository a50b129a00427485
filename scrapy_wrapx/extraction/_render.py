"""Rendering: running a template on an environment (SYNTHIA's lossless
separation). Each kind of template node renders by its own rule; the
recursion follows the template's depth only, which induction caps."""

from __future__ import annotations

from scrapy_wrapx.dom import TEXT
from scrapy_wrapx.extraction._compiled import Env
from scrapy_wrapx.template import Blob, Elem, FormItem, Opt, Set, Text, TNode, node_form


def render_items(items: list[TNode], env: Env, depth: int, out: list[FormItem]) -> None:
    """Append the comparable form of ``items`` rendered on ``env``."""
    for item in items:
        if isinstance(item, Elem):
            _render_elem(item, env, depth, out)
        elif isinstance(item, Text):
            _render_text(item, env, depth, out)
        elif isinstance(item, Opt):
            if env.get(item.uid):
                render_items([item.child], env, depth, out)
        elif isinstance(item, Set):
            for rep in env.get(item.uid, []):
                render_items(item.children, rep, depth, out)
        else:
            _render_blob(item, env, depth, out)


def _render_elem(item: Elem, env: Env, depth: int, out: list[FormItem]) -> None:
    """Fixed attributes, plus the variant ones the page had; chrome taken
    whole (kept under ``~uid``, see :meth:`._match.Matcher.elem`) as the
    page had it."""
    whole = env.get(~item.uid)
    if whole is not None:
        node_form(whole, depth, out)
        return
    attrs = {k: v for k, v in item.attrs.items() if v is not None}
    values = env.get(item.uid)
    if values is not None:
        for name, value in zip(item.variant_attrs, values, strict=True):
            if value is not None:
                attrs[name] = value
    out.append((depth, item.tag, tuple(sorted(attrs.items()))))
    render_items(item.children, env, depth + 1, out)


def _render_text(item: Text, env: Env, depth: int, out: list[FormItem]) -> None:
    """A fixed text as it is; a text with slots filled in, or kept whole
    where the page's text did not fit its tokens; nothing when absent."""
    value = env.get(item.uid)
    if item.fixed:
        out.append((depth, TEXT, item.parts[0]))
    elif isinstance(value, str):
        out.append((depth, TEXT, value))
    elif value is not None:
        out.append((depth, TEXT, item.join(value)))


def _render_blob(item: Blob, env: Env, depth: int, out: list[FormItem]) -> None:
    out.extend((depth + level, tag, label) for level, tag, label in env.get(item.uid, []))
