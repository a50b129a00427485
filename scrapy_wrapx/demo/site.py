"""A small, deterministic bookstore: the site the demo crawl and the tests use.

Induction, extraction and the hybrid locator need pages that behave like a
real template-generated site — the same layout filled with different data,
optional fields, repeated records with nested lists, chrome that varies a
little from page to page — *and* the truth about which text is data. Real
sites give the first, never the second, and cannot be shipped. So the
bookstore is generated: :func:`build_site` draws a catalogue from a seeded
:class:`random.Random` (same seed, same site, byte for byte) and renders it
with one of two designs:

* the original design (a layout table, short class names), and
* the *redesigned* one (``redesigned=True``): the same data and URLs, but with
  wrapper elements inserted, classes renamed, the layout table turned into
  ``div`` elements and table cells inserted before values — the changes that
  break absolute XPaths and that self-healing selectors must survive.

>>> site = build_site(seed=1, books=12)
>>> site.list_pages
['/catalogue/page-1.html', '/catalogue/page-2.html']
>>> len(site.detail_pages), sorted(site.truth[site.detail_pages[0]])
... # doctest: +NORMALIZE_WHITESPACE
(12, ['author', 'description', 'image', 'isbn', 'price', 'publication_date',
      'publisher', 'rating', 'title'])
>>> build_site(seed=1, books=12).pages == site.pages
True

All links inside the pages are relative, so the redesigned site can be served
under a prefix (``/v2/``) with the same paths; only the two shared resources,
``/cover.png`` and ``/feed.json``, are absolute.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass, field

from scrapy_wrapx.demo._render import render_about, render_detail, render_home, render_list

__all__ = [
    "BOOKS_PER_PAGE",
    "DETAIL_FIELDS",
    "Book",
    "DemoSite",
    "Review",
    "build_site",
]

#: Records on one catalogue page.
BOOKS_PER_PAGE = 10

#: The fields of :attr:`DemoSite.truth`, present on every detail page (an
#: empty list where the page does not show the field).
DETAIL_FIELDS = (
    "title",
    "author",
    "price",
    "isbn",
    "publisher",
    "publication_date",
    "description",
    "image",
    "rating",
)

_ADJECTIVES = [
    "Silent",
    "Hidden",
    "Last",
    "Crimson",
    "Broken",
    "Golden",
    "Distant",
    "Wild",
    "Forgotten",
    "Quiet",
    "Burning",
    "Secret",
    "Winter",
    "Northern",
    "Glass",
    "Lonely",
    "Iron",
    "Sleeping",
    "Paper",
    "Endless",
]
_NOUNS = [
    "River",
    "Garden",
    "Orchard",
    "Lighthouse",
    "Kingdom",
    "Harbor",
    "Mirror",
    "Library",
    "Forest",
    "Island",
    "Station",
    "Cartographer",
    "Bridge",
    "Tide",
    "Clockmaker",
    "Archive",
    "Meadow",
    "Compass",
    "Lantern",
    "Voyage",
]
_OWNERS = ["Keeper", "Baker", "Widow", "Sailor", "Astronomer", "Gardener", "Mapmaker", "Beekeeper"]
_FIRST_NAMES = [
    "Anna",
    "James",
    "Zoë",
    "Miguel",
    "Hannah",
    "Oliver",
    "Åsa",
    "Priya",
    "Thomas",
    "Margaret",
    "Kenji",
    "Chloé",
    "David",
    "Ines",
    "Samuel",
    "Ruth",
    "Noah",
    "Elena",
    "Arthur",
    "Fatima",
]
_LAST_NAMES = [
    "Whitaker",
    "Moreno",
    "Lindqvist",
    "O'Brien",
    "Okafor",
    "Hale",
    "Novak",
    "Tanaka",
    "Fitzgerald",
    "Duarte",
    "Brennan",
    "Castellano",
    "Iyer",
    "Marsh",
    "Delacroix",
    "Abbott",
    "Kowalski",
    "Reyes",
    "Sutherland",
    "Voss",
]
_PUBLISHERS = [
    "Harbor House",
    "Simon & Schuster",
    "Penguin Random House",
    "Lantern Press",
    "Orchard Books",
    "Farrar, Straus and Giroux",
    "Blue Door Publishing",
    "Northwind Editions",
]
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_SENTENCES = [
    "A {adj} story about a {noun} and the people who keep it alive.",
    "{name} returns with a novel of memory, loss & second chances.",
    "Set on a {adj} {noun}, it follows three generations of one family.",
    'Critics called it "a book to read twice".',
    "When the {noun} closes, nothing in town stays the same.",
    "It is a tale of courage, told with wit and warmth.",
    "A debut that moves between 1920s Lisbon and present-day Boston.",
    "Nobody expected the {owner}'s letters to be found, least of all {name}.",
]
_REVIEWERS = [
    "bookworm42",
    "Marta K.",
    "J. Ellison",
    "readsalot",
    "Pat",
    "Sven O.",
    "night_reader",
    "Grace L.",
]
_REVIEW_TEXTS = [
    "Could not put it down.",
    "Slow start, but the ending is worth it.",
    "Beautiful prose & a clever plot.",
    "Not my kind of book, sadly.",
    "I bought a second copy for my sister.",
    "The characters stayed with me for weeks.",
]
_TAGS = [
    "moving",
    "slow",
    "funny",
    "classic",
    "page-turner",
    "gift",
    "dark",
    "hopeful",
    "book club",
]


@dataclass
class Review:
    """One reader review of a detail page; its tags are a nested list."""

    reviewer: str
    text: str
    tags: list[str]


@dataclass
class Book:
    """One catalogue entry: the data a detail page shows."""

    slug: str
    title: str
    authors: list[str]
    price: str
    isbn: str
    publisher: str
    publication_date: str | None
    description: str
    rating: str | None
    reviews: list[Review] = field(default_factory=list)

    @property
    def path(self) -> str:
        """URL path of the book's detail page."""
        return f"/book/{self.slug}.html"

    @property
    def image(self) -> str:
        """The cover's ``src`` (served by the demo server as ``/cover.png``)."""
        return f"/cover.png?isbn={self.isbn}"

    def truth(self) -> dict[str, list[str]]:
        """The values a detail page shows, by field (see :data:`DETAIL_FIELDS`)."""
        return {
            "title": [self.title],
            "author": list(self.authors),
            "price": [self.price],
            "isbn": [self.isbn],
            "publisher": [self.publisher],
            "publication_date": [self.publication_date] if self.publication_date else [],
            "description": [self.description],
            "image": [self.image],
            "rating": [self.rating] if self.rating else [],
        }


