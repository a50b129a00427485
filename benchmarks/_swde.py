"""Loading SWDE pages and ground truth (``shared/data/swde``, see its README).

Page files are UTF-8 with a byte-order mark and a first line
``<base href="ORIGINAL-URL"/>`` added by the dataset's crawler: that line is
the page's URL, not part of the page. Ground-truth files have two header
lines, then ``PAGEID<TAB>N<TAB>value1...``; values carry entities and odd
whitespace, so they are unescaped and folded before any comparison.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from scrapy_wrapx.dom import fold_whitespace

#: Sites of ``benchmarks/data/swde`` the rules were tuned on (see its
#: README); the others there are reporting only.
TUNING_EXTRA_SITES = frozenset(
    {
        "auto/autoweb",
        "nbaplayer/espn",
        "university/collegeboard",
        "job/monster",
        "movie/yahoo",
        "nbaplayer/slam",
        "restaurant/pickarestaurant",
        "university/usnews",
        "auto/cars",
        "camera/ecost",
        "camera/newegg",
        "job/jobcircle",
        "nbaplayer/msnca",
        "restaurant/fodors",
        "auto/yahoo",
        "camera/jr",
        "movie/msn",
        "university/embark",
        "restaurant/frommers",
        "camera/amazon",
        "movie/hollywood",
        "camera/beachaudio",
    }
)

_BASE_LINE = re.compile(r'^\s*<base href="([^"]*)"\s*/?>\s*$', re.IGNORECASE)


def normalize_value(value: str) -> str:
    """Unescape entities and fold whitespace: the form values are compared in."""
    return fold_whitespace(html.unescape(value))


@dataclass
class SwdePage:
    page_id: str
    url: str
    html: str


@dataclass
class SwdeSite:
    name: str
    pages: list[SwdePage]
    #: attribute -> page id -> normalized values (empty: absent on that page)
    truth: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    @property
    def attributes(self) -> list[str]:
        return sorted(self.truth)


def read_page(path: Path) -> SwdePage:
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    first, _, rest = text.partition("\n")
    match = _BASE_LINE.match(first)
    if match:
        return SwdePage(path.stem, match.group(1), rest)
    return SwdePage(path.stem, path.as_uri(), text)


def read_truth(path: Path) -> dict[str, list[str]]:
    truth: dict[str, list[str]] = {}
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    for line in lines[2:]:
        parts = line.split("\t")
        if len(parts) < 2 or not parts[1].strip().isdigit():
            continue
        count = int(parts[1])
        values = [normalize_value(v) for v in parts[2 : 2 + count]]
        truth[parts[0]] = [v for v in values if v]
    return truth


def load_site(site_dir: Path, limit: int | None = None) -> SwdeSite:
    """Pages (sorted by id) and ground truth of one site directory."""
    paths = sorted((site_dir / "pages").glob("*.htm"))
    if limit is not None:
        paths = paths[:limit]
    site = SwdeSite(site_dir.name, [read_page(p) for p in paths])
    for truth_path in sorted((site_dir / "groundtruth").glob("*.txt")):
        site.truth[truth_path.stem] = read_truth(truth_path)
    return site


def load_sites(data_dir: Path, limit: int | None = None) -> list[SwdeSite]:
    """Every site under ``data_dir`` (a vertical such as ``swde/book``)."""
    if not data_dir.is_dir():
        raise ValueError(f"No SWDE data directory at {str(data_dir)!r}")
    sites = [
        load_site(path, limit) for path in sorted(data_dir.iterdir()) if (path / "pages").is_dir()
    ]
    if not sites:
        raise ValueError(f"No SWDE sites (with a pages/ folder) under {str(data_dir)!r}")
    return sites
