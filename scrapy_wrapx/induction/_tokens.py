"""Template text inside a text node (EXALG tokens).

EXALG treats words as tokens and calls a token *template* when it occurs in
the same role on every page. Inside one aligned text node, the role is the
position: a token sequence that starts (or ends) every observed value is the
template's, as ``"by "`` in ``"by Paul Kent"``, and separators that cut every
value the same way (``"Value Books / 2008 / Paperback"``) split it into
several fields.

Seeds are few, so chance agreements are real: on a shop whose titles
mostly start with "The", five seeds may all do. A fixed part made of words
therefore needs :data:`MIN_WORD_SAMPLES` distinct values *and* evidence of
a boundary between template and data where it meets the slot, a change of
character class that data does not make on its own (:func:`_boundary`):
punctuation at the cut ("Price: " + 12, "Pages" + " (" ...), letters
against digits ("vol. " + 96, 96 + " pages"), or a lowercase word before
data that starts otherwise ("by " + Paul Kent). "The " + Kingdom of
Gardens, or Amber + " Press", show none: a capitalized word before a
capitalized phrase is as likely the phrase's own, so the text stays whole.
Nor does a capitalized word before a number: "Title 1095", "Room 12" is a
name with its number, and only a label's colon ("Pages: " + 96) cuts it.
A label with its colon cuts two samples too (:func:`_two_labelled`): an
optional row that two seeds showed ("Brand: Holmor", "Brand: Elarda").
Nor is a number next to the data a boundary: June + " 2010" on seeds of
one year is a date that happens to agree, not a label.
Middle separators must be the very same sequence in every value and be
punctuation between spaces (names contain plain spaces, numbers dots).
Template and data also never share a word: a cut lies at whitespace or
after a label's colon, so "$9.99" and "$19.99" stay whole rather than
losing a "$" and a ".99" to the template, and a sentence keeps its ".".

>>> derive_parts([": Zebra", ": Hachette Book Group"])
[': ', None]
>>> derive_parts(["by Paul Kent", "by John Wesley", "by Ann Lee"])
['by ', None]
>>> derive_parts(["by Paul Kent", "by John Wesley"])
[None]
>>> derive_parts(["Brand: Holmor", "Brand: Elarda Holisel"])
['Brand: ', None]
>>> derive_parts(["News (updated: May 2)", "News (updated: May 9)"])
[None]
>>> derive_parts(["The Winter Tide", "The Paper Tide", "The Lonely Bridge"])
[None]
>>> derive_parts(["Pages: 96", "Pages: 210", "Pages: 1024"])
['Pages: ', None]
>>> derive_parts(["Title 1095", "Title 22", "Title 407"])
[None]
>>> derive_parts(["vol. 3", "vol. 12", "vol. 7"])
['vol. ', None]
>>> derive_parts(["June 2010", "May 2010", "March 2010"])
[None]
>>> derive_parts(["1hr 40min", "1hr 55min", "1hr 53min"])
[None]
>>> derive_parts(["$9.99", "$19.99", "$4.99"])
[None]
>>> derive_parts(["ISBN:9780316125581", "ISBN:9781420106879", "ISBN:9781439184301"])
['ISBN:', None]
>>> derive_parts(["(800) 460-6228", "(800) 292-9149", "(800) 877-2246"])
[None]
>>> derive_parts(["ISBN-13: 9780316125581", "ISBN-13: 9781420106879", "ISBN-13: 97814"])
['ISBN-13: ', None]
>>> derive_parts(["Value Books / 2008 / Paperback", "Zondervan / 2010 / Hardcover",
...               "Barbour / 2009 / Paperback"])
[None, ' / ', None, ' / ', None]
>>> derive_parts(["Value Books / 2008 / Paperback", "Zondervan / 2010 / Paperback",
...               "Barbour / 2009 / Paperback"])
[None, ' / ', None, ' / ', None]
>>> derive_parts(["PowerShot D10 Point & Shoot Camera", "SX200 IS Point & Shoot Camera",
...               "A3000 IS Point & Shoot Camera"])
[None]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from scrapy_wrapx.induction._labels import SEPARATED_LABEL
from scrapy_wrapx.template import LABEL, LABEL_SEPARATORS, Text

#: Distinct values needed before words (not just punctuation) become fixed.
MIN_WORD_SAMPLES = 3

#: Words, spaces, and runs of punctuation, a bracket always a token of
#: its own: the "(" of "($12)" and the ")" of "14%)" can be template
#: while the sign or unit next to them stays with the value.
_TOKEN = re.compile(r"\w+|\s+|[()\[\]]|[^\w\s()\[\]]+")
#: Opening quotes and brackets, and what closes each.
_PAIRS = {
    '"': '"',
    "'": "'",
    "\u201c": "\u201d",
    "\u2018": "\u2019",
    "\u00ab": "\u00bb",
    "(": ")",
    "[": "]",
}
#: Brackets, whose pairs a value's own text keeps balanced.
_BRACKETS = (("(", ")"), ("[", "]"))
#: Unit symbols that are no currency sign (those are found by their
#: Unicode category).
_UNIT_SIGNS = frozenset("%\u2030\u00b0\u2032\u2033")  # % ‰ ° prime, double prime
_WORD = re.compile(r"\w")
#: A field separator inside a text: punctuation with spaces on both sides
#: (" / ", " | ", " - "); "3.0" or "May 27, 2012" are one value each, and
#: so are names joined by an ampersand or a plus ("Point & Shoot Digital
#: Camera", "Simon & Schuster", "Wi-Fi + Bluetooth"): those join words of
#: one value, which five seeds may all show.
_SEPARATOR = re.compile(r"\s+(?![&+]\s)[^\w\s]+\s+")
#: A number as a word of its own at the edge of a fixed part, bare or with
#: its unit ("1hr"). Numbers next to the data are data themselves far more
#: often than template: five seeds of one season all say "... 2010", yet
#: the year is the date's own, and five films of one hour and some minutes
#: all start "1hr ", yet the running time is "1hr 40min".
_NUMBER_AT_END = re.compile(r"(?:^|\s)\d[\d.,]*[^\W\d_]*$")
_NUMBER_AT_START = re.compile(r"\d+(?:\s|$)")
#: A number, and a letter (see :func:`_measures`).
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_LETTER = re.compile(r"[^\W\d_]")
#: A fixed part's last number, with nothing but punctuation after it.
_LAST_NUMBER = re.compile(r"\d+[^\w\s]*$")


def _common_prefix(seqs: list[list[str]]) -> int:
    shortest = min(len(s) for s in seqs)
    size = 0
    while size < shortest and all(s[size] == seqs[0][size] for s in seqs):
        size += 1
    return size


def _trim(tokens: list[str], allow_words: bool) -> list[str]:
    """Keep the longest run of tokens that is allowed as fixed text."""
    if allow_words:
        return tokens
    for index, token in enumerate(tokens):
        if _WORD.search(token):
            return tokens[:index]
    return tokens


def _class(char: str) -> str:
    if char.isdigit():
        return "digit"
    if char.isalpha():
        return "lower" if char.islower() else "upper"
    return "other"


def _wordless(fixed: str) -> bool:
    """A fixed part without words (punctuation, or nothing) needs no
    boundary evidence."""
    return not fixed or not _WORD.search(fixed)


def _class_change(edge: str, data: set[str]) -> bool:
    """Whether letters meet digits at a cut: ``edge`` is the class of the
    fixed part's character there, ``data`` the classes of the data's. A
    fixed part ending (or beginning) in a digit meets data without digits
    there; one in letters meets data of digits, with punctuation at most."""
    if edge == "digit":
        return "digit" not in data
    return "digit" in data and data <= {"digit", "other"}


def _number_group(fixed: str, edges: list[str]) -> bool:
    """Whether a fixed part ends in a number joined by punctuation (no
    label's colon) to data that starts with a digit: one number split,
    "(800) " + "460-6228" on seeds of one area code, "12/05/" + "2010";
    ``edges`` are the data's characters at the cut. (A suffix is checked
    reversed.)"""
    match = _LAST_NUMBER.search(fixed)
    return match is not None and ":" not in match.group() and any(edge.isdigit() for edge in edges)


def _capitalized(fixed: str) -> bool:
    """Whether ``fixed`` ends in a capitalized word ("Title", "ISBN"): the
    name a number belongs to, not a label, unless a colon says so."""
    return fixed.split()[-1][:1].isupper()


def _boundary(prefix: str, rests: list[str]) -> bool:
    """Whether a fixed ``prefix`` visibly ends where the data ``rests``
    begin (see the module docstring). A prefix without words needs none."""
    fixed = prefix.rstrip()
    if _wordless(fixed):
        return True
    if _NUMBER_AT_END.search(fixed) or _number_group(fixed, [r.lstrip()[:1] for r in rests]):
        return False
    end = _class(fixed[-1])
    starts = {_class(rest.lstrip()[:1] or " ") for rest in rests}
    if end == "other" or (_class_change(end, starts) and not _capitalized(fixed)):
        return True
    # "by " + Paul Kent: a lowercase word before data that starts otherwise.
    return end == "lower" and fixed.split()[-1].islower() and "lower" not in starts


def _boundary_after(suffix: str, rests: list[str]) -> bool:
    """Whether a fixed ``suffix`` visibly begins where the data ``rests``
    end: punctuation, or letters after digits and digits after letters."""
    fixed = suffix.lstrip()
    if _wordless(fixed):
        return True
    if _NUMBER_AT_START.match(fixed) or _number_group(
        fixed[::-1], [r.rstrip()[-1:] for r in rests]
    ):
        return False
    begin = _class(fixed[0])
    ends = {_class(rest.rstrip()[-1:] or " ") for rest in rests}
    return begin == "other" or _class_change(begin, ends)


def _before_separator(tokens: list[str]) -> list[str]:
    """A fixed prefix stops before a field separator: what follows one is a
    field of its own, even when the seeds happen to agree on it."""
    match = _SEPARATOR.search("".join(tokens))
    if match is None:
        return tokens
    length = 0
    for index, token in enumerate(tokens):
        if length >= match.start():
            return tokens[:index]
        length += len(token)
    return tokens


def _after_separator(tokens: list[str]) -> list[str]:
    """A fixed suffix starts after the last field separator it holds
    (" / Paperback" on five paperbacks is a separator and a format)."""
    matches = list(_SEPARATOR.finditer("".join(tokens)))
    if not matches:
        return tokens
    length = 0
    for index, token in enumerate(tokens):
        if length >= matches[-1].end():
            return tokens[index:]
        length += len(token)
    return []


def _cut_after(fixed: str, rests: list[str]) -> bool:
    """A fixed prefix may end at whitespace or after a colon, not mid-word;
    or after an opening quote or bracket that every value closes at its
    end (``for "`` + ``Dune"``): the pair encloses the value, not a part of
    it (see :func:`_opened`)."""
    return (
        fixed[-1:].isspace()
        or fixed.endswith(":")
        or all(r[:1].isspace() for r in rests)
        or _opened(fixed, rests)
    )


def _opened(fixed: str, rests: list[str]) -> bool:
    """Whether ``fixed`` ends in an opening quote or bracket that every
    value (``rests``) closes at its very end, and only there (a bracket
    the value opens and closes itself is its own)."""
    opener = fixed[-1:]
    closer = _PAIRS.get(opener)
    return closer is not None and all(
        len(rest) > 1 and rest.endswith(closer) and _closed_within(rest[:-1], opener, closer)
        for rest in rests
    )


def _closed_within(text: str, opener: str, closer: str) -> bool:
    """Whether ``text`` never closes a pair it did not open: no ``closer``
    at all for a quote, whose opener closes it too."""
    if opener == closer:
        return closer not in text
    depth = 0
    for char in text:
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _cut_before(fixed: str, rests: list[str], closer: str = "") -> bool:
    """A fixed suffix may begin at whitespace, not mid-word, or at the
    ``closer`` of the quote or bracket the prefix opened."""
    return (
        fixed[:1].isspace()
        or all(r[-1:].isspace() for r in rests)
        or bool(closer and fixed.startswith(closer))
    )


def derive_parts(samples: Sequence[str], *, whole: bool = False) -> list[str | None]:
    """The parts (fixed strings, ``None`` slots) of a text seen with the
    distinct values ``samples``; ``whole`` keeps the data one slot however
    separators cut it (a heading names one thing: "Nikon Coolpix - Red -
    L22" is a camera's name, not a name, a colour and a code).

    >>> derive_parts(["A b - Red - X1", "C d - Blue - Y2", "E f - Grey - Z3"], whole=True)
    [None]
    """
    values = list(dict.fromkeys(samples))
    if len(values) == 1:
        return [values[0]]
    allow_words = len(values) >= MIN_WORD_SAMPLES
    label = _two_labelled(values) if not whole else None
    if label is not None:
        return [label, None]
    parts = _derive(values, whole, allow_words)
    shortest = min(map(len, values))
    bare = [value for value in values if len(value) == shortest]
    rest = [value for value in values if len(value) > shortest]
    if len(rest) < 2:
        return parts
    # A seed with an empty field shows the template where its data would
    # be ("Code:" beside "Code: 7044"): the template is what the others
    # share, where the bare one fits with that slot empty.
    without = _derive(rest, whole, allow_words)
    if _fixed_length(without) > _fixed_length(parts) and all(
        _empty_fit(without, value) for value in bare
    ):
        return without
    return parts


#: A label and its colon that open a text, then the space before its value.
_OPENING = re.compile(rf"({LABEL}\s+)\S")


def _two_labelled(values: list[str]) -> str | None:
    """The label (with its colon and the space after it) that both of two
    values open with, where each has a value after it; else None. Two
    samples are too few for words (:data:`MIN_WORD_SAMPLES`) but for a
    label that says it is one."""
    if len(values) != 2:
        return None
    labels = {match.group(1) if (match := _OPENING.match(value)) else None for value in values}
    label = labels.pop() if len(labels) == 1 else None
    # "News (updated: May 2)" opens a bracket that its value closes.
    if label is None or label.count("(") != label.count(")"):
        return None
    return label


def _fixed_length(parts: list[str | None]) -> int:
    return sum(len(part) for part in parts if part is not None)


def _empty_fit(parts: list[str | None], value: str) -> bool:
    """Whether ``value`` is ``parts`` with a slot empty (not absent: a
    value that lacks a label fits a labelled text with its slot absent and
    the label's data run into the slot before)."""
    slots = Text(parts).split(value)
    return slots is not None and "" in slots


def _derive(values: list[str], whole: bool, allow_words: bool) -> list[str | None]:
    tokens = [_TOKEN.findall(value) for value in values]
    prefix = _fixed_prefix(tokens, allow_words)
    fixed = "".join(prefix)
    closer = _enclosing_closer(fixed)
    rests = [t[len(prefix) :] for t in tokens]
    suffix = _fixed_suffix(rests, allow_words, closer)
    middles = [t[: len(t) - len(suffix)] for t in rests]
    parts: list[str | None] = []
    if prefix:
        parts.append("".join(prefix))
    labelled = fixed.rstrip().endswith(":")
    if labelled and allow_words and _labelled_measure(["".join(m) for m in middles]):
        # "City: 16 Highway: 23" is one measure, read whole: its first
        # label is as much the value's as the second.
        return [None]
    parts.extend([None] if whole else _middle_parts(middles, allow_words, labelled))
    if suffix:
        parts.append("".join(suffix))
    return parts if _fits_all(parts, values) else [None]


def _enclosing_closer(fixed: str) -> str:
    """What closes the bracket or quote a fixed prefix opened last and left
    open ("(" of "(", ")" of "(Save "): a value that ends with it is
    enclosed, and the closer is the template's, not the value's.

    >>> derive_parts(["(Save 14%)", "(Save 20%)", "(Save 5%)"])
    ['(Save ', None, ')']
    >>> derive_parts(["(14%)", "(20%)", "(5%)"]), derive_parts(["(Save 14%", "(Save 20%", "(Save 5%"])
    (['(', None, ')'], ['(Save ', None])
    """
    if fixed[-1:] in _PAIRS:
        return _PAIRS[fixed[-1:]]
    open_: list[str] = []
    for char in fixed:
        if open_ and char == open_[-1]:
            open_.pop()
        elif char in _PAIRS and char != "'":  # an apostrophe opens nothing mid-text
            open_.append(_PAIRS[char])
    return open_[-1] if open_ else ""


def _closes_data(suffix: str, heads: list[str]) -> bool:
    """Whether a fixed ``suffix`` closes a bracket some value opened: the
    value's own "(Stereo)" in "MOV (Audio: PCM (Stereo))" keeps its ")".

    >>> derive_parts(["MOV (Audio: PCM (Stereo))", "MOV (Audio: PCM (Mono))", "MOV (Audio: AAC (5.1))"])
    ['MOV (Audio: ', None, ')']
    """
    return any(
        close in suffix and any(head.count(open_) > head.count(close) for head in heads)
        for open_, close in _BRACKETS
    )


def _unit(token: str) -> bool:
    """Whether ``token`` holds a currency sign or a unit symbol (``$``,
    ``€``, ``%``, ``°``): part of the value a person reads, even where every
    seed shows the same one."""
    return any(char in _UNIT_SIGNS or unicodedata.category(char) == "Sc" for char in token)


def _before_unit(tokens: list[str]) -> list[str]:
    """A fixed prefix stops before a unit ("Price: " of "Price: $ 12")."""
    return next((tokens[:index] for index, token in enumerate(tokens) if _unit(token)), tokens)


def _after_unit(tokens: list[str]) -> list[str]:
    """A fixed suffix starts after its last unit (" )" of "12 % )")."""
    units = [index for index, token in enumerate(tokens) if _unit(token)]
    return tokens[units[-1] + 1 :] if units else tokens


def _fixed_prefix(tokens: list[list[str]], allow_words: bool) -> list[str]:
    """The tokens every value opens with that are template: allowed as
    fixed text, before any field separator or unit, short of a whole value,
    and ending at a visible boundary.

    >>> derive_parts(['Reviews of "Dune"', 'Reviews of "Emma"', 'Reviews of "Ubik 2"'])
    ['Reviews of "', None, '"']
    >>> derive_parts(['Reviews of "Dune" (12)', 'Reviews of "Emma" (3)'])
    [None]
    >>> derive_parts(["$ 24,250", "$ 18,800", "$ 21,100"])
    [None]
    >>> derive_parts(["Price: $ 24,250", "Price: $ 18,800", "Price: $ 21,100"])
    ['Price:', None]
    """
    common = tokens[0][: _common_prefix(tokens)]
    prefix = _separated_label(common) if allow_words else []
    if prefix and all(len(t) > len(prefix) for t in tokens):
        return prefix
    prefix = _before_unit(_before_separator(_trim(common, allow_words)))
    # A prefix may not eat a whole value: its slot would always be empty.
    while prefix and any(len(t) <= len(prefix) for t in tokens):
        prefix = prefix[:-1]
    while prefix:
        fixed, tails = "".join(prefix), ["".join(t[len(prefix) :]) for t in tokens]
        if _cut_after(fixed, tails) and _boundary(fixed, tails) and not _list_head(fixed):
            break
        prefix = prefix[:-1]
    return prefix


def _separated_label(tokens: list[str]) -> list[str]:
    """The tokens of a label and the dash or bar after it that every value
    opens with ("Phone - " of "Phone - (212) 555-0100"), or none: where
    every seed's text opens so, the words are its label, not a field of
    their own before a field separator.

    >>> derive_parts(["Phone - (212) 555-0100", "Phone - (415) 555-0199", "Phone - (312) 555-0144"])
    ['Phone - ', None]
    >>> derive_parts(["Type of School | Private", "Type of School | Public", "Type of School | Other"])
    ['Type of School | ', None]
    """
    match = SEPARATED_LABEL.match("".join(tokens))
    if match is None:
        return []
    length = 0
    for index, token in enumerate(tokens):
        length += len(token)
        if length == match.end():
            return tokens[: index + 1]
    return []


def _list_head(fixed: str) -> bool:
    """Whether a fixed prefix is words ending in a comma: the first item of
    a list every seed agreed on ("United States, " of "United States,
    Texas, Dallas"), part of the value, where a label ends in a colon.

    >>> derive_parts(["United States, Texas, Dallas", "United States, Ohio, Akron",
    ...               "United States, Iowa, Ames"])
    [None]
    """
    return fixed.rstrip().endswith(",") and _WORD.search(fixed) is not None


def _fixed_suffix(rests: list[list[str]], allow_words: bool, closer: str = "") -> list[str]:
    """The tokens every value (its prefix cut off) closes with that are
    template, by the rules of :func:`_fixed_prefix` mirrored, words left
    out: a unit stays with its value.

    >>> derive_parts(["3.0L Diesel I6, 265 HP", "2.0L I4, 180 HP", "V8, 400 HP"])
    [None]
    >>> derive_parts(["469 g", "120 g", "1020 g"])
    [None]
    >>> derive_parts(["Weight: 469 g", "Weight: 120 g", "Weight: 1020 g"])
    ['Weight: ', None]
    >>> derive_parts(["12,00 €", "9,50 €", "105,00 €"])
    [None]
    """
    # Never words: a word after the data is its unit ("265 HP", "469 g"),
    # part of the value a person reads, so only punctuation may be template.
    del allow_words
    reversed_rests = [list(reversed(t)) for t in rests]
    suffix = _after_unit(
        _after_separator(
            list(reversed(_trim(reversed_rests[0][: _common_prefix(reversed_rests)], False)))
        )
    )
    while suffix and any(len(t) <= len(suffix) for t in rests):
        suffix = suffix[:-1]
    while suffix:
        fixed, heads = "".join(suffix), ["".join(t[: len(t) - len(suffix)]) for t in rests]
        if (
            _cut_before(fixed, heads, closer)
            and _boundary_after(fixed, heads)
            and not _closes_data(fixed, heads)
        ):
            break
        suffix = suffix[1:]
    return suffix


def _middle_parts(
    middles: list[list[str]], allow_words: bool, labelled: bool = False
) -> list[str | None]:
    """One slot, or several when every value's middle has the very same
    field separators inside (" / " in "Value Books / 2008 / Paperback"),
    unless the parts are one compound measure (:func:`_measures`).

    >>> derive_parts(["26 MPG City / 34 MPG Hwy", "27 MPG City / 36 MPG Hwy",
    ...               "25 MPG City / 33 MPG Hwy"])
    [None]
    """
    if not allow_words:
        return [None]
    inner = _labelled_parts(["".join(middle) for middle in middles], labelled)
    if inner is not None:
        return inner
    separators = [_inner_separators("".join(middle)) for middle in middles]
    if not (separators[0] and all(s == separators[0] for s in separators)):
        return [None]
    if _measures(["".join(middle) for middle in middles], separators[0]):
        return [None]
    parts: list[str | None] = [None]
    for separator in separators[0]:
        parts.extend((separator, None))
    return parts


def _labelled_parts(values: list[str], labelled: bool = False) -> list[str | None] | None:
    """Several slots where the values hold labels inside, in one order,
    each at most once ("6-8 | Weight: 220 lbs, Born: May 3, 1990" after a
    prefix "Height: "): a run of fields in one text node, each label and
    the separator before it template, each field's data a slot. A label
    some values lack is an optional field: their slot is absent (see
    :func:`scrapy_wrapx.template.split_present`), when the text is
    ``labelled`` (its prefix is a label) or some label is in every value.
    None where no value holds a label, or where the fields are one
    measure (:func:`_one_measure`).

    >>> derive_parts(["Height: 6-8, Weight: 220 lbs", "Height: 7-1, Weight: 245 lbs",
    ...               "Height: 5-11, Weight: 180 lbs"])
    ['Height: ', None, ', Weight: ', None]
    >>> derive_parts(["6-8 Weight: 220 lbs Born: May 3, 1990",
    ...               "7-1 Weight: 245 lbs Born: Jan 1, 2000",
    ...               "5-11 Weight: 180 lbs Born: June 12, 1985"])
    [None, ' Weight: ', None, ' Born: ', None]
    >>> derive_parts(["Height: 6-8 | College: Duke | Weight: 220 lbs",
    ...               "Height: 7-1 | Weight: 245 lbs", "Height: 5-11 | Weight: 180 lbs"])
    ['Height: ', None, ' | College: ', None, ' | Weight: ', None]
    """
    found = _label_fields(values, labelled)
    if found is None or _one_measure(found[2]):
        return None
    labels, separators, _ = found
    parts: list[str | None] = [None]
    for separator, label in zip(separators, labels, strict=True):
        parts.extend((separator + label, None))
    return parts


def _label_fields(
    values: list[str], labelled: bool
) -> tuple[list[str], list[str], list[list[str | None]]] | None:
    """The labels inside the values, the separator before each, and the
    data of each field per value (None: absent), for
    :func:`_labelled_parts`; None where they make no fields."""
    labels = _inner_labels(values)
    places = [_label_places(value, labels) for value in values]
    if not labelled and not any(all(row[k] >= 0 for row in places) for k in range(len(labels))):
        # Only labels some values lack, and none before the text: rows of
        # a list of specs ("Still Image: ...", "Movie: ..."), or a title's
        # colon ("Trois Couleurs: Rouge"), not fields.
        return None
    separators = [
        _trailing_separator(
            [
                piece
                for value, row in zip(values, places, strict=True)
                for piece in _before(value, row, labels, k)
            ]
        )
        for k in range(len(labels))
    ]
    fields: list[list[str | None]] = [[None] * len(values) for _ in range(len(labels) + 1)]
    absent: list[tuple[int, int, str]] = []  # value, the slot that runs on, separator
    for index, (value, row) in enumerate(zip(values, places, strict=True)):
        slot, begin = 0, 0
        for k, at in enumerate(row):
            if at >= 0:
                fields[slot][index] = value[begin : at - len(separators[k])].strip()
                slot, begin = k + 1, at + len(labels[k])
            elif separators[k].strip():
                absent.append((index, slot, separators[k].strip()))
        fields[slot][index] = value[begin:].strip()
    if any(data == "" for field in fields for data in field):
        return None  # a label without data: no field there
    if any(separator in str(fields[slot][index]) for index, slot, separator in absent):
        return None  # "7-1 | 245 lbs" beside "6-8 | Weight: 220 lbs": the field is there unlabelled
    return labels, separators, fields


def _labelled_measure(values: list[str]) -> bool:
    """Whether the values after a label hold labels of their own whose
    fields are one measure ("16 Highway: 23" after "City: ")."""
    found = _label_fields(values, True)
    return found is not None and bool(found[0]) and _one_measure(found[2])


def _label_places(value: str, labels: list[str]) -> list[int]:
    """Where each of ``labels`` is in ``value``, in order (-1: absent)."""
    places, begin = [], 0
    for label in labels:
        at = _label_at(value, label, begin)
        places.append(at)
        if at >= 0:
            begin = at + len(label)
    return places


def _before(value: str, row: list[int], labels: list[str], k: int) -> list[str]:
    """The text before label ``k`` in ``value`` back to the label before
    it (``row``: the labels' places), if the value has label ``k``."""
    if row[k] < 0:
        return []
    begin = 0
    for j in range(k - 1, -1, -1):
        if row[j] >= 0:
            begin = row[j] + len(labels[j])
            break
    return [value[begin : row[k]]]


def _one_measure(fields: list[list[str | None]]) -> bool:
    """Whether labelled fields are the parts of one measure, numbers of one
    shape in each value ("16 Highway: 23" after "City: ", "17 - 19 Highway:
    22 - 24"): one value a person reads whole, as :func:`_measures` keeps
    "26 MPG City / 34 MPG Hwy"; "6-8 Weight: 220 lbs" is two.

    >>> derive_parts(["City: 16 Highway: 23", "City: 17 Highway: 25", "City: 21 Highway: 30"])
    [None]
    """
    for column in zip(*fields, strict=True):
        value = [part for part in column if part is not None]
        if not all(_NUMBER.search(part) for part in value):
            return False
        if len({_NUMBER.sub("#", part) for part in value}) != 1:
            return False
    return True


#: A label inside a text: up to three words, the first a letter's, then a
#: colon and a space, after whitespace or a field separator.
_INNER_LABEL = re.compile(r"(?<=[\s,;|/\u2022\u00b7])([^\W\d_][\w.'-]*(?: [\w.'-]+){0,2}): ")


def _inner_labels(values: list[str]) -> list[str]:
    """The labels (``"Weight: "``) inside the values, each at most once in
    a value and after some data, in the one order every value keeps
    ([] where two values disagree on it).

    A label starts with a capital: a lowercase word before a colon ends a
    phrase ("3 reviews, average rating: 4.5") or follows its number ("1
    year: $29"), part of the data. It is the longest run of words before
    the colon that every value with its last word has ("Date of Birth: "
    where every value says so, "Birth: " where some say "Place of Birth:
    "; "Born: " after "220 lbs ")."""
    order: list[str] = []
    # The rows of a list share their labels: each run of words is looked
    # up in the values once.
    known: dict[str, str] = {}
    for value in values:
        previous = -1
        for match in _INNER_LABEL.finditer(value):
            words = match.group(1)
            if words not in known:
                known[words] = _label(words.split(" "), values)
            label = known[words]
            if not label:
                continue
            if label in order:
                if order.index(label) <= previous:
                    return []  # out of the order of another value
                previous = order.index(label)
            else:
                order.insert(previous + 1, label)
                previous += 1
    return order


def _label(words: list[str], values: list[str]) -> str:
    """The label a run of words before a colon is (see :func:`_inner_labels`),
    or "" where it is none: no capital, or twice in some value."""
    holders = [value for value in values if _label_at(value, words[-1] + ": ", 0) >= 0]
    for size in range(len(words), 0, -1):
        if not words[-size][:1].isupper():
            continue  # "1 year: ", "average rating: ": a unit or a phrase
        label = " ".join(words[-size:]) + ": "
        if all(_label_at(value, label, 0) >= 0 and value.count(label) == 1 for value in holders):
            return label
    return ""


def _label_at(value: str, label: str, begin: int) -> int:
    """Where ``label`` starts in ``value`` from ``begin`` on, as a label of
    its own (after whitespace or a separator), else -1."""
    at = value.find(label, begin)
    while at >= 0 and _INNER_LABEL.match(value, at) is None:
        at = value.find(label, at + 1)
    return at


def _trailing_separator(data: list[str]) -> str:
    """The separator every piece of ``data`` ends with before the next
    label (", ", " | ", " "): template, not the field's."""
    endings = [piece[len(piece.rstrip(LABEL_SEPARATORS)) :] for piece in data]
    common = endings[0]
    for ending in endings[1:]:
        while not ending.endswith(common):
            common = common[1:]
    return common


def _measures(values: list[str], separators: list[str]) -> bool:
    """Whether the parts between the separators are numbers with their
    units, the same units in every value ("26 MPG City / 34 MPG Hwy",
    "3 beds - 2 baths"): one value a person reads whole, where parts that
    differ in words ("Zondervan / 2010 / Paperback") are several."""
    shapes = set()
    for value in values:
        parts = _SEPARATOR.split(value)
        if len(parts) != len(separators) + 1:
            return False
        if not all(_NUMBER.search(part) and _LETTER.search(part) for part in parts):
            return False
        shapes.add(_NUMBER.sub("#", value))
    return len(shapes) == 1


def _inner_separators(text: str) -> list[str]:
    return [
        match.group()
        for match in _SEPARATOR.finditer(text)
        if match.start() > 0 and match.end() < len(text)
    ]


def _fits_all(parts: list[str | None], values: list[str]) -> bool:
    """Whether every value fits ``parts`` (in linear time: no regex of lazy
    groups, which backtracks cubically on a value full of separators)."""
    text = Text(parts)
    if text.fixed:
        return all(value == "".join(p for p in parts if p) for value in values)
    return all(text.split(value) is not None for value in values)
