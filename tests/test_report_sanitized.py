"""``scrapy wrapx report`` writes no active content of a hostile page."""

from __future__ import annotations

from lxml import etree

from scrapy_wrapx.commands._report import render_report
from scrapy_wrapx.induction import induce_template

HOSTILE = """<html><head><title>t</title>
<meta http-equiv="refresh" content="0;url=javascript:alert(1)">
<META HTTP-EQUIV="Refresh" content="0;url=https://evil.test/">
<base href="javascript:alert(2)">
<script>alert(3)</script></head>
<body onload="alert(4)"><h1 class="t" onclick="alert(5)" ONMOUSEOVER="alert(6)">Title %d</h1>
<a href=" java&#9;script:alert(7)">a</a><a href="/ok.html">ok</a> kept tail
<img src="data:image/svg+xml,<svg onload=alert(8)>" onerror="alert(9)">
<form action="JAVASCRIPT:alert(10)"><button formaction="vbscript:x">b</button></form>
<iframe srcdoc="<script>alert(11)</script>"></iframe><iframe src="https://evil.test/"></iframe>
<object data="javascript:alert(12)"></object><embed src="https://evil.test/x.swf">
<svg><a xlink:href="javascript:alert(13)">s</a><script>alert(14)</script></svg>
<div srcdoc="x">Value %d</div><noscript><img src=x onerror=alert(15)></noscript>
</body></html>"""


def test_report_of_a_hostile_page_has_no_active_content() -> None:
    pages = [HOSTILE % (n, n) for n in range(3)]
    template = induce_template(pages)
    report, _ = render_report(pages[0], "https://books.test/1", template, title="hostile")
    document = etree.fromstring(report, parser=etree.HTMLParser())
    assert "alert(" not in report
    assert not document.xpath("//script|//iframe|//object|//embed|//noscript")
    assert not document.xpath("//meta[@http-equiv]")
    for element in document.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            assert not name.lower().startswith("on"), (element.tag, name)
            assert name.lower() != "srcdoc"
            folded = "".join(value.split()).lower()
            assert not folded.startswith(("javascript:", "data:", "vbscript:")), (name, value)
    assert document.xpath("//base/@href") == ["https://books.test/1"]
    assert document.xpath("//a[@href='/ok.html']")
    assert "kept tail" in report and "Title 0" in report and "wrapx-panel" in report
