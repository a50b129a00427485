"""Reading ``WRAPX_*`` settings: one place that knows every default.

Each component works when enabled alone, without the add-on, so it reads a
setting with the default documented in :mod:`scrapy_wrapx.settings`; the
default's type also says how a value given on the command line (always a
string) is converted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy_wrapx import settings as default_settings

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings


def wrapx_setting(settings: BaseSettings, name: str) -> Any:
    """The value of ``name`` in ``settings``, or its documented default."""
    try:
        default = getattr(default_settings, name)
    except AttributeError:
        raise ValueError(f"Unknown scrapy-wrapx setting: {name!r}") from None
    if isinstance(default, bool):
        return settings.getbool(name, default)
    if isinstance(default, int):
        return settings.getint(name, default)
    if isinstance(default, float):
        return settings.getfloat(name, default)
    if isinstance(default, list):
        return settings.getlist(name, default)
    return settings.get(name, default)
