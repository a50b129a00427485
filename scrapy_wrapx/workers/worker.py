"""The page worker: a separate process that parses, extracts and induces.

A crawl spends most of its CPU time in Scrapy's own work on the reactor
thread; the per-page work of the unsupervised mode (parsing the page tree,
extracting with the kind's template, inducing templates) is pure CPU over
plain data, so it runs here, on another core, while the reactor goes on
downloading (``WRAPX_ITEMS_WORKERS``; the Scrapy side is
:mod:`scrapy_wrapx.workers.pool`). Run as ``python -m scrapy_wrapx.workers.worker``:
it answers requests on stdin with replies on stdout until stdin closes.

**Messages** are frames (:mod:`scrapy_wrapx.workers.protocol`): a JSON
header and a raw payload (page HTML as UTF-8, or JSON). JSON only, no
pickle: a worker executes nothing it is sent. Requests (``op`` in the header):

* ``template`` (``template``, a key; payload the template's JSON): remember
  a template under its key, for the requests below; no reply.
* ``forget`` (``template``): forget a template (the caller keeps a few
  only, ``WRAPX_ITEMS_TEMPLATE_CACHE``); no reply.
* ``page`` (``id``, ``url``, optional ``template``; payload the HTML, as
  UTF-8, undecodable bytes replaced as Scrapy does): parse
  the page; the reply has its tag-path set, which is what routing to a page
  kind needs, as numbers (the payload, native unsigned ints): each path
  string is sent once, in ``new_paths``, numbered in the order sent, so a
  reply stays a few hundred bytes where the strings would take tens of
  kilobytes. Past :data:`MAX_PATH_NUMBERS` paths the worker numbers them
  anew, from 0, and says so in the reply (``reset_paths``), so the table
  stays bounded over a crawl of many sites. With ``template``
  (the template of the kind the caller expects the page to be of), the page
  is extracted at once, the reply has the ``extraction`` and the tree is
  dropped: one round trip for most pages. A page that matches that template
  is of that kind, so its reply has ``matched`` and no tag paths at all: it
  needs no routing. Without ``template`` the tree is kept under ``id`` for
  an ``extract`` or a ``release``.
* ``extract`` (``id``, ``page``, ``template``, ``url``): extract the kept
  tree ``page`` and forget it; the reply has the ``extraction``.
* ``extract_page`` (``id``, ``url``, ``template``; payload the HTML): parse
  and extract in one go (a page buffered before its template existed).
* ``release`` (``page``): forget a kept tree; no reply.
* ``induce`` (``id``; payload ``{"pages": [{"url", "html"}], "previous",
  "naming"}``): induce a template, and name its fields unless ``naming``
  is null (:class:`Naming`); the reply has the seconds it took and the
  ``shape`` of its items (:meth:`~scrapy_wrapx.induction.item_shape.ItemShape.to_dict`),
  its payload the template's JSON.

An ``extraction`` in a reply is
:func:`~scrapy_wrapx.workers.protocol.extraction_to_dict`'s with its
template: the fields of sets' members are left out, being in ``records``.
A reply carries the request's ``id`` and ``ok``; a failed one has ``error``
(one sentence) and ``reason``: ``page`` for a page that cannot be parsed,
``missing`` for a tree or template this worker no longer holds (then
``missing`` names which: ``tree`` or ``template``; the caller sends the page
or the template again, or does the work itself), ``internal`` for a bug.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import os
import signal
import sys
import threading
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from scrapy_wrapx import dom
from scrapy_wrapx.dom import structure_paths
from scrapy_wrapx.extraction import extract, remembering_matches
from scrapy_wrapx.workers.protocol import (
    PATH_NUMBERS,
    FrameDecoder,
    encode_frame,
    extraction_to_dict,
)

if TYPE_CHECKING:
    from scrapy_wrapx.induction.item_shape import ItemShape
    from scrapy_wrapx.template import Template

#: Garbage collector thresholds of a worker (Python's are 700, 10, 10).
GC_THRESHOLDS = (20_000, 20, 20)
#: Trees kept between a ``page`` and its ``extract``; beyond it the oldest
#: is forgotten (its page, if still wanted, is then extracted by the caller).
MAX_TREES = 64
#: Templates kept by key; beyond it the least recently used is forgotten
#: (its pages are then extracted by the caller). The caller keeps fewer
#: (``WRAPX_ITEMS_TEMPLATE_CACHE``, with ``forget``): this is a safety net.
MAX_TEMPLATES = 1024
#: Tag paths numbered before the numbering starts anew (each site adds its
#: own paths, kept here and in the caller: about 100 bytes each). Starting
#: anew costs the next pages their paths sent in full once.
MAX_PATH_NUMBERS = 4096
#: Inductions between two returns of the C heap's free memory to the system
#: (:func:`release_free_memory`, a few milliseconds each).
TRIM_EVERY = 8


def is_seed_page(page: Any) -> bool:
    """Whether ``page`` (stored or received) is a seed page ``{"url", "html"}``."""
    return (
        isinstance(page, dict)
        and isinstance(page.get("url"), str)
        and isinstance(page.get("html"), str)
    )


@dataclass(frozen=True)
class Naming:
    """What names the fields of an induced template besides its seed pages
    (:func:`~scrapy_wrapx.induction._pagenames.name_template`): the
    spider's targets (name -> XPath) and the user's pinned names."""

    targets: dict[str, str] = field(default_factory=dict)
    pinned: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, dict[str, str]]:
        return {"targets": self.targets, "pinned": self.pinned}

    @classmethod
    def from_dict(cls, data: Any) -> Naming:
        """:class:`ValueError` unless ``data`` is :meth:`to_dict`'s."""
        if not isinstance(data, dict) or not all(
            _strings_by_string(data.get(key)) for key in ("targets", "pinned")
        ):
            raise ValueError(f"Invalid naming for induction: {str(data)[:60]!r}")
        return cls(dict(data["targets"]), dict(data["pinned"]))


