"""The one BM25 tokeniser: QA retrieval scores, `notechunk eval` and search all use it, so
what QA measures and what the eval measures are measured the same way.

Terms are case-folded runs of word characters, minus Lucene's 33 English stop words (the
list bm25s ships as STOPWORDS_EN). No stemming: "Histoplasma" and "histoplasmosis" stay
apart, exactly as the chunk says them.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    """a an and are as at be but by for if in into is it no not of on or such that the their
    then there these they this to was will with""".split()
)
_TOKEN = re.compile(r"\w+")


def tokens(folded: str) -> list[str]:
    """Every token of an already case-folded text, stop words included, in order (QA's
    term blocks tokenise many chunks in one call, with their own markers between them)."""
    return _TOKEN.findall(folded)


def terms(text: str) -> list[str]:
    """BM25 terms of `text`, in order."""
    return [t for t in tokens(text.casefold()) if t not in STOPWORDS]
