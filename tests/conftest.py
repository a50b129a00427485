"""Shared fixtures: the demo bookstore, as pages and as a live HTTP site.

``demo_server`` runs ``python -m scrapy_wrapx.demo serve --port 0`` in a
subprocess for the whole session, the way Scrapy's ``tests/mockserver``
does: the crawl under test and the server do not share a process, a
reactor or a GIL, and the server's command line is exercised too.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urljoin

import pytest

from scrapy_wrapx.demo import DemoSite, build_site
from scrapy_wrapx.demo.server import REDESIGN_PREFIX


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
