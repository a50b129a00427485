"""Page workers seen from the crawl: processes spawned on the reactor.

The reactor thread of a crawl is Scrapy's bottleneck: downloading,
scheduling and the spider's own parsing already keep it busy, and in one
process Python runs one thread at a time. So the unsupervised mode hands its
per-page CPU work — the page tree, extraction, induction — to
``WRAPX_ITEMS_WORKERS`` worker processes (:mod:`scrapy_wrapx.workers.worker`)
and awaits the replies, while the crawl goes on. The workers are spawned with
:meth:`reactor.spawnProcess <twisted.internet.interfaces.IReactorProcess.spawnProcess>`,
so the reactor writes requests and reads replies without blocking and
without threads.

A worker that dies, or no longer holds what a request needs, fails the
request with :class:`WorkerUnavailable`; callers then do the work in the
crawl's process, as without workers: no page is lost to a worker.

Pages reach the workers a few at a time (:data:`PAGES_IN_FLIGHT` each); the
others wait in the crawl's process, in order. A crawl receives pages faster
than one worker parses them, and pages written at once would queue in the
worker's pipe by the hundred: an ``extract`` of a kept tree, or an
``induce``, would wait behind all of them, the worker would drop the trees
it keeps before their ``extract`` came (and the crawl's process would parse
those pages again itself), and deadlines would run out in the queue.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import logging
import os
import sys
import weakref
from array import array
from collections import OrderedDict, deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

from scrapy import signals
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import abstract, defer, error, main, protocol
from twisted.python import failure

from scrapy_wrapx.induction.item_shape import ItemShape
from scrapy_wrapx.settings import wrapx_setting
from scrapy_wrapx.template import Template
from scrapy_wrapx.workers.protocol import (
    PATH_NUMBERS,
    FrameDecoder,
    extraction_from_dict,
    frame_parts,
)
from scrapy_wrapx.workers.worker import PARENT_PID_ENV, InducedTemplate, Naming

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler
    from twisted.internet.defer import Deferred
    from twisted.python.failure import Failure

    from scrapy_wrapx.template import Extraction

logger = logging.getLogger(__name__)

#: Bytes each pipe to a worker holds, where the system lets it be set.
PIPE_SIZE = 1 << 20
#: Seconds a worker gets to exit after its stdin closes, before it is killed.
EXIT_TIMEOUT = 5.0
#: Page requests (``page``, ``extract_page``) a worker has at once: enough
#: that it never waits for the crawl's next page, few enough that the other
#: requests wait behind little (see the module doc). Under the worker's own
#: cap of kept trees (:data:`~scrapy_wrapx.workers.worker.MAX_TREES`).
PAGES_IN_FLIGHT = 8


class TemplateSource(Protocol):
    """A template as the pool can send it without the template object: a
    key that names its content, and its JSON
    (:class:`~scrapy_wrapx.unsupervised.templates.TemplateHandle`)."""

    @property
    def key(self) -> str: ...

    def template_json(self) -> bytes: ...


class WorkerUnavailable(Exception):
    """A worker cannot answer (it died, or dropped the tree or template the
    request needs): the caller does the work itself."""


class TreeMissing(WorkerUnavailable):
    """The worker no longer keeps the page's tree (it keeps a bounded
    number): the page can still be parsed and extracted in a worker."""


class WorkerTimeout(ValueError):
    """A request took longer than the pool's deadline: its page is given up
    (a :class:`ValueError`, like a page that cannot be parsed), not redone
    in the crawl's process, where it would block the crawl."""


@dataclass(frozen=True)
class WorkerPage:
    """A page parsed in a worker: its tag-path set, and either its
    extraction with the template it was expected to need (sent to the
    worker under ``template_key``) or, when ``extraction`` is None, the
    worker's number for its kept tree. A page that matched that template
    has no tag paths (None): it is of the template's kind and needs no
    routing."""

    paths: frozenset[str] | None
    worker: _WorkerProtocol
    page_id: int
    extraction: Extraction | None = None
    template_key: str | None = None


