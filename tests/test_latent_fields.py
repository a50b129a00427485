"""Data every seed agreed on (issue 11: recovery): five players of one team,
five restaurants of one price range. The text is template on the seeds; on
a page where it differs it is that page's data, emitted under a latent
name, in every markup idiom a value takes (a heading, a link, a text with
its own label, a value after a label). Where it does not differ nothing is
emitted, and a text paired with another only by the lenient alignment,
not found in its place, is never taken for it."""

from __future__ import annotations

import json
import random

import pytest

from scrapy_wrapx import dom
from scrapy_wrapx.commands._show import template_schema, template_tree
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction import induce_template
from scrapy_wrapx.template import Elem, Opt, Template, Text, latent_fields
from scrapy_wrapx.unsupervised.items import build_item
from scrapy_wrapx.workers.protocol import extraction_from_dict
from scrapy_wrapx.workers.worker import PageWorker

PLAYERS = ["Kevin Garnett", "Paul Pierce", "Ray Allen", "Rajon Rondo", "Glen Davis", "Tony Allen"]
TEAMS = ["Boston Celtics", "Los Angeles Lakers", "Chicago Bulls", "Miami Heat"]
#: How the team is shown, and the name its field should take.
IDIOMS = {
    "heading": ("<div class='team-info'><img src='/logo.gif'><h2>{}</h2></div>", "team_info"),
    "link": (
        "<p class='sublinks'>#{n} - <a class='team-name' href='/teams/{slug}'>{}</a></p>",
        "team_name",
    ),
    "own label": ("<div><span>Team: {}</span></div>", "team"),
    "label before": ("<table><tr><td><b>Team</b></td><td><i>{}</i></td></tr></table>", "team"),
}


def _page(rng: random.Random, player: str, team: str, idiom: str) -> str:
    shown = IDIOMS[idiom][0].format(
        team, n=rng.randrange(1, 99), slug=team.lower().replace(" ", "-")
    )
    return (
        "<html><body><ul class='menu'><li><a href='/'>Home</a></li><li><a href='/nba'>NBA</a></li>"
        f"</ul><h1>{player}</h1>{shown}"
        f"<p class='stats'>Height: {rng.randrange(180, 220)} cm</p>"
        "<p>All rights reserved</p></body></html>"
    )


def _template(rng: random.Random, idiom: str) -> Template:
    return induce_template([_page(rng, player, TEAMS[0], idiom) for player in PLAYERS[:5]])


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
@pytest.mark.parametrize("seed", range(3))
def test_a_value_every_seed_shared_is_emitted_where_a_page_differs(seed: int, idiom: str) -> None:
    rng = random.Random(seed)
    template = _template(rng, idiom)
    name = IDIOMS[idiom][1]
    assert name in latent_fields(template).values()
    for team in TEAMS[1:]:
        extraction = extract(template, _page(rng, PLAYERS[5], team, idiom))
        assert extraction.matched
        assert extraction.fields[name] == [team]
        assert "Home" not in str(extraction.fields)  # the menu is the same: template
    # The seeds' own team is nowhere in an item: it did not differ.
    same = extract(template, _page(rng, PLAYERS[5], TEAMS[0], idiom))
    assert name not in same.fields
    assert TEAMS[0] not in str(same.fields)


@pytest.mark.parametrize("idiom", sorted(IDIOMS))
def test_a_latent_value_is_a_scalar_of_the_item(idiom: str) -> None:
    rng = random.Random(7)
    template = _template(rng, idiom)
    url = "http://nba.example/p/6"
    extraction = extract(template, _page(rng, PLAYERS[5], TEAMS[2], idiom), url)
    item = build_item(None, url, "nba.example/p", 1, extraction, template)
    assert item[IDIOMS[idiom][1]] == TEAMS[2]
    assert item["h1"] == PLAYERS[5]


