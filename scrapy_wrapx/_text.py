"""Text helpers shared by the core modules."""

from __future__ import annotations

import re

_WHITESPACE = re.compile(r"\s+")


def fold_whitespace(text: str) -> str:
    """Collapse runs of whitespace (including non-breaking spaces) and trim.

    Pages put the same value in differently spaced markup; comparing folded
    text is what makes "the same value" mean the same thing everywhere.
    """
    return _WHITESPACE.sub(" ", text.replace("\xa0", " ")).strip()