class _Pipe(abstract.FileDescriptor):
    """One end of a pipe to a worker, on the reactor.

    Twisted's own process pipes move at most 8 KiB in and 128 KiB out per
    turn of the reactor, and a busy crawl's reactor turns slowly: pages (tens
    of kilobytes each) would queue here while the worker idles. These ends
    read up to :data:`PIPE_SIZE` per turn, and write at once: only what the
    pipe has no room for waits for the reactor (a Twisted transport writes
    everything on the reactor's next turn, tens of milliseconds later when
    it is busy, and every page would wait that long before its work starts).
    """

    def __init__(self, fd: int, worker: _WorkerProtocol) -> None:
        super().__init__(_reactor())
        self.fd = fd
        self.worker = worker
        self.connected = 1
        self._outgoing: deque[memoryview] = deque()
        os.set_blocking(fd, False)

    def fileno(self) -> int:
        return self.fd

    def write(self, data: bytes) -> None:
        self.write_parts([data])

    def write_parts(self, parts: list[bytes]) -> None:
        """Write ``parts`` one after the other, as they are (a page is not
        copied into one frame first)."""
        if not self.connected or self.disconnecting:
            return
        idle = not self._outgoing
        self._outgoing.extend(memoryview(part) for part in parts if part)
        if idle and self._outgoing:
            lost = self.doWrite()
            if lost is not None:
                self.connectionLost(failure.Failure(lost))  # type: ignore[no-untyped-call]

    def doWrite(self) -> Any:
        """Write what waits until the pipe is full (the reactor calls again
        when it has room) or all is written."""
        outgoing = self._outgoing
        while outgoing:
            try:
                written = _write(self.fd, outgoing)
            except BlockingIOError:
                written = 0
            except OSError:
                return main.CONNECTION_LOST
            while written and written >= len(outgoing[0]):
                written -= len(outgoing.popleft())
            if written:
                outgoing[0] = outgoing[0][written:]
            if outgoing:
                self.startWriting()  # type: ignore[no-untyped-call]
                return None
        self.stopWriting()  # type: ignore[no-untyped-call]
        return main.CONNECTION_DONE if self.disconnecting else None

    def doRead(self) -> Any:
        try:
            data = os.read(self.fd, PIPE_SIZE)
        except BlockingIOError:
            return None
        except OSError:
            return main.CONNECTION_LOST
        if not data:
            return main.CONNECTION_DONE
        self.worker.received(data)
        return None

    def connectionLost(self, reason: Failure) -> None:
        super().connectionLost(reason)  # type: ignore[no-untyped-call]
        with contextlib.suppress(OSError):
            os.close(self.fd)
        self.worker.pipe_lost()


