"""Unsupervised template induction from seed pages of one kind.

>>> from scrapy_wrapx.extraction import extract
>>> from scrapy_wrapx.induction import induce_template
>>> pages = [f'<body><h1>{t}</h1><p>by {a}</p><ul>{li}</ul><i>Shop</i></body>'
...          for t, a, li in [("Dune", "Frank Herbert", "<li>sf</li><li>epic</li>"),
...                           ("Emma", "Jane Austen", "<li>classic</li>"),
...                           ("Ubik", "Philip K. Dick", "<li>sf</li><li>odd</li><li>60s</li>")]]
>>> tpl = induce_template(pages)
>>> ex = extract(tpl, '<body><h1>Solaris</h1><p>by Stanislaw Lem</p>'
...                   '<ul><li>sf</li><li>polish</li></ul><i>Shop</i></body>')
>>> sorted(ex.fields.items())
[('h1', ['Solaris']), ('li', ['sf', 'polish']), ('p', ['Stanislaw Lem'])]
>>> ex.matched, ex.records
(True, {'li_list': [{'li': 'sf'}, {'li': 'polish'}]})
"""

from __future__ import annotations

from scrapy_wrapx.induction._induce import MAX_SEEDS, induce_template
from scrapy_wrapx.induction._pagetokens import normalize as normalize_tokens
from scrapy_wrapx.induction._pagetokens import page_tokens

__all__ = ["MAX_SEEDS", "induce_template", "normalize_tokens", "page_tokens"]
