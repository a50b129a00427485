"""A page that lacks a section every seed showed keeps the rest of its data
(issue 11: pages that do not fit degrade gracefully). Seeds that all list
related products make the list's heading and box required; a product with
none lacks both, so the page has no parse and is aligned leniently. On a
site without classes every ``<div>`` fits every other shallowly, and the
alignment paired the breadcrumb with the main block and the main block
with a review: the title, the price and every spec were lost. The
children's tags tell the blocks apart (:func:`._lenient.content_share`).
"""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._pagenames import name_template
from scrapy_wrapx.template import Elem, Text
from scrapy_wrapx.unsupervised.items import item_data

WORDS = ["Arlen", "Borsk", "Calder", "Dunmore", "Elwick", "Farrow", "Gilden", "Hollis", "Ivers"]
SPECS = ["Weight", "Colour", "Material"]


def _page(
    rng: random.Random, related: int, reviews: int, classes: bool
) -> tuple[str, dict[str, str]]:
    def attr(name: str) -> str:
        return f" class='{name}'" if classes else ""

    title = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randrange(100, 999)}"
    price = f"${rng.randrange(5, 900)}.{rng.randrange(10, 99)}"
    specs = {label: f"{rng.choice(WORDS)} {rng.randrange(1, 99)}" for label in SPECS}
    grid = "".join(f"<div><span>{k}</span><span>{v}</span></div>" for k, v in specs.items())
    nav = "".join(f"<a href='/c/{w.lower()}'>{w}</a> " for w in WORDS[:5])
    cards = "".join(
        f"<div><a href='/p/{rng.randrange(10**6)}'>{rng.choice(WORDS)}</a> <span>$9.99</span></div>"
        for _ in range(related)
    )
    boxes = "".join(
        f"<div><b>{rng.choice(WORDS)}</b> <span>{rng.randrange(1, 6)} out of 5</span>"
        f"<p>{' '.join(rng.choice(WORDS).lower() for _ in range(9))}.</p></div>"
        for _ in range(reviews)
    )
    html = (
        f"<html><body><div{attr('nav')}>{nav}</div>"
        f"<div{attr('crumb')}><a href='/'>Home</a> &gt; <a href='/c/x'>{rng.choice(WORDS)}</a></div>"
        f"<div{attr('main')}><h1>{title}</h1><p><span>{price}</span></p><div>{grid}</div></div>"
        + (f"<h3>Related</h3><div{attr('related')}>{cards}</div>" if related else "")
        + (f"<h3>Reviews</h3>{boxes}" if reviews else "<p>No reviews yet.</p>")
        + "<div>Copyright Shop</div></body></html>"
    )
    return html, {"title": title, "price": price, **{k.lower(): v for k, v in specs.items()}}


@pytest.mark.parametrize("classes", [False, True])
@pytest.mark.parametrize("reviews", [0, 2])
@pytest.mark.parametrize("seed", range(6))
def test_a_page_without_the_related_products_keeps_its_data(
    classes: bool, reviews: int, seed: int
) -> None:
    rng = random.Random(seed)
    seeds = [_page(rng, rng.randint(1, 4), rng.randint(1, 3), classes)[0] for _ in range(5)]
    trees = [dom.parse(html) for html in seeds]
    template = induce_template(trees)
    name_template(template, trees)
    html, truth = _page(rng, 0, reviews, classes)
    extraction = extract(template, html)
    item = item_data(extraction, template)
    assert extraction.matched, extraction.score
    assert {name: item.get(name) for name in truth} == truth, item


def _sections_page(rng: random.Random, related: int, reviews: int) -> tuple[str, list[str]]:
    """Sections headed alike (an ``<h3>`` each) that a page may lack:
    related products, reviews."""
    cards = "".join(
        f"<div><a href='/p/{rng.randrange(999)}'>{rng.choice(WORDS)}</a> <span>$9.99</span></div>"
        for _ in range(related)
    )
    authors = [f"{rng.choice(WORDS)} {rng.choice(WORDS)[0]}." for _ in range(reviews)]
    boxes = "".join(
        f"<div><b>{author}</b> <span>{rng.randrange(1, 6)} of 5</span>"
        f"<p>{' '.join(rng.choice(WORDS).lower() for _ in range(8))}.</p></div>"
        for author in authors
    )
    html = (
        f"<html><body><h1>{rng.choice(WORDS)} {rng.randrange(999)}</h1>"
        + (f"<h3>Related</h3><div>{cards}</div>" if related else "")
        + (f"<h3>Reviews</h3>{boxes}" if reviews else "<p>No reviews yet.</p>")
        + "<div>Copyright Shop</div></body></html>"
    )
    return html, authors


