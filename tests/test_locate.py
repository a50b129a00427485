"""The hybrid locator on small hand-made pages and the demo site."""

from __future__ import annotations

import json

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.locate import Candidate, HybridLocator, Resolution, TargetReference

FIELDS = [
    ("Format:", "Paperback"),
    ("Pages:", "{pages}"),
    ("Vendor:", "{vendor}"),
    ("ISBN:", "{isbn10}"),
    ("ISBN-13:", "{isbn13}"),
]


def product(
    title: str,
    isbn13: str,
    *,
    with_isbn10: bool = True,
    vendor: str = "Value Books",
    layout: str = "table",
    authors: tuple[str, ...] = ("Paul Kent",),
    heading: str = "h1",
) -> str:
    """A product page in the shape of an SWDE book page."""
    rows = []
    for label, value in FIELDS:
        if label == "ISBN:" and not with_isbn10:
            continue
        value = value.format(pages="96", vendor=vendor, isbn10=isbn13[3:], isbn13=isbn13)
        rows.append(f"<b>{label}</b> {value}<br>")
    info = "".join(rows) + "Availability: In Stock"
    if layout == "table":
        details = f'<table id="details"><tr><td>{info}</td></tr></table>'
    else:
        details = (
            f'<div class="details"><div class="row"><div class="cell">{info}</div></div></div>'
        )
    by = "".join(f'<a href="/author/{i}">{name}</a>' for i, name in enumerate(authors))
    return (
        "<html><body><div id='nav'><a href='/'>Home</a><a href='/c'>Cart</a></div>"
        f"<div class='main'><{heading} class='title'>{title}</{heading}>"
        f"<div class='by'>By: {by}</div><img src='/covers/{isbn13}.jpg'>"
        f"<p>Price: <em>$9.99</em></p>{details}</div>"
        "<div id='footer'><p>About us</p><p>Contact</p></div></body></html>"
    )


REFERENCE = product("Know Your Bible", "9781602600157")
ISBN_XPATH = "/html/body/div[2]/table/tr/td/text()[5]"


def test_reference_and_plain_relocation() -> None:
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, ISBN_XPATH)
    assert reference.targets[0].value == "9781602600157"
    assert not reference.is_list
    variant = product("How to Pray", "9781602600140", vendor="Barbour")
    best = locator.locate(reference, variant)[0]
    assert isinstance(best, Candidate)
    assert best.text == "9781602600140"
    assert best.xpath == ISBN_XPATH
    assert 0.0 <= best.confidence <= 1.0


def test_missing_line_makes_the_selector_wrong_and_resolve_relocates() -> None:
    """The christianbook case: one line above the ISBN-13 is missing, so the
    same absolute XPath selects the availability text."""
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, ISBN_XPATH)
    variant = product("Lydia's Charm", "9781602600638", with_isbn10=False)
    tree = dom.parse(variant)
    assert [str(v).strip() for v in tree.document.xpath(ISBN_XPATH)] == ["Availability: In Stock"]
    resolution = locator.resolve(reference, tree)
    assert isinstance(resolution, Resolution)
    assert resolution.source == "relocated"
    assert resolution.values == ["9781602600638"]
    assert resolution.xpaths == ["/html/body/div[2]/table/tr/td/text()[4]"]


def test_resolve_trusts_a_verified_selector() -> None:
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, ISBN_XPATH)
    resolution = locator.resolve(reference, product("Other", "9780000000002"))
    assert resolution.source == "selector"
    assert resolution.values == ["9780000000002"]


def test_resolve_refuses_below_the_confidence_threshold() -> None:
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, ISBN_XPATH)
    unrelated = "<html><body><ul><li>one</li><li>two</li></ul></body></html>"
    resolution = locator.resolve(reference, unrelated, min_confidence=0.99)
    assert resolution.source == "refused"
    assert resolution.values == []


@pytest.mark.parametrize("method", ["ssnp", "ssn"])
def test_neighbour_zone_survives_a_layout_table_turned_into_divs(method: str) -> None:
    # Path similarity alone (SSP) loses this one: the path and affiliation
    # of the target both change; the unchanged neighbours do not.
    locator = HybridLocator(method)
    reference = locator.reference(REFERENCE, ISBN_XPATH)
    variant = product("Redesign", "9781400073979", layout="divs", heading="h2")
    answer = [c.text for c in locator.locate(reference, variant) if c.rank == 0]
    assert answer == ["9781400073979"]


