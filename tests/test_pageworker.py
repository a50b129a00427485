"""Page workers: the request protocol in-process, and real worker processes
spawned on the reactor."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted

from scrapy_wrapx.dom import structure_paths
from scrapy_wrapx.extraction import extract
from scrapy_wrapx.induction.item_shape import item_shape
from scrapy_wrapx.template import Template
from scrapy_wrapx.workers.pool import (
    PAGES_IN_FLIGHT,
    TreeMissing,
    WorkerPool,
    WorkerTimeout,
    WorkerUnavailable,
)
from scrapy_wrapx.workers.protocol import (
    PATH_NUMBERS,
    FrameDecoder,
    encode_frame,
    extraction_from_dict,
    extraction_to_dict,
    frame_parts,
)
from scrapy_wrapx.workers.worker import MAX_TREES, Naming, PageWorker, induce_pages


def _book(title: str, price: str, extra: str = "") -> str:
    return f"<html><body><h1>{title}</h1>{extra}<p>Price: {price}</p><i>Shop</i></body></html>"


PAGES = [
    {"url": f"http://shop.test/book/{n}.html", "html": _book(t, p)}
    for n, (t, p) in enumerate([("Dune", "9.99"), ("Emma", "4.50"), ("Ubik", "7.25")])
]


@pytest.fixture(scope="module")
def template() -> Template:
    return induce_pages(PAGES, None)[0]


def test_frames_survive_any_split() -> None:
    frames = encode_frame({"id": 1, "op": "page"}, "é<b>".encode()) + encode_frame({"id": 2})
    for cut in range(len(frames) + 1):
        decoder = FrameDecoder()
        messages = decoder.feed(frames[:cut]) + decoder.feed(frames[cut:])
        assert messages == [({"id": 1, "op": "page"}, "é<b>".encode()), ({"id": 2}, b"")]


def test_frames_survive_chunks_of_any_size() -> None:
    frames = b"".join(
        encode_frame({"id": n, "op": "page"}, ("é<b>" * n * 50).encode()) for n in range(1, 6)
    )
    expected = FrameDecoder().feed(frames)
    assert [header["id"] for header, _ in expected] == [1, 2, 3, 4, 5]
    for step in (1, 7, 100, 1000):
        decoder = FrameDecoder()
        got = []
        for start in range(0, len(frames), step):
            got.extend(decoder.feed(frames[start : start + step]))
        assert got == expected
    assert b"".join(frame_parts({"id": 1}, b"<p>")) == encode_frame({"id": 1}, b"<p>")


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/html; charset=utf-8", "<p>café €</p>".encode()),
        ("text/html; charset=UTF8", b"<p>bad \xff\xfe byte</p>"),
        ("text/html", b'<meta charset="utf-8"><p>caf\xc3\xa9</p>'),
        ("text/html", b"<p>no declaration, caf\xe9</p>"),
        ("text/html; charset=latin-1", b"<p>caf\xe9</p>"),
        ("text/html; charset=utf-8", b"\xef\xbb\xbf<p>caf\xc3\xa9</p>"),
        ("text/html; charset=utf-8", b"\xff\xfe<\x00p\x00>\x00"),
        ("text/html; charset=cp1251", "<p>Привет</p>".encode("cp1251")),
    ],
)
def test_a_page_goes_to_a_worker_as_the_text_scrapy_decoded(content_type: str, body: bytes) -> None:
    """The body is sent as it came when it is UTF-8; the worker's decoding
    of what it is sent is the response's text, whatever the body."""
    from scrapy.http import HtmlResponse

    from scrapy_wrapx.unsupervised.responses import utf8_body

    response = HtmlResponse("http://shop.test/p", body=body, headers={"Content-Type": content_type})
    sent = utf8_body(response)
    assert sent.decode("utf-8", "replace") == response.text
    if response.encoding == "utf-8" and not body.startswith((b"\xef\xbb\xbf", b"\xff\xfe")):
        assert sent is response.body


