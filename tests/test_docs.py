"""The docs against the code: every setting and every stat documented, and
nothing documented that the code does not have; the README's two commands.

The settings reference is generated from :mod:`scrapy_wrapx.settings` by the
docs' own extension (``docs/_ext/wrapx_docs.py``), so these tests run that
extension's reader; the stats reference is written by hand, so it is checked
against the stats keys the components' source code increments.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from scrapy_wrapx import settings as default_settings

ROOT = Path(__file__).resolve().parent.parent

#: Component modules that increment stats, and the prefix their ``_inc``
#: helper puts before a bare event name.
STATS_MODULES = {
    "scrapy_wrapx/middlewares/targets.py": "wrapx/targets/",
    "scrapy_wrapx/middlewares/_held.py": "wrapx/targets/",
    "scrapy_wrapx/extensions/induction.py": "wrapx/induction/",
    "scrapy_wrapx/middlewares/seeds.py": "wrapx/",
    "scrapy_wrapx/workers/pool.py": "wrapx/",
    "scrapy_wrapx/store/_crawler.py": "wrapx/store/",
    **{
        f"scrapy_wrapx/unsupervised/{name}.py": "wrapx/"
        for name in ("items", "offline", "pages", "report", "routing", "seeds", "state")
    },
}
_COUNT = re.compile(r"^(wrapx/)?([a-z_]+/)*[a-z_]+_count/?$")
_DOCUMENTED_STAT = re.compile(r"``(wrapx/[a-z_/]+_count)(?:\[?/<[a-z]+>\]?)?``")


def _docs_extension() -> ModuleType:
    if "wrapx_docs" in sys.modules:
        return sys.modules["wrapx_docs"]
    path = ROOT / "docs" / "_ext" / "wrapx_docs.py"
    spec = importlib.util.spec_from_file_location("wrapx_docs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_settings_reference_covers_every_setting() -> None:
    docs = _docs_extension()
    groups = docs.read_settings()
    listed = [setting for group in groups for setting in group.settings]
    names = [setting.name for setting in listed]
    defined = [name for name in vars(default_settings) if name.startswith("WRAPX_")]
    assert sorted(names) == sorted(defined)
    assert len(names) == len(set(names))
    for setting in listed:
        assert setting.doc, f"{setting.name} has no #: comment in scrapy_wrapx/settings.py"
        assert setting.default == getattr(default_settings, setting.name)
    # Every group of the module is a section of the reference, in order,
    # and each area's *_ENABLED flag comes first in its group.
    assert [g.title for g in groups][:2] == [
        "Store",
        "Targets (self-healing fields declared on spiders)",
    ]
    for group in groups:
        flags = [s.name for s in group.settings if s.name.endswith("_ENABLED")]
        if flags:
            assert group.settings[0].name == flags[0], group.title


def test_settings_reference_text() -> None:
    docs = _docs_extension()
    text = "\n".join(docs.settings_rst(docs.read_settings()))
    assert ".. setting:: WRAPX_SEED_PAGES" in text
    assert "Default: ``5``" in text
    assert "``2097152`` (``2 * 1024 * 1024``)" in text


def _code_stats() -> set[str]:
    """Stats keys (without a variable ``/<detail>``) the components increment."""
    keys: set[str] = set()
    for relative, prefix in STATS_MODULES.items():
        tree = ast.parse((ROOT / relative).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            elif isinstance(node, ast.JoinedStr) and isinstance(node.values[0], ast.Constant):
                text = str(node.values[0].value)  # f"wrapx/seeds/skipped_count/{reason}"
            else:
                continue
            if _COUNT.match(text):
                key = text.rstrip("/")
                keys.add(key if key.startswith("wrapx/") else prefix + key)
    return keys


def _documented_stats() -> set[str]:
    text = (ROOT / "docs" / "stats.rst").read_text(encoding="utf-8")
    return set(_DOCUMENTED_STAT.findall(text))


def test_stats_reference_matches_the_code() -> None:
    code, documented = _code_stats(), _documented_stats()
    assert "wrapx/targets/relocated_count" in code  # the scan works at all
    assert "wrapx/seeds/skipped_count" in code
    assert code - documented == set(), "stats incremented but not documented"
    assert documented - code == set(), "stats documented but never incremented"


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```[a-z]*\n(.*?)```", readme, re.DOTALL)
    assert block is not None
    commands = block.group(1).strip().splitlines()
    venv = "python3 -m venv .venv && .venv/bin/pip install -q tox && .venv/bin/tox -e "
    assert commands == [venv + "demo", venv + "py311"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[1] in ci


@pytest.mark.parametrize(
    "page", ["getting-started.rst", "induction.rst", "targets.rst", "stores.rst"]
)
def test_docs_name_only_existing_component_paths(page: str) -> None:
    """Dotted paths of scrapy_wrapx objects in the docs import."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    paths = set(re.findall(r"\bscrapy_wrapx(?:\.[A-Za-z_]+)+", text))
    assert paths
    for path in paths:
        module_name, _, attribute = path.rpartition(".")
        try:
            module = importlib.import_module(path)
        except ImportError:
            module = importlib.import_module(module_name)
            assert hasattr(module, attribute), path
