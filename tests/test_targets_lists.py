"""The static list decision, no repair of a working selector, undo/reset."""

from __future__ import annotations

import pytest

from scrapy_wrapx import Target
from scrapy_wrapx.commands._targets import reset_target, run_targets, undo_repair
from scrapy_wrapx.locate import HybridLocator
from scrapy_wrapx.locate.repair import TargetState
from scrapy_wrapx.store import SqliteStore
from scrapy_wrapx.targets import absence_context, list_container, selects_many


@pytest.mark.parametrize(
    ("xpath", "many"),
    [
        ("//table[@class='variants']/tbody/tr/td[2]/text()", True),
        ("(//table[@class='variants']/tbody/tr)[1]/td[2]/text()", False),
        ("/html/body/div/div/div/div[2]/table/tbody/tr[1]/td[2]/text()[1]", False),
        ("//h1/text()", True),
        ("(//h1)[1]/text()", False),
        ("normalize-space(//h1)", False),
        ("string(//p[@class='price'])", False),
        ("id('price')", False),
        ("//*[@id='price']/text()", False),
        ("//div[@id='info']/text()[1]", False),
        ("//*[@id='x']/span[3]/@href", False),
        ("//p[@class='byline']/a/text()", True),
        ("//ul[@id='authors']/li/text()", True),
        ("//ul/li[last()]/a/@href", True),  # ul is unindexed
        ("//*[@id='a']/li[last()]/a[1]/@href", False),
        ("//li[position()=2]", False),
        ("//title/text()", False),
        ("//h1/text() | //h2/text()", True),
        ("//*[@id='a']/text() | //*[@id='b']/text()", False),
        (".//span", True),
        ("following-sibling::td", True),
        ("..", False),
        ("//*[@id='x']/following-sibling::td[1]", False),
        ('//*[@id="q"]/p[contains(., "a/b[")][1]', False),
    ],
)
def test_xpath_list_decision(xpath: str, many: bool) -> None:
    assert selects_many(xpath) is many


@pytest.mark.parametrize(
    ("css", "many"),
    [
        ("span.reviewer::text", True),
        ("p.price::text", True),
        ("#price::text", False),
        ("#price > span:nth-child(2)::text", False),
        ("li:nth-child(2)::text", False),
        ("li:first-child::text", False),
        ("li:last-child a::attr(href)", True),
        ("ul > li:nth-child(2n)::text", True),
        ("div#main li:first-child a::attr(href)", True),
        ("a::attr(href)", True),
        ("table.variants td.name::text", True),
    ],
)
def test_css_list_decision(css: str, many: bool) -> None:
    assert Target(css=css).is_list is many


def test_many_overrides_and_examples_are_single() -> None:
    assert Target(xpath="//h1/text()", many=False).is_list is False
    assert Target(xpath="//*[@id='a']/text()", many=True).is_list is True
    assert Target(example="HO-46048").is_list is False
    with pytest.raises(ValueError, match="HO-46048"):
        Target(example="HO-46048", many=True)


def test_absence_contexts() -> None:
    assert list_container("//table[@class='v']/tbody/tr/td[2]/text()") == (
        "//table[@class='v']/tbody"
    )
    assert absence_context("//p[@class='price']/s/text()", many=False) == "//p[@class='price']"
    assert absence_context("//h1/text()", many=False) is None
    assert absence_context("//span/text()", many=True) is None


def _shop(rows: int, reviews: int) -> str:
    cells = "".join(f"<tr><td>c{n}</td><td>${n}.00</td></tr>" for n in range(rows))
    items = "".join(f'<li><span class="r">N{n}</span><p>t{n}</p></li>' for n in range(reviews))
    return (
        "<html><body><div><h1>Item</h1><p class='price'>$5</p>"
        f"<table class='variants'><tbody>{cells}</tbody></table>"
        f"<ul class='reviews'>{items}</ul><p>footer</p></div></body></html>"
    )


@pytest.mark.parametrize("rows", [1, 2, 5])
def test_a_working_list_selector_is_kept_with_every_member(rows: int) -> None:
    locator = HybridLocator()
    selector = "//table[@class='variants']/tbody/tr/td[2]/text()"
    for reference_rows in (1, 3):
        reference = locator.reference(_shop(reference_rows, 2), selector)
        resolution = locator.resolve(reference, _shop(rows, 2), selector=selector, many=True)
        assert resolution.source == "selector"
        assert resolution.values == [f"${n}.00" for n in range(rows)]


def test_working_selectors_never_count_towards_a_repair() -> None:
    state = TargetState(name="t", selector="//x")
    assert state.record_relocation(["/html/body/p[2]/text()[1]"], 2) is None
    state.record_selector_hit()  # a page where the selector worked
    assert state.record_relocation(["/html/body/p[2]/text()[1]"], 2) is None
    assert state.selector == "//x"
    assert state.record_relocation(["/html/body/p[2]/text()[1]"], 2) is not None


def test_undo_and_reset_from_the_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = SqliteStore(str(tmp_path / "s.sqlite3"))
    state = TargetState(name="price", selector="//p", declared="//p", reference={"x": 1})
    state.record_relocation(["/html/body/span/text()[1]"], 1)
    store.set("targets", "shop/price", state.to_dict())
    listing = run_targets(store, [])
    assert "shop/price" in listing and "/html/body/span/text()[1]" in listing
    assert "'//p' -> '/html/body/span/text()[1]'" in listing
    assert "'//p' replaces" in undo_repair(store, "shop", "price")
    restored = TargetState.from_dict(store.get("targets", "shop/price"))
    assert (restored.selector, restored.history, restored.reference) == ("//p", [], None)
    with pytest.raises(ValueError, match="no repair"):
        undo_repair(store, "shop", "price")
    reset_target(store, "shop", "price")
    assert store.get("targets", "shop/price") is None
    with pytest.raises(ValueError, match="shop/price"):
        run_targets(store, ["--reset", "shop", "price"])
    store.close()