def test_tag_change_of_the_target_itself() -> None:
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, "css:h1.title::text")
    variant = product("A New Title", "9781400073979", heading="h3", layout="divs")
    best = locator.locate(reference, variant)[0]
    assert best.text == "A New Title"
    assert best.xpath == "/html/body/div[2]/h3/text()[1]"


def test_list_target_relocates_all_members() -> None:
    locator = HybridLocator()
    page = product("T", "9781602600157", authors=("Ann", "Bob"))
    reference = locator.reference(page, "//div[@class='by']/a/text()")
    assert reference.is_list
    variant = product("U", "9781602600140", authors=("Cy", "Di", "Ed"), layout="divs")
    found = [c.text for c in locator.locate(reference, variant) if c.rank == 0]
    assert found == ["Cy", "Di", "Ed"]


def test_single_target_follows_repeats_like_its_xpath_would() -> None:
    """The reference's ``a`` step had no index: on a page with several
    authors the stored XPath selects them all, and so does relocation."""
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, "/html/body/div[2]/div/a/text()")
    variant = product("U", "9781602600140", authors=("Cy", "Di"))
    answer = [c.text for c in locator.locate(reference, variant) if c.rank == 0]
    assert answer == ["Cy", "Di"]
    assert locator.resolve(reference, variant).values == ["Cy", "Di"]


def test_attribute_target() -> None:
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, "//img/@src")
    assert reference.targets[0].kind == "attribute"
    best = locator.locate(reference, product("X", "9780000000019", layout="divs"))[0]
    assert best.xpath.endswith("/img/@src")
    assert best.text == "/covers/9780000000019.jpg"


def test_element_target_returns_the_element_text() -> None:
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, "//p[em]")
    best = locator.locate(reference, product("X", "9780000000019"))[0]
    assert best.text == "Price: $9.99"
    assert best.xpath == "/html/body/div[2]/p"


def test_reference_by_example() -> None:
    locator = HybridLocator()
    reference = locator.reference_by_example(REFERENCE, " 9781602600157 ")
    assert reference.selector == ISBN_XPATH
    with pytest.raises(ValueError, match="No node"):
        locator.reference_by_example(REFERENCE, "0000000000000")


def test_reference_json_round_trip_and_size() -> None:
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, ISBN_XPATH, url="http://example.com/p")
    text = reference.to_json()
    data = json.loads(text)
    assert data["format"] == "scrapy-wrapx/target-reference" and data["version"] == 1
    assert "Know Your Bible" not in text  # the page text is not stored
    again = TargetReference.from_json(text)
    assert again == reference
    assert again.to_json() == text
    variant = product("Lydia's Charm", "9781602600638", with_isbn10=False)
    assert locator.locate(again, variant)[0].text == "9781602600638"


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        '{"format": "other"}',
        '{"format": "scrapy-wrapx/target-reference", "version": 99}',
        '{"format": "scrapy-wrapx/target-reference", "version": 1, "labels": []}',
    ],
)
def test_from_json_rejects_foreign_or_corrupt_json(text: str) -> None:
    with pytest.raises(ValueError):
        TargetReference.from_json(text)


@pytest.mark.parametrize(
    "selector", ["//nothing", "css:section.none", "//p[", "css:p[[", "count(//p)"]
)
def test_reference_rejects_selectors_that_select_nothing(selector: str) -> None:
    with pytest.raises(ValueError, match="elector"):
        HybridLocator().reference(REFERENCE, selector)


def test_unknown_method() -> None:
    with pytest.raises(ValueError, match="'fast'"):
        HybridLocator("fast")


def test_locate_never_raises_on_a_changed_page() -> None:
    locator = HybridLocator()
    reference = locator.reference(REFERENCE, ISBN_XPATH)
    for page in [
        "<html><body></body></html>",
        "<p>x</p>",
        b"<html><body><img src=a.png></body></html>",
    ]:
        assert isinstance(locator.locate(reference, page), list)


def test_demo_site_redesign() -> None:
    site = pytest.importorskip("scrapy_wrapx.demo.site")
    original, redesigned = site.build_site(5), site.build_site(5, redesigned=True)
    locator = HybridLocator()
    first = original.detail_pages[0]
    tree = dom.parse(original.pages[first])
    right = total = 0
    for field in ("title", "price", "isbn", "publisher", "publication_date"):
        values = original.truth[first].get(field)
        if not values:
            continue
        reference = locator.reference_by_example(tree, values[0])
        for path in redesigned.detail_pages[1:11]:
            expected = redesigned.truth[path].get(field)
            answer = [
                c.text for c in locator.locate(reference, redesigned.pages[path]) if c.rank == 0
            ]
            total += 1
            right += answer == expected
    assert total >= 30
    assert right / total >= 0.9
