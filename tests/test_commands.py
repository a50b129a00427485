"""``scrapy wrapx`` subcommands, run as a user runs them (a subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_wrapx.demo import build_site
from tests.crawling import run_wrapx


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = build_site(seed=2, books=8)
    folder = tmp_path_factory.mktemp("pages")
    for n, path in enumerate(site.detail_pages):
        html = site.pages[path]
        (folder / f"{n:04d}.html").write_text(
            f'<base href="http://demo.test{path}"/>\n{html}', encoding="utf-8"
        )
    return folder


def test_induce_show_extract_report(pages: Path, tmp_path: Path) -> None:
    files = sorted(pages.iterdir())
    done = run_wrapx("induce", *map(str, files[:5]), "-o", "t.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "5/5 pages" in done.stderr and "fields" in done.stderr
    template = json.loads((tmp_path / "t.json").read_text())
    assert template["format"] == "scrapy-wrapx-template"

    shown = run_wrapx("show", "t.json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("# template ")
    assert "\n<body" in shown.stdout and "\n  " in shown.stdout and "{" in shown.stdout

    out = run_wrapx("extract", "t.json", str(pages), "-o", "items.jl", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in (tmp_path / "items.jl").read_text().splitlines()]
    assert len(rows) == len(files)
    assert rows[7]["url"].startswith("http://demo.test/book/")
    assert all(row["matched"] for row in rows)
    site = build_site(seed=2, books=8)
    isbn = site.truth[site.detail_pages[7]]["isbn"][0]
    assert any(isbn in values for values in rows[7]["fields"].values())
    # Named as a crawl names them: the title after the page's <title>.
    title = site.truth[site.detail_pages[7]]["title"][0]
    assert rows[7]["fields"].get("title") == [title]
    assert "# fields (1 = single value, * = list):" in shown.stdout

    report = run_wrapx("report", "t.json", str(files[7]), "-o", "r.html", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    html = (tmp_path / "r.html").read_text()
    assert 'class="wrapx-variant"' in html and 'class="wrapx-fixed"' in html
    assert f">{isbn}<" in html and "wrapx-panel" in html and "<script" not in html


def test_errors_are_one_line(tmp_path: Path) -> None:
    done = run_wrapx("show", "missing.json", cwd=tmp_path)
    assert done.returncode == 1
    assert "No template file at 'missing.json'" in done.stderr
    (tmp_path / "bad.json").write_text('{"format": "other"}')
    done = run_wrapx("show", "bad.json", cwd=tmp_path)
    assert done.returncode == 1 and "Not a scrapy-wrapx template" in done.stderr
    done = run_wrapx("frobnicate", cwd=tmp_path)
    assert done.returncode == 2


def test_show_lists_templates_of_the_store(tmp_path: Path) -> None:
    done = run_wrapx(
        "show", "--list", "-s", f"WRAPX_STORE_SQLITE_PATH={tmp_path / 's.db'}", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "no templates" in done.stdout