def test_latent_names_survive_the_store_and_show_in_the_schema() -> None:
    template = _template(random.Random(1), "heading")
    again = Template.from_json(template.to_json())
    assert latent_fields(again) == latent_fields(template)
    assert "'Boston Celtics' ~{team_info}" in template_tree(again)
    assert "team_info" in template_schema(again)
    # A template stored before latent fields existed has none, and works.
    data = json.loads(template.to_json())
    stack = [data["root"]]
    while stack:
        node = stack.pop()
        node.pop("l", None)
        stack.extend(node.get("c", []))
    old = Template.from_json(json.dumps(data))
    assert latent_fields(old) == {}
    assert extract(old, _page(random.Random(1), PLAYERS[5], TEAMS[1], "heading")).matched


def test_a_latent_name_never_takes_a_field_name() -> None:
    template = _template(random.Random(2), "heading")
    uid = next(uid for uid, name in latent_fields(template).items() if name == "team_info")
    template.fields[0].name = "team_info"
    assert latent_fields(template)[uid] == "team_info_2"
    extraction = extract(template, _page(random.Random(2), PLAYERS[5], TEAMS[1], "heading"))
    assert extraction.fields["team_info_2"] == [TEAMS[1]]


def test_a_text_paired_by_the_lenient_alignment_is_not_taken() -> None:
    """The page's hedge around the text does not fit (a badge no seed had,
    a text where the team was): the alignment pairs the template's text
    with whatever text is there, which may be another thing altogether."""
    seeds = [
        f"<html><body><h1>{p}</h1><div class='team'>Boston Celtics<b>Guard</b></div>"
        "<p>Footer</p></body></html>"
        for p in PLAYERS[:5]
    ]
    template = induce_template(seeds)
    page = (
        "<html><body><h1>Tony Allen</h1><div class='team'>Injured list<i>new</i><b>Guard</b>"
        "</div><p>Footer</p></body></html>"
    )
    extraction = extract(template, dom.parse(page))
    assert "Injured list" not in str(extraction.fields)


def test_a_single_seed_has_no_latent_fields() -> None:
    template = induce_template([_page(random.Random(3), PLAYERS[0], TEAMS[0], "heading")])
    assert latent_fields(template) == {}


def test_texts_of_a_set_and_labels_are_not_latent() -> None:
    """A fixed text inside a repeated part is the repetition's own (a
    column's header, a list's separator); a label names a value."""
    seeds = [
        f"<html><body><h1>{p}</h1><dl><dt>Position:</dt><dd>{i}</dd></dl>"
        + "".join("<p class='row'><b>Game</b> <i>x</i></p>" for _ in range(i + 1))
        + "</body></html>"
        for i, p in enumerate(PLAYERS[:5])
    ]
    template = induce_template(seeds)
    texts = {template.nodes[uid].parts[0] for uid in latent_fields(template)}  # type: ignore[union-attr]
    assert not texts & {"Position:", "Game"}


def test_a_page_of_another_kind_has_no_latent_fields() -> None:
    """A page that does not match (another kind sharing the top of the
    layout) differs in many fixed texts; none of them is its data."""
    rng = random.Random(4)
    template = _template(rng, "heading")
    other = (
        "<html><body><ul class='menu'><li><a href='/'>Home</a></li><li><a href='/nba'>NBA</a>"
        "</li></ul><h1>Standings</h1><div class='team-info'><img src='/logo.gif'><h2>East</h2>"
        "</div>"
        + "".join(f"<p>Team {n}: {n * 3} wins</p>" for n in range(30))
        + "<p>All rights reserved</p></body></html>"
    )
    extraction = extract(template, other)
    assert not extraction.matched
    assert "East" not in str(extraction.fields)


def test_a_page_worker_sends_latent_fields_back() -> None:
    """The crawl's items come from a page worker's reply, which keeps only
    the fields an item takes: latent ones are among them."""
    rng = random.Random(5)
    template = _template(rng, "heading")
    worker = PageWorker()
    worker.handle({"op": "template", "template": "t"}, template.to_json().encode())
    html = _page(rng, PLAYERS[5], TEAMS[3], "heading")
    header = {"op": "extract_page", "id": 1, "url": "http://nba.test/6", "template": "t"}
    reply = worker.handle(header, html.encode())
    assert reply is not None and reply["ok"]
    extraction = extraction_from_dict(json.loads(json.dumps(reply["extraction"])))
    item = build_item(None, "http://nba.test/6", "nba.test/p", 1, extraction, template)
    assert item["team_info"] == TEAMS[3]