def _strings_by_string(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


def induce_pages(
    pages: list[dict[str, Any]], previous: Template | None, naming: Naming | None = None
) -> tuple[Template, float]:
    """Induce a template from seed pages (``{"url", "html"}``), its fields
    named with ``naming`` if given, and the seconds it took: the work of an
    ``induce`` request, and of the induction extension's thread. Naming
    reads the seed pages again: they are parsed once, for both."""
    from scrapy_wrapx.induction import induce_template
    from scrapy_wrapx.induction._pagenames import name_template

    started = time.perf_counter()
    trees = [dom.parse(page["html"], url=page["url"]) for page in pages]
    urls = [page["url"] for page in pages]
    with remembering_matches():  # one match per seed for both
        template = induce_template(trees, urls=urls, previous=previous)
        if naming is not None:
            name_template(template, trees, previous, naming.targets, naming.pinned)
    return template, time.perf_counter() - started


class InducedTemplate(NamedTuple):
    """A template as induction hands it over: its JSON, the shape of its
    items and the seconds it took. A page worker answers an ``induce``
    request with these, so that the crawl's process, which stores the
    template and sends it on to page workers as JSON, never rebuilds it
    from JSON nor encodes it again (each way took milliseconds per
    template, most of what a crawl of many sites spent on its templates)."""

    template_json: str
    shape: ItemShape
    seconds: float

    @classmethod
    def of(cls, template: Template, seconds: float) -> InducedTemplate:
        from scrapy_wrapx.induction.item_shape import item_shape

        return cls(template.to_json(), item_shape(template), seconds)


class _Missing(Exception):
    """A tree or template (``what``) this worker does not hold (any more)."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(message)
        self.what = what


class PageWorker:
    """The state of one worker: kept trees and known templates."""

    def __init__(self) -> None:
        self.trees: OrderedDict[int, dom.PageTree] = OrderedDict()
        self.templates: OrderedDict[str, Template] = OrderedDict()
        #: Number of every tag path sent so far (see ``page`` in the module doc).
        self.path_numbers: dict[str, int] = {}
        #: Inductions done since memory was last released.
        self.inductions = 0

    def handle(self, header: dict[str, Any], payload: bytes) -> dict[str, Any] | None:
        """The reply to one request (None for requests without one)."""
        op = header.get("op")
        if op == "release":
            self.trees.pop(header.get("page"), None)  # type: ignore[arg-type]
            return None
        if op == "forget":
            self.templates.pop(str(header.get("template")), None)
            return None
        reply: dict[str, Any] = {"id": header.get("id"), "ok": True}
        try:
            if op == "template":
                self._remember(str(header.get("template")), payload)
                return None
            answer = self._answers.get(str(op))
            if answer is None:
                raise ValueError(f"Unknown worker request: {op!r}")
            answer(header, payload, reply)
        except _Missing as exc:
            reply.update(ok=False, reason="missing", missing=exc.what, error=str(exc))
        except ValueError as exc:
            reply.update(ok=False, reason="page", error=str(exc))
        except Exception as exc:  # reported to the caller, which does the work itself
            reply.update(ok=False, reason="internal", error=f"{type(exc).__name__}: {exc}")
        # A template that failed to load is missing for the requests using it.
        return None if op == "template" else reply

    @property
    def _answers(self) -> dict[str, Callable[[dict[str, Any], bytes, dict[str, Any]], None]]:
        return {
            "page": self._page,
            "extract": self._extract_kept,
            "extract_page": self._extract_page,
            "induce": self._induce_reply,
        }

    def _extract_kept(self, header: dict[str, Any], payload: bytes, reply: dict[str, Any]) -> None:
        found = self.trees.pop(header.get("page"), None)  # type: ignore[arg-type]
        if found is None:
            raise _Missing("tree", f"No page tree {header.get('page')!r} in this worker")
        reply["extraction"] = self._extract(header, found)

    def _extract_page(self, header: dict[str, Any], payload: bytes, reply: dict[str, Any]) -> None:
        reply["extraction"] = self._extract(header, self._parse(header, payload))

    def _induce_reply(self, header: dict[str, Any], payload: bytes, reply: dict[str, Any]) -> None:
        induced = InducedTemplate.of(*self._induce(payload))
        reply["seconds"], reply["shape"] = induced.seconds, induced.shape.to_dict()
        reply["payload"] = induced.template_json.encode("utf-8")
        self.inductions += 1
        if self.inductions >= TRIM_EVERY:
            self.inductions = 0
            release_free_memory()

    def _remember(self, key: str, payload: bytes) -> None:
        from scrapy_wrapx.template import Template

        self.templates[key] = Template.from_json(payload)
        while len(self.templates) > MAX_TEMPLATES:
            self.templates.popitem(last=False)

    def _template(self, header: dict[str, Any]) -> Template:
        key = str(header.get("template"))
        template = self.templates.get(key)
        if template is None:
            raise _Missing("template", f"No template {key!r} in this worker")
        self.templates.move_to_end(key)
        return template

    @staticmethod
    def _parse(header: dict[str, Any], payload: bytes) -> dom.PageTree:
        url = header.get("url")
        # As the crawl decoded it (a body sent as it came may hold bytes
        # that are not UTF-8: Scrapy replaces them so too).
        html = payload.decode("utf-8", "replace")
        return dom.parse(html, url=url if isinstance(url, str) else None)

    def _extract(self, header: dict[str, Any], tree: dom.PageTree) -> dict[str, Any]:
        template = self._template(header)
        return extraction_to_dict(extract(template, tree, url=tree.url), template)

    def _page(self, header: dict[str, Any], payload: bytes, reply: dict[str, Any]) -> None:
        tree = self._parse(header, payload)
        if header.get("template") is not None:
            try:
                reply["extraction"] = self._extract(header, tree)
            except _Missing:
                pass  # kept for an ``extract``, as without a template
            else:
                if reply["extraction"]["matched"]:
                    reply["matched"] = True
                else:
                    self._paths(tree, reply)
                return
        self._paths(tree, reply)
        self.trees[int(header["id"])] = tree
        while len(self.trees) > MAX_TREES:
            self.trees.popitem(last=False)

    def _paths(self, tree: dom.PageTree, reply: dict[str, Any]) -> None:
        """Put the tag-path set of ``tree`` in ``reply`` (as numbers)."""
        numbers = self.path_numbers
        if len(numbers) >= MAX_PATH_NUMBERS:
            numbers.clear()
            reply["reset_paths"] = True
        new: list[str] = []
        ids = []
        for path in structure_paths(tree):
            number = numbers.get(path)
            if number is None:
                number = numbers[path] = len(numbers)
                new.append(path)
            ids.append(number)
        reply["payload"], reply["new_paths"] = array(PATH_NUMBERS, ids).tobytes(), new

    def _induce(self, payload: bytes) -> tuple[Template, float]:
        from scrapy_wrapx.template import Template

        data = json.loads(payload)
        pages = data.get("pages")
        if not isinstance(pages, list) or not all(is_seed_page(p) for p in pages):
            raise ValueError(f"Invalid seed pages for induction: {str(pages)[:60]!r}")
        previous = data.get("previous")
        naming = data.get("naming")
        return induce_pages(
            pages,
            Template.from_json(previous) if previous else None,
            Naming.from_dict(naming) if naming is not None else None,
        )


def serve(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Answer requests from ``stdin`` on ``stdout`` until ``stdin`` ends."""
    worker = PageWorker()
    decoder = FrameDecoder()
    while True:
        chunk = stdin.read1(1 << 20) if hasattr(stdin, "read1") else stdin.read(1 << 16)
        if not chunk:
            return
        for header, payload in decoder.feed(chunk):
            reply = worker.handle(header, payload)
            if reply is not None:  # at once: the caller awaits it
                stdout.write(encode_frame(reply, reply.pop("payload", b"")))
                stdout.flush()


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # no such C library or function
        return None
    return trim


_MALLOC_TRIM = _malloc_trim()


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system. An induction parses
    its seed pages (lxml's trees live in the C heap) next to templates that
    stay: the freed trees leave holes the allocator keeps, and a worker of
    a crawl over many sites grew by about 10 KB a site until it trimmed
    them (4 KB a site after, the rest Python's own arenas)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


#: Environment variable with the pid of the crawl that spawned the worker.
PARENT_PID_ENV = "WRAPX_WORKER_PARENT_PID"
#: Seconds between two checks that the crawl's process still runs, where the
#: system cannot signal its death.
PARENT_CHECK_INTERVAL = 1.0


def exit_with_parent() -> None:
    """End this worker when the crawl's process ends, even in the middle of a
    page: on Linux the kernel kills it (``PR_SET_PDEATHSIG``); elsewhere a
    thread checks the parent pid every :data:`PARENT_CHECK_INTERVAL`."""
    expected = int(os.environ.get(PARENT_PID_ENV) or 0)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        threading.Thread(target=_watch_parent, args=(expected,), daemon=True).start()
    if expected and os.getppid() != expected:  # it died before we looked
        os._exit(1)


def _watch_parent(expected: int) -> None:
    while not expected or os.getppid() == expected:
        time.sleep(PARENT_CHECK_INTERVAL)
    os._exit(1)


#: ``prctl`` option: the signal this process gets when its parent dies.
PR_SET_PDEATHSIG = 1


def main() -> int:
    exit_with_parent()
    # Page trees go by refcount (their nodes link to parents weakly); the
    # imported modules never are garbage, so they are kept out of the
    # collector's scans, and it runs less often: a worker holds little else.
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the replies
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        serve(sys.stdin.buffer, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
