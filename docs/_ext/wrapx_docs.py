"""Sphinx extension of the scrapy-wrapx docs: the settings reference is read
from ``scrapy_wrapx/settings.py`` at build time.

Every ``WRAPX_*`` setting is defined once, in :mod:`scrapy_wrapx.settings`,
with its default and a ``#:`` comment. The ``wrapx-settings`` directive turns
that module into the reference, group by group (the ``# Store ----`` comment
lines), so the docs cannot drift from the code; a setting without a comment
is a build warning, which ``sphinx-build -W`` turns into an error. The
``setting`` role links to an entry, ``:setting:`WRAPX_SEED_PAGES```, and
warns when it names no setting.

:func:`read_settings` is importable on its own, for the test that checks it
(``tests/test_docs.py``).
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_GROUP = re.compile(r"^# (?P<title>[^-].*?) -{3,}\s*$")
_DOC = re.compile(r"^\s*#:( (?P<text>.*)|$)")


@dataclass
class Setting:
    """One setting: its name, default (as Python and as written) and doc."""

    name: str
    default: Any
    source: str
    doc: str
    line: int


@dataclass
class Group:
    """The settings under one ``# Title ----`` comment of the module."""

    title: str
    settings: list[Setting] = field(default_factory=list)


def read_settings(module_name: str = "scrapy_wrapx.settings") -> list[Group]:
    """The module's ``WRAPX_*`` settings in source order, grouped; the
    defaults are the module's values, the docs its ``#:`` comments."""
    module = importlib.import_module(module_name)
    path = Path(module.__file__ or "")
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    groups = [Group("General")]
    group_starts = [
        (number, match.group("title"))
        for number, line in enumerate(lines, 1)
        if (match := _GROUP.match(line))
    ]
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if not isinstance(target, ast.Name) or not target.id.startswith("WRAPX_"):
            continue
        title = next((t for number, t in reversed(group_starts) if number < statement.lineno), None)
        if title is not None and title != groups[-1].title:
            groups.append(Group(title))
        doc: list[str] = []
        number = statement.lineno - 2  # the line above, 0-based
        while number >= 0 and (match := _DOC.match(lines[number])):
            doc.insert(0, match.group("text") or "")
            number -= 1
        groups[-1].settings.append(
            Setting(
                name=target.id,
                default=getattr(module, target.id),
                source=ast.get_source_segment(source, value) or "",
                doc="\n".join(doc).strip(),
                line=statement.lineno,
            )
        )
    return [group for group in groups if group.settings]


def default_text(setting: Setting) -> str:
    """The default as the reference shows it: the value, and the expression
    it is written as when that says more (``2 * 1024 * 1024``)."""
    shown = f"``{setting.default!r}``"
    if setting.source and setting.source != repr(setting.default):
        try:
            literal = ast.literal_eval(setting.source)
        except (ValueError, SyntaxError):
            literal = None
        if literal != setting.default:
            shown += f" (``{setting.source}``)"
    return shown


def settings_rst(groups: list[Group]) -> list[str]:
    """reST lines of the reference: a rubric per group, then per setting a
    link target and a definition with its default and doc."""
    out: list[str] = []
    for group in groups:
        out += [f".. rubric:: {group.title}", ""]
        for setting in group.settings:
            out += [f".. setting:: {setting.name}", "", f"``{setting.name}``"]
            out += [f"   Default: {default_text(setting)}", ""]
            out += [f"   {line}" if line else "" for line in setting.doc.splitlines()]
            out.append("")
    return out


def setup(app: Any) -> dict[str, Any]:
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util import logging
    from sphinx.util.docutils import SphinxDirective

    logger = logging.getLogger(__name__)

    class WrapxSettings(SphinxDirective):
        """``.. wrapx-settings::`` — the generated settings reference."""

        has_content = False

        def run(self) -> list[nodes.Node]:
            groups = read_settings()
            module_path = importlib.import_module("scrapy_wrapx.settings").__file__
            self.env.note_dependency(str(module_path))
            for group in groups:
                for setting in group.settings:
                    if not setting.doc:
                        logger.warning(
                            "Setting %s has no #: comment in scrapy_wrapx/settings.py",
                            setting.name,
                            location=(str(module_path), setting.line),
                        )
            container = nodes.container()
            self.state.nested_parse(
                StringList(settings_rst(groups), source="scrapy_wrapx/settings.py"),
                self.content_offset,
                container,
            )
            return list(container.children)

    def unknown_setting(app: Any, env: Any, node: Any, contnode: Any) -> None:
        # Unresolved cross-references pass silently unless nitpicky; a
        # :setting: naming no setting is a docs bug, so it warns.
        if node.get("reftype") == "setting":
            logger.warning("Unknown setting %s", node["reftarget"], location=node)

    app.add_crossref_type(
        directivename="setting", rolename="setting", indextemplate="pair: %s; setting"
    )
    app.add_directive("wrapx-settings", WrapxSettings)
    app.connect("missing-reference", unknown_setting)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
