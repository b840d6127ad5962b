"""annotate: a phrase's meaning written into `embed_text`, once, right after the phrase.

"The Act transferred power" + ("The Act", "Government of India Act 1858") ->
"The Act (Government of India Act 1858) transferred power" (after a possessive:
"The Company's (East India Company) servants"). A meaning the text already
says (anywhere, ignoring case) is not repeated; a phrase not found is noted on a line of
its own at the end, so what was resolved always reaches the retriever.
"""

from __future__ import annotations

import re

_POSSESSIVE = ("'s", "’s")  # "the Company's (East India Company) servants": the word kept whole


def body_start(embed_text: str, text: str) -> int:
    """Where the chunk's own text begins in `embed_text` (after the context line)."""
    return len(embed_text) - len(text) if embed_text.endswith(text) else 0


def mentions(haystack: str, phrase: str) -> bool:
    """Does `haystack` say `phrase` as whole words, ignoring case? (Its longest word,
    case-folded, must be in the case-folded haystack first: a regex that opens with a
    lookbehind is tried at every position, and most phrases are not there.)"""
    if not _may_say(haystack.casefold(), phrase.casefold()):
        return False
    return _pattern(phrase, re.IGNORECASE).search(haystack) is not None


def annotate(embed_text: str, phrase: str, meaning: str, start: int = 0) -> str:
    """`embed_text` with " (meaning)" after the first whole-word `phrase` at or after
    `start` (matched as written: "IT" is not "it"); unchanged when the meaning is already
    said."""
    if not meaning or mentions(embed_text, meaning):
        return embed_text
    m = _pattern(phrase).search(embed_text, start) if _may_say(embed_text, phrase) else None
    if m is None:
        return f"{embed_text}\n({phrase}: {meaning})"
    end = m.end() + 2 if embed_text[m.end() : m.end() + 2] in _POSSESSIVE else m.end()
    return f"{embed_text[:end]} ({meaning}){embed_text[end:]}"


def _may_say(haystack: str, phrase: str) -> bool:
    """Is `phrase`'s longest word in `haystack` (a test in C before the regex)?"""
    words = phrase.split()
    return not words or max(words, key=len) in haystack


def _pattern(phrase: str, flags: int = 0) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(w) for w in phrase.split())
    return re.compile(rf"(?<!\w){words}(?!\w)", flags)
