"""The "fast" segmenter: one regex, no decisions beyond a tiny abbreviation set.

A break follows `.`, `!` or `?` (with closing quotes/brackets) when whitespace and then an
uppercase letter, digit or opening quote follow; blank lines and newlines before a bullet
are breaks too, and so are `。`, `！`, `？` (CJK full stops need no space). Less accurate
than "default": it splits "U.S. Government", "Jonas E. Smith" and "a.m. Mr." and knows no
list items; use it when speed is all that matters.
"""

from __future__ import annotations

import re

from notechunk.segment.base import Span

# One leading character class, then lookbehinds: the regex engine jumps between candidates.
_BREAK = re.compile(
    r"[.!?\n。！？](?:(?<=[。！？])(?P<cjk>[」』”’）)]*)"
    r"|(?<=[.!?])[)\]\"'”’]*(?P<ws>\s+)(?=[\"'“‘(\[]*[A-Z0-9])"
    r"|(?<=\n)[^\S\n]*\n"
    r"|(?<=\n)(?=[^\S\n]*[-*+•][ \t]))"
)
_ABBREVIATIONS = frozenset(
    "Dr. Mr. Mrs. Ms. Prof. St. Mt. Jr. Sr. No. Art. Fig. Vol. p. pp. e.g. i.e. vs. etc.".split()
)


class FastSegmenter:
    """Regex-only splitting: about 1.4x the speed of "default", far fewer correct breaks."""

    name = "fast"

    def spans(self, text: str) -> list[Span]:
        """Sentence spans of `text`, keeping the `notechunk.segment.base` invariants."""
        out: list[Span] = []
        start = 0
        for m in _BREAK.finditer(text):
            cut = m.start()
            if m.group("cjk") is not None:  # the full stop and its closers end the sentence
                cut = m.end()
            elif m.group("ws") is not None:
                word_start = text.rfind(" ", max(cut - 8, 0), cut) + 1
                if text[word_start : cut + 1].lstrip("(\"'") in _ABBREVIATIONS:
                    continue
                cut = m.start("ws")  # after the closing quotes
            piece = text[start:cut]
            core = piece.strip()
            if core:
                lead = start + len(piece) - len(piece.lstrip())
                out.append((lead, lead + len(core)))
            start = cut
        piece = text[start:]
        core = piece.strip()
        if core:
            lead = start + len(piece) - len(piece.lstrip())
            out.append((lead, lead + len(core)))
        return out
