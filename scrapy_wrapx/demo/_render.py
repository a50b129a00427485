"""The two designs of the demo bookstore (see :mod:`scrapy_wrapx.demo.site`).

Both designs render the same data at the same URLs. The redesign applies the
changes that break stored selectors on real sites: wrapper elements inserted
(``div.page-wrapper``, ``div.buy-box``, ``figure``), classes renamed
(``title`` -> ``product-title``...), the layout table turned into ``div``
elements, a cell inserted before every value of the details table, records
moved from ``div`` to ``li`` and a promotion block added to the header.

Pages keep the noise real pages have and the page tree must drop: a
doctype, ``<head>`` with ``meta``/``link``/``style``/``script``, comments,
``<br>``, whitespace between tags and entities.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy_wrapx.demo.site import Book

_SITE_NAME = "Demo Books"


def _author_link(name: str, root: str) -> str:
    slug = "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())
    return f'<a class="author" href="{root}author/{slug}.html">{escape(name)}</a>'


def _authors_line(authors: Sequence[str], root: str) -> str:
    """``by A``, ``by A and B``, ``by A, B and C``, each name a link, as both
    SWDE book sites print them: the separators are template text between
    repeated links."""
    links = [_author_link(name, root) for name in authors]
    if len(links) == 1:
        return "by " + links[0]
    return "by " + ", ".join(links[:-1]) + " and " + links[-1]


def _page(title: str, body: str, *, redesigned: bool, root: str) -> str:
    css = "site-v2.css" if redesigned else "site.css"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)} | {_SITE_NAME}</title>\n"
        f'<link rel="stylesheet" href="{root}static/{css}">\n'
        "<style>body { font-family: sans-serif; } .hidden { display: none; }</style>\n"
        "<script>window.dataLayer = window.dataLayer || []; /* <b>not markup</b> */</script>\n"
        "</head>\n<body>\n"
        f"{body}"
        "<script>dataLayer.push({'event': 'page'});</script>\n"
        "</body>\n</html>\n"
    )


def _header(root: str, *, redesigned: bool) -> str:
    nav = (
        f'<li><a href="{root}">Home</a></li>'
        f'<li><a href="{root}catalogue/page-1.html">Catalogue</a></li>'
        f'<li><a href="{root}about.html">About</a></li>'
        '<li><a href="/feed.json">Feed</a></li>'
    )
    search = (
        f'<form class="search" action="{root}search" method="get">'
        '<input type="text" name="q" value="" placeholder="Search books">'
        '<input type="submit" value="Go"></form>'
    )
    if not redesigned:
        return (
            '<div id="header">\n'
            f'  <a class="logo" href="{root}"><img src="/cover.png?logo=1" alt="{_SITE_NAME}"></a>\n'
            f'  <ul class="nav">{nav}</ul>\n  {search}\n'
            "</div>\n"
        )
    return (
        '<header class="site-header"><div class="wrap">\n'
        '  <div class="promo">Free shipping on orders over $25</div>\n'
        f'  <a class="brand" href="{root}"><img src="/cover.png?logo=2" alt="{_SITE_NAME}"></a>\n'
        f'  <nav><ul class="menu">{nav}</ul></nav>\n  {search}\n'
        "</div></header>\n"
    )


def _footer(root: str, *, redesigned: bool) -> str:
    links = (
        f'<a href="{root}about.html">About us</a> &middot; '
        '<a href="/feed.json">JSON feed</a> &middot; '
        '<a href="mailto:help@example.com">Contact</a>'
    )
    if not redesigned:
        return f'<div id="footer"><p>&copy; 2024 {_SITE_NAME}<br>{links}</p></div>\n'
    return (
        '<footer class="site-footer"><div class="wrap">'
        f'<p class="legal">&copy; 2024 {_SITE_NAME}</p><p class="links">{links}</p>'
        "</div></footer>\n"
    )


def _sidebar(books: Sequence[Book], root: str, *, redesigned: bool) -> str:
    items = "".join(
        f'<li><a href="{root}book/{book.slug}.html">{escape(book.title)}</a></li>' for book in books
    )
    cls = "col-side" if redesigned else "sidebar"
    heading = (
        "<h3>Bestsellers</h3>" if not redesigned else '<h3 class="side-title">Bestsellers</h3>'
    )
    return f'<div class="{cls}">{heading}<ul class="bestsellers">{items}</ul></div>'


def _layout(side: str, main: str, *, redesigned: bool) -> str:
    """The original design lays out sidebar and content with a table."""
    if not redesigned:
        return (
            '<table class="layout" width="100%" cellpadding="4"><tr>\n'
            f'<td class="side" valign="top" width="20%">{side}</td>\n'
            f'<td class="content" valign="top">\n{main}</td>\n'
            "</tr></table>\n"
        )
    return (
        '<div class="layout">\n'
        f'<div class="layout-side">{side}</div>\n'
        f'<div class="layout-main">\n{main}</div>\n'
        "</div>\n"
    )


def _wrap(body: str, *, redesigned: bool) -> str:
    if not redesigned:
        return body
    return f'<div class="page-wrapper"><div class="container">\n{body}</div></div>\n'


def render_home(featured: Sequence[Book], *, redesigned: bool) -> str:
    """The home page: a welcome text and a few featured books."""
    root = "./"
    items = "".join(
        f'<li><a href="book/{book.slug}.html">{escape(book.title)}</a></li>' for book in featured
    )
    main = (
        f"<h1>Welcome to {_SITE_NAME}</h1>\n"
        '<p>Browse the <a href="catalogue/page-1.html">catalogue</a> '
        "or start with one of these:</p>\n"
        f'<ul class="featured">{items}</ul>\n'
    )
    body = _header(root, redesigned=redesigned) + main + _footer(root, redesigned=redesigned)
    return _page("Home", _wrap(body, redesigned=redesigned), redesigned=redesigned, root=root)


def render_about(*, redesigned: bool) -> str:
    """A static page: chrome only, no records."""
    root = "./"
    main = (
        f"<h1>About {_SITE_NAME}</h1>\n"
        "<p>An imaginary bookshop, generated for testing scrapy-wrapx.</p>\n"
    )
    body = _header(root, redesigned=redesigned) + main + _footer(root, redesigned=redesigned)
    return _page("About", _wrap(body, redesigned=redesigned), redesigned=redesigned, root=root)


def _record(book: Book, *, redesigned: bool) -> str:
    href = f"../book/{book.slug}.html"
    title = escape(book.title)
    if not redesigned:
        authors = "".join(f"<li>{escape(name)}</li>" for name in book.authors)
        return (
            '<div class="record">\n'
            f'  <a class="thumb" href="{href}"><img src="{book.image}" alt="{title}"></a>\n'
            f'  <h3 class="title"><a href="{href}">{title}</a></h3>\n'
            f'  <ul class="authors">{authors}</ul>\n'
            f'  <span class="price">{escape(book.price)}</span>\n'
            "</div>\n"
        )
    authors = "".join(f'<li class="contributor">{escape(name)}</li>' for name in book.authors)
    return (
        '<li class="product-card">\n'
        f'  <div class="card-media"><a href="{href}"><img src="{book.image}" alt="{title}"></a></div>\n'
        '  <div class="card-body">\n'
        f'    <h3 class="product-title"><a href="{href}">{title}</a></h3>\n'
        f'    <ul class="contributors">{authors}</ul>\n'
        f'    <div class="buy-box"><span class="product-price">{escape(book.price)}</span></div>\n'
        "  </div>\n"
        "</li>\n"
    )


def _pagination(number: int, pages: int, *, redesigned: bool) -> str:
    links = []
    if number > 1:
        links.append(f'<a class="prev" href="page-{number - 1}.html">Previous</a>')
    for n in range(1, pages + 1):
        if n == number:
            links.append(f'<span class="current">{n}</span>')
        else:
            links.append(f'<a href="page-{n}.html">{n}</a>')
    if number < pages:
        links.append(f'<a class="next" href="page-{number + 1}.html">Next</a>')
    cls = "pager" if redesigned else "pagination"
    return f'<div class="{cls}">' + " ".join(links) + "</div>\n"


def render_list(
    books: Sequence[Book],
    number: int,
    pages: int,
    *,
    first: int,
    total: int,
    sidebar: Sequence[Book],
    redesigned: bool,
) -> str:
    """Catalogue page ``number`` of ``pages``: records with nested author
    lists, then the pagination."""
    root = "../"
    records = "".join(_record(book, redesigned=redesigned) for book in books)
    last = first + len(books) - 1
    count = f"Showing {first}&ndash;{last} of {total} books"
    if not redesigned:
        listing = f'<div class="book-list">\n{records}</div>\n'
        heading = f'<h1>Catalogue</h1>\n<p class="count">{count}</p>\n'
    else:
        listing = f'<ol class="products">\n{records}</ol>\n'
        heading = (
            f'<div class="page-head"><h1>Catalogue</h1><p class="result-count">{count}</p></div>\n'
        )
    main = (
        heading + "<!-- records -->\n" + listing + _pagination(number, pages, redesigned=redesigned)
    )
    side = _sidebar(sidebar, root, redesigned=redesigned)
    body = (
        _header(root, redesigned=redesigned)
        + _layout(side, main, redesigned=redesigned)
        + _footer(root, redesigned=redesigned)
    )
    return _page(
        f"Catalogue, page {number}",
        _wrap(body, redesigned=redesigned),
        redesigned=redesigned,
        root=root,
    )


def _details(book: Book, *, redesigned: bool) -> str:
    """The "Publisher:" label + value rows; the redesign inserts an icon cell
    before every value."""
    rows = [("Publisher:", book.publisher, "publisher"), ("ISBN-13:", book.isbn, "isbn")]
    if book.publication_date:
        rows.append(("Publication date:", book.publication_date, "date"))
    if not redesigned:
        cells = "".join(
            f"<tr><th>{label}</th><td>{escape(value)}</td></tr>" for label, value, _ in rows
        )
        return f'<table class="details">{cells}</table>\n'
    cells = "".join(
        f'<tr><th class="spec-name">{label}</th>'
        f'<td class="spec-icon"><img src="/cover.png?icon={key}" alt=""></td>'
        f'<td class="spec-value">{escape(value)}</td></tr>'
        for label, value, key in rows
    )
    return f'<table class="specs"><tbody>{cells}</tbody></table>\n'


def _reviews(book: Book, *, redesigned: bool) -> str:
    """A list of reviews, each with a nested list of tags."""
    item_cls, tags_cls = ("review-item", "review-tags") if redesigned else ("review", "tags")
    if not book.reviews:
        items = '<p class="empty">No reviews yet.</p>'
    else:
        items = (
            '<ul class="review-list">'
            + "".join(
                f'<li class="{item_cls}"><b class="reviewer">{escape(review.reviewer)}</b>'
                f"<p>{escape(review.text)}</p>"
                f'<ul class="{tags_cls}">'
                + "".join(f"<li>{escape(tag)}</li>" for tag in review.tags)
                + "</ul></li>"
                for review in book.reviews
            )
            + "</ul>"
        )
    return f'<div class="reviews"><h2>Reviews</h2>\n{items}\n</div>\n'


def render_detail(
    book: Book, *, catalogue_page: int, sidebar: Sequence[Book], redesigned: bool
) -> str:
    """A book's detail page."""
    root = "../"
    title = escape(book.title)
    byline = _authors_line(book.authors, root)
    crumbs = (
        f'<a href="{root}">Home</a> &gt; '
        f'<a href="{root}catalogue/page-{catalogue_page}.html">Catalogue</a>'
    )
    if not redesigned:
        rating = (
            f'<div class="rating">Rated <span class="stars">{book.rating}</span> out of 5</div>\n'
            if book.rating
            else ""
        )
        product = (
            f'<div class="breadcrumb">{crumbs}</div>\n'
            '<div class="product">\n'
            f'<div class="cover"><img src="{book.image}" alt="{title}"></div>\n'
            f'<h1 class="title">{title}</h1>\n'
            f'<p class="byline">{byline}</p>\n'
            f"{rating}"
            f'<p class="price">{escape(book.price)}</p>\n'
            + _details(book, redesigned=False)
            + '<div class="description"><h2>Description</h2>\n'
            f"<p>{escape(book.description)}</p></div>\n"
            "<!-- reviews -->\n" + _reviews(book, redesigned=False) + "</div>\n"
        )
    else:
        rating = (
            f'<div class="product-rating"><span class="score">{book.rating}</span> / 5 stars</div>\n'
            if book.rating
            else ""
        )
        product = (
            f'<nav class="crumbs">{crumbs}</nav>\n'
            '<article class="product-page">\n'
            '<div class="product-media"><figure>'
            f'<img src="{book.image}" alt="{title}"></figure></div>\n'
            '<div class="product-summary">\n'
            f'<h1 class="product-title">{title}</h1>\n'
            f'<div class="product-meta"><p class="product-byline">{byline}</p>\n{rating}</div>\n'
            '<div class="buy-box">'
            f'<p class="product-price"><span>{escape(book.price)}</span></p>'
            '<button type="button">Add to cart</button></div>\n'
            + _details(book, redesigned=True)
            + "</div>\n"
            '<section class="product-description"><h2>Description</h2>\n'
            f'<div class="text"><p>{escape(book.description)}</p></div></section>\n'
            + _reviews(book, redesigned=True)
            + "</article>\n"
        )
    side = _sidebar(sidebar, root, redesigned=redesigned)
    body = (
        _header(root, redesigned=redesigned)
        + _layout(side, product, redesigned=redesigned)
        + _footer(root, redesigned=redesigned)
    )
    return _page(book.title, _wrap(body, redesigned=redesigned), redesigned=redesigned, root=root)
