"""Compound class words split into the words a person reads in them.

Class and id values often run their words together: ``productname``,
``pubdate``, ``ourprice``, ``defaultcolorfont``. A person reads "product
name" in the first and "default color font" (a look, no data) in the
last; a name built from the run as one word says neither, and the layout
and presentation words a name leaves out (:data:`._pagenames.LAYOUT_WORDS`)
go unseen inside it. ``wordninja`` splits such runs by English word
frequencies.

Abbreviations are no compounds: a split is kept only when every part is a
word of three letters or more, or a function word between two such words
(``typeofschool``). ``msonormal`` would be "m so normal" and ``asin``
"as in": both stay whole.

>>> split_compounds("productname"), split_compounds("defaultcolorfont")
('product_name', 'default_color_font')
>>> split_compounds("typeofschool"), split_compounds("msonormal"), split_compounds("asin")
('type_of_school', 'msonormal', 'asin')
>>> split_compounds("sdi_title_page"), split_compounds("isbn13")
('sdi_title_page', 'isbn13')
"""

from __future__ import annotations

import functools
import re

from scrapy_wrapx.induction._naming import FUNCTION_WORDS

#: Runs of letters shorter than this are left as they are: two short words
#: run together are rare, abbreviations common.
MIN_COMPOUND = 6
#: Fewest letters of a part that is not a function word.
MIN_PART = 3

_LETTERS = re.compile(r"[a-z]+")


def split_compounds(name: str) -> str:
    """``name`` (a slug: lowercase words joined by ``_``) with each run of
    letters that is several words run together split by ``_``."""
    return _LETTERS.sub(lambda match: _split(match.group()), name)


@functools.lru_cache(maxsize=4096)
def _split(run: str) -> str:
    if len(run) < MIN_COMPOUND:
        return run
    # Imported on first use: loading its word list takes a tenth of a
    # second, which a crawl's process that never names a field never pays.
    import wordninja

    parts = wordninja.split(run)
    if len(parts) < 2 or "".join(parts) != run:
        return run
    last = len(parts) - 1
    for index, part in enumerate(parts):
        inner = 0 < index < last
        if len(part) < MIN_PART and not (inner and part in FUNCTION_WORDS):
            return run
    return "_".join(parts)
