"""A value keeps its currency sign or unit symbol when it sits in the
value's own text node, even where every seed shows the same one (``$ 24,250``
on a site of dollar prices): the sign is part of what a person reads. A
label before it still goes (``Price: $ 12`` gives ``$ 12``)."""

from __future__ import annotations

import random

import pytest

from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template

SIGNS = ["$", "€", "£", "¥", "US$"]


def _amount(rng: random.Random) -> str:
    whole = rng.randrange(1, 90_000)
    return rng.choice([f"{whole:,}", f"{whole}.{rng.randrange(100):02d}", str(whole)])


def _value(rng: random.Random, sign: str, layout: str, amount: str) -> str:
    return {
        "before": f"{sign} {amount}",
        "before_tight": f"{sign}{amount}",
        "after": f"{amount} {sign}",
        "percent": f"{amount} %",
        "degrees": f"{amount} °",
    }[layout]


def _page(rng: random.Random, label: str, text: str) -> str:
    other = rng.randrange(1000)
    return (
        f"<body><h1>Item {other}</h1><table><tr><td><b>Name:</b></td><td>Thing {other}</td>"
        f"</tr><tr><td>{label}{text}</td></tr></table><p>Footer</p></body>"
    )


@pytest.mark.parametrize("seed", range(15))
def test_a_sign_every_seed_shares_stays_with_the_value(seed: int) -> None:
    rng = random.Random(seed)
    sign = rng.choice(SIGNS)
    layout = rng.choice(["before", "before_tight", "after", "percent", "degrees"])
    label = rng.choice(["", "Price: ", "Starting MSRP: "])
    seeds = [_page(rng, label, _value(rng, sign, layout, _amount(rng))) for _ in range(5)]
    template = induce_template(seeds)
    amount = _amount(rng)
    wanted = _value(rng, sign, layout, amount)
    extraction = extract(template, _page(rng, label, wanted))
    values = [v.strip() for vs in extraction.fields.values() for v in vs]
    assert wanted in values, (wanted, values)
    assert not any(label.strip() and label.strip() in v for v in values if amount in v)


def _numbered(rng: random.Random, shape: str, head: str) -> str:
    """A number made of groups, its first group ``head`` (shared by every
    seed: one area code, one ISBN prefix, one month)."""
    return {
        "phone": f"({head}) {rng.randrange(200, 999)}-{rng.randrange(1000, 9999)}",
        "isbn": f"{head}-{rng.randrange(10)}-{rng.randrange(100, 999)}-{rng.randrange(10000, 99999)}-{rng.randrange(10)}",
        "date": f"{head}/{rng.randrange(10, 28)}/{rng.randrange(1990, 2020)}",
        "dotted": f"{head}.{rng.randrange(100, 999)}.{rng.randrange(1000, 9999)}",
    }[shape]


@pytest.mark.parametrize("shape", ["phone", "isbn", "date", "dotted"])
@pytest.mark.parametrize("label", ["", "Phone: ", "<b>No.</b> "])
@pytest.mark.parametrize("seed", range(3))
def test_a_number_keeps_its_first_group_that_every_seed_shares(
    seed: int, shape: str, label: str
) -> None:
    rng = random.Random(seed)
    heads = {"phone": ("800", "512"), "isbn": ("978", "979"), "date": ("12", "03")}
    shared, other = heads.get(shape, ("555", "312"))
    seeds = [_page(rng, label, _numbered(rng, shape, shared)) for _ in range(5)]
    template = induce_template(seeds)
    for head in (shared, other):
        value = _numbered(rng, shape, head)
        values = {
            v for vs in extract(template, _page(rng, label, value)).fields.values() for v in vs
        }
        assert value in values, (value, values)


#: A measure (a number with its unit) every seed starts the value with, and
#: the rest that differs between pages.
LEADING_MEASURES = {
    "1hr": ["40min", "55min", "53min", "34min", "12min", "5min"],
    "4dr": ["All-wheel Drive Base", "Sedan LX", "Hatchback", "Coupe GT", "Wagon", "SUV"],
    "16GB": ["Black", "Silver", "Rose Gold", "Blue", "White", "Red"],
    "3.0L": ["V6", "I6 Diesel", "V6 Turbo", "I6", "V6 Hybrid", "Flat-6"],
    "2nd": ["Floor", "Avenue", "Edition", "Round", "Place", "Generation"],
}


@pytest.mark.parametrize("measure", sorted(LEADING_MEASURES))
@pytest.mark.parametrize("label", ["", "Runtime: "])
def test_a_measure_every_seed_starts_with_stays_in_the_value(measure: str, label: str) -> None:
    """Five films of an hour and some minutes all say "1hr ...": the hour
    is the running time's own, not a label of the minutes."""
    rng = random.Random(measure + label)
    rests = LEADING_MEASURES[measure]
    seeds = [_page(rng, label, f"{measure} {rest}") for rest in rests[:5]]
    template = induce_template(seeds)
    fields = extract(template, _page(rng, label, f"{measure} {rests[5]}")).fields
    assert [f"{measure} {rests[5]}"] in fields.values(), fields
