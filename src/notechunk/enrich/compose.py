"""annotate: a phrase's meaning written into `embed_text`, once, right after the phrase.

"The Act transferred power" + ("The Act", "Government of India Act 1858") ->
"The Act (Government of India Act 1858) transferred power". A meaning the text already
says (anywhere, ignoring case) is not repeated; a phrase not found is noted on a line of
its own at the end, so what was resolved always reaches the retriever.
"""

from __future__ import annotations

import re


def body_start(embed_text: str, text: str) -> int:
    """Where the chunk's own text begins in `embed_text` (after the context line)."""
    return len(embed_text) - len(text) if embed_text.endswith(text) else 0


def mentions(haystack: str, phrase: str) -> bool:
    """Does `haystack` say `phrase` as whole words, ignoring case?"""
    return _pattern(phrase, re.IGNORECASE).search(haystack) is not None


def annotate(embed_text: str, phrase: str, meaning: str, start: int = 0) -> str:
    """`embed_text` with " (meaning)" after the first whole-word `phrase` at or after
    `start` (matched as written: "IT" is not "it"); unchanged when the meaning is already
    said."""
    if not meaning or mentions(embed_text, meaning):
        return embed_text
    m = _pattern(phrase).search(embed_text, start)
    if m is None:
        return f"{embed_text}\n({phrase}: {meaning})"
    return f"{embed_text[: m.end()]} ({meaning}){embed_text[m.end() :]}"


def _pattern(phrase: str, flags: int = 0) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(w) for w in phrase.split())
    return re.compile(rf"(?<!\w){words}(?!\w)", flags)