@dataclass
class DemoSite:
    """A generated bookstore: every page's HTML and the truth about its data.

    ``pages`` maps URL paths (``/``, ``/catalogue/page-1.html``,
    ``/book/<slug>.html``...) to HTML. ``truth`` maps each detail page's path
    to field -> true values, each value exactly the folded text of one text
    node or the value of one ``src`` attribute (authors are links in the
    detail pages' byline, and items of the list pages' nested author lists). ``records`` maps each list page to its
    records in page order, with the same field names.
    """

    seed: int
    redesigned: bool
    books: list[Book]
    pages: dict[str, str]
    truth: dict[str, dict[str, list[str]]]
    records: dict[str, list[dict[str, list[str]]]]
    list_pages: list[str]
    detail_pages: list[str]


def build_site(seed: int = 0, *, redesigned: bool = False, books: int = 30) -> DemoSite:
    """Generate the bookstore for ``seed``; the same arguments always give
    the same pages. ``redesigned`` renders the same catalogue with the
    second design."""
    if books < 1:
        raise ValueError(f"A demo site needs at least one book, got books={books!r}")
    rng = random.Random(seed)
    catalogue = _draw_books(rng, books)
    # Chrome that varies per page (the sidebar's bestsellers) is drawn from
    # its own generator, so both designs show the same lists.
    chrome = random.Random(f"chrome-{seed}")

    pages: dict[str, str] = {}
    truth: dict[str, dict[str, list[str]]] = {}
    records: dict[str, list[dict[str, list[str]]]] = {}
    chunks = [catalogue[i : i + BOOKS_PER_PAGE] for i in range(0, books, BOOKS_PER_PAGE)]
    list_pages = [f"/catalogue/page-{n}.html" for n in range(1, len(chunks) + 1)]

    pages["/"] = render_home(catalogue[:3], redesigned=redesigned)
    pages["/about.html"] = render_about(redesigned=redesigned)
    for number, (path, chunk) in enumerate(zip(list_pages, chunks, strict=True), 1):
        sidebar = _draw_sidebar(chrome, catalogue, chunk)
        pages[path] = render_list(
            chunk,
            number,
            len(chunks),
            first=(number - 1) * BOOKS_PER_PAGE + 1,
            total=books,
            sidebar=sidebar,
            redesigned=redesigned,
        )
        records[path] = [
            {
                "title": [book.title],
                "author": list(book.authors),
                "price": [book.price],
                "image": [book.image],
            }
            for book in chunk
        ]
    for index, book in enumerate(catalogue):
        sidebar = _draw_sidebar(chrome, catalogue, [book])
        pages[book.path] = render_detail(
            book,
            catalogue_page=index // BOOKS_PER_PAGE + 1,
            sidebar=sidebar,
            redesigned=redesigned,
        )
        truth[book.path] = book.truth()
    return DemoSite(
        seed=seed,
        redesigned=redesigned,
        books=catalogue,
        pages=pages,
        truth=truth,
        records=records,
        list_pages=list_pages,
        detail_pages=[book.path for book in catalogue],
    )


