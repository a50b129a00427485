"""Targets a spider declares: field name -> selector or example value.

A spider lists what it wants as ``wrapx_targets``; a plain string is an
XPath, a :class:`Target` can give CSS, an example value, or options::

    class BookSpider(scrapy.Spider):
        wrapx_targets = {
            "title": Target(xpath="//h1/text()", many=False),
            "price": Target(css="span.price::text", required=True, many=False),
            "isbn": Target(example="9781602600157"),
            "authors": "//p[@class='byline']/a/text()",
        }

Declarations are checked when the spider opens, so a typo in a selector
stops the crawl at once with the target's name, not hours later.

Whether a target is a *list* is decided here, once, from the selector
(:func:`selects_many`) or the spider's ``many=``, never from how many nodes
one page happens to have: a list stays a list on a page with one member.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from lxml import etree

__all__ = ["Target", "absence_context", "list_container", "parse_targets", "selects_many"]


def _css_to_xpath(css: str) -> str:
    """The XPath of a CSS selector, as parsel translates it (its
    translator keeps the recent translations). parsel is imported on first
    use: a page worker imports this module, never translates a selector,
    and the import was a tenth of its start."""
    from parsel.csstranslator import css2xpath

    return str(css2xpath(css))


#: Predicates that keep one node of a step's matches (CSS's ``:nth-child``
#: and friends translate to the ``count(...-sibling::...) = n`` forms).
_POSITIONAL = re.compile(
    r"""^\s*(?:
        \d+
      | last\(\)(?:\s*-\s*\d+)?
      | position\(\)\s*=\s*(?:\d+|last\(\))
      | count\((?:preceding|following)-sibling::[\w*:-]+\)\s*=\s*\d+
    )\s*$""",
    re.VERBOSE,
)
#: A predicate that anchors a step on an id: one node per document.
_ID_ANCHOR = re.compile(r"""(?:^|\band\s)\s*\(?\s*@id\s*=\s*['"]""")
#: Elements HTML allows once per document.
_UNIQUE_TAGS = frozenset({"html", "head", "body", "title", "main"})
#: Axes that reach at most one node from each context node.
_SINGLE_AXES = frozenset({"self", "parent", "attribute"})
#: Node tests that are not functions wrapping a path.
_NODE_TESTS = frozenset({"text", "node", "comment", "processing-instruction"})
_FUNCTION = re.compile(r"^\s*([\w-]+)\s*\(")


@dataclass(frozen=True)
class Target:
    """One declared field: exactly one of ``xpath``, ``css`` or ``example``.

    ``required`` targets that cannot be filled are reported as errors (the
    item is still emitted: no item is lost). ``min_confidence`` overrides
    ``WRAPX_TARGETS_MIN_CONFIDENCE`` for this field. ``many`` says whether
    the field is a list: ``None`` decides from the selector
    (:func:`selects_many`; an example value names one node).
    """

    xpath: str | None = None
    css: str | None = None
    example: str | None = None
    required: bool = False
    min_confidence: float | None = None
    many: bool | None = None

    def __post_init__(self) -> None:
        given = [name for name in ("xpath", "css", "example") if getattr(self, name)]
        if len(given) != 1:
            raise ValueError(
                f"A Target needs exactly one of xpath, css or example, got {given or 'none'!r}"
            )
        if self.min_confidence is not None and not 0 <= self.min_confidence <= 1:
            raise ValueError(f"min_confidence must be in [0, 1], got {self.min_confidence!r}")
        if self.example is not None and self.many:
            raise ValueError(f"An example names one node, many=True does not fit {self.example!r}")

    @property
    def selector(self) -> str | None:
        """The selector in the locator's notation (CSS as ``css:...``)."""
        if self.xpath:
            return self.xpath
        if self.css:
            return "css:" + self.css
        return None

    @property
    def query(self) -> str | None:
        """The selector as XPath (CSS translated the way parsel does)."""
        if self.css:
            return _css_to_xpath(self.css)
        return self.xpath

    @property
    def is_list(self) -> bool:
        """Whether the field is a list: ``many`` if given, else whether the
        selector can select several nodes."""
        if self.many is not None:
            return self.many
        query = self.query
        return query is not None and selects_many(query)

    def validate(self) -> None:
        """Compile the selector; :class:`ValueError` if it is invalid."""
        if self.css:
            try:
                xpath = _css_to_xpath(self.css)
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


# -- the static list decision ---------------------------------------------------


def _split_top(expression: str, separator: str) -> list[str]:
    """``expression`` split at ``separator`` (one character) outside
    brackets, parentheses and quotes; ``a//b`` split at ``/`` gives an empty
    part for the descendant step."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in expression:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def _head_and_predicates(step: str) -> tuple[str, list[str]]:
    """A step's node test (with its axis) and its top-level predicates."""
    head, predicates, depth, start = "", [], 0, -1
    for position, char in enumerate(_split_quoted(step)):
        if char == "[":
            if depth == 0:
                head = head or step[:position]
                start = position + 1
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                predicates.append(step[start:position])
    return (head or step).strip(), predicates


def _split_quoted(step: str) -> str:
    """``step`` with quoted text blanked, so brackets in strings are text."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", lambda match: "_" * len(match.group()), step)


def _is_function(expression: str) -> bool:
    """Whether ``expression`` is one function call (``string(...)``,
    ``normalize-space(...)``, ``id('x')``...), which gives one value."""
    match = _FUNCTION.match(expression)
    if match is None or match.group(1) in _NODE_TESTS:
        return False
    parts = _split_top(expression.strip(), "/")
    return len(parts) == 1 and expression.rstrip().endswith(")")


def _pinned(predicates: list[str]) -> bool:
    """Whether a predicate keeps one node: a position or an id."""
    return any(_POSITIONAL.match(p) or _ID_ANCHOR.search(p) for p in predicates)


def _step_is_free(head: str, predicates: list[str], absolute: bool) -> bool:
    """Whether a step can match several nodes from one context node."""
    if _pinned(predicates):
        return False
    if head.startswith("("):  # a filter expression: (path)[n]
        return selects_many(head[1 : head.rindex(")")])
    axis, _, test = head.rpartition("::")
    if head in (".", "..") or head.startswith("@") or axis in _SINGLE_AXES:
        return False
    if test.startswith(("text()", "comment()")) or test in _UNIQUE_TAGS:
        # The texts of one element make one value; html, body... are unique.
        return False
    # In a full absolute path (``/html/body/div[2]/p``, as lxml, browsers
    # and this package write them) an unindexed step is a unique tag.
    return not (absolute and axis in ("", "child"))


def _path_is_many(path: str) -> bool:
    steps = _split_top(path.strip(), "/")
    # "/html/..." starts with an empty part; any later empty part is "//".
    absolute = len(steps) > 1 and not steps[0].strip() and "" not in steps[1:]
    relative_start = bool(steps[0].strip())
    for number, step in enumerate(steps):
        if not step.strip():
            continue
        head, predicates = _head_and_predicates(step.strip())
        # A relative path starts from an unknown context: like "//".
        loose = absolute and not (number == 0 and relative_start)
        if _step_is_free(head, predicates, loose):
            return True
    return False


def selects_many(xpath: str) -> bool:
    """Whether ``xpath`` can select several nodes: a step without a
    positional predicate or id anchor that may match several siblings (or
    descendants) makes a list; one function call gives one value.

    >>> selects_many("//table[@class='variants']/tbody/tr/td[2]/text()")
    True
    >>> selects_many("(//table[@class='variants']/tbody/tr)[1]/td[2]/text()")
    False
    >>> selects_many("//*[@id='price']/text()"), selects_many("normalize-space(//h1)")
    (False, False)
    >>> selects_many("/html/body/div/div[2]/h1/text()[1]")
    False
    """
    expression = xpath.strip()
    if _is_function(expression):
        return False
    branches = _split_top(expression, "|")
    return any(_path_is_many(branch) for branch in branches)


def list_container(xpath: str) -> str | None:
    """The part of a list selector above its last repeating step — the
    list's container (``//table[@class='v']/tbody`` for
    ``//table[@class='v']/tbody/tr/td[2]/text()``), or None when there is
    none to check: a container that is there with no member is an empty
    list, not a broken selector.

    >>> list_container("//table[@class='v']/tbody/tr/td[2]/text()")
    "//table[@class='v']/tbody"
    >>> list_container("//span[@class='reviewer']/text()") is None
    True
    """
    branches = _split_top(xpath.strip(), "|")
    if len(branches) != 1 or _is_function(xpath):
        return None
    steps = _split_top(xpath.strip(), "/")
    last = None
    for number, step in enumerate(steps):
        if step.strip() and _step_is_free(*_head_and_predicates(step.strip()), False):
            last = number
    if last is None:
        return None
    return _anchored("/".join(steps[:last]).rstrip("/"), steps[:last])


def absence_context(xpath: str, many: bool) -> str | None:
    """The part of a selector that, present on a page where the selector
    selects nothing, says the target is *absent* there (an optional sale
    price, an empty list) rather than the selector broken: a list's
    container (:func:`list_container`), a single value's parent step. None
    when no anchored part (a step with a predicate) is there to check.

    >>> absence_context("//p[@class='price']/s/text()", many=False)
    "//p[@class='price']"
    >>> absence_context("//h1[@class='title']/text()", many=False) is None
    True
    """
    if many:
        return list_container(xpath)
    if len(_split_top(xpath.strip(), "|")) != 1 or _is_function(xpath):
        return None
    steps = _split_top(xpath.strip(), "/")
    elements = [
        number
        for number, step in enumerate(steps)
        if step.strip() and not _value_step(_head_and_predicates(step.strip())[0])
    ]
    if not elements:
        return None
    prefix = steps[: elements[-1]]
    return _anchored("/".join(prefix).rstrip("/"), prefix)


def _value_step(head: str) -> bool:
    """Whether a step selects a value of its element (text, attribute)."""
    test = head.rpartition("::")[2]
    return head.startswith("@") or test.startswith(("text()", "comment()"))


def _anchored(prefix: str, steps: list[str]) -> str | None:
    """``prefix`` when one of its ``steps`` has a predicate, else None."""
    if any(_head_and_predicates(step.strip())[1] for step in steps if step.strip()):
        return prefix
    return None


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
