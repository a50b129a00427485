"""``scrapy wrapx report`` as a person sees it: rendered in headless Chromium.

The report labels each variant value with its field name in a CSS
``::before`` box. A value two fields hold (a title the breadcrumb repeats
on this page, though not on every seed: else it is one field, see
:mod:`scrapy_wrapx.induction._copies`) must be labelled, at each place, with the field of that place: the
``<h1>`` shows the heading's field, not the breadcrumb's. The test asks the
browser what it draws (the computed ``::before`` content of each marked
value, read by a script added to the rendered file) and checks that the
label boxes are painted in the screenshot.

Chromium comes from Debian's ``chromium`` package (``.ci/ensure-chromium``);
without it the test is skipped, saying so.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from scrapy_wrapx.commands._report import render_report
from scrapy_wrapx.induction import induce_template

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (run .ci/ensure-chromium, or apt-get install chromium)",
)

BOOKS = [
    ("Dune", "9.99", "Dune"),
    ("Emma", "7.50", "Emma (Penguin)"),
    ("Ubik", "5.25", "Ubik"),
    ("Solaris", "6.10", "Solaris"),
]


def _page(title: str, price: str, crumb: str) -> str:
    return (
        "<html><head><title>Books</title></head><body>"
        f'<ul class="crumbs"><li>Home</li><li>{crumb}</li></ul>'
        f'<h1>{title}</h1><p class="price">Price: {price}</p>'
        "</body></html>"
    )


_PROBE = """<script>
const out = [];
for (const el of document.querySelectorAll('.wrapx-variant')) {
  const label = getComputedStyle(el, '::before').content.replace(/^"|"$/g, '');
  out.push([el.parentElement.tagName.toLowerCase(), el.textContent, label]);
}
const pre = document.createElement('pre');
pre.id = 'wrapx-probe';
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>"""


def _chromium(*args: str, user_data: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={user_data}",
        "--window-size=1200,2000",
        *args,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_report_labels_the_h1_with_its_own_field(tmp_path: Path) -> None:
    template = induce_template([_page(*book) for book in BOOKS[:3]])
    report, extraction = render_report(_page(*BOOKS[3]), "http://books.test/solaris", template)
    holders = [name for name, values in extraction.fields.items() if "Solaris" in values]
    assert len(holders) == 2, extraction.fields  # the breadcrumb and the heading
    path = tmp_path / "report.html"
    path.write_text(report.replace("</body>", _PROBE + "</body>"), encoding="utf-8")

    dumped = _chromium("--dump-dom", path.as_uri(), user_data=tmp_path / "profile")
    match = re.search(r'<pre id="wrapx-probe">(.*?)</pre>', dumped.stdout, re.S)
    if match is None:
        pytest.skip(f"chromium did not render the page: {dumped.stderr[-300:]!r}")
    shown = json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    labels = {(parent, text): label for parent, text, label in shown}
    heading = labels[("h1", "Solaris")]
    crumb = labels[("li", "Solaris")]
    assert heading != crumb
    assert {heading, crumb} == set(holders)
    by_path = {info.name: info.path for info in template.fields}
    assert by_path[heading].endswith("h1")
    assert by_path[crumb].endswith("li")

    shot = tmp_path / "report.png"
    _chromium(f"--screenshot={shot}", path.as_uri(), user_data=tmp_path / "profile2")
    assert shot.is_file() and shot.stat().st_size > 0
    _check_label_boxes(shot)


def _check_label_boxes(shot: Path, rows: int = 400) -> None:
    """The label boxes (background #7a4f00) are painted in the top
    ``rows`` of the screenshot."""
    boxes = sum(1 for pixel in _png_pixels(shot, rows) if _near(pixel, (0x7A, 0x4F, 0x00)))
    assert boxes > 50, "no label boxes painted"


def _png_pixels(path: Path, rows: int) -> list[tuple[int, int, int]]:
    """RGB pixels of the first ``rows`` rows of an 8-bit, non-interlaced
    RGB or RGBA PNG (what Chromium writes), without an imaging library."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, [], b""
    while position < len(data):
        length = struct.unpack(">I", data[position : position + 4])[0]
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", header[:10])
    if depth != 8 or color not in (2, 6):
        pytest.skip(f"unexpected PNG format (depth {depth}, color type {color})")
    channels = 3 if color == 2 else 4
    stride = width * channels
    raw = zlib.decompress(b"".join(chunks))
    previous = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    for row in range(min(rows, height)):
        start = row * (stride + 1)
        line = _unfilter(
            raw[start], bytearray(raw[start + 1 : start + 1 + stride]), previous, channels
        )
        pixels.extend((line[i], line[i + 1], line[i + 2]) for i in range(0, stride, channels))
        previous = line
    return pixels


def _unfilter(kind: int, line: bytearray, above: bytearray, bpp: int) -> bytearray:
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = above[i]
        corner = above[i - bpp] if i >= bpp else 0
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
    return line


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _near(color: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 8 for a, b in zip(color, wanted, strict=True))