def _draw_sidebar(rng: random.Random, catalogue: list[Book], shown: list[Book]) -> list[Book]:
    """3 to 6 bestsellers, never a book the page itself shows: a truth value
    should not appear twice on its page."""
    others = [book for book in catalogue if book not in shown]
    return rng.sample(others, k=min(len(others), rng.randint(3, 6)))


def _draw_books(rng: random.Random, count: int) -> list[Book]:
    books: list[Book] = []
    slugs: set[str] = set()
    isbns: set[str] = set()
    for _ in range(count):
        title = _draw_title(rng)
        slug = base = _slugify(title)
        suffix = 2
        while slug in slugs:
            slug, suffix = f"{base}-{suffix}", suffix + 1
        slugs.add(slug)
        isbn = _draw_isbn(rng)
        while isbn in isbns:
            isbn = _draw_isbn(rng)
        isbns.add(isbn)
        # Most books have one author, some two or three (nested lists).
        authors = [_draw_name(rng) for _ in range(rng.choices([1, 2, 3], [6, 3, 1])[0])]
        authors = list(dict.fromkeys(authors))
        date = None
        if rng.random() < 0.75:
            date = f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}, {rng.randint(1952, 2023)}"
        rating = f"{rng.randint(2, 9) / 2 + 0.5:.1f}" if rng.random() < 0.7 else None
        books.append(
            Book(
                slug=slug,
                title=title,
                authors=authors,
                price=f"${rng.randint(4, 39)}.{rng.choice(['00', '49', '95', '99'])}",
                isbn=isbn,
                publisher=rng.choice(_PUBLISHERS),
                publication_date=date,
                description=_draw_description(rng, authors[0]),
                rating=rating,
                reviews=[_draw_review(rng) for _ in range(rng.choice([0, 1, 2, 3, 4]))],
            )
        )
    return books


def _draw_title(rng: random.Random) -> str:
    adjective, noun = rng.choice(_ADJECTIVES), rng.choice(_NOUNS)
    form = rng.randrange(4)
    if form == 0:
        return f"The {adjective} {noun}"
    if form == 1:
        return f"The {noun} of {rng.choice(_NOUNS)}s"
    if form == 2:
        return f"The {rng.choice(_OWNERS)}'s {noun}"
    return f"{adjective} {noun}: A Novel"


def _draw_name(rng: random.Random) -> str:
    return f"{rng.choice(_FIRST_NAMES)} {rng.choice(_LAST_NAMES)}"


def _draw_isbn(rng: random.Random) -> str:
    digits = "978" + "".join(str(rng.randrange(10)) for _ in range(9))
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits))
    return digits + str((10 - total % 10) % 10)


def _draw_description(rng: random.Random, name: str) -> str:
    sentences = rng.sample(_SENTENCES, k=rng.randint(2, 3))
    return " ".join(
        s.format(
            adj=rng.choice(_ADJECTIVES).lower(),
            noun=rng.choice(_NOUNS).lower(),
            owner=rng.choice(_OWNERS).lower(),
            name=name,
        )
        for s in sentences
    )


def _draw_review(rng: random.Random) -> Review:
    return Review(
        reviewer=rng.choice(_REVIEWERS),
        text=rng.choice(_REVIEW_TEXTS),
        tags=rng.sample(_TAGS, k=rng.randint(1, 3)),
    )


def _slugify(title: str) -> str:
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")
