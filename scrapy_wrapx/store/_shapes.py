"""The shape of the records of each namespace scrapy-wrapx stores.

A store is shared, copied and sometimes corrupted, so a record that parses
may still be no record of its namespace: a kind without paths, a claim that
is a list, a buffered page whose URL is a number. Each check here looks at
the top level of one namespace's records (types of the keys its readers
use) and raises :class:`ValueError` naming what is wrong; the readers
(:meth:`PageKind.from_dict <scrapy_wrapx.unsupervised.kinds.PageKind.from_dict>`,
:meth:`Template.from_json <scrapy_wrapx.template.Template.from_json>`...)
validate the rest and raise :class:`ValueError` too. Records of other
namespaces are only bounded in size and depth.

The stores themselves hold any JSON; the store of a crawl (and of the
``scrapy wrapx`` command) is given these checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object: {value!r:.60}")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_version(value: Any) -> bool:
    return _is_int(value) and bool(value >= 1)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _require(ok: bool, what: str, value: Any) -> None:
    if not ok:
        raise ValueError(f"{what}: {value!r:.60}")


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _optional_str(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _template(data: Any) -> None:
    record = _object(data, "template record")
    _require(isinstance(record.get("kind"), str), "template record kind", record.get("kind"))
    version = record.get("version")
    _require(_is_version(version), "template record version", version)
    _require(isinstance(record.get("template"), dict), "template", record.get("template"))
    _require(_strings(record.get("seed_urls", [])), "seed URLs", record.get("seed_urls"))
    for name in ("induced_at", "seconds"):
        _require(_is_number(record.get(name, 0.0)), f"template record {name}", record.get(name))


def _template_version(data: Any) -> None:
    version = _object(data, "template version record").get("version")
    _require(_is_version(version), "template version", version)


def _kind(data: Any) -> None:
    kind = _object(data, "page kind")
    for name in ("id", "domain", "url_pattern", "example_url"):
        _require(isinstance(kind.get(name), str), f"page kind {name}", kind.get(name))
    _require(_strings(kind.get("paths")), "page kind paths", kind.get("paths"))


def _seed_page(data: Any) -> None:
    page = _object(data, "seed page")
    _require(isinstance(page.get("url"), str), "seed page URL", page.get("url"))
    _require(isinstance(page.get("html"), str), "seed page HTML", type(page.get("html")))


def _pending_page(data: Any) -> None:
    page = _object(data, "buffered page")
    _require(isinstance(page.get("url"), str), "buffered page URL", page.get("url"))
    _require(_optional_str(page.get("html")), "buffered page HTML", type(page.get("html")))
    _require(_is_int(page.get("version")), "buffered page version", page.get("version"))
    _require(_optional_str(page.get("spider")), "buffered page spider", page.get("spider"))


def _claim(data: Any) -> None:
    # Its fields are judged by ``dead_claim_reason``: a claim with a bad
    # time is taken over, with the reason in the log.
    _object(data, "claim")


def _target(data: Any) -> None:
    state = _object(data, "target state")
    _require(isinstance(state.get("field"), str), "target field", state.get("field"))
    for name in ("selector", "declared", "shape", "streak_selector"):
        _require(_optional_str(state.get(name)), f"target {name}", state.get(name))
    reference = state.get("reference")
    _require(reference is None or isinstance(reference, dict), "target reference", reference)
    for name in ("alternates", "history"):
        _require(isinstance(state.get(name) or [], list), f"target {name}", state.get(name))
    _require(_is_int(state.get("streak") or 0), "target streak", state.get("streak"))


#: The check of each namespace's records (see the module doc), for
#: :attr:`WrapxStore.shapes <scrapy_wrapx.store.base.WrapxStore.shapes>`.
SHAPES: dict[str, Callable[[Any], None]] = {
    "claims": _claim,
    "kinds": _kind,
    "pending": _pending_page,
    "seeds": _seed_page,
    "targets": _target,
    "template_versions": _template_version,
    "templates": _template,
}
