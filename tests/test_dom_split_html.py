"""A page that closes ``</html>`` before its head and body (``<html
lang="en"></html><head>...``; browsers ignore it, a whole SWDE site does
it) is parsed by libxml2 into two top-level ``<html>`` elements, the
second holding the page. The page's tree is that second one's body, its
XPaths hold in ``response.xpath`` (``/html[2]/...``), and induction,
extraction, naming and the report see the whole page."""

from __future__ import annotations

import pytest
from parsel import Selector

from scrapy_wrapx import dom
from scrapy_wrapx.commands._report import render_report
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.induction._semantic import page_evidence

SCHOOLS = ["Adrian College", "Baker University", "Carleton College", "Drew University"]
EARLY_ENDS = ['<html lang="en"></html>', "<html></html>", '<HTML lang="en"></HTML>\n']


def _page(early: str, school: str, n: int) -> str:
    return (
        f"<!DOCTYPE html>{early}<head><title>{school} - Facts</title></head>"
        f"<body><div id='nav'><a href='/'>Home</a></div><h1>{school}</h1>"
        f"<table><tr><td>Phone:</td><td>(517) 265-{5100 + n}</td></tr></table>"
        "<p>Footer</p></body></html>"
    )


@pytest.mark.parametrize("early", EARLY_ENDS)
def test_the_page_after_an_early_end_is_the_tree(early: str) -> None:
    html = _page(early, SCHOOLS[0], 0)
    tree = dom.parse(html, "http://schools.test/0")
    values = [leaf.value for leaf in tree.leaves]
    assert SCHOOLS[0] in values and "(517) 265-5100" in values
    selector = Selector(text=html)
    for leaf in tree.leaves:
        assert selector.xpath(leaf.xpath).getall() == [leaf.value] or leaf.element.tag == "a"
    assert page_evidence(tree).titles == [f"{SCHOOLS[0].lower()} - facts"]


@pytest.mark.parametrize("early", EARLY_ENDS)
def test_such_pages_are_induced_extracted_and_reported(early: str) -> None:
    pages = [_page(early, school, n) for n, school in enumerate(SCHOOLS)]
    template = induce_template(pages[:3])
    extraction = extract(template, pages[3])
    assert extraction.matched
    values = {v for found in extraction.fields.values() for v in found}
    assert {SCHOOLS[3], "(517) 265-5103"} <= values
    report, _ = render_report(pages[3], "http://schools.test/3", template)
    assert SCHOOLS[3] in report and "wrapx-panel" in report
