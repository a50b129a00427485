"""Induction: lossless separation on seed pages, stable names, sets from
one page, partly fixed texts, bad and deep input."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrapy_wrapx import dom
from scrapy_wrapx.extraction import extract, render
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import normalized_form

WORDS = [
    "amber",
    "birch",
    "cobalt",
    "delta",
    "ember",
    "fjord",
    "garnet",
    "harbor",
    "indigo",
    "juniper",
    "kelp",
    "lumen",
    "mosaic",
    "nectar",
    "onyx",
    "pewter",
]


def book_page(rng: random.Random, authors: int | None = None) -> str:
    """A detail page of a made-up shop: fixed chrome, labelled fields, an
    optional row, a list of authors and nested reviews."""
    title = " ".join(rng.choice(WORDS).title() for _ in range(rng.randint(1, 4)))
    count = rng.randint(1, 3) if authors is None else authors
    names = "".join(
        f'<li><a href="/a/{rng.randint(1, 999)}">{rng.choice(WORDS).title()} '
        f"{rng.choice(WORDS).title()}</a></li>"
        for _ in range(count)
    )
    rows = [
        ("Publisher:", f"{rng.choice(WORDS).title()} Press"),
        ("ISBN:", str(rng.randint(10**12, 10**13 - 1))),
    ]
    if rng.random() < 0.6:
        rows.append(("Pages:", str(rng.randint(50, 900))))
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    reviews = "".join(
        f'<div class="review"><b>{rng.choice(WORDS)}</b><p>{" ".join(rng.sample(WORDS, 5))}</p>'
        f'<ul class="tags">{"".join(f"<li>{w}</li>" for w in rng.sample(WORDS, rng.randint(1, 3)))}</ul></div>'
        for _ in range(rng.randint(0, 3))
    )
    return (
        '<html><body><div id="top"><a href="/">Home</a><a href="/about">About</a></div>'
        f'<div class="main"><h1 class="title">{title}</h1><ul class="authors">{names}</ul>'
        f'<p class="price">Price: ${rng.randint(1, 99)}.{rng.randint(10, 99)}</p>'
        f'<table class="info">{table}</table><div class="reviews">{reviews}</div></div>'
        '<div id="foot">Copyright Example Books</div></body></html>'
    )


def site(seed: int, pages: int) -> list[str]:
    rng = random.Random(seed)
    return [book_page(rng) for _ in range(pages)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(1, 6))
def test_render_of_extract_is_the_seed_page(seed: int, count: int) -> None:
    pages = site(seed, count)
    template = induce_template(pages)
    for html in pages:
        tree = dom.parse(html)
        extraction = extract(template, tree)
        assert extraction.matched and extraction.score == 1.0
        assert render(template, extraction) == normalized_form(tree)


def test_fields_are_named_by_labels_and_hints() -> None:
    template = induce_template(site(3, 5))
    names = set(template.field_names)
    assert {"publisher", "isbn", "title", "price"} <= names
    extraction = extract(template, book_page(random.Random(99)))
    # " Press" ends every publisher of this shop, but nothing marks it off
    # from the name (a capitalized word after a capitalized word): whole.
    publisher = extraction.fields["publisher"][0]
    assert publisher.endswith(" Press") and publisher[:-6] in {w.title() for w in WORDS}
    # "Price: " is template; the "$" belongs to the amount's word.
    price = extraction.fields["price"][0]
    assert price.startswith("$") and price[1:].replace(".", "").isdigit()


def test_names_are_stable_across_reinduction() -> None:
    pages = site(11, 10)
    first, second = induce_template(pages[:5]), induce_template(pages[5:])
    probe = book_page(random.Random(5))
    a, b = extract(first, probe), extract(second, probe)
    for name in ("title", "publisher", "isbn", "price"):
        assert a.fields[name] == b.fields[name]
    renamed = induce_template(pages[5:], previous=first)
    assert set(first.field_names) & set(renamed.field_names) >= {"title", "publisher", "isbn"}


def test_previous_template_names_are_kept() -> None:
    pages = site(12, 6)
    first = induce_template(pages[:3])
    again = induce_template(pages[3:], previous=first)
    shared = {f.key: f.name for f in first.fields}
    for info in again.fields:
        if info.key in shared:
            assert info.name == shared[info.key]


def test_single_list_page_folds_records_into_sets() -> None:
    items = "".join(
        f'<div class="item"><h2>{w.title()}</h2><span class="price">{i}.99</span>'
        f"<ul>{''.join(f'<li>{t}</li>' for t in WORDS[i : i + 1 + i % 3])}</ul></div>"
        for i, w in enumerate(WORDS[:8])
    )
    html = f'<body><h1>Catalogue</h1><div class="list">{items}</div><p>End</p></body>'
    template = induce_template([html])
    extraction = extract(template, html)
    assert render(template, extraction) == normalized_form(dom.parse(html))
    (records,) = [r for r in extraction.records.values() if len(r) == 8]
    # Named by its own element: the class of the record ("item") names
    # the record, not each of its fields.
    assert [r["h2"] for r in records] == [w.title() for w in WORDS[:8]]
    # Class hint; ".99" ends every price, but template and data never
    # share a word: the prices stay whole.
    assert [r["price"] for r in records] == [f"{i}.99" for i in range(8)]
    nested = [key for key, value in records[2].items() if isinstance(value, list)]
    assert nested and len(records[2][nested[0]]) == 3


def test_partly_fixed_text_keeps_its_template_tokens() -> None:
    pages = [
        f'<body><p class="by">by {a}</p><p class="cost">Price: {p}</p></body>'
        for a, p in [("Ann Lee", "3"), ("Bo Dahl", "17"), ("Cy Twombly", "250")]
    ]
    template = induce_template(pages)
    extraction = extract(
        template, '<body><p class="by">by Dee Kay</p><p class="cost">Price: 8</p></body>'
    )
    assert sorted(v for vs in extraction.fields.values() for v in vs) == ["8", "Dee Kay"]
    assert {"by", "price"} <= set(template.field_names)


def test_pages_of_another_kind_degrade_but_do_not_break() -> None:
    pages = site(21, 4)
    other = (
        '<body><form><input name="q" value="x"><button>Go</button></form><ol><li>1</li></ol></body>'
    )
    template = induce_template([*pages, other])
    for html in [*pages, other]:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)
    clean = induce_template(pages)
    optional = sum(n.kind == "opt" for n in template.nodes)
    assert optional > sum(n.kind == "opt" for n in clean.nodes)


def test_deep_pages_do_not_recurse_without_bound() -> None:
    def deep(word: str) -> str:
        return "<body>" + "<div>" * 2000 + f"<b>{word}</b>" + "</div>" * 2000 + "<p>end</p></body>"

    pages = [deep("alpha"), deep("beta")]
    template = induce_template(pages)
    for html in pages:
        tree = dom.parse(html)
        extraction = extract(template, tree)
        assert extraction.matched
        assert render(template, extraction) == normalized_form(tree)
    assert extract(template, deep("gamma")).matched


def test_rejects_bad_arguments() -> None:
    import pytest

    with pytest.raises(ValueError):
        induce_template([])
    with pytest.raises(ValueError):
        induce_template(["<body>x</body>"] * 21)
    with pytest.raises(ValueError):
        induce_template(["<body>x</body>"], urls=["a", "b"])


def _byline_page(title: str, authors: list[str], price: str) -> str:
    links = []
    for i, name in enumerate(authors):
        sep = "" if i == 0 else (" and " if i == len(authors) - 1 else ", ")
        links.append(
            f'{sep}<a class="author" href="/a/{name.lower().replace(" ", "-")}">{name}</a>'
        )
    return (
        f'<body><div id="nav"><a href="/">Home</a></div><h1 class="title">{title}</h1>'
        f'<p class="byline">by {"".join(links)}</p><p class="price">Price: {price}</p>'
        '<div id="foot">Example Books</div></body>'
    )


def test_inline_authors_land_in_one_field() -> None:
    pages = [
        _byline_page("Dune", ["Frank Herbert"], "9"),
        _byline_page("Good Omens", ["Terry Pratchett", "Neil Gaiman"], "12"),
        _byline_page("Ubik", ["Philip K. Dick"], "7"),
        _byline_page("Anthology", ["Ann Lee", "Bo Dahl", "Cy Twombly"], "30"),
    ]
    template = induce_template(pages)
    for html in pages:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)
    probe = extract(
        template, _byline_page("Emma", ["Jane Austen", "Eve Moss", "Al Roe", "Di Fox"], "3")
    )
    assert probe.matched
    assert ["Jane Austen", "Eve Moss", "Al Roe", "Di Fox"] in probe.fields.values()
    assert not any(v in {",", "and", " and ", ", "} for vs in probe.fields.values() for v in vs)


def test_single_author_seeds_still_extract_several() -> None:
    pages = [
        _byline_page(t, [a], p)
        for t, a, p in [
            ("Dune", "Frank Herbert", "9"),
            ("Ubik", "Philip K. Dick", "7"),
            ("Emma", "Jane Austen", "3"),
        ]
    ]
    template = induce_template(pages)
    probe = extract(template, _byline_page("Good Omens", ["Terry Pratchett", "Neil Gaiman"], "12"))
    assert probe.matched and probe.score == 1.0
    assert ["Terry Pratchett", "Neil Gaiman"] in probe.fields.values()


def test_unlike_siblings_do_not_fold() -> None:
    pages = [
        f'<body><div class="info"><p>by {a}</p><p>Price: {p}</p></div></body>'
        for a, p in [("Ann Lee", "3"), ("Bo Dahl", "17"), ("Cy Twombly", "250")]
    ]
    template = induce_template(pages)
    assert not template.set_names
    extraction = extract(
        template, '<body><div class="info"><p>by Dee Kay</p><p>Price: 8</p></div></body>'
    )
    assert len([name for name, values in extraction.fields.items() if values]) == 2


def test_lists_that_never_vary_are_template() -> None:
    social = (
        '<div class="share"><a href="https://fb.example/share">F</a>'
        '<a href="https://tw.example/share">T</a><a href="https://in.example/share">I</a></div>'
    )
    hidden = '<form><input type="hidden" name="kind" value="book"><input type="hidden" name="sku" value="{sku}"></form>'
    pages = [
        f"<body><h1>{t}</h1>{social}{hidden.format(sku=s)}</body>"
        for t, s in [("Dune", "11"), ("Emma", "12"), ("Ubik", "13")]
    ]
    template = induce_template(pages)
    extraction = extract(
        template, f"<body><h1>Solaris</h1>{social}{hidden.format(sku='14')}</body>"
    )
    values = sorted(v for vs in extraction.fields.values() for v in vs)
    assert values == ["14", "Solaris"]
    for html in pages:
        tree = dom.parse(html)
        assert render(template, extract(template, tree)) == normalized_form(tree)


def _titled_page(title: str, author: str, isbn: str) -> str:
    return (
        f'<body><div id="nav"><a href="/">Home</a></div><div class="book"><h1>{title}</h1>'
        f'<p class="by">by {author}</p><p>ISBN: {isbn}</p></div><p>Example Books</p></body>'
    )


def test_a_first_word_all_seeds_share_stays_data() -> None:
    books = [
        ("The Winter Tide", "Ann Lee", "9781"),
        ("The Paper Tide", "Bo Dahl", "9782"),
        ("The Lonely Bridge", "Cy Twombly", "9783"),
        ("The Baker's Orchard", "Di Fox", "9784"),
    ]
    template = induce_template([_titled_page(*book) for book in books])
    for title, author, isbn in [
        ("Kingdom of Gardens", "Eve Moss", "9785"),
        ("The Library of Kingdoms", "Al Roe", "9786"),
    ]:
        extraction = extract(template, _titled_page(title, author, isbn))
        assert extraction.matched
        values = [v for vs in extraction.fields.values() for v in vs]
        # "by " and "ISBN: " are marked off from the data; "The " is not.
        assert sorted(values) == sorted([title, author, isbn])


def test_previous_names_follow_the_data_not_the_labels() -> None:
    old = [
        _titled_page(t, a, i)
        for t, a, i in [
            ("Dune", "Ann Lee", "11"),
            ("Emma", "Bo Dahl", "12"),
            ("Ubik", "Cy Twombly", "13"),
        ]
    ]
    first = induce_template(old)
    (title_name,) = [
        name for name, values in extract(first, old[0]).fields.items() if values == ["Dune"]
    ]
    new = [
        page.replace("<h1>", "<b>New!</b><h1>")
        for page in [
            _titled_page(t, a, i)
            for t, a, i in [
                ("Solaris", "Di Fox", "14"),
                ("Neuromancer", "Eve Moss", "15"),
                ("Hyperion", "Al Roe", "16"),
            ]
        ]
    ]
    fresh = induce_template(new)
    again = induce_template(new, previous=first)
    probe = new[0]
    assert extract(again, probe).fields[title_name] == ["Solaris"]
    assert sorted(again.field_names) == sorted(first.field_names)
    # Without previous=, the name comes from the new label.
    assert extract(fresh, probe).fields.get(title_name) != ["Solaris"]
