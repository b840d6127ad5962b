"""Sentences of a section, windows of sentences, and the header+bullet merge (SPEC §1.1).

Windows start at 0, step, 2·step, … and stop once a window reaches the end of the
section; step = window − round(window × overlap), at least 1. With `window_max_words`
a window also ends before it passes that many words (it always holds one sentence), and
the step is computed from the window's real length, so a capped window still overlaps
its successor by the configured share; a window that would end no later than the one
before it starts at that one's end instead (no window is contained in another).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from notechunk.chunk import count_words
from notechunk.config import MarkdownConfig
from notechunk.markdown.sections import Section
from notechunk.segment.base import Segmenter

BULLETS = ("- ", "* ", "•")
_BULLET_PREFIX = re.compile(r"^ *- ")


@dataclass(frozen=True, slots=True, kw_only=True)
class Sentence:
    text: str
    first_line: int
    last_line: int
    unit: int
    words: int

    @property
    def bullet(self) -> bool:
        return self.text.lstrip(" ").startswith(BULLETS)


@dataclass(frozen=True, slots=True, kw_only=True)
class Window:
    """A run of sentences: `parts` are (section index, start, end) sentence ranges;
    `inline` are the sections whose heading the text says inline (merged tiny sections)."""

    parts: tuple[tuple[int, int, int], ...]
    words: int
    bullet: bool
    merged: bool = False
    inline: tuple[int, ...] = ()


def section_sentences(section: Section, segmenter: Segmenter) -> list[Sentence]:
    """The section's sentences in order; code blocks and table rows are one sentence each."""
    out: list[Sentence] = []
    for k, unit in enumerate(section.units):
        if unit.kind != "prose":
            out.append(
                Sentence(
                    text=unit.text,
                    first_line=unit.first_line,
                    last_line=unit.last_line,
                    unit=k,
                    words=count_words(unit.text),
                )
            )
            continue
        text = unit.text
        prefix = ""
        m = _BULLET_PREFIX.match(text)
        if m:  # the marker belongs to the first sentence, not to the segmenter's input
            prefix, text = m.group(0), text[m.end() :]
        multiline = "\n" in text
        line, pos = unit.first_line, 0  # line of offset `pos`, counted forward only
        for n, (s, e) in enumerate(segmenter.spans(text)):
            parts = text[s:e].split()
            sentence = " ".join(parts)
            words = len(parts)
            if n == 0 and prefix:
                sentence = prefix + sentence
                words += 1  # the prefix is one word, "-"
            first = last = unit.first_line
            if multiline:
                line += text.count("\n", pos, s)
                pos = s
                first = min(line, unit.last_line)
                last = min(line + text.count("\n", s, e), unit.last_line)
            out.append(
                Sentence(text=sentence, first_line=first, last_line=last, unit=k, words=words)
            )
    return out


def window_ranges(words: Sequence[int], cfg: MarkdownConfig) -> list[tuple[int, int]]:
    """[start, end) sentence ranges of the windows over sentences with these word counts."""
    n = len(words)
    size, cap = cfg.window_sentences, cfg.window_max_words
    out: list[tuple[int, int]] = []
    start = 0
    while start < n:
        end = _window_end(words, start, size, cap)
        if out and end <= out[-1][1]:  # the cap left no room for overlap: start afresh
            start = out[-1][1]
            end = _window_end(words, start, size, cap)
        out.append((start, end))
        if end >= n:
            break
        length = end - start
        start += max(1, length - round(length * cfg.overlap))
    return out


def _window_end(words: Sequence[int], start: int, size: int, cap: int) -> int:
    end, total = start, 0
    while end < len(words) and end - start < size:
        if cap and end > start and total + words[end] > cap:
            break
        total += words[end]
        end += 1
    return end


def merge_bullets(
    windows: Sequence[Window], sentences: Sequence[Sequence[Sentence]], cfg: MarkdownConfig
) -> list[Window]:
    """Merge a short window holding a bullet forward into the next one, within the cap.

    A window of fewer than `bullet_merge_under_words` words in which any sentence starts
    with a bullet joins the next window of the file when the result has at most
    `bullet_merge_cap_words` words; the result may merge again. Overlapping windows of
    one section join as the union of their sentences. `sentences[i]` are section i's.
    """
    out: list[Window] = []
    pending: Window | None = None
    for nxt in windows:
        if pending is None:
            pending = nxt
            continue
        if pending.bullet and pending.words < cfg.bullet_merge_under_words:
            joined = _join(pending, nxt, sentences)
            if joined.words <= cfg.bullet_merge_cap_words:
                pending = joined
                continue
        out.append(pending)
        pending = nxt
    if pending is not None:
        out.append(pending)
    return out


def make_window(section: int, start: int, end: int, sentences: Sequence[Sentence]) -> Window:
    run = sentences[start:end]
    return Window(
        parts=((section, start, end),),
        words=sum(x.words for x in run),
        bullet=any(x.bullet for x in run),
    )


def _join(a: Window, b: Window, sentences: Sequence[Sequence[Sentence]]) -> Window:
    parts = list(a.parts)
    sec, start, end = parts[-1]
    first = b.parts[0]
    if first[0] == sec and first[1] <= end:  # overlapping windows of one section: union
        parts[-1] = (sec, start, max(end, first[2]))
        parts.extend(b.parts[1:])
    else:
        parts.extend(b.parts)
    words = sum(x.words for s, i, j in parts for x in sentences[s][i:j])
    return Window(
        parts=tuple(parts),
        words=words,
        bullet=a.bullet or b.bullet,
        merged=True,
        inline=a.inline + b.inline,
    )
