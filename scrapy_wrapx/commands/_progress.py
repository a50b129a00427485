"""A plain progress bar on stderr, for the long runs of ``scrapy wrapx``."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``label [#####.....] 12/40 pages 3.1s``, redrawn in place on a
    terminal and printed every tenth of the way otherwise (logs, CI)."""

    def __init__(
        self,
        label: str,
        total: int,
        stream: TextIO | None = None,
        unit: str = "pages",
        width: int = 30,
    ) -> None:
        self.label = label
        self.total = max(total, 0)
        self.stream = stream if stream is not None else sys.stderr
        self.unit = unit
        self.width = width
        self.done = 0
        self.started = time.monotonic()
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_tenth = -1

    def advance(self, step: int = 1) -> None:
        self.done = min(self.done + step, self.total) if self.total else self.done + step
        if self._tty:
            self.stream.write("\r" + self._line())
            self.stream.flush()
            return
        tenth = 10 * self.done // self.total if self.total else 0
        if tenth != self._last_tenth:
            self._last_tenth = tenth
            self.stream.write(self._line() + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self._tty:
            self.stream.write("\n")
            self.stream.flush()

    def _line(self) -> str:
        filled = self.width * self.done // self.total if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = time.monotonic() - self.started
        return f"{self.label} [{bar}] {self.done}/{self.total} {self.unit} {elapsed:.1f}s"