def test_worker_answers_routing_extraction_and_induction(template: Template) -> None:
    from scrapy_wrapx import dom

    worker = PageWorker()
    html = _book("Solaris", "3.00")
    page = worker.handle({"op": "page", "id": 1, "url": "http://shop.test/s"}, html.encode())
    assert page is not None and page["ok"]
    table = page["new_paths"]
    numbers = array(PATH_NUMBERS)
    numbers.frombytes(page["payload"])
    assert {table[n] for n in numbers} == structure_paths(dom.parse(html))
    # The second page's known paths are not sent again.
    again = worker.handle({"op": "page", "id": 2, "url": "http://shop.test/k"}, html.encode())
    assert again is not None and again["new_paths"] == []

    assert worker.handle({"op": "template", "template": "t1"}, template.to_json().encode()) is None
    reply = worker.handle({"op": "extract", "id": 3, "page": 1, "template": "t1"}, b"")
    assert reply is not None and reply["ok"]
    expected = extract(template, dom.parse(html), url="http://shop.test/s")
    got = extraction_from_dict(reply["extraction"])
    assert (got.fields, got.records, got.matched) == (
        expected.fields,
        expected.records,
        expected.matched,
    )
    # The tree is gone once extracted; page 2 is released without a reply.
    missing = worker.handle({"op": "extract", "id": 4, "page": 1, "template": "t1"}, b"")
    assert missing is not None and missing["reason"] == "missing"
    assert worker.handle({"op": "release", "page": 2}, b"") is None
    assert not worker.trees

    # A page sent with its expected template comes back extracted at once.
    quick = worker.handle(
        {"op": "page", "id": 5, "url": "http://shop.test/q", "template": "t1"}, html.encode()
    )
    assert quick is not None and quick["extraction"]["fields"] == expected.fields
    # It matched, so it is of that template's kind: no tag paths to route by.
    assert quick["matched"] and "payload" not in quick
    other = "<html><body><table><tr><td>Not a book</td></tr></table></body></html>"
    unmatched = worker.handle(
        {"op": "page", "id": 10, "url": "http://shop.test/o", "template": "t1"}, other.encode()
    )
    assert unmatched is not None and not unmatched["extraction"]["matched"]
    assert "matched" not in unmatched and unmatched["payload"]  # routed by its tag paths
    assert not worker.trees
    unknown = worker.handle(
        {"op": "extract_page", "id": 6, "url": "http://shop.test/u", "template": "nope"},
        html.encode(),
    )
    assert unknown is not None and unknown["reason"] == "missing"

    induced = worker.handle({"op": "induce", "id": 7}, json.dumps({"pages": PAGES}).encode())
    assert induced is not None and induced["ok"]
    assert Template.from_json(induced["payload"]).field_names == template.field_names
    assert induced["shape"]["field_names"] == template.field_names
    bad = worker.handle({"op": "induce", "id": 8}, json.dumps({"pages": [{"url": 1}]}).encode())
    assert bad is not None and bad["reason"] == "page"
    assert worker.handle({"op": "nope", "id": 9}, b"")["reason"] == "page"  # type: ignore[index]


def test_extraction_round_trips_through_json(template: Template) -> None:
    from scrapy_wrapx import dom

    extraction = extract(template, dom.parse(PAGES[0]["html"]), url=PAGES[0]["url"])
    back = extraction_from_dict(json.loads(json.dumps(extraction_to_dict(extraction))))
    assert (back.fields, back.records, back.score, back.matched, back.coverage) == (
        extraction.fields,
        extraction.records,
        extraction.score,
        extraction.matched,
        extraction.coverage,
    )
    with pytest.raises(ValueError):
        extraction_from_dict({"fields": [], "records": {}, "score": 1, "coverage": 1})


def _shelf(books: list[tuple[str, str]]) -> str:
    rows = "".join(f"<li><b>{title}</b><i>{price}</i></li>" for title, price in books)
    return f"<html><body><h1>Shelf</h1><ul>{rows}</ul><p>Shop</p></body></html>"


