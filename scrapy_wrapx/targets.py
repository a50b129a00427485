"""Targets a spider declares: field name -> selector or example value.

A spider lists what it wants as ``wrapx_targets``; a plain string is an
XPath, a :class:`Target` can give CSS, an example value, or options::

    class BookSpider(scrapy.Spider):
        wrapx_targets = {
            "title": "//h1/text()",
            "price": Target(css="span.price::text", required=True),
            "isbn": Target(example="9781602600157"),
        }

Declarations are checked when the spider opens, so a typo in a selector
stops the crawl at once with the target's name, not hours later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lxml import etree
from parsel.csstranslator import HTMLTranslator

__all__ = ["Target", "parse_targets"]

_CSS = HTMLTranslator()


@dataclass(frozen=True)
class Target:
    """One declared field: exactly one of ``xpath``, ``css`` or ``example``.

    ``required`` targets that cannot be filled are reported as errors (the
    item is still emitted: no item is lost). ``min_confidence`` overrides
    ``WRAPX_TARGETS_MIN_CONFIDENCE`` for this field.
    """

    xpath: str | None = None
    css: str | None = None
    example: str | None = None
    required: bool = False
    min_confidence: float | None = None

    def __post_init__(self) -> None:
        given = [name for name in ("xpath", "css", "example") if getattr(self, name)]
        if len(given) != 1:
            raise ValueError(
                f"A Target needs exactly one of xpath, css or example, got {given or 'none'!r}"
            )
        if self.min_confidence is not None and not 0 <= self.min_confidence <= 1:
            raise ValueError(f"min_confidence must be in [0, 1], got {self.min_confidence!r}")

    @property
    def selector(self) -> str | None:
        """The selector in the locator's notation (CSS as ``css:...``)."""
        if self.xpath:
            return self.xpath
        if self.css:
            return "css:" + self.css
        return None

    def validate(self) -> None:
        """Compile the selector; :class:`ValueError` if it is invalid."""
        if self.css:
            try:
                xpath = _CSS.css_to_xpath(self.css)
            except Exception as exc:  # cssselect raises several error types
                raise ValueError(f"Invalid CSS selector {self.css!r}: {exc}") from exc
            _compile_xpath(xpath)
        elif self.xpath:
            _compile_xpath(self.xpath)


def _compile_xpath(expression: str) -> None:
    try:
        etree.XPath(expression)
    except etree.XPathSyntaxError as exc:
        raise ValueError(f"Invalid XPath {expression!r}: {exc}") from exc


def parse_targets(declared: Mapping[str, str | Target] | None) -> dict[str, Target]:
    """Normalize and validate a spider's ``wrapx_targets``.

    Raises :class:`ValueError` naming the first invalid target.
    """
    if declared is None:
        return {}
    if not isinstance(declared, Mapping):
        raise ValueError(f"wrapx_targets must be a mapping, got {type(declared).__name__!r}")
    targets: dict[str, Target] = {}
    for name, spec in declared.items():
        try:
            target = Target(xpath=spec) if isinstance(spec, str) else spec
            if not isinstance(target, Target):
                raise ValueError(f"expected an XPath string or a Target, got {spec!r}")
            target.validate()
        except ValueError as exc:
            raise ValueError(f"Invalid wrapx target {name!r}: {exc}") from exc
        targets[name] = target
    return targets
