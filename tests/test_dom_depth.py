"""A page nested deeper than libxml2 allows: the parser stops at 2,048
levels and drops the rest of the page without an exception, so the page
tree says so, once."""

from __future__ import annotations

import logging

import pytest
from parsel import Selector

from scrapy_wrapx.dom import LIBXML2_MAX_DEPTH, build_tree, parse

URL = "http://example.com/deep"


def nested(depth: int) -> str:
    return (
        "<html><body>"
        + "<div>" * depth
        + "<p>deep inside</p>"
        + "</div>" * depth
        + "<p>after the nest</p></body></html>"
    )


def depth_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        record
        for record in caplog.records
        if record.name == "scrapy_wrapx.dom" and record.levelno == logging.WARNING
    ]


def test_cut_page_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="scrapy_wrapx.dom"):
        tree = parse(nested(5000), URL)
    (record,) = depth_warnings(caplog)
    message = record.getMessage()
    assert URL in message
    assert str(LIBXML2_MAX_DEPTH) in message
    # What the warning is about: the deeper content and all after it is gone.
    values = [leaf.value for leaf in tree.leaves]
    assert "deep inside" not in values
    assert "after the nest" not in values


def test_deep_but_whole_page_is_quiet(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="scrapy_wrapx.dom"):
        tree = parse(nested(2000), URL)
    assert depth_warnings(caplog) == []
    assert [leaf.value for leaf in tree.leaves] == ["deep inside", "after the nest"]


def test_cut_parsel_document_warns(caplog: pytest.LogCaptureFixture) -> None:
    """The crawl builds trees on ``response.selector``'s document, which
    keeps no parser error log: the depth tells."""
    document = Selector(text=nested(5000)).root
    with caplog.at_level(logging.WARNING, logger="scrapy_wrapx.dom"):
        build_tree(document, URL)
    assert len(depth_warnings(caplog)) == 1
