"""Shared fixtures: the demo bookstore, as pages and as a live HTTP site,
and a real redis-server.

``demo_server`` runs ``python -m scrapy_wrapx.demo serve --port 0`` in a
subprocess for the whole session, the way Scrapy's ``tests/mockserver``
does: the crawl under test and the server do not share a process, a
reactor or a GIL, and the server's command line is exercised too.
``redis_url`` starts one throwaway ``redis-server`` on 127.0.0.1 for the
session; tests keep apart by key prefix.

Property tests draw the same examples on every run (the ``deterministic``
Hypothesis profile): a rare failing example found by chance would fail one
CI run in many and pass the next. ``pytest --hypothesis-profile=explore``
draws new ones, to look for such examples on purpose.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urljoin

import pytest
from hypothesis import settings

from scrapy_wrapx.demo import DemoSite, build_site
from scrapy_wrapx.demo.server import REDESIGN_PREFIX

settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile("deterministic")


@dataclass(frozen=True)
class DemoEndpoint:
    """Where the session's demo server listens; ``url`` ends with ``/``."""

    url: str

    def urljoin(self, path: str) -> str:
        """Absolute URL of a site path such as ``/catalogue/page-1.html``."""
        return urljoin(self.url, path.lstrip("/"))

    def v2(self, path: str) -> str:
        """Absolute URL of a path of the redesigned site."""
        return self.urljoin(REDESIGN_PREFIX + path)


@pytest.fixture(scope="session")
def demo_server() -> Iterator[DemoEndpoint]:
    """The default demo site (``build_site(0)``, original under ``/``,
    redesign under ``/v2/``) served on a free port of 127.0.0.1."""
    process = subprocess.Popen(
        [sys.executable, "-u", "-m", "scrapy_wrapx.demo", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if not line.startswith("http://"):
        process.kill()
        process.wait()
        raise RuntimeError(f"Demo server did not start, it printed {line!r}")
    try:
        yield DemoEndpoint(line)
    finally:
        process.terminate()
        process.wait(timeout=10)
        process.stdout.close()


@pytest.fixture(scope="session")
def demo_site() -> DemoSite:
    """The pages ``demo_server`` serves under ``/`` (do not mutate)."""
    return build_site(0)


@pytest.fixture(scope="session")
def demo_site_v2() -> DemoSite:
    """The redesigned pages ``demo_server`` serves under ``/v2/``."""
    return build_site(0, redesigned=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A throwaway redis-server on 127.0.0.1, without persistence; the
    tests are skipped when the binary is missing (``.ci/ensure-redis``
    installs it, and CI runs that first)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (.ci/ensure-redis installs it)")
    import redis

    port = _free_port()
    workdir = tmp_path_factory.mktemp("redis")
    # No persistence: nothing is saved, the data dir is a temporary one.
    options = ["--save", "", "--appendonly", "no", "--dir", str(workdir)]
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(host="127.0.0.1", port=port)
    deadline = time.monotonic() + 10
    try:
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on port {port!r}") from None
                time.sleep(0.05)
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
