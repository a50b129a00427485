"""The template model: JSON round trip, versioning, the comparable form."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import TEMPLATE_VERSION, Template, normalized_form
from tests.test_induction import book_page


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(1, 4))
def test_json_round_trip(seed: int, count: int) -> None:
    rng = random.Random(seed)
    pages = [book_page(rng) for _ in range(count)]
    template = induce_template(pages)
    text = template.to_json()
    loaded = Template.from_json(text)
    assert loaded.to_json() == text
    assert loaded.fingerprint == template.fingerprint
    assert loaded.field_names == template.field_names
    probe = book_page(rng)
    a, b = extract(template, probe), extract(loaded, probe)
    assert (a.fields, a.records, a.score) == (b.fields, b.records, b.score)
    for html in pages:
        tree = dom.parse(html)
        assert render(loaded, extract(loaded, tree)) == normalized_form(tree)


def test_version_and_foreign_json_are_refused() -> None:
    template = induce_template([book_page(random.Random(1)), book_page(random.Random(2))])
    data = json.loads(template.to_json())
    assert template.version == TEMPLATE_VERSION
    data["version"] = TEMPLATE_VERSION + 1
    with pytest.raises(ValueError, match="version"):
        Template.from_json(json.dumps(data))
    with pytest.raises(ValueError):
        Template.from_json('{"some": "other json"}')
    with pytest.raises(ValueError):
        Template.from_json("not json at all")
    data["version"] = TEMPLATE_VERSION
    data["root"] = {"k": "zz"}
    with pytest.raises(ValueError, match="kind"):
        Template.from_json(json.dumps(data))


def test_fingerprint_is_short_and_ignores_names() -> None:
    pages = [book_page(random.Random(i)) for i in range(3)]
    template = induce_template(pages)
    assert len(template.fingerprint) == 12
    data = json.loads(template.to_json())
    data["fields"][0]["name"] = "renamed"
    assert Template.from_json(json.dumps(data)).fingerprint == template.fingerprint
    assert induce_template(pages).fingerprint == template.fingerprint


def test_normalized_form_is_flat_preorder() -> None:
    tree = dom.parse('<body><div class="a"><b>x</b>y</div><img src="i.png"></body>')
    assert normalized_form(tree) == (
        (0, "body", ()),
        (1, "div", (("class", "a"),)),
        (2, "b", ()),
        (3, dom.TEXT, "x"),
        (2, dom.TEXT, "y"),
        (1, "img", (("src", "i.png"),)),
    )


def test_a_template_whose_field_and_set_share_a_name_is_refused() -> None:
    """A record holds its fields and nested sets by name: a stored template
    where a field and a set (or two sets) share one is corrupt or foreign,
    refused on load, never a crash of the extraction later."""
    pages = [
        "<body><h1>Lamp {}</h1><ul>{}</ul><p>Footer</p></body>".format(
            n, "".join(f"<li><b>r{n}{i}</b></li>" for i in range(n))
        )
        for n in range(1, 5)
    ]
    template = induce_template(pages)
    assert template.set_names
    data = json.loads(template.to_json())
    text = json.dumps(data)
    Template.from_json(text)  # as stored: fine
    field = template.field_names[0]
    clashing = text.replace(f'"{template.set_names[0]}"', f'"{field}"')
    with pytest.raises(ValueError, match="clash"):
        Template.from_json(clashing)