class _WorkerProtocol(protocol.ProcessProtocol):
    """One worker process: requests out on its stdin, replies in on its
    stdout, both through :class:`_Pipe` ends."""

    def __init__(self, pool: WorkerPool, number: int) -> None:
        self.pool = pool
        self.number = number
        self.decoder = FrameDecoder()
        self.waiting: dict[int, Deferred[dict[str, Any]]] = {}
        #: Template keys this worker holds, least recently used first: past
        #: the pool's ``max_templates`` the first is forgotten here and there.
        self.templates: OrderedDict[str, None] = OrderedDict()
        #: Page requests sent and not answered (see :data:`PAGES_IN_FLIGHT`).
        self.pages = 0
        #: Tag paths by the numbers this worker gave them.
        self.paths: list[str] = []
        self.alive = True
        #: Page requests sent to it in all (see :attr:`WorkerPool.max_pages`).
        self.served = 0
        #: Replaced after :attr:`WorkerPool.max_pages`: it takes no new
        #: requests and exits once it has answered the ones it has.
        self.retiring = False
        #: Its stdin is closed: nothing more can be sent to it.
        self.closed = False
        self.ended: Deferred[None] = defer.Deferred()
        self.requests: _Pipe | None = None
        self.replies: _Pipe | None = None

    def spawn(self, executable: str, args: list[str], env: dict[str, str]) -> None:
        """Start the worker process with pipes of our own on its stdin/stdout."""
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        try:
            _reactor().spawnProcess(
                self, executable, args, env=env, childFDs={0: stdin_read, 1: stdout_write, 2: 2}
            )
        except BaseException:
            for fd in (stdin_write, stdout_read):
                os.close(fd)
            raise
        finally:
            for fd in (stdin_read, stdout_write):
                os.close(fd)
        for fd in (stdin_write, stdout_read):
            _widen_pipe(fd)
        self.requests = _Pipe(stdin_write, self)
        self.replies = _Pipe(stdout_read, self)
        self.replies.startReading()  # type: ignore[no-untyped-call]

    def request(self, header: dict[str, Any], payload: bytes = b"") -> Deferred[dict[str, Any]]:
        """Send a request; fires with the reply header, its payload under
        ``"payload"`` (or fails with :class:`WorkerUnavailable`, or with
        :class:`WorkerTimeout` past the pool's deadline)."""
        if not self.alive or self.requests is None or self.closed:
            return defer.fail(WorkerUnavailable(f"Page worker {self.number} is not running"))
        request_id = header["id"] = self.pool.next_id()
        reply: Deferred[dict[str, Any]] = defer.Deferred()
        self.waiting[request_id] = reply
        if self.pool.timeout:
            timer = _reactor().callLater(self.pool.timeout, self._expire, request_id, header)
            reply.addBoth(_cancel, timer)
        self.requests.write_parts(frame_parts(header, payload))
        return reply

    def _expire(self, request_id: int, header: dict[str, Any]) -> None:
        """The deadline of a request passed: fail it, and stop this worker
        (it is stuck on the page), which the pool replaces."""
        reply = self.waiting.pop(request_id, None)
        if reply is None:
            return
        what = header.get("url") or header.get("op")
        logger.warning(
            "Page worker %d spent over %gs on %s; giving it up and replacing the worker",
            self.number,
            self.pool.timeout,
            what,
        )
        self.pool.timeouts += 1
        self.pool.replace(self)
        reply.errback(WorkerTimeout(f"Over {self.pool.timeout:g}s in a page worker: {what}"))

    def number_paths(self, reply: dict[str, Any]) -> None:
        """Learn the numbers of the tag paths a ``page`` reply sends first."""
        new = reply.get("new_paths") or []
        if not isinstance(new, list) or not all(isinstance(p, str) for p in new):
            raise WorkerUnavailable(f"Page worker sent invalid tag paths: {new!r:.60}")
        if reply.get("reset_paths"):
            self.paths.clear()  # the worker numbers paths anew from here
        self.paths.extend(new)

    def notify(self, header: dict[str, Any], payload: bytes = b"") -> None:
        """Send a request that has no reply."""
        if self.alive and self.requests is not None and not self.closed:
            self.requests.write_parts(frame_parts(header, payload))

    def received(self, data: bytes) -> None:
        try:
            messages = self.decoder.feed(data)
        except ValueError as exc:
            logger.error("Page worker %d sent garbage (%s); stopping it", self.number, exc)
            self._lost()
            self.kill()
            return
        for header, payload in messages:
            reply = self.waiting.pop(header.get("id"), None)  # type: ignore[arg-type]
            if reply is not None:
                header["payload"] = payload
                reply.callback(header)
        if self.retiring and not self.waiting:
            self.close()  # all answered: it exits

    def pipe_lost(self) -> None:
        # The replies pipe closes when the worker exits; unlike processEnded,
        # this does not depend on the reactor handling SIGCHLD.
        self.processEnded(None)

    def processEnded(self, reason: Failure | None) -> None:
        self._lost()
        if not self.ended.called:
            self.ended.callback(None)

    def close(self) -> None:
        """Close the worker's stdin: it exits once it has answered."""
        self.closed = True
        if self.requests is not None:
            self.requests.loseConnection()  # type: ignore[no-untyped-call]

    def _lost(self) -> None:
        # A replaced worker that exits having answered all it was sent is
        # no loss; one that dies with requests still waiting is.
        if self.alive and not self.pool.closing and (self.waiting or not self.retiring):
            logger.warning(
                "Page worker %d stopped; its pages are processed in the crawl's process",
                self.number,
            )
        self.alive = False
        waiting, self.waiting = self.waiting, {}
        for reply in waiting.values():
            reply.errback(WorkerUnavailable(f"Page worker {self.number} stopped"))
        for pipe in (self.requests, self.replies):
            if pipe is not None and pipe.connected:
                pipe.loseConnection()  # type: ignore[no-untyped-call]

    def kill(self) -> None:
        transport: Any = self.transport
        if transport is not None:
            with contextlib.suppress(error.ProcessExitedAlready):
                transport.signalProcess("KILL")


