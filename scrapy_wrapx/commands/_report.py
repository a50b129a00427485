"""An HTML report of one page under its template, for ``scrapy wrapx report``.

The report is the page itself (everything that could run removed, see
:mod:`._sanitize`; a ``<base>`` added so its images and styles still load) with every text and data attribute marked:
*fixed* template text greyed, *variant* data highlighted and labelled with
its field name, and a panel on top listing the fields and their values. A
person sees at a glance what the template considers layout and what data,
which is what to check before trusting its items.

Leaves are classified by their values: a text equal to a field value is
variant, a text containing one is partly fixed (the value is highlighted
inside it), any other text is fixed. A value several fields hold (a title
that the breadcrumb repeats) is labelled, at each place, with the field
whose template path (the last tags above it) is that place's.
"""

from __future__ import annotations

import html as html_lib
from typing import TYPE_CHECKING, Any, cast

from lxml import etree

from scrapy_wrapx import dom
from scrapy_wrapx.commands._sanitize import active_url, sanitize
from scrapy_wrapx.dom import fold_whitespace
from scrapy_wrapx.extraction import extract

if TYPE_CHECKING:
    from scrapy_wrapx.template import Extraction, Template

_STYLE = """
.wrapx-fixed { background: #e8e8e8; color: #555; }
.wrapx-variant { background: #ffe27a; outline: 1px solid #c99a00; }
.wrapx-variant::before, .wrapx-attr::before {
  content: attr(data-wrapx-field); font: 10px/1.2 monospace; background: #7a4f00;
  color: #fff; padding: 0 3px; margin-right: 2px; border-radius: 2px; vertical-align: super;
}
.wrapx-attr { outline: 2px dashed #c99a00; }
#wrapx-panel { font: 13px/1.4 sans-serif; background: #fffbe6; border: 2px solid #c99a00;
  padding: 8px 12px; margin: 8px; color: #222; }
#wrapx-panel table { border-collapse: collapse; }
#wrapx-panel td, #wrapx-panel th { border: 1px solid #ddd; padding: 2px 6px;
  text-align: left; vertical-align: top; }
"""


class _Fields:
    """The fields holding each extracted value, with their template paths."""

    def __init__(self, extraction: Extraction, template: Template) -> None:
        paths = {info.name: info.path for info in template.fields}
        self.by_value: dict[str, list[tuple[str, str]]] = {}
        for name, values in extraction.fields.items():
            for value in values:
                folded = fold_whitespace(value)
                if folded:
                    holders = self.by_value.setdefault(folded, [])
                    if all(name != held for held, _ in holders):
                        holders.append((name, paths.get(name, "")))

    def __contains__(self, value: str) -> bool:
        return value in self.by_value

    def values(self) -> list[str]:
        return list(self.by_value)

    def field(self, value: str, element: etree._Element | None) -> str | None:
        """The field of ``value`` at ``element``: the one whose template
        path ends like the element's tag path, else the first."""
        holders = self.by_value.get(value)
        if not holders:
            return None
        if len(holders) > 1 and element is not None:
            here = _tag_path(element).split("/")
            for name, path in holders:
                tags = path.split("/") if path else []
                depth = min(len(tags), len(here))
                if depth and tags[-depth:] == here[-depth:]:
                    return name
        return holders[0][0]


def _tag_path(element: etree._Element) -> str:
    """Tags from ``<body>`` down to ``element`` (as template paths hold them)."""
    tags = [str(element.tag).lower()]
    for ancestor in element.iterancestors():
        tag = str(ancestor.tag).lower()
        if tag == "html":
            break
        tags.append(tag)
    return "/".join(reversed(tags))


def _span(kind: str, text: str, field: str | None = None) -> etree._Element:
    span = etree.Element("span")
    span.set("class", f"wrapx-{kind}")
    if field is not None:
        span.set("data-wrapx-field", field)
    span.text = text
    return span