@pytest.mark.parametrize("seed", range(8))
def test_a_section_pairs_with_its_own_heading(seed: int) -> None:
    """A seed with reviews but no related products: its "Reviews" heading
    pairs with the other seeds' "Reviews", not with their "Related" (alike
    in all but the text), so no heading of the template is a slot whose
    text varies, and a page without related products fits."""
    rng = random.Random(seed)
    counts = [(2, 3), (0, 2), (1, 0), (3, 1), (2, 2)]
    rng.shuffle(counts)
    seeds = [_sections_page(rng, related, count)[0] for related, count in counts]
    template = induce_template([dom.parse(html) for html in seeds])
    headings = [node for node in template.nodes if isinstance(node, Elem) and node.tag == "h3"]
    texts = [child for heading in headings for child in heading.children]
    assert texts and all(isinstance(text, Text) and text.fixed for text in texts)
    html, authors = _sections_page(rng, 0, 2)
    extraction = extract(template, html)
    found = [
        value for rows in extraction.records.values() for row in rows for value in row.values()
    ]
    assert extraction.score == 1.0 and all(author in found for author in authors)


LISTS = {
    "dl": ("<dl class='specs'>{}</dl>", "<dt>{}</dt><dd>{}</dd>"),
    "table": ("<table class='specs'>{}</table>", "<tr><th>{}</th><td>{}</td></tr>"),
    "ul": ("<ul class='specs'>{}</ul>", "<li><b>{}:</b> {}</li>"),
    # Any element of labelled rows is a list of them.
    "div of dash rows": ("<div class='specs'>{}</div>", "<div>{} - <span>{}</span></div>"),
}


def _list_page(rng: random.Random, idiom: str, rows: list[str]) -> tuple[str, dict[str, str]]:
    values = {label: f"{rng.choice(WORDS)} {rng.randrange(10, 99)}" for label in rows}
    body, row = LISTS[idiom]
    # A page whose features are none lacks their block too: the page
    # does not fit its template, and the list is aligned leniently.
    features = "".join(f"<li>{rng.choice(WORDS)}</li>" for _ in range(rng.randint(0, 3)))
    html = (
        f"<html><body><div class='main'><h1>Item {rng.randrange(999)}</h1>"
        f"{body.format(''.join(row.format(k, v) for k, v in values.items()))}"
        + (f"<h3>Features</h3><ul class='features'>{features}</ul>" if features else "")
        + "</div><div class='foot'>Copyright Shop</div></body></html>"
    )
    return html, {k.lower(): v for k, v in values.items()}


@pytest.mark.parametrize("idiom", sorted(LISTS))
def test_a_list_without_its_first_row_is_still_the_list(idiom: str) -> None:
    """Every seed's spec list opens with "Battery" (seeds with features
    of their own); a page without a battery row, and without features,
    has the rest of its list read: the list's first row is no label of
    the list, whatever element holds the rows."""
    rng = random.Random(idiom)
    rows = ["Battery", "Weight", "Colour", "Material"]
    seeds = []
    while len(seeds) < 5:
        html, _ = _list_page(rng, idiom, rows)
        if "Features" in html:
            seeds.append(html)
    trees = [dom.parse(html) for html in seeds]
    template = induce_template(trees)
    name_template(template, trees)
    html, truth = _list_page(rng, idiom, rows[1:])
    while "Features" in html:
        html, truth = _list_page(rng, idiom, rows[1:])
    item = item_data(extract(template, html), template)
    # "Weight - <span>x</span>" reads as a byline, a list of one (see
    # ._sets.widen_bylines): the values are what this test is about.
    found = {name: item.get(name) for name in truth}
    found = {k: v[0] if isinstance(v, list) and len(v) == 1 else v for k, v in found.items()}
    assert found == truth, item