class WorkerPool:
    """``size`` page workers (:mod:`scrapy_wrapx.workers.worker`), each request
    going to the one with the fewest requests waiting.

    The methods return Deferreds; every failure other than a page that
    cannot be parsed (:class:`ValueError`) is :class:`WorkerUnavailable`.
    """

    def __init__(
        self,
        size: int,
        timeout: float = 0.0,
        max_templates: int = 32,
        backlog: int = 32,
        max_pages: int = 0,
    ) -> None:
        if size < 1:
            raise ValueError(f"A worker pool needs at least one worker, not {size!r}")
        if timeout < 0:
            raise ValueError(f"A worker deadline cannot be negative: {timeout!r}")
        self.size = size
        #: Seconds a request may take (0: no deadline).
        self.timeout = timeout
        #: Templates each worker holds (``WRAPX_ITEMS_TEMPLATE_CACHE``).
        self.max_templates = max(1, max_templates)
        #: Page requests that may wait before :meth:`room` makes callers
        #: wait (``WRAPX_ITEMS_WORKER_BACKLOG``).
        self.backlog = max(1, backlog)
        #: Page requests after which a worker is replaced by a fresh one
        #: (``WRAPX_ITEMS_WORKER_MAX_PAGES``; 0: never).
        self.max_pages = max(0, max_pages)
        self._room_waiters: list[Deferred[None]] = []
        self._dispatching = self._dispatch_again = False
        #: Requests given up at their deadline so far.
        self.timeouts = 0
        #: Workers replaced after :attr:`max_pages` so far.
        self.recycled = 0
        self.workers: list[_WorkerProtocol] = []
        self.closing = False
        #: Page requests waiting for a worker with room: what sends one to
        #: a given worker, and what fires with its outcome.
        self._queued: deque[tuple[Callable[[_WorkerProtocol], Deferred[Any]], Deferred[Any]]] = (
            deque()
        )
        self._ids = 0
        self._template_keys: weakref.WeakKeyDictionary[Template, tuple[str, bytes]] = (
            weakref.WeakKeyDictionary()
        )

    def start(self) -> None:
        """Spawn the workers (the reactor must be running or about to)."""
        if not sys.executable:
            raise WorkerUnavailable("No Python executable to run page workers with")
        for number in range(self.size):
            self.workers.append(self._spawn(number))

    def _spawn(self, number: int) -> _WorkerProtocol:
        env = dict(os.environ)
        # The workers import this very package, wherever it was imported from.
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        env[PARENT_PID_ENV] = str(os.getpid())
        worker = _WorkerProtocol(self, number)
        worker.spawn(sys.executable, [sys.executable, "-m", "scrapy_wrapx.workers.worker"], env)
        return worker

    def replace(self, worker: _WorkerProtocol) -> None:
        """Kill ``worker`` and start a new one in its place: its other
        requests fail over to the crawl's process, new ones go to the new
        worker."""
        worker.kill()
        worker._lost()
        if self.closing or worker not in self.workers:
            return
        try:
            fresh = self._spawn(worker.number)
        except (OSError, NotImplementedError) as exc:
            logger.warning("Cannot start a page worker in place of a stuck one: %s", exc)
            return
        self.workers[self.workers.index(worker)] = fresh
        self._dispatch()

    def _retire(self, worker: _WorkerProtocol) -> None:
        """Replace ``worker`` by a fresh process after :attr:`max_pages`:
        whatever a long crawl left in a worker's memory (Python's arenas
        keep the space of freed objects) goes with it. It takes no new page
        or induction and exits once it has answered what it has (an
        extraction of a tree it kept, asked meanwhile, included); the fresh
        one starts then, so that the two never hold their memory at once
        (page requests meanwhile wait in the queue; an induction asked in
        that moment runs in the crawl's process, as with no worker). The
        trees it kept are parsed again after (see :meth:`extract`)."""
        if worker not in self.workers:
            return
        worker.retiring = True
        self.recycled += 1
        worker.ended.addBoth(self._replace_retired, worker)
        if not worker.waiting:
            worker.close()

    def _replace_retired(self, result: Any, worker: _WorkerProtocol) -> Any:
        """Start a fresh worker in the place of ``worker``, which exited."""
        if not self.closing and worker in self.workers:
            try:
                self.workers[self.workers.index(worker)] = self._spawn(worker.number)
            except (OSError, NotImplementedError) as exc:
                logger.warning("Cannot start a page worker to replace one: %s", exc)
            self._dispatch()
        return result

    @property
    def running(self) -> bool:
        return not self.closing and any(worker.alive for worker in self.workers)

    def next_id(self) -> int:
        self._ids += 1
        return self._ids

    def _alive(self) -> list[_WorkerProtocol]:
        """The workers that can take a request: none once closing."""
        if self.closing:
            return []
        return [worker for worker in self.workers if worker.alive and not worker.retiring]

    def _pick(self) -> _WorkerProtocol | None:
        alive = self._alive()
        return min(alive, key=lambda worker: len(worker.waiting)) if alive else None

    def _page_request(self, send: Callable[[_WorkerProtocol], Deferred[Any]]) -> Deferred[Any]:
        """``send`` a page request to the first worker with room (see
        :data:`PAGES_IN_FLIGHT`); fires with its outcome."""
        if not self.running:
            return defer.fail(WorkerUnavailable("No page worker is running"))
        outcome: Deferred[Any] = defer.Deferred()
        self._queued.append((send, outcome))
        self._dispatch()
        return outcome

    def room(self) -> Deferred[None] | None:
        """None while fewer than :attr:`backlog` page requests wait for a
        worker, else a Deferred that fires once fewer do."""
        if len(self._queued) < self.backlog:
            return None
        waiter: Deferred[None] = defer.Deferred()
        self._room_waiters.append(waiter)
        return waiter

    def _dispatch(self) -> None:
        """Send waiting page requests to the workers that have room; fail
        them all when no worker runs any more. A request answered at once
        (a failure) dispatches again from within: that call only marks the
        loop here to go round once more, so the stack stays flat."""
        if self._dispatching:
            self._dispatch_again = True
            return
        self._dispatching = True
        try:
            self._dispatch_again = True
            while self._dispatch_again:
                self._dispatch_again = False
                self._send_queued()
        finally:
            self._dispatching = False

    def _send_queued(self) -> None:
        queued = self._queued
        while queued:
            alive = self._alive()
            if not alive:
                if not self.closing and any(w.retiring and w.alive for w in self.workers):
                    break  # a fresh worker starts once the retiring one exits
                while queued:
                    queued.popleft()[1].errback(WorkerUnavailable("No page worker is running"))
                break
            free = [w for w in alive if w.pages < PAGES_IN_FLIGHT]
            if not free:
                break
            worker = min(free, key=lambda w: len(w.waiting))
            send, outcome = queued.popleft()
            worker.pages += 1
            worker.served += 1
            sent = send(worker)
            sent.addBoth(self._page_answered, worker)
            sent.chainDeferred(outcome)
            if self.max_pages and worker.served >= self.max_pages:
                self._retire(worker)
        if self._room_waiters and len(queued) < self.backlog:
            waiters, self._room_waiters = self._room_waiters, []
            for waiter in waiters:
                waiter.callback(None)

    def _page_answered(self, result: Any, worker: _WorkerProtocol) -> Any:
        worker.pages -= 1
        self._dispatch()
        return result

    # Requests -------------------------------------------------------------

    def parse(
        self, url: str, html: str | bytes, template: Template | TemplateSource | None = None
    ) -> Deferred[WorkerPage]:
        """Parse a page in a worker (``html`` as text, or as UTF-8, sent as
        it is). With ``template`` the page is extracted with it too;
        otherwise the worker keeps the tree for :meth:`extract` or
        :meth:`release`."""
        return self._page_request(lambda worker: self._parse_on(worker, url, html, template))

    def _parse_on(
        self,
        worker: _WorkerProtocol,
        url: str,
        html: str | bytes,
        template: Template | TemplateSource | None,
    ) -> Deferred[WorkerPage]:
        header: dict[str, Any] = {"op": "page", "url": url}
        key = None
        if template is not None:
            key = header["template"] = self._send_template(worker, template)
        request = worker.request(header, html if isinstance(html, bytes) else html.encode("utf-8"))

        def parsed(reply: dict[str, Any]) -> WorkerPage:
            # New paths are numbered even when the page failed later on.
            worker.number_paths(reply)
            _check(reply)
            extraction = None
            if template is not None and "extraction" in reply:
                extraction = _extraction(reply)
            if reply.get("matched"):
                if extraction is None or not extraction.matched:
                    raise WorkerUnavailable(
                        "Page worker sent no tag paths for a page it did not match"
                    )
                return WorkerPage(None, worker, int(reply["id"]), extraction, key)
            numbers = array(PATH_NUMBERS)
            try:
                numbers.frombytes(reply["payload"])
            except (KeyError, ValueError) as exc:
                raise WorkerUnavailable(f"Page worker sent invalid tag paths: {exc}") from exc
            paths = worker.paths
            if numbers and max(numbers) >= len(paths):
                raise WorkerUnavailable(f"Page worker sent unknown tag paths: {max(numbers)!r}")
            return WorkerPage(
                frozenset([paths[n] for n in numbers]),
                worker,
                int(reply["id"]),
                extraction,
                key if extraction is not None else None,
            )

        return request.addCallback(parsed)

    def extract(
        self, page: WorkerPage, template: Template | TemplateSource
    ) -> Deferred[Extraction]:
        """Extract a page whose tree the worker kept; it forgets the tree.
        A worker that stopped or was replaced has lost it
        (:class:`TreeMissing`: parse the page again)."""
        worker = page.worker
        if not worker.alive or worker.closed:
            return defer.fail(TreeMissing(f"Page worker {worker.number} kept the tree no more"))
        key = self._send_template(worker, template)
        request = worker.request({"op": "extract", "page": page.page_id, "template": key})
        return request.addCallback(_extraction, worker, key)

    def extract_html(
        self, url: str, html: str, template: Template | TemplateSource
    ) -> Deferred[Extraction]:
        """Parse and extract a page in one request (a buffered page, or one
        whose kept tree the worker dropped)."""

        def send(worker: _WorkerProtocol) -> Deferred[Extraction]:
            key = self._send_template(worker, template)
            request = worker.request(
                {"op": "extract_page", "url": url, "template": key}, html.encode("utf-8")
            )
            return request.addCallback(_extraction, worker, key)

        return self._page_request(send)

    def release(self, page: WorkerPage) -> None:
        """The tree of ``page`` is not needed any more."""
        if page.extraction is None:
            page.worker.notify({"op": "release", "page": page.page_id})

    def induce(
        self, pages: list[dict[str, Any]], previous: Template | None, naming: Naming | None = None
    ) -> Deferred[InducedTemplate]:
        """Induce a template in a worker, its fields named with ``naming``
        if given; fires with it as JSON, its items' shape and its seconds
        (the template is not rebuilt here: see :class:`InducedTemplate`)."""
        worker = self._pick()
        if worker is None:
            return defer.fail(WorkerUnavailable("No page worker is running"))
        payload = {
            "pages": [{"url": p["url"], "html": p["html"]} for p in pages],
            "previous": previous.to_json() if previous is not None else None,
            "naming": naming.to_dict() if naming is not None else None,
        }
        request = worker.request(
            {"op": "induce"}, json.dumps(payload, ensure_ascii=False).encode("utf-8")
        )

        def induced(reply: dict[str, Any]) -> InducedTemplate:
            _check(reply)
            seconds = reply.get("seconds")
            if not isinstance(seconds, (int, float)):
                raise WorkerUnavailable(f"Page worker sent invalid seconds: {seconds!r}")
            try:
                shape = ItemShape.from_dict(reply.get("shape"))
                body = bytes(reply.get("payload", b"")).decode("utf-8")
            except (ValueError, TypeError) as exc:
                raise WorkerUnavailable(f"Page worker sent an invalid template: {exc}") from exc
            if not body:
                raise WorkerUnavailable("Page worker sent no template")
            return InducedTemplate(body, shape, float(seconds))

        return request.addCallback(induced)

    def _send_template(self, worker: _WorkerProtocol, template: Template | TemplateSource) -> str:
        """The key of ``template``, sent to ``worker`` unless it has it: a
        source's own key, else a digest of the template's JSON."""
        body: bytes | None = None
        if isinstance(template, Template):
            known = self._template_keys.get(template)
            if known is None:
                body = template.to_json().encode("utf-8")
                known = self._template_keys[template] = (hashlib.sha1(body).hexdigest()[:16], body)
            key, body = known
        else:
            key = template.key
        if key in worker.templates:
            worker.templates.move_to_end(key)
            return key
        if body is None:
            assert not isinstance(template, Template)
            body = template.template_json()
        worker.templates[key] = None
        worker.notify({"op": "template", "template": key}, body)
        while len(worker.templates) > self.max_templates:
            # Requests sent before still find it: the worker reads in order.
            dropped, _ = worker.templates.popitem(last=False)
            worker.notify({"op": "forget", "template": dropped})
        return key

    # Shutdown -------------------------------------------------------------

    def close(self) -> Deferred[list[Any]]:
        """Close the workers' stdin (they exit), killing any that lingers
        after :data:`EXIT_TIMEOUT` seconds; fires once all have ended."""
        reactor = _reactor()
        self.closing = True
        self._dispatch()  # fails what still waits
        ended: list[Deferred[None]] = []
        for worker in self.workers:
            if not worker.ended.called:
                worker.close()
                timer = reactor.callLater(EXIT_TIMEOUT, worker.kill)
                worker.ended.addBoth(_cancel, timer)
                ended.append(worker.ended)
            worker._lost()
        return defer.DeferredList(ended)


