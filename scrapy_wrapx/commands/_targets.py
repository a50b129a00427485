"""``scrapy wrapx targets``: what the targets middleware learnt, and undoing it.

Each target's state lives in the store's ``targets`` namespace under
``<spider>/<field>`` (:class:`~scrapy_wrapx.locate.repair.TargetState`)::

    scrapy wrapx targets                        # every spider's targets
    scrapy wrapx targets --undo SPIDER FIELD    # undo the last repair
    scrapy wrapx targets --reset SPIDER FIELD   # forget all it learnt

A repair that went wrong is undone from its history; a reset makes the next
crawl start the target afresh from the spider's declaration.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from scrapy_wrapx.locate.repair import TargetState

if TYPE_CHECKING:
    from scrapy_wrapx.store import WrapxStore

__all__ = ["reset_target", "run_targets", "target_lines", "undo_repair"]

#: The store namespace of target states (the targets middleware's).
NAMESPACE = "targets"


def target_lines(store: WrapxStore) -> list[str]:
    """One block per stored target: its selectors, repairs and counts."""
    lines: list[str] = []
    for key in sorted(store.keys(NAMESPACE)):
        try:
            state = TargetState.from_dict(store.get(NAMESPACE, key))
        except ValueError as exc:
            lines.append(f"{key}\tunreadable: {exc}")
            continue
        lines.extend(_describe(key, state))
    return lines


def _describe(key: str, state: TargetState) -> list[str]:
    """The lines of one target."""
    repaired = state.selector if state.history else None
    reference = state.reference or {}
    members = len(reference.get("targets") or []) if isinstance(reference, dict) else 0
    lines = [
        key,
        f"  selector: {state.declared!r}",
        f"  repaired selector: {repaired!r}",
        f"  counts: {len(state.history)} repairs, relocation streak {state.streak}, "
        f"reference with {members} nodes, {len(state.alternates)} alternates",
    ]
    lines.extend(
        f"  history: {entry.get('selector')!r} -> {entry.get('replaced_by')!r}"
        f" at {_when(entry.get('at'))}"
        for entry in state.history
    )
    return lines


def _when(at: Any) -> str:
    if not isinstance(at, (int, float)):
        return "?"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


def _load(store: WrapxStore, spider: str, field: str) -> tuple[str, TargetState]:
    key = f"{spider}/{field}"
    stored = store.get(NAMESPACE, key)
    if stored is None:
        raise ValueError(f"No stored target {key!r}")
    return key, TargetState.from_dict(stored)


def undo_repair(store: WrapxStore, spider: str, field: str) -> str:
    """Undo the last repair of a target; what was done, in one line."""
    key, state = _load(store, spider, field)
    replaced = state.selector
    restored = state.undo_repair()
    if restored is None:
        raise ValueError(f"Target {key!r} has no repair to undo")
    store.set(NAMESPACE, key, state.to_dict())
    return f"{key}: {restored!r} replaces the repaired {replaced!r}"


def reset_target(store: WrapxStore, spider: str, field: str) -> str:
    """Forget a target's learnt state: the declaration starts it afresh."""
    key, _ = _load(store, spider, field)
    store.delete(NAMESPACE, key)
    return f"{key}: forgotten; the next crawl starts it from the declaration"


def run_targets(store: WrapxStore, args: list[str]) -> str:
    """``scrapy wrapx targets [--undo|--reset SPIDER FIELD]``: the output.

    The options come in ``args`` (Scrapy hands a command the options it
    does not declare)."""
    if not args:
        return (
            "\n".join(target_lines(store)) + "\n"
            if store.keys(NAMESPACE)
            else ("(no targets in the store)\n")
        )
    actions = {"--undo": undo_repair, "--reset": reset_target}
    if len(args) != 3 or args[0] not in actions:
        raise ValueError(f"Expected --undo SPIDER FIELD or --reset SPIDER FIELD, got {args!r}")
    return actions[args[0]](store, args[1], args[2]) + "\n"
