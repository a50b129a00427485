"""``scrapy wrapx``: induce, show, extract and report from the command line.

Registered through the ``scrapy.commands`` entry point, so it is available in
any Scrapy project (and outside one) once scrapy-wrapx is installed::

    scrapy wrapx induce pages/*.html -o book.json     # or URLs, or --urls FILE
    scrapy wrapx show book.json                       # or store:KIND_KEY
    scrapy wrapx extract book.json pages/*.html -o items.jl
    scrapy wrapx report book.json pages/0007.html -o report.html
    scrapy wrapx show --list                          # templates in the store

Pages are HTML files, directories of them, or http(s) URLs (downloaded with
the project's settings). A template is a JSON file written by ``induce`` or
a template induced during a crawl, named ``store:<kind key>`` and read from
the project's store (``WRAPX_STORE``).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from scrapy_wrapx.commands._pages import Page, load_pages
from scrapy_wrapx.commands._progress import Progress
from scrapy_wrapx.extraction import extract

if TYPE_CHECKING:
    import argparse

    from scrapy_wrapx.template import Template

SUBCOMMANDS = ("induce", "show", "extract", "report", "targets")


class WrapxCommand(ScrapyCommand):
    """The ``scrapy wrapx`` command (see the module doc)."""

    def _targets(self, args: list[str], opts: argparse.Namespace) -> None:
        """``targets [--undo|--reset SPIDER FIELD]``: see :mod:`._targets`."""
        from scrapy_wrapx.commands._targets import run_targets

        store = self._store()
        try:
            self._write(opts, run_targets(store, args))
        finally:
            store.close()

    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "{induce|show|extract|report} [options] ARGS..."

    def short_desc(self) -> str:
        return "Induce, show and apply scrapy-wrapx page templates"

    def long_desc(self) -> str:
        return (
            "induce TEMPLATE_OUT from pages or URLs (-o FILE, --urls FILE); "
            "show TEMPLATE as an indented tree (--list: templates in the store); "
            "extract TEMPLATE PAGES... to JSON lines (-o FILE); "
            "report TEMPLATE PAGE as an HTML page with fixed and variant parts "
            "highlighted (-o FILE). TEMPLATE is a JSON file or store:KIND_KEY."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
        parser.add_argument(
            "--urls", metavar="FILE", help="induce: read page URLs from FILE, one a line"
        )
        parser.add_argument(
            "--list", action="store_true", help="show: list the templates of the store"
        )
        parser.add_argument(
            "--seeds", type=int, default=None, help="induce: use at most this many pages"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args or args[0] not in SUBCOMMANDS:
            raise UsageError(f"Expected one of {', '.join(SUBCOMMANDS)}, got {args[:1]!r}")
        name, rest = args[0], args[1:]
        try:
            getattr(self, f"_{name}")(rest, opts)
        except (ValueError, OSError, sqlite3.Error) as exc:
            # A bad file, page or store (a corrupt one, a hostile record) is
            # the user's input: one line, no traceback.
            print(f"scrapy wrapx {name}: {_one_line(exc)}", file=sys.stderr)
            self.exitcode = 1

    # Subcommands ------------------------------------------------------------

    def _induce(self, args: list[str], opts: argparse.Namespace) -> None:
        from scrapy_wrapx import dom
        from scrapy_wrapx.induction import MAX_SEEDS, induce_template
        from scrapy_wrapx.induction._pagenames import name_template

        sources = list(args)
        if opts.urls:
            lines = Path(opts.urls).read_text(encoding="utf-8").splitlines()
            sources.extend(line.strip() for line in lines if line.strip())
        if not sources:
            raise UsageError("induce needs pages: files, directories, URLs or --urls FILE")
        limit = min(opts.seeds or MAX_SEEDS, MAX_SEEDS)
        pages = self._pages(sources)[:limit]
        progress = Progress("parsing", len(pages))
        trees = []
        for page in pages:
            trees.append(dom.parse(page.html, url=page.url))
            progress.advance()
        progress.close()
        print(f"inducing from {len(trees)} pages...", file=sys.stderr)
        template = induce_template(trees, urls=[p.url for p in pages])
        # Named as a crawl names it: labels, semantic markup, the <title>.
        name_template(template, trees)
        print(
            f"template {template.fingerprint}: {len(template.field_names)} fields "
            f"({', '.join(template.field_names[:10])}"
            f"{', ...' if len(template.field_names) > 10 else ''})",
            file=sys.stderr,
        )
        self._write(opts, template.to_json() + "\n")

    def _show(self, args: list[str], opts: argparse.Namespace) -> None:
        from scrapy_wrapx.commands._show import template_schema, template_tree

        if opts.list:
            self._write(opts, self._list_templates())
            return
        if len(args) != 1:
            raise UsageError("show needs one TEMPLATE (a JSON file or store:KIND_KEY)")
        template = self._template(args[0])
        header = f"# template {template.fingerprint}, fields: {', '.join(template.field_names)}"
        schema = template_schema(template)
        self._write(opts, header + "\n" + schema + "\n" + template_tree(template) + "\n")

    def _extract(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) < 2:
            raise UsageError("extract needs a TEMPLATE and pages")
        template = self._template(args[0])
        pages = self._pages(args[1:])
        progress = Progress("extracting", len(pages))
        lines = []
        for page in pages:
            extraction = extract(template, page.html, url=page.url)
            lines.append(
                json.dumps(
                    {
                        "url": page.url,
                        "template": template.fingerprint,
                        "matched": extraction.matched,
                        "score": round(extraction.score, 4),
                        "fields": extraction.fields,
                        "records": extraction.records,
                    },
                    ensure_ascii=False,
                )
            )
            progress.advance()
        progress.close()
        self._write(opts, "".join(line + "\n" for line in lines))

    def _report(self, args: list[str], opts: argparse.Namespace) -> None:
        from scrapy_wrapx.commands._report import render_report

        if len(args) != 2:
            raise UsageError("report needs a TEMPLATE and one PAGE")
        template = self._template(args[0])
        (page,) = self._pages(args[1:])
        report, extraction = render_report(page.html, page.url, template, title=page.source)
        self._write(opts, report)
        print(
            f"report of {page.source}: score {extraction.score:.2f}, "
            f"{sum(1 for v in extraction.fields.values() if v)} fields with values",
            file=sys.stderr,
        )

    # Helpers ----------------------------------------------------------------

    def _pages(self, sources: list[str]) -> list[Page]:
        assert self.settings is not None
        return load_pages(sources, self.settings, self.crawler_process)

    def _store(self) -> Any:
        from scrapy import Spider
        from scrapy.crawler import Crawler

        from scrapy_wrapx.store._crawler import open_store

        assert self.settings is not None
        crawler = Crawler(type("WrapxStoreSpider", (Spider,), {"name": "wrapx"}), self.settings)
        return open_store(crawler)

    def _template(self, spec: str) -> Template:
        from scrapy_wrapx._versioned import load_json
        from scrapy_wrapx.template import Template
        from scrapy_wrapx.unsupervised.templates import load_template

        if spec.startswith("store:"):
            store = self._store()
            try:
                record = load_template(store, spec[len("store:") :])
            finally:
                store.close()
            if record is None:
                raise ValueError(f"No template in the store for kind {spec[6:]!r}")
            return record.template
        path = Path(spec)
        if not path.is_file():
            raise ValueError(f"No template file at {spec!r}")
        text = path.read_text(encoding="utf-8")
        try:
            data = load_json(text, "JSON")
        except ValueError as exc:
            raise ValueError(f"Template file {spec!r}: {exc}") from exc
        if isinstance(data, dict) and "template" in data and "kind" in data:
            return Template.from_json(json.dumps(data["template"]))  # a store record
        return Template.from_json(text)

    def _list_templates(self) -> str:
        from scrapy_wrapx.unsupervised.templates import TEMPLATES, load_template

        store = self._store()
        try:
            lines = []
            for key in store.keys(TEMPLATES):
                record = load_template(store, key)
                if record is not None:
                    lines.append(
                        f"store:{key}\tv{record.version}\t{record.template.fingerprint}\t"
                        f"{len(record.template.field_names)} fields\t"
                        f"{len(record.seed_urls)} seeds"
                    )
        finally:
            store.close()
        return "".join(line + "\n" for line in lines) or "(no templates in the store)\n"

    def _write(self, opts: argparse.Namespace, text: str) -> None:
        if opts.output:
            Path(opts.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
            sys.stdout.flush()


def _one_line(exc: BaseException) -> str:
    """``exc``'s message on one line, cut to a readable length."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."