def _posting(rng: random.Random, date: str, paragraphs: int) -> str:
    prose = "".join(f"<p>Duty {rng.randrange(999)} of the role.</p>" for _ in range(paragraphs))
    return (
        "<html><body><ul class='menu'><li><a href='/'>Home</a></li></ul><div class='job'>"
        f"<h3>Engineer {rng.randrange(999)}</h3><i>Posted: {date}</i><br>{prose}"
        "<p>Please refer to the job code.</p></div><p>All rights reserved</p></body></html>"
    )


@pytest.mark.parametrize("seed", range(6))
def test_a_labelled_value_all_seeds_shared_is_found_where_its_block_does_not_fit(
    seed: int,
) -> None:
    """ "Posted: December 6, 2010" on every seed, among a varying number of
    paragraphs: on a page whose block does not fit the template exactly,
    the element is still found by its label and the date is the page's."""
    rng = random.Random(seed)
    seeds = [_posting(rng, "December 6, 2010", rng.randrange(1, 4)) for _ in range(5)]
    template = induce_template(seeds)
    assert "posted" in latent_fields(template).values()
    date = rng.choice(["December 3, 2010", "November 30, 2010"])
    fields = extract(template, _posting(rng, date, rng.choice([0, 5, 7]))).fields
    assert fields["posted"] == [date]
    same = extract(template, _posting(rng, "December 6, 2010", 6)).fields
    assert not same.get("posted")


#: The rest of a page: a menu is a small part of it.
FOOTER = "".join(f"<div class='foot'><p>Notice {n}: terms apply.</p></div>" for n in range(30))
SECTIONS = ["Photos", "Sights", "Restaurants", "Hotels", "Shopping", "Travel Tips", "Deals"]


@pytest.mark.parametrize("change", ["insert", "drop"])
@pytest.mark.parametrize("at", [0, 2, 5])
@pytest.mark.parametrize(
    "markup",
    ["<li><a href='/{}/{}'><span>{}</span></a></li>", "<li><a href='/{}/{}'>{}</a></li>"],
)
def test_a_menu_shifted_by_an_item_is_no_data(change: str, at: int, markup: str) -> None:
    """A menu every seed showed the same is latent item by item; a page
    whose menu has an item in or out shows the seeds' own items one place
    off: they are no data of that page, and nothing is emitted for them
    (a team that changed is, beside it)."""
    rng = random.Random(f"{change}{at}{markup}")

    def page(player: str, team: str, sections: list[str]) -> str:
        where = player.split()[0].lower()
        menu = "".join(markup.format(where, s.lower(), s) for s in sections)
        return (
            f"<html><body><ul class='nav'>{menu}</ul><h1>{player}</h1>"
            f"<div class='team-info'><h2>{team}</h2></div>"
            f"<p class='stats'>Height: {rng.randrange(180, 220)} cm</p>{FOOTER}</body></html>"
        )

    template = induce_template([page(p, TEAMS[0], SECTIONS) for p in PLAYERS[:5]])
    # As many items as on the seeds: each is in an item's place, one off.
    shifted = list(SECTIONS)
    if change == "insert":
        shifted.insert(at, "Forums")
        shifted.pop()
    else:
        del shifted[at]
        shifted.append("Forums")
    fields = extract(template, page(PLAYERS[5], TEAMS[2], shifted)).fields
    assert fields.get("team_info") == [TEAMS[2]]
    emitted = {value for values in fields.values() for value in values}
    assert not emitted & set(SECTIONS), fields


