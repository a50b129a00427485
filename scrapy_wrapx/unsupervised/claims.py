"""Induction claims: which process induces a template, and when a claim is
dead and may be taken over.

Before inducing, a process adds a claim to the store (an atomic ``add``)
naming its host and pid and the time; the others wait for the template. A
claim is taken over at once when its owner is a process of this host that
no longer runs, or when its time is not a finite, past number; otherwise
once it is older than ``WRAPX_INDUCTION_CLAIM_TIMEOUT`` seconds (an owner on
another host cannot be checked).
"""

from __future__ import annotations

import math
import os
import socket
import time
from typing import Any

#: Seconds a claim's time may lie ahead of this host's clock (clock skew
#: between hosts) before it counts as invalid.
CLOCK_SKEW = 60.0


def new_claim() -> dict[str, Any]:
    """A claim owned by this process, made now."""
    host, pid = socket.gethostname(), os.getpid()
    return {"owner": f"{host}:{pid}", "host": host, "pid": pid, "at": time.time()}


def dead_claim_reason(claim: Any, timeout: float, now: float | None = None) -> str | None:
    """Why ``claim`` may be taken over (``unreadable``, ``invalid time``,
    ``owner process gone``, ``stale``), or None while its owner may still
    be inducing."""
    now = time.time() if now is None else now
    if not isinstance(claim, dict):
        return "unreadable"
    at = claim.get("at")
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at):
        return "invalid time"
    if at > now + CLOCK_SKEW:
        return "invalid time"
    if _owner_gone(claim):
        return "owner process gone"
    if now - at > timeout:
        return "stale"
    return None


def _owner_gone(claim: dict[str, Any]) -> bool:
    """Whether the claim's owner is a process of this host that has ended."""
    pid = claim.get("pid")
    if claim.get("host") != socket.gethostname() or isinstance(pid, bool):
        return False
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # e.g. another user's process: it exists
        return False
    return False
