"""The layer map of CONTRIBUTING.md, checked on the source.

The core (the page tree, the template model, induction, extraction and the
locator) is plain Python over lxml: it never imports Scrapy or Twisted, nor
the store, the page workers, the unsupervised crawl logic or the Scrapy
components built on top of it. And no two modules of the package import
each other, directly or through others.

The imports are read with :mod:`ast` from the source files, not by importing
them: an import inside a function counts (it runs sooner or later), one
under ``if TYPE_CHECKING:`` does not (it never runs).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import scrapy_wrapx

PACKAGE = "scrapy_wrapx"
ROOT = Path(scrapy_wrapx.__file__).parent

#: The core: these modules and packages (with everything under them).
CORE = (
    "scrapy_wrapx._versioned",
    "scrapy_wrapx.dom",
    "scrapy_wrapx.template",
    "scrapy_wrapx.induction",
    "scrapy_wrapx.extraction",
    "scrapy_wrapx.locate",
)

#: What the core may not import: the frameworks and the layers above it.
#: ``scrapy_wrapx`` itself is among them: its ``__init__`` re-exports the
#: add-on, so importing it imports Scrapy.
FORBIDDEN_IN_CORE = (
    "scrapy",
    "twisted",
    "scrapy_wrapx.store",
    "scrapy_wrapx.workers",
    "scrapy_wrapx.unsupervised",
    "scrapy_wrapx.middlewares",
    "scrapy_wrapx.extensions",
    "scrapy_wrapx.pipelines",
    "scrapy_wrapx.commands",
    "scrapy_wrapx.addon",
)

#: Inside the core, what each part may import besides itself: the template
#: model sits on the page tree, extraction on the template, induction on
#: extraction; the locator needs the page tree only. ``_versioned`` (the
#: version envelope of stored JSON) is open to all of them.
CORE_DEPENDENCIES = {
    "scrapy_wrapx._versioned": (),
    "scrapy_wrapx.dom": (),
    "scrapy_wrapx.template": ("scrapy_wrapx.dom",),
    "scrapy_wrapx.extraction": ("scrapy_wrapx.dom", "scrapy_wrapx.template"),
    "scrapy_wrapx.induction": (
        "scrapy_wrapx.dom",
        "scrapy_wrapx.template",
        "scrapy_wrapx.extraction",
    ),
    "scrapy_wrapx.locate": ("scrapy_wrapx.dom",),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement under ``body`` at any depth (function bodies
    included), except the bodies of ``if TYPE_CHECKING:``."""
    for node in body:
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _statements(node.orelse)
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                yield from _statements([child for child in children if isinstance(child, ast.stmt)])
                for child in children:
                    if isinstance(child, (ast.ExceptHandler, ast.match_case)):
                        yield from _statements(child.body)


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The absolute module a (possibly relative) ``from`` import names."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if MODULES[module].name != "__init__.py":
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports(module: str) -> set[str]:
    """The modules ``module`` imports at run time: ``from a import b`` is
    ``a.b`` when that is a module of the package, else ``a``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            for alias in node.names:
                name = f"{source}.{alias.name}"
                found.add(name if name in MODULES else source)
    return found


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (itself excluded)."""
    return {
        module: {name for name in imports(module) if name in MODULES and name != module}
        for module in MODULES
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:  # noqa: C901 - Tarjan, in one piece
    """One cycle (``[a, b, ..., a]``) per strongly connected component of
    more than one module, found by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_cycle_in(graph, component) for component in components]


def _cycle_in(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A shortest cycle through the component's first module (breadth first)."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & component):
            if target == start:
                return [*paths[node], start]
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    raise AssertionError(f"No cycle through {start!r}")  # pragma: no cover


def test_the_walk_sees_the_package() -> None:
    assert {"scrapy_wrapx.dom", "scrapy_wrapx.template", "scrapy_wrapx.addon"} <= set(MODULES)
    assert "scrapy_wrapx.dom" in imports("scrapy_wrapx.template")


def test_the_graph_reads_imports_as_they_run() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "import a.b\n"
        "if TYPE_CHECKING:\n"
        "    import typing_only\n"
        "else:\n"
        "    import runtime_else\n"
        "def f():\n"
        "    try:\n"
        "        import late\n"
        "    except ImportError:\n"
        "        import fallback\n"
    )
    found = {
        alias.name
        for node in _statements(ast.parse(source).body)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert found == {"a.b", "runtime_else", "late", "fallback"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


CORE_MODULES = sorted(module for module in MODULES if _within(module, CORE))


@pytest.mark.parametrize("module", CORE_MODULES)
def test_the_core_imports_no_scrapy_and_no_upper_layer(module: str) -> None:
    bad = sorted(
        name for name in imports(module) if name == PACKAGE or _within(name, FORBIDDEN_IN_CORE)
    )
    assert not bad, f"{module} is core but imports {bad}"


@pytest.mark.parametrize("module", CORE_MODULES)
def test_the_core_parts_import_downwards_only(module: str) -> None:
    part = next(name for name in CORE_DEPENDENCIES if _within(module, (name,)))
    allowed = (part, "scrapy_wrapx._versioned", *CORE_DEPENDENCIES[part])
    bad = sorted(
        name
        for name in imports(module)
        if _within(name, (PACKAGE,)) and name != PACKAGE and not _within(name, allowed)
    )
    assert not bad, f"{module} ({part}) imports {bad}"


#: Above the core, what each layer may not import: the layers above it.
#: (The Scrapy components — middlewares, extensions, commands, the add-on —
#: sit on top and may import everything below.)
FORBIDDEN_ABOVE_CORE = {
    "scrapy_wrapx.store": (
        "scrapy_wrapx.workers",
        "scrapy_wrapx.unsupervised",
        "scrapy_wrapx.middlewares",
        "scrapy_wrapx.extensions",
        "scrapy_wrapx.commands",
        "scrapy_wrapx.addon",
    ),
    "scrapy_wrapx.workers": (
        "scrapy_wrapx.unsupervised",
        "scrapy_wrapx.middlewares",
        "scrapy_wrapx.extensions",
        "scrapy_wrapx.commands",
        "scrapy_wrapx.addon",
    ),
    "scrapy_wrapx.unsupervised": (
        "scrapy_wrapx.middlewares",
        "scrapy_wrapx.extensions",
        "scrapy_wrapx.commands",
        "scrapy_wrapx.addon",
    ),
}

UPPER_MODULES = sorted(module for module in MODULES if _within(module, tuple(FORBIDDEN_ABOVE_CORE)))


@pytest.mark.parametrize("module", UPPER_MODULES)
def test_the_layers_above_the_core_import_downwards_only(module: str) -> None:
    layer = next(name for name in FORBIDDEN_ABOVE_CORE if _within(module, (name,)))
    bad = sorted(name for name in imports(module) if _within(name, FORBIDDEN_ABOVE_CORE[layer]))
    assert not bad, f"{module} ({layer}) imports {bad}"


def test_no_import_cycles() -> None:
    found = cycles(_graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(cycle) for cycle in found)