def _twin_template() -> Template:
    """A player page whose team block the seeds showed in two markups (a
    redesign rolled out page by page: bare on some, in a ``<section>`` on
    others): two optional copies, each with the team every seed agreed on,
    latent in both; a third latent text, a slogan, has a name of its own."""

    def latent(text: str, base: str) -> Text:
        node = Text([text])
        node.latent = base
        return node

    def team_block(wrapped: bool) -> Opt:
        facts = []
        for fact in ("number", "position", "college"):
            value = Text([None])
            value.names = [f"{fact}_2" if wrapped else fact]
            facts.append(Elem("span", {"class": fact}, [value]))
        team = Elem("h2", {}, [latent(TEAMS[0], "team_info")])
        block = Elem("div", {"class": "team-info"}, [facts[0], team, *facts[1:]])
        return Opt(Elem("section", {"class": "hero"}, [block]) if wrapped else block)

    player = Text([None])
    player.names = ["player"]
    slogan = Elem("p", {"class": "slogan"}, [latent("Go team", "slogan")])
    body = [Elem("h1", {}, [player]), team_block(False), team_block(True), slogan]
    return Template(Elem("body", {}, body))


def _twin_page(team: str, wrapped: bool, slogan: str = "Go team") -> str:
    facts = "<span class='position'>G</span><span class='college'>ASU</span>"
    block = f"<div class='team-info'><span class='number'>#20</span><h2>{team}</h2>{facts}</div>"
    if wrapped:
        block = f"<section class='hero'>{block}</section>"
    return f"<html><body><h1>{PLAYERS[5]}</h1>{block}<p class='slogan'>{slogan}</p></body></html>"


def test_copies_of_a_latent_text_in_two_markups_share_its_name() -> None:
    template = _twin_template()
    names = latent_fields(template)
    assert sorted(names.values()) == ["slogan", "team_info", "team_info"]
    for wrapped in (False, True):
        extraction = extract(template, _twin_page(TEAMS[1], wrapped))
        assert extraction.matched
        assert extraction.fields["team_info"] == [TEAMS[1]]
        assert not any(name.startswith("team_info_") for name in extraction.fields)


def test_latent_texts_of_one_base_but_other_seed_texts_keep_names_of_their_own() -> None:
    template = _twin_template()
    twin = next(
        node for node in template.nodes if isinstance(node, Text) and node.latent == "team_info"
    )
    twin.parts = ["Other text"]  # the same base, another seed text: another latent field
    template = Template(template.root)
    assert sorted(latent_fields(template).values()) == ["slogan", "team_info", "team_info_2"]


def test_show_lists_a_latent_field_with_twins_once() -> None:
    lines = template_schema(_twin_template()).splitlines()
    assert [line.split()[1] for line in lines if "seeds:" in line] == ["team_info", "slogan"]


SERIES = ["Aliens vs. Predator: Requiem", "Star Wars: A New Hope", "Mission: Impossible"]


@pytest.mark.parametrize("shared", SERIES)
def test_a_main_heading_with_a_colon_is_a_title_not_a_label(shared: str) -> None:
    """Offers of one movie on every seed: the main heading every seed
    shares is latent, and a title with a colon is no "Label: value": its
    words name no field, and another page's title is kept whole."""
    rng = random.Random(len(shared))

    def page(title: str) -> str:
        return (
            f"<html><body><div class='menu'><a href='/'>Home</a></div><h1>{title}</h1>"
            f"<p class='seller'>Seller: {rng.choice(PLAYERS)}</p>"
            f"<p class='price'>${rng.randrange(5, 40)}.99</p><p>Footer</p></body></html>"
        )

    template = induce_template([page(shared) for _ in range(5)])
    words = {word.lower().strip(".") for word in shared.replace(":", " ").split()}
    for title in ("Alien: Resurrection", "Predator 2", shared.split(":")[0] + ": Part Two"):
        fields = extract(template, page(title)).fields
        holders = [name for name, values in fields.items() if title in values]
        assert holders, (title, fields)
        assert not any(set(name.split("_")) & words for name in holders), holders
