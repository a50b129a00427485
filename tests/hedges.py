"""Page shapes whose long hedges stress extraction, for the linearity test
and ``python -m benchmarks worstcase``.

Each family draws a page around one long run of siblings (*n* list rows,
table rows, text runs); ``misfit=True`` adds what the template never saw
(a trailing element, rows of another shape), which sends the match down
its lenient path. The template comes from :func:`seed_pages`: short pages of
the same family, so every family's template has the repetition the long
page stretches.
"""

from __future__ import annotations

import random
from collections.abc import Callable

__all__ = ["FAMILIES", "Family", "seed_pages"]

#: ``(n, rng, misfit) -> html``.
Family = Callable[[int, random.Random, bool], str]


def _item(i: int, rng: random.Random) -> str:
    badge = "<em>new</em>" if rng.random() < 0.3 else ""
    return (
        f'<li class="item"><a href="/p/{i}">Product {rng.randint(1, 10**6)}</a>{badge}'
        f'<span class="price">${rng.randint(1, 999)}.99</span></li>'
    )


_UNEXPECTED = '<div class="unexpected"><b>zzz</b></div>'


def list_then_stranger(n: int, rng: random.Random, misfit: bool) -> str:
    """A product list; the misfit ends it with an element it never had."""
    rows = "".join(_item(i, rng) for i in range(n))
    extra = _UNEXPECTED if misfit else ""
    return (
        f'<html><body><h1>Shop</h1><ul class="list">{rows}{extra}</ul><p>Footer</p></body></html>'
    )


def optional_list(n: int, rng: random.Random, misfit: bool) -> str:
    """A list that some pages lack (an optional set)."""
    rows = "".join(_item(i, rng) for i in range(n))
    listing = f'<ul class="list">{rows}</ul>' if n else ""
    extra = _UNEXPECTED if misfit else ""
    return (
        f'<html><body><h1>Shop</h1><div class="box">{listing}<p>after</p>{extra}</div>'
        "<p>Footer</p></body></html>"
    )


def list_then_more(n: int, rng: random.Random, misfit: bool) -> str:
    """A list whose last row differs (a "More" link), then a stranger."""
    rows = "".join(_item(i, rng) for i in range(n))
    extra = _UNEXPECTED if misfit else ""
    return (
        f'<html><body><h1>Shop</h1><ul class="list">{rows}'
        f'<li class="more"><a href="/more">More</a></li>{extra}</ul></body></html>'
    )


def misfit_rows(n: int, rng: random.Random, misfit: bool) -> str:
    """Every other row of another shape."""
    rows = "".join(
        f'<li class="x"><p>row {i}</p><span>{i}</span></li>' if misfit and i % 2 else _item(i, rng)
        for i in range(n)
    )
    return f'<html><body><h1>Shop</h1><ul class="list">{rows}</ul></body></html>'


def two_lists(n: int, rng: random.Random, misfit: bool) -> str:
    """Two lists of alike rows in one parent, split by a label row."""
    first = "".join(_item(i, rng) for i in range(n))
    second = "".join(
        f'<li class="item"><a href="/q/{i}">Other {i}</a><span class="price">$1.00</span></li>'
        for i in range(n // 2 + 1)
    )
    extra = "<span>odd</span>" if misfit else ""
    return f'<html><body><ul>{first}<li class="sep">Also</li>{second}{extra}</ul></body></html>'


def text_runs(n: int, rng: random.Random, misfit: bool) -> str:
    """Loose texts and bold labels in one block, no element per row."""
    words = ("alpha", "beta", "gamma")
    body = "".join(f"{rng.choice(words)} {i}<br><b>k{i}</b>" for i in range(n))
    extra = "<table><tr><td>x</td></tr></table>" if misfit else ""
    return f'<html><body><div class="c">{body}{extra}</div></body></html>'


def table_rows(n: int, rng: random.Random, misfit: bool) -> str:
    """Table rows of varying width (a set in a set)."""
    rows = "".join(
        "<tr>"
        + "".join(f"<td>{rng.randint(1, 99)}</td>" for _ in range(rng.randint(2, 6)))
        + "</tr>"
        for _ in range(n // 4 + 1)
    )
    extra = "<caption>odd</caption>" if misfit else ""
    return f'<html><body><table class="t">{rows}{extra}</table></body></html>'


def rows_with_notes(n: int, rng: random.Random, misfit: bool) -> str:
    """Records of a row and, on some, a note row after it, with no element
    around each (records one or two rows wide)."""
    rows = []
    for _ in range(n // 2 + 1):
        rows.append(
            f'<tr class="film"><td>Film {rng.randint(1, 10**6)}</td>'
            f"<td>${rng.randint(1, 999)}</td></tr>"
        )
        if rng.random() < 0.4:
            rows.append(f'<tr class="note"><td>Note {rng.randint(1, 10**6)}</td></tr>')
    extra = "<caption>odd</caption>" if misfit else ""
    return f'<html><body><table class="t">{"".join(rows)}{extra}</table></body></html>'


FAMILIES: dict[str, Family] = {
    "list_then_stranger": list_then_stranger,
    "optional_list": optional_list,
    "list_then_more": list_then_more,
    "misfit_rows": misfit_rows,
    "two_lists": two_lists,
    "text_runs": text_runs,
    "table_rows": table_rows,
    "rows_with_notes": rows_with_notes,
}


def seed_pages(family: Family, seed: int = 1, count: int = 5) -> list[str]:
    """Short pages of ``family`` to induce its template from (the optional
    list is absent from some)."""
    rng = random.Random(seed)
    low = 0 if family is optional_list else 2
    return [family(rng.randint(low, 12), rng, False) for _ in range(count)]