def test_a_reply_leaves_out_the_fields_of_sets_and_makes_the_same_item() -> None:
    """A set's values travel once, in ``records``; the item is the same."""
    from scrapy_wrapx import dom
    from scrapy_wrapx.unsupervised.items import item_data

    shelves = [
        _shelf([("Dune", "9.99"), ("Emma", "4.50")]),
        _shelf([("Ubik", "7.25"), ("Kindred", "5.10"), ("Carrie", "1.00")]),
        _shelf([("Solaris", "3.00")]),
    ]
    template = induce_pages(
        [{"url": f"http://shop.test/s/{n}", "html": html} for n, html in enumerate(shelves)], None
    )[0]
    in_sets = {info.name for info in template.fields if info.set}
    assert in_sets, "the shelf's books are a set"
    worker = PageWorker()
    worker.handle({"op": "template", "template": "t"}, template.to_json().encode())
    html = _shelf([("Beloved", "6.20"), ("Matilda", "2.30")])
    header = {"op": "extract_page", "id": 1, "url": "http://shop.test/b", "template": "t"}
    reply = worker.handle(header, html.encode())
    assert reply is not None and reply["ok"]
    got = extraction_from_dict(json.loads(json.dumps(reply["extraction"])))
    expected = extract(
        template, dom.parse(html, url="http://shop.test/b"), url="http://shop.test/b"
    )
    assert not in_sets & set(got.fields) and in_sets <= set(expected.fields)
    assert got.records == expected.records
    assert item_data(got, template) == item_data(expected, template)
    assert "Matilda" in json.dumps(item_data(got, template))


@pytest_twisted.inlineCallbacks
def test_pool_parses_extracts_and_induces_in_a_process(template: Template) -> Iterator[Any]:
    pool = WorkerPool(1)
    pool.start()
    try:
        html = _book("Kindred", "5.10")
        page = yield pool.parse("http://shop.test/k", html)
        assert "body/h1/text()" in page.paths and page.extraction is None
        extraction = yield pool.extract(page, template)
        assert extraction.matched and "5.10" in str(extraction.fields)

        quick = yield pool.parse("http://shop.test/b", _book("Beloved", "6.20"), template)
        assert quick.extraction is not None
        assert quick.template_key == pool._template_keys[template][0]  # extracted with it
        assert quick.paths is None  # it matched: of the template's kind
        buffered = yield pool.extract_html("http://shop.test/c", _book("Carrie", "1.00"), template)
        assert buffered.matched

        induced = yield pool.induce(PAGES, None)
        assert induced.shape.field_names == template.field_names and induced.seconds >= 0
        assert Template.from_json(induced.template_json).field_names == template.field_names
    finally:
        yield pool.close()
    assert not pool.running
    with pytest.raises(WorkerUnavailable):
        yield pool.parse("http://shop.test/x", html)


@pytest_twisted.inlineCallbacks
def test_a_worker_names_the_fields_it_induces() -> Iterator[Any]:
    """The template a worker induces and names is the one induced here and
    named on freshly parsed seeds, as the crawl's process did."""
    from scrapy_wrapx import dom
    from scrapy_wrapx.induction import induce_template
    from scrapy_wrapx.induction._pagenames import name_template

    naming = Naming({"price": "//p"}, {"title": "book_title"})
    trees = [dom.parse(page["html"], url=page["url"]) for page in PAGES]
    expected = induce_template(trees, urls=[page["url"] for page in PAGES])
    fresh = [dom.parse(page["html"], url=page["url"]) for page in PAGES]
    name_template(expected, fresh, None, naming.targets, naming.pinned)
    assert {"price", "book_title"} <= set(expected.field_names)
    assert induce_pages(PAGES, None, naming)[0].to_json() == expected.to_json()
    pool = WorkerPool(1)
    pool.start()
    try:
        induced = yield pool.induce(PAGES, None, naming)
    finally:
        yield pool.close()
    assert induced.template_json == expected.to_json()
    assert induced.shape == item_shape(expected)
    with pytest.raises(ValueError):
        Naming.from_dict({"targets": {"a": 1}, "pinned": {}})