def _partial(raw: str, fields: _Fields, holder: etree._Element) -> etree._Element | None:
    """A fixed span with the longest field value found inside ``raw`` marked."""
    best = max((v for v in fields.values() if len(v) >= 2 and v in raw), key=len, default=None)
    if best is None:
        return None
    start = raw.index(best)
    outer = _span("fixed", raw[:start])
    inner = _span("variant", best, fields.field(best, holder))
    inner.tail = raw[start + len(best) :]
    outer.append(inner)
    return outer


def _mark_text(result: Any, fields: _Fields) -> None:
    raw = str(result)
    folded = fold_whitespace(raw)
    parent = result.getparent()
    holder = parent.getparent() if result.is_tail else parent
    field = fields.field(folded, holder)
    if field is not None:
        span = _span("variant", raw, field)
    else:
        partial = _partial(raw, fields, holder)
        span = partial if partial is not None else _span("fixed", raw)
    if result.is_tail:
        parent.tail = None
        parent.addnext(span)
    else:
        parent.text = None
        parent.insert(0, span)


def render_report(
    page_html: str, url: str | None, template: Template, *, title: str = ""
) -> tuple[str, Extraction]:
    """The report page for ``page_html`` and the extraction it shows."""
    tree = dom.parse(page_html, url=url)
    extraction = extract(template, tree, url=url)
    fields = _Fields(extraction, template)
    # The <html> that holds the page's body (a page split by an early
    # </html> has two, see dom._top).
    holder = tree.root.element.getparent()
    document = holder if holder is not None else tree.document
    # Collect everything first: marking changes the text() positions that
    # the XPaths count on.
    texts: list[Any] = []
    attributes: list[tuple[etree._Element, str]] = []
    for leaf in tree.leaves:
        if leaf.is_text:
            found = cast("list[Any]", document.xpath(leaf.xpath))
            texts.extend(r for r in found if isinstance(r, str) and hasattr(r, "getparent"))
    for node in tree.nodes:
        if node.is_text:
            continue
        for name in ("href", "src", "data-src", "value"):
            value = node.element.get(name)
            field = fields.field(fold_whitespace(value), node.element) if value else None
            if field is not None:
                attributes.append((node.element, field))
                break
    for result in texts:
        _mark_text(result, fields)
    for element, field in attributes:
        classes = (element.get("class") or "") + " wrapx-attr"
        element.set("class", classes.strip())
        element.set("data-wrapx-field", field)
    sanitize(document)
    _add_head(document, url)
    _add_panel(document, template, extraction, title or (url or ""))
    return etree.tostring(document, method="html", encoding="unicode"), extraction


def _add_head(document: etree._Element, url: str | None) -> None:
    head = document.find("head")
    if head is None:
        head = etree.Element("head")
        document.insert(0, head)
    style = etree.SubElement(head, "style")
    style.text = _STYLE
    charset = etree.Element("meta")
    charset.set("charset", "utf-8")
    head.insert(0, charset)
    if url and not active_url(url) and head.find("base") is None:
        base = etree.Element("base")
        base.set("href", url)
        head.insert(1, base)


def _add_panel(
    document: etree._Element, template: Template, extraction: Extraction, title: str
) -> None:
    rows = "".join(
        f"<tr><th>{html_lib.escape(name)}</th><td>"
        + "<br>".join(html_lib.escape(v) for v in values)
        + "</td></tr>"
        for name, values in extraction.fields.items()
    )
    panel: Any = etree.fromstring(
        f'<div id="wrapx-panel"><b>scrapy-wrapx report</b> — {html_lib.escape(title)}<br>'
        f"template {html_lib.escape(template.fingerprint)}, {len(template.field_names)} fields;"
        f" match score {extraction.score:.2f} ({'matched' if extraction.matched else 'NOT matched'})."
        ' <span class="wrapx-fixed">fixed text</span>'
        ' <span class="wrapx-variant" data-wrapx-field="field">variant data</span>'
        f"<table><tr><th>field</th><th>values</th></tr>{rows}</table></div>",
        parser=etree.HTMLParser(),
    ).find(".//div")
    body = document.find("body")
    if body is None:
        body = etree.SubElement(document, "body")
    body.insert(0, panel)
