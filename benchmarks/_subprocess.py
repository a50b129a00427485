"""Benchmark steps that run in a fresh process (a crawl: Twisted's reactor
starts once per process), reporting JSON on their last line of output."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

__all__ = ["run_json"]


def run_json(module: str, *args: str) -> dict[str, Any]:
    """Run ``python -m module *args``; the JSON object it printed last."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"{module} {args[:1]} failed ({done.returncode}): {done.stderr[-2000:]!r}"
        )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result