@pytest_twisted.inlineCallbacks
def test_pages_larger_than_the_pipe_arrive_whole(template: Template) -> Iterator[Any]:
    from twisted.internet import defer

    pool = WorkerPool(1)
    pool.start()
    try:
        filler = "<p>" + "x" * 1000 + "</p>"
        big = [_book(f"Big {n}", "1.00", extra=filler * 1500) for n in range(3)]
        pending = [pool.parse(f"http://shop.test/big/{n}", html) for n, html in enumerate(big)]
        # Megabytes the pipe cannot hold at once: the rest waits for the reactor.
        assert pool.workers[0].requests is not None and pool.workers[0].requests._outgoing
        pages = yield defer.gatherResults(pending)
        assert all("body/h1/text()" in page.paths for page in pages)
        small = yield pool.extract_html("http://shop.test/k", _book("Kindred", "5.10"), template)
        assert small.matched and "5.10" in str(small.fields)
    finally:
        yield pool.close()


@pytest_twisted.inlineCallbacks
def test_kept_trees_last_until_their_extract_however_many_pages_arrive(
    template: Template,
) -> Iterator[Any]:
    """Pages sent faster than the worker parses wait in the crawl's process,
    a few in the worker at a time. An ``extract`` sent once its page is
    answered then finds the tree the worker kept; written all at once, it
    would wait behind every other page, and the worker would have dropped
    the tree for the trees kept after it."""
    from twisted.internet import defer

    pool = WorkerPool(1)
    pool.start()
    try:
        pending = [
            pool.parse(f"http://shop.test/{n}", _book(f"Title {n}", "1.00")).addCallback(
                pool.extract, template
            )
            for n in range(MAX_TREES * 3)
        ]
        assert pool.workers[0].pages == PAGES_IN_FLIGHT
        extractions = yield defer.gatherResults(pending, consumeErrors=True)
        assert all(e.matched for e in extractions)
        assert pool.workers[0].pages == 0 and pool.room() is None
    finally:
        yield pool.close()


@pytest_twisted.inlineCallbacks
def test_room_waits_while_the_backlog_is_full(template: Template) -> Iterator[Any]:
    from twisted.internet import defer

    pool = WorkerPool(1, backlog=4)
    pool.start()
    try:
        pending = [
            pool.extract_html(f"http://shop.test/{n}", _book(f"Title {n}", "1.00"), template)
            for n in range(PAGES_IN_FLIGHT + 10)
        ]
        wait = pool.room()
        assert wait is not None and not wait.called
        yield wait
        assert len(pool._queued) < 4
        extractions = yield defer.gatherResults(pending, consumeErrors=True)
        assert [e.matched for e in extractions] == [True] * len(pending)
        assert pool.room() is None
    finally:
        yield pool.close()


@pytest_twisted.inlineCallbacks
def test_a_dead_worker_fails_the_pages_waiting_for_it_too() -> Iterator[Any]:
    pool = WorkerPool(1, backlog=2)
    pool.start()
    try:
        worker = pool.workers[0]
        os.kill(worker.transport.pid, signal.SIGSTOP)  # type: ignore[union-attr]
        pending = [pool.parse(f"http://shop.test/{n}", _book("Dune", "9.99")) for n in range(20)]
        wait = pool.room()
        assert wait is not None
        worker.kill()
        for request in pending:
            with pytest.raises(WorkerUnavailable):
                yield request
        yield wait  # the crawl's held requests go on (without workers)
        assert not pool._queued
    finally:
        yield pool.close()


