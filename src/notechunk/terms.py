"""The one BM25 tokeniser: QA retrieval scores, `notechunk eval` and search all use it, so
what QA measures and what the eval measures are measured the same way.

Terms are case-folded runs of word characters, minus Lucene's 33 English stop words (the
list bm25s ships as STOPWORDS_EN). No stemming: "Histoplasma" and "histoplasmosis" stay
apart, exactly as the chunk says them. Chinese, Japanese and Korean are written without
spaces between words, so a run of their characters is cut into overlapping character
bigrams, as Lucene's CJKAnalyzer does ("中法战争" -> "中法", "法战", "战争"); a CJK
character standing alone is a unigram. Text without CJK takes the one-regex fast path.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    """a an and are as at be but by for if in into is it no not of on or such that the their
    then there these they this to was will with""".split()
)
_TOKEN = re.compile(r"\w+")

CJK_CHARS = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3041-\u3096\u309d-\u309f"  # Hiragana
    "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"  # Katakana (not the middle dot)
    "\u3130-\u318f"  # Hangul compatibility Jamo
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs, extension A, compatibility
    "\uac00-\ud7af"  # Hangul syllables
    "\uff66-\uff9f"  # half-width Katakana
    "\U00020000-\U0003134f"  # CJK ideographs, extensions B-G
)
"""The characters a CJK run is made of (a regex character-class body)."""
CJK = re.compile(f"[{CJK_CHARS}]")
UNSPACED_CHARS = (
    "\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
"""Chinese and Japanese characters: scripts written without spaces between words (Korean
puts spaces between its words, so Hangul is counted by them)."""
_SPLIT = re.compile(f"[{CJK_CHARS}]+|[^\\W{CJK_CHARS}]+")


def tokens(folded: str) -> list[str]:
    """Every token of an already case-folded text, stop words included, in order (QA's
    term blocks tokenise many chunks in one call, with their own markers between them):
    word runs, and each CJK run as its character bigrams (one character: a unigram)."""
    if CJK.search(folded) is None:
        return _TOKEN.findall(folded)
    out: list[str] = []
    for run in _SPLIT.findall(folded):
        if len(run) > 1 and CJK.match(run) is not None:
            out.extend([run[i : i + 2] for i in range(len(run) - 1)])
        else:
            out.append(run)
    return out


def terms(text: str) -> list[str]:
    """BM25 terms of `text`, in order."""
    return [t for t in tokens(text.casefold()) if t not in STOPWORDS]
