"""Free-form text kept whole: a job's or a product's description.

A description is written by hand for each page: one page has three
paragraphs, the next a list and a bold line, the next one long paragraph.
Aligned across the seeds, such a block merges into a hedge of optional
parts that fits the seeds and hardly any other page; its pieces become
fields of their own (``p_3``, ``wrappable_2``), and on an unseen page most
of it goes unexplained. Seen whole, it is one value: its text.

So an element whose content is *prose* becomes a :class:`~scrapy_wrapx.
template.Blob`, whose field holds the text of whatever the page puts there
(see :mod:`scrapy_wrapx.extraction`). Prose means, in the merged template:

* only text markup below it (:data:`PROSE_TAGS`: paragraphs, lists, bold,
  links...; no form, table, image or media);
* the seeds disagree on its shape: at least :data:`MIN_ITEMS` items, of
  which at least :data:`MIN_OPTIONAL_SHARE` are optional or repeated;
* its text is sentences, not labels and values: at least
  :data:`DATA_PER_LABEL` words in sentences per word of short fixed texts,
  and fewer than two labels with a colon, so a details list
  (``<li><b>Publisher:</b> X``, or "Proprietary", "Two-year" under a
  heading) with rows some pages lack keeps its named fields.
"""

from __future__ import annotations

from scrapy_wrapx.induction._info import Info, Scratch, refresh
from scrapy_wrapx.template import Blob, Elem, Opt, Set, Text, TNode, iter_nodes

#: Elements that only mark up running text.
PROSE_TAGS = frozenset(
    {
        "p",
        "b",
        "strong",
        "i",
        "em",
        "u",
        "s",
        "strike",
        "ul",
        "ol",
        "li",
        "span",
        "font",
        "a",
        "small",
        "big",
        "sup",
        "sub",
        "blockquote",
        "div",
        "h3",
        "h4",
        "h5",
        "h6",
        "center",
        "pre",
        "code",
        "tt",
        "q",
        "cite",
        "abbr",
    }
)
#: Fewest items of a prose element's merged content.
MIN_ITEMS = 3
#: Least share of those items that are optional or repeated.
MIN_OPTIONAL_SHARE = 0.5
#: Least number of words in sentences (texts of :data:`SENTENCE_WORDS`
#: words or more, variant or not: a block every seed shares, a company's
#: introduction, is prose too) per word of labels (short fixed texts)
#: below a prose element.
DATA_PER_LABEL = 3
#: Words of a fixed text that make it a sentence, and most words of a label.
SENTENCE_WORDS = 8
LABEL_WORDS = 5


def blob_prose(scratch: Scratch, root: Elem) -> None:
    """Replace the content of every prose element below ``root`` by a blob
    (outermost first: a prose element's own content is never looked at)."""
    stack: list[TNode] = list(root.children)
    while stack:
        node = stack.pop()
        if isinstance(node, Elem) and _prose(scratch, node):
            blob = Blob()
            scratch[blob] = Info(frozenset({("*",)}), 1, label="*")
            node.children = [blob]
            refresh(scratch, node)
            continue
        if isinstance(node, (Elem, Set)):
            stack.extend(node.children)
        elif isinstance(node, Opt):
            stack.append(node.child)


def _prose(scratch: Scratch, elem: Elem) -> bool:
    items = elem.children
    if len(items) < MIN_ITEMS:
        return False
    loose = sum(isinstance(item, (Opt, Set)) for item in items)
    if loose < MIN_OPTIONAL_SHARE * len(items):
        return False
    measured = _text_measures(scratch, items)
    if measured is None:
        return False
    prose, labels, colons = measured
    return colons < 2 and prose >= 2 * SENTENCE_WORDS and prose >= DATA_PER_LABEL * labels


def _text_measures(scratch: Scratch, items: list[TNode]) -> tuple[float, float, int] | None:
    """Words in sentences, words in labels and labels with a colon below
    ``items``; None when anything but text markup is there."""
    prose = labels = 0.0
    colons = 0
    for node in (node for item in items for node in iter_nodes(item)):
        if isinstance(node, Blob) or (isinstance(node, Elem) and node.tag not in PROSE_TAGS):
            return None  # other markup, or a blob already: leave it
        if isinstance(node, Text):
            words = _words(scratch, node)
            if words >= SENTENCE_WORDS:
                prose += words
            elif node.fixed and words <= LABEL_WORDS:
                labels += words
                colons += (node.parts[0] or "").rstrip().endswith(":")
    return prose, labels, colons


def _words(scratch: Scratch, text: Text) -> float:
    """The words of a text: of its one value, or on average of the values
    the seeds showed."""
    info = scratch.get(text)
    samples = info.samples if info is not None and info.samples else [p or "" for p in text.parts]
    return sum(len(sample.split()) for sample in samples) / len(samples)