@pytest_twisted.inlineCallbacks
def test_a_worker_is_replaced_after_its_pages_and_loses_nothing(
    template: Template,
) -> Iterator[Any]:
    """Past ``max_pages`` a worker is replaced by a fresh process, started
    once the old one has answered what it was sent and exited (the pages
    sent meanwhile wait, none goes back to the crawl's process); a tree the
    old one kept is missing, so its page is parsed again."""
    from twisted.internet import defer

    pool = WorkerPool(1, max_pages=3)
    pool.start()
    first = pool.workers[0]
    try:
        kept = yield pool.parse("http://shop.test/kept", _book("Kindred", "5.10"))
        assert kept.worker is first
        pending = [
            pool.parse(f"http://shop.test/{n}", _book(f"Title {n}", f"{n}.00"), template)
            for n in range(8)
        ]
        pages = yield defer.gatherResults(pending)
        assert all(page.extraction is not None and page.extraction.matched for page in pages)
        assert [f"{n}.00" in str(p.extraction.fields) for n, p in enumerate(pages)] == [True] * 8
        assert pool.recycled == 3 and pool.workers[0] is not first
        yield first.ended  # it answered, then exited
        assert first.closed and not first.alive
        with pytest.raises(TreeMissing):
            yield pool.extract(kept, template)
        again = yield pool.extract_html("http://shop.test/kept", _book("Kindred", "5.10"), template)
        assert again.matched and "5.10" in str(again.fields)
    finally:
        yield pool.close()
    assert not any(worker.alive for worker in pool.workers)


@pytest_twisted.inlineCallbacks
def test_an_extract_of_a_dropped_tree_says_so(template: Template) -> Iterator[Any]:
    """A tree the worker no longer keeps fails with :class:`TreeMissing`:
    the caller sends the page again (``extract_html``) rather than parse it
    in the crawl's process."""
    pool = WorkerPool(1)
    pool.start()
    try:
        page = yield pool.parse("http://shop.test/k", _book("Kindred", "5.10"))
        pool.release(page)
        with pytest.raises(TreeMissing):
            yield pool.extract(page, template)
        assert pool.running
    finally:
        yield pool.close()


@pytest_twisted.inlineCallbacks
def test_a_dead_worker_fails_its_requests_over(template: Template) -> Iterator[Any]:
    pool = WorkerPool(1)
    pool.start()
    try:
        yield pool.parse("http://shop.test/1", _book("Dune", "9.99"))
        worker = pool.workers[0]
        # Stopped first, the worker cannot answer before the kill lands.
        os.kill(worker.transport.pid, signal.SIGSTOP)  # type: ignore[union-attr]
        pending = pool.parse("http://shop.test/2", _book("Emma", "4.50"))
        worker.kill()
        with pytest.raises(WorkerUnavailable):
            yield pending
        yield worker.ended
        assert not pool.running
    finally:
        yield pool.close()


@pytest_twisted.inlineCallbacks
def test_a_request_past_its_deadline_is_given_up_and_the_worker_replaced() -> Iterator[Any]:
    pool = WorkerPool(1, timeout=0.5)
    pool.start()
    try:
        stuck = pool.workers[0]
        # A stopped worker never answers: the page it holds is a stuck page.
        os.kill(stuck.transport.pid, signal.SIGSTOP)  # type: ignore[union-attr]
        with pytest.raises(WorkerTimeout):
            yield pool.parse("http://shop.test/stuck", _book("Dune", "9.99"))
        assert pool.timeouts == 1 and not stuck.alive
        yield stuck.ended
        fresh = pool.workers[0]
        assert fresh is not stuck and fresh.alive
        page = yield pool.parse("http://shop.test/next", _book("Emma", "4.50"))
        assert "body/h1/text()" in page.paths
    finally:
        yield pool.close()


_PARENT = """
import subprocess, sys, os, time
from scrapy_wrapx.workers.protocol import FrameDecoder, encode_frame
env = dict(os.environ, WRAPX_WORKER_PARENT_PID=str(os.getpid()))
worker = subprocess.Popen(
    [sys.executable, "-m", "scrapy_wrapx.workers.worker"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
)
# A reply means the worker serves requests: its watch on us is armed.
worker.stdin.write(encode_frame({"op": "nope", "id": 1}))
worker.stdin.flush()
decoder = FrameDecoder()
while not decoder.feed(os.read(worker.stdout.fileno(), 65536)):
    pass
print(worker.pid, flush=True)
time.sleep(600)
"""