#: Most buffers one ``writev`` takes (POSIX guarantees 16).
_WRITEV_BUFFERS = 16


def _write(fd: int, chunks: deque[memoryview]) -> int:
    """Write the first ``chunks`` to ``fd`` in one system call where the
    system has ``writev``; the bytes written."""
    if len(chunks) > 1 and hasattr(os, "writev"):
        return os.writev(fd, list(itertools.islice(chunks, _WRITEV_BUFFERS)))
    return os.write(fd, chunks[0])


def _reactor() -> Any:
    # The installed reactor; Any, as zope interfaces defeat mypy.
    from twisted.internet import reactor

    return reactor


def _cancel(result: Any, timer: Any) -> Any:
    if timer.active():
        timer.cancel()
    return result


def _widen_pipe(fd: int) -> None:
    """Let a page (tens of kilobytes) pass through the pipe in one write,
    where Linux' default pipe holds 64 KiB (a no-op elsewhere)."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if set_size is not None:
        # Beyond the system's limit it fails: the default works, a bit slower.
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, set_size, PIPE_SIZE)


def _check(reply: dict[str, Any]) -> None:
    if reply.get("ok"):
        return
    message = str(reply.get("error") or "unknown error")
    if reply.get("reason") == "page":
        raise ValueError(message)
    if reply.get("reason") == "internal":
        logger.error("Page worker failed: %s", message)
    raise WorkerUnavailable(message)


def _extraction(
    reply: dict[str, Any], worker: _WorkerProtocol | None = None, key: str = ""
) -> Extraction:
    if worker is not None and reply.get("reason") == "missing":
        if reply.get("missing") == "tree":
            raise TreeMissing(str(reply.get("error")))
        worker.templates.pop(key, None)  # maybe dropped: send it again next time
    _check(reply)
    try:
        return extraction_from_dict(reply.get("extraction"))
    except ValueError as exc:
        raise WorkerUnavailable(str(exc)) from exc


# One pool per crawl ---------------------------------------------------------

_POOLS: weakref.WeakKeyDictionary[Crawler, WorkerPool] = weakref.WeakKeyDictionary()


def crawler_workers(crawler: Crawler) -> WorkerPool | None:
    """The page workers of ``crawler`` (``WRAPX_ITEMS_WORKERS`` of them),
    spawned on first use and closed when the engine stops; None when the
    setting is 0 or workers cannot be spawned."""
    pool = _POOLS.get(crawler)
    if pool is not None:
        return pool if pool.running else None
    size = wrapx_setting(crawler.settings, "WRAPX_ITEMS_WORKERS")
    if size <= 0:
        return None
    pool = WorkerPool(
        size,
        wrapx_setting(crawler.settings, "WRAPX_ITEMS_WORKER_TIMEOUT"),
        wrapx_setting(crawler.settings, "WRAPX_ITEMS_TEMPLATE_CACHE"),
        wrapx_setting(crawler.settings, "WRAPX_ITEMS_WORKER_BACKLOG"),
        wrapx_setting(crawler.settings, "WRAPX_ITEMS_WORKER_MAX_PAGES"),
    )
    try:
        pool.start()
    except (OSError, WorkerUnavailable, NotImplementedError) as exc:
        logger.warning("Cannot start page workers (%s); working in the crawl's process", exc)
        return None
    _POOLS[crawler] = pool

    async def close_pool() -> None:
        _POOLS.pop(crawler, None)
        if pool.timeouts and crawler.stats is not None:
            crawler.stats.set_value("wrapx/workers/timeout_count", pool.timeouts)
        if pool.recycled and crawler.stats is not None:
            crawler.stats.set_value("wrapx/workers/recycled_count", pool.recycled)
        await maybe_deferred_to_future(pool.close())

    crawler.signals.connect(close_pool, signal=signals.engine_stopped, weak=False)
    return pool


def running_workers(crawler: Crawler) -> WorkerPool | None:
    """The page workers of ``crawler`` if some component started them."""
    pool = _POOLS.get(crawler)
    return pool if pool is not None and pool.running else None
