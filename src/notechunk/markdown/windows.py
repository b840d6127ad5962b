"""Sentences of a section, windows of sentences, and the header+bullet merge (SPEC §1.1).

Windows start at 0, step, 2·step, … and stop once a window reaches the end of the
section; step = window − round(window × overlap), at least 1. With `window_max_words`
a window also ends before it passes that many words (it always holds one sentence), and
the step is computed from the window's real length, so a capped window still overlaps
its successor by the configured share; a window that would end no later than the one
before it starts at that one's end instead (no window is contained in another).
`window_max_tokens` caps a window the same way in the tokenizer's tokens (the sentences'
counts, given by the caller). In an outline a window never ends on a parent item whose
children it would leave to the next window (`leads`: the sentences of such items): it
ends before that item instead, unless the item is where the window starts. Nor does a
window start or end inside an entry (a numbered item, paragraph or reference, `heads`:
each sentence's entry's first sentence) that it could hold whole: it ends
before the entry, and the next one starts at the first entry that starts where the
overlap would begin or later, so a reference list is never read from the middle of a
reference (and entries, whole, are repeated no more than the overlap asks).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from notechunk.chunk import count_words, unspaced_text
from notechunk.config import MarkdownConfig
from notechunk.markdown.model import Section, Unit
from notechunk.segment.base import Segmenter
from notechunk.terms import UNSPACED_CHARS

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
    toc: bool = False  # a table of contents: never merged with content
    inline: tuple[int, ...] = ()


def section_sentences(section: Section, segmenter: Segmenter, max_words: int = 0) -> list[Sentence]:
    """The section's sentences in order. A code block or a table row is one sentence,
    or, when longer than `max_words` (0: no cap), several cut at line (or cell) boundaries,
    each within the cap where a line allows it."""
    out: list[Sentence] = []
    for k, unit in enumerate(section.units):
        start = len(out)
        _unit_sentences(out, k, unit, segmenter, max_words)
        if len(out) > start:  # the unit's first and last lines are its sentences' (a
            # `#tag` or a fence line the text no longer shows stays inside `lines`)
            if out[start].first_line > unit.first_line:
                out[start] = replace(out[start], first_line=unit.first_line)
            if out[-1].last_line < unit.last_line:
                out[-1] = replace(out[-1], last_line=unit.last_line)
    return out


def _unit_sentences(
    out: list[Sentence], k: int, unit: Unit, segmenter: Segmenter, max_words: int
) -> None:
    """Append the sentences of one unit (the `k`th of its section) to `out`."""
    if unit.kind != "prose":
        for text, first, last in split_unit(unit, max_words):
            out.append(
                Sentence(
                    text=text, first_line=first, last_line=last, unit=k, words=count_words(text)
                )
            )
        return
    text = unit.text
    prefix = ""
    m = _BULLET_PREFIX.match(text)
    if m:  # the marker belongs to the first sentence, not to the segmenter's input
        prefix, text = m.group(0), text[m.end() :]
    # the text's line breaks are the source's unless clean-up took some out (an attribute
    # or comment over two lines) or put some in: then each sentence's range widens by the
    # difference, so its `lines` always hold it (issue 22)
    missing = unit.last_line - unit.first_line - text.count("\n")
    short, extra = max(missing, 0), max(-missing, 0)
    unspaced = unspaced_text(text)  # Chinese or Japanese: words counted by characters
    line, pos = unit.first_line, 0  # line of offset `pos`, counted forward only
    spans = segmenter.spans(text)
    if max_words and (
        count_words(text) > max_words
        if unspaced
        else text.count(" ") + text.count("\n") >= max_words
    ):
        cap = max(1, max_words - (1 if prefix else 0))  # the marker counts as a word
        spans = [cut for s, e in spans for cut in cut_sentence(text, s, e, cap, unspaced)]
    for n, (s, e) in enumerate(spans):
        parts = text[s:e].split()
        sentence = " ".join(parts)
        words = count_words(sentence) if unspaced else len(parts)
        if n == 0 and prefix:
            sentence = prefix + sentence
            words += 1  # the prefix is one word, "-"
        line += text.count("\n", pos, s)
        pos = s
        first = max(min(line, unit.last_line) - extra, unit.first_line)
        last = min(line + text.count("\n", s, e) + short, unit.last_line)
        out.append(Sentence(text=sentence, first_line=first, last_line=last, unit=k, words=words))


_WORD = re.compile(r"\S+")
_UNSPACED_WORD = re.compile(f"[{UNSPACED_CHARS}]{{1,2}}|[^\\W{UNSPACED_CHARS}]+|[^\\s\\w]")
"""A word where Chinese and Japanese are written: two of their characters (as
`count_words` counts them), a run of other letters or digits, or a mark; never fewer
than `count_words` counts, so pieces stay within the cap."""
_STRONG = frozenset(";；")  # a clause ends after these, or else after these (never after a
_WEAK = frozenset(",·，、")  # `:`, which would part a label from what it introduces)
_DASHES = frozenset(("-", "–", "—"))  # a word alone: the clause after it opens here


def cut_sentence(
    text: str, start: int, end: int, max_words: int, unspaced: bool = False
) -> list[tuple[int, int]]:
    """The span `text[start:end]` as pieces of at most `max_words` words: a run-on
    sentence (a pasted list, OCR text, a paragraph with no full stop) would otherwise be
    one window of any length (`unspaced`: Chinese or Japanese, whose words are counted by
    characters). The fewest pieces of about even size, so a line before it
    still fits its first window; a piece ends, in its second half, after the last `;`,
    else after the last `,` or `·` or before a lone dash, else at its size."""
    word = _UNSPACED_WORD if unspaced else _WORD
    words = [(m.start(), m.end()) for m in word.finditer(text, start, end)]
    if len(words) <= max_words:
        return [(start, end)]
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        left = len(words) - i
        size = -(-left // -(-left // max_words))  # pieces of even size, the fewest
        j = i + size
        if j < len(words):
            j = _clause_end(text, words, i + max(1, size // 2), j) or j
        out.append((words[i][0] if out else start, words[j - 1][1]))
        i = j
    return out


def _clause_end(text: str, words: list[tuple[int, int]], lo: int, hi: int) -> int | None:
    """The best end in `lo..hi` for a piece of `words` (the index after its last word),
    or None when no clause ends there."""
    weak = None
    for j in range(hi, lo - 1, -1):
        last = text[words[j - 1][1] - 1]
        if last in _STRONG:
            return j
        if weak is None and (
            last in _WEAK or (j < len(words) and text[slice(*words[j])] in _DASHES)
        ):
            weak = j
    return weak


def split_unit(unit: Unit, max_words: int) -> list[tuple[str, int, int]]:
    """(text, first line, last line) pieces of a code or row unit within `max_words`."""
    words = count_words(unit.text)
    if not max_words or words <= max_words:
        return [(unit.text, unit.first_line, unit.last_line)]
    if unit.kind == "row":
        pieces = _pack(unit.text.split("; "), max_words)
        return [("; ".join(p), unit.first_line, unit.last_line) for _, p in pieces]
    head, _, rest = unit.text.partition("\n")
    body = rest[: -len("\n```")] if rest.endswith("\n```") else rest
    lines = body.split("\n")
    span = unit.last_line - unit.first_line + 1
    offset = unit.first_line + (1 if span > len(lines) else 0)  # a fenced block's fence line
    out = []
    for start, piece in _pack(lines, max_words - 2):
        first = min(offset + start, unit.last_line)
        last = min(first + len(piece) - 1, unit.last_line)
        out.append((head + "\n" + "\n".join(piece) + "\n```", first, last))
    return out


def _pack(items: list[str], cap: int) -> list[tuple[int, list[str]]]:
    """Consecutive items grouped so each group has at most `cap` words (an item over the
    cap stands alone); returns (index of the group's first item, items)."""
    out: list[tuple[int, list[str]]] = []
    group: list[str] = []
    start = total = 0
    for k, item in enumerate(items):
        n = count_words(item)
        if group and total + n > cap:
            out.append((start, group))
            group, start, total = [], k, 0
        group.append(item)
        total += n
    if group:
        out.append((start, group))
    return out


def window_ranges(
    words: Sequence[int],
    cfg: MarkdownConfig,
    tokens: Sequence[int] | None = None,
    leads: Sequence[bool] | None = None,
    heads: Sequence[int] | None = None,
) -> list[tuple[int, int]]:
    """[start, end) sentence ranges of the windows over sentences with these word counts
    (and token counts, for `window_max_tokens`; `leads[i]`: sentence i belongs to an
    outline item whose children follow it; `heads[i]`: the first sentence of the entry
    sentence i is in, i when it is in none)."""
    n = len(words)
    size = cfg.window_sentences
    caps = [(words, cfg.window_max_words)]
    if tokens is not None and cfg.window_max_tokens:
        caps.append((tokens, cfg.window_max_tokens))
    out: list[tuple[int, int]] = []
    start = 0
    while start < n:
        end = min(_window_end(counts, start, size, cap) for counts, cap in caps)
        if out and end <= out[-1][1]:  # the cap left no room for overlap: start afresh
            start = out[-1][1]
            end = min(_window_end(counts, start, size, cap) for counts, cap in caps)
        if leads is not None and end < n:
            end = _before_lead(leads, start, end)
        if heads is not None and end < n and start < heads[end] < end:
            if not out or heads[end] > out[-1][1]:  # still reaching past the one before
                end = heads[end]
        out.append((start, end))
        if end >= n:
            break
        length = end - start
        nxt = start + max(1, length - round(length * cfg.overlap))
        start = nxt if heads is None else _entry_start(heads, start, nxt, end)
    return out


def _entry_start(heads: Sequence[int], start: int, nxt: int, end: int) -> int:
    """(`end` < the sentence count: the last window never asks.) The next window's start
    `nxt` moved on to the first entry's first sentence at or
    after it within the window just made (ending at `end`: whole entries are shared, no
    more than the overlap asked); else, the entry there being longer than a window, back
    to that entry's first sentence if it is after `start`; else left."""
    ahead = next((k for k in range(nxt, end + 1) if heads[k] == k), None)
    if ahead is not None:
        return ahead
    return heads[nxt] if heads[nxt] > start else nxt


def _before_lead(leads: Sequence[bool], start: int, end: int) -> int:
    """`end` moved back before the lead-in items it would end on (never to `start`)."""
    k = end
    while k > start and leads[k - 1]:
        k -= 1
    return k if k > start else end


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
        mergeable = not pending.toc and not nxt.toc
        if mergeable and pending.bullet and pending.words < cfg.bullet_merge_under_words:
            joined = _join(pending, nxt, sentences)
            if joined.words <= cfg.bullet_merge_cap_words:
                pending = joined
                continue
        out.append(pending)
        pending = nxt
    if pending is not None:
        out.append(pending)
    return out


def make_window(
    section: int, start: int, end: int, sentences: Sequence[Sentence], *, toc: bool = False
) -> Window:
    run = sentences[start:end]
    return Window(
        parts=((section, start, end),),
        words=sum(x.words for x in run),
        bullet=any(x.bullet for x in run),
        toc=toc,
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
        toc=a.toc or b.toc,
        inline=a.inline + b.inline,
    )
