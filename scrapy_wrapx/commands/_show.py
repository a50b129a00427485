"""A template as an indented tree, for ``scrapy wrapx show``.

One line per template node: fixed elements as tags with their fixed
attributes, variant attributes and text slots as ``{field}``, fixed texts
that may be data as ``~{field}`` (:mod:`scrapy_wrapx.induction._latent`),
optional nodes as ``?``, sets as ``*`` with their record name. Written
without recursion: templates of deep pages are deep too.
"""

from __future__ import annotations

from scrapy_wrapx.extraction._tables import varying_header_tables
from scrapy_wrapx.induction._alternatives import alternative_leaders
from scrapy_wrapx.induction._keyvalue import key_value_sets
from scrapy_wrapx.induction._sections import listed_fields
from scrapy_wrapx.template import Blob, Elem, Opt, Set, Template, Text, TNode, latent_fields

_INDENT = "  "


def _slot_names(template: Template) -> dict[tuple[int, str], str]:
    return {(info.uid, info.slot): info.name for info in template.fields}


def _text_line(node: Text, names: dict[tuple[int, str], str], latent: dict[int, str]) -> str:
    if node.uid in latent:
        # Fixed on every seed, a value where a page differs.
        return f"{node.parts[0]!r} ~{{{latent[node.uid]}}}"
    out = []
    slot = 0
    for part in node.parts:
        if part is None:
            name = node.names[slot] if slot < len(node.names) else ""
            out.append("{" + (name or names.get((node.uid, str(slot)), "*")) + "}")
            slot += 1
        else:
            out.append(repr(part))
    return " + ".join(out)


def _elem_line(node: Elem, names: dict[tuple[int, str], str]) -> str:
    attrs = []
    for key, value in sorted(node.attrs.items()):
        if value is None:
            # A variant attribute without a field (an id that differs per
            # page) is shown as {*}.
            name = node.names.get(key) or names.get((node.uid, key), "*")
            attrs.append(f"{key}={{{name}}}")
        else:
            attrs.append(f"{key}={value!r}")
    return "<" + " ".join([node.tag, *attrs]) + ">"


def template_tree(template: Template) -> str:
    """The indented tree of ``template``.

    >>> from scrapy_wrapx.induction import induce_template
    >>> tpl = induce_template([
    ...     f'<body><h1>{t}</h1><p>Price: {p}</p><ul>{li}</ul><img src="{t}.jpg"></body>'
    ...     for t, p, li in [("Dune", 9, "<li>sf</li><li>epic</li>"),
    ...                      ("Emma", 7, "<li>classic</li>"),
    ...                      ("Ubik", 5, "<li>a</li><li>b</li><li>c</li>")]])
    >>> print(template_tree(tpl))
    <body>
      <h1>
        {h1}
      <p>
        'Price: ' + {price}
      <ul>
        * set li_list
          <li>
            {li}
      <img src={img_src}>
    """
    names = _slot_names(template)
    latent = latent_fields(template)
    lines: list[str] = []
    stack: list[tuple[TNode, int]] = [(template.root, 0)]
    while stack:
        node, depth = stack.pop()
        pad = _INDENT * depth
        children: list[TNode] = []
        if isinstance(node, Elem):
            lines.append(pad + _elem_line(node, names))
            children = node.children
        elif isinstance(node, Text):
            lines.append(pad + _text_line(node, names, latent))
        elif isinstance(node, Opt):
            lines.append(pad + "? optional")
            children = [node.child]
        elif isinstance(node, Set):
            lines.append(pad + f"* set {node.name}".rstrip())
            children = node.children
        elif isinstance(node, Blob):
            lines.append(pad + f"~ blob {{{node.name or '*'}}}")
        for child in reversed(children):
            stack.append((child, depth + 1))
    return "\n".join(lines)


def template_schema(template: Template) -> str:
    """The fields of ``template`` as a person reads them: one line per
    field with whether it is a single value or a list, and example values
    from the seed pages (recorded when the template was named; a template
    without them shows the names only); then its label/value sets, which
    items hold as one mapping (``{}``) keyed by the labels.

    >>> from scrapy_wrapx.template import Elem, FieldInfo
    >>> tpl = Template(Elem("body", {}, []), [FieldInfo("title", 1, "0")],
    ...                {"naming": {"title": {"many": False, "examples": ["Dune", "Emma"]}}})
    >>> print(template_schema(tpl))
    # fields (1 = single value, * = list):
    #   title                          1  'Dune', 'Emma'
    """
    profiles = template.meta.get("naming")
    profiles = profiles if isinstance(profiles, dict) else {}
    repeated = listed_fields(template)
    leaders = alternative_leaders(template)
    lines = ["# fields (1 = single value, * = list):"]
    for name in template.field_names:
        profile = profiles.get(name)
        profile = profile if isinstance(profile, dict) else {}
        shape = "*" if name in repeated or profile.get("many") else "1"
        examples = ", ".join(repr(v) for v in profile.get("examples", []))
        # An alternative place of another field's value: items hold it
        # under that field's name (:mod:`scrapy_wrapx.induction._alternatives`).
        held = f"  (items: as {leaders[name]})" if name in leaders else ""
        lines.append(f"#   {name:<30} {shape}  {examples}{held}".rstrip())
    for name, where in key_value_sets(template).items():
        source = f"{where.label}, {where.value}" if not where.cells else where.value
        if where.label == where.value and not where.cells:
            source = f"{where.value} ('Label: value' texts)"
        lines.append(f"#   {name:<30} {{}}  labels -> values, from {source}")
    for name, _ in varying_header_tables(template).values():
        lines.append(f"#   {name:<30} *  records keyed by each page's table header")
    firsts: dict[str, int] = {}  # twins share a name (see latent_fields)
    for uid, name in latent_fields(template).items():
        firsts.setdefault(name, uid)
    latent = [(name, template.nodes[uid]) for name, uid in firsts.items()]
    if latent:
        lines.append("# latent (the same on every seed; a value where a page differs):")
        for name, node in latent:
            seed = node.parts[0] if isinstance(node, Text) else ""
            lines.append(f"#   {name:<30} 1  seeds: {seed!r}")
    return "\n".join(lines)
