"""Declared targets and the selector-repair state (no crawl needed)."""

from __future__ import annotations

import json

import pytest

from scrapy_wrapx.locate.repair import TargetState, generalize_xpaths
from scrapy_wrapx.targets import Target, parse_targets


def test_plain_string_is_xpath_and_css_gets_prefix() -> None:
    targets = parse_targets(
        {
            "title": "//h1/text()",
            "price": Target(css="span.price::text", required=True),
            "isbn": Target(example="9781602600157"),
        }
    )
    assert targets["title"].selector == "//h1/text()"
    assert targets["price"].selector == "css:span.price::text"
    assert targets["price"].required
    assert targets["isbn"].selector is None
    assert targets["isbn"].example == "9781602600157"


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        ({"title": "//h1[text("}, "'title'"),
        ({"price": Target(css="span..price")}, "'price'"),
        ({"n": 42}, "'n'"),
    ],
)
def test_invalid_declarations_name_the_target(declared: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_targets(declared)


def test_target_needs_exactly_one_source() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        Target(xpath="//a", css="a")
    with pytest.raises(ValueError, match="exactly one"):
        Target()
    with pytest.raises(ValueError, match="min_confidence"):
        Target(xpath="//a", min_confidence=2)


def test_generalize_drops_differing_positions_only() -> None:
    assert (
        generalize_xpaths(["/html/body/ul/li[1]/a/text()[1]", "/html/body/ul/li[2]/a/text()[1]"])
        == "/html/body/ul/li/a/text()[1]"
    )
    # Different tags cannot be merged into one path: keep a union.
    assert generalize_xpaths(["/html/body/p", "/html/body/div"]) == "/html/body/p | /html/body/div"
    with pytest.raises(ValueError):
        generalize_xpaths([])


def test_repair_needs_a_streak_of_agreeing_relocations() -> None:
    state = TargetState(
        name="isbn", selector="/html/body/div[2]/span", declared="/html/body/div[2]/span"
    )
    assert state.record_relocation(["/html/body/div[3]/span"], repair_after=3) is None
    assert state.record_relocation(["/html/body/div[4]/span"], repair_after=3) is None  # disagrees
    assert state.streak == 1
    assert state.record_relocation(["/html/body/div[4]/span"], repair_after=3) is None
    assert (
        state.record_relocation(["/html/body/div[4]/span"], repair_after=3)
        == "/html/body/div[4]/span"
    )
    assert state.selector == "/html/body/div[4]/span"
    assert state.history[-1]["selector"] == "/html/body/div[2]/span"
    assert state.streak == 0


def test_selector_hit_breaks_the_streak() -> None:
    state = TargetState(name="t", selector="//h1")
    state.record_relocation(["/html/body/h2"], repair_after=2)
    state.record_selector_hit()
    assert state.record_relocation(["/html/body/h2"], repair_after=2) is None


def test_state_round_trips_through_json_and_rejects_foreign_data() -> None:
    state = TargetState(name="t", selector="//h1", declared="//h1", reference={"a": 1})
    state.record_relocation(["/html/body/h2"], repair_after=5)
    again = TargetState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    for foreign in (None, [], {"version": 99}, {"version": 1}):
        with pytest.raises(ValueError):
            TargetState.from_dict(foreign)