def _ended(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_ends_with_the_crawl_even_when_it_is_busy() -> None:
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root)
    parent = subprocess.Popen(
        [sys.executable, "-c", _PARENT], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert parent.stdout is not None
        worker_pid = int(parent.stdout.readline())
        # Stopped, the worker reads no end of its input, as one busy with a page.
        os.kill(worker_pid, signal.SIGSTOP)
        parent.kill()
        parent.wait()
        for _ in range(200):  # bounded wait for the kernel's signal
            if _ended(worker_pid):
                break
            time.sleep(0.05)
        assert _ended(worker_pid)
    finally:
        parent.kill()
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker_pid, signal.SIGKILL)


def test_an_induction_leaves_no_page_tree_for_the_collector() -> None:
    """The seed trees of an induction are freed as soon as it is done, by
    reference counting: a worker's cyclic collector runs rarely
    (``GC_THRESHOLDS``), and trees waiting for it took half its memory
    (page trees link nodes to their parents weakly)."""
    import gc

    from scrapy_wrapx.dom import Node

    worker = PageWorker()
    rows = "".join(f"<li>Row {n}</li>" for n in range(50))
    pages = [{**page, "html": page["html"].replace("<i>", f"<ul>{rows}</ul><i>")} for page in PAGES]
    payload = json.dumps({"pages": pages, "previous": None, "naming": None}).encode()
    gc.collect()
    before = sum(isinstance(o, Node) for o in gc.get_objects())  # other tests' trees
    gc.disable()  # what is not freed by reference counting stays
    try:
        reply = worker.handle({"op": "induce", "id": 1}, payload)
        after = sum(isinstance(o, Node) for o in gc.get_objects())
    finally:
        gc.enable()
    assert reply is not None and reply["ok"]
    assert after == before


@pytest_twisted.inlineCallbacks
def test_the_capture_middleware_holds_requests_while_the_backlog_is_full() -> Iterator[Any]:
    """With the workers' backlog full, a request waits before its download
    until the backlog drains; the end-of-crawl flush and a request kept out
    of the unsupervised mode (``meta["wrapx"] = False``) never wait."""
    from scrapy import Request, Spider
    from scrapy.utils.defer import deferred_from_coro
    from scrapy.utils.test import get_crawler
    from twisted.internet import reactor, task

    from scrapy_wrapx.middlewares.seeds import WrapxCaptureMiddleware
    from scrapy_wrapx.unsupervised.capture import FLUSH_META
    from scrapy_wrapx.workers.pool import _POOLS

    crawler = get_crawler(Spider, {"WRAPX_SEEDS_ENABLED": True})
    middleware = WrapxCaptureMiddleware(crawler)
    pool = WorkerPool(1, backlog=2)
    pool.start()
    _POOLS[crawler] = pool
    try:
        worker = pool.workers[0]
        os.kill(worker.transport.pid, signal.SIGSTOP)  # type: ignore[union-attr]
        waiting = [
            pool.parse(f"http://shop.test/{n}", _book("Dune", "9.99"))
            for n in range(PAGES_IN_FLIGHT + 2)
        ]
        for request in waiting:
            request.addErrback(lambda failure: None)
        held = deferred_from_coro(middleware.process_request(Request("http://shop.test/a")))
        opted_out = deferred_from_coro(
            middleware.process_request(Request("http://shop.test/b", meta={"wrapx": False}))
        )
        flush = deferred_from_coro(
            middleware.process_request(Request("data:,", meta={FLUSH_META: True}))
        )
        for _ in range(10):  # turns of the reactor, not time
            yield task.deferLater(reactor, 0, lambda: None)
        assert opted_out.called and flush.called
        assert not held.called
        worker.kill()  # the pages fail over: the backlog drains
        yield held
        assert crawler.stats is not None
        assert crawler.stats.get_value("wrapx/workers/backlog_wait_count") == 1
    finally:
        _POOLS.pop(crawler, None)
        yield pool.close()
