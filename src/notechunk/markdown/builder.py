"""Sections accumulated while the walker reads tokens: the heading stack, bold-heading
candidates waiting for content, tables of contents split into their own sections, and
text the parser did not return, recovered line by line.

The heading stack rule: a level-L heading closes every open level >= L.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace

from notechunk.chunk import SkippedLines
from notechunk.markdown.clean import clean_inline
from notechunk.markdown.model import Section, Unit
from notechunk.markdown.toc import toc_heading, toc_runs

_REF_DEF = re.compile(r"\s{0,3}\[[^\[\]]+\]:\s*\S")
_CONTAINER_PREFIX = re.compile(r"(?:[ \t]*(?:>|[-*+•][ \t]|\d{1,9}[.)][ \t]))+")
_FENCE_LINE = re.compile(r"\s*(?:```|~~~)")
_HR_LINE = re.compile(r"\s{0,3}(?:[-*_][ \t]*){3,}$")
_EMPTY_ITEM = re.compile(r"[ \t]*(?:[-*+•]|\d{1,9}[.)])[ \t]*$")  # an empty bullet: no text


@dataclass(frozen=True, slots=True)
class Outline:
    """The heading stack at one point of the walk (saved when an HTML card opens)."""

    stack: tuple[tuple[int, str], ...]
    level: int
    hash_level: int
    toc_heading: bool


class Builder:
    """Accumulates sections while walking the token stream (local to one parse)."""

    def __init__(
        self,
        lines: list[str],
        *,
        bold_headings: bool,
        heading_max_words: int,
        parent_words: int = 12,
    ) -> None:
        self.lines = lines
        self.parent_words = parent_words
        self.items: list[str | None] = []  # open list items' first words (None: no text yet)
        self.bold_headings = bold_headings
        self.max_words = heading_max_words
        self.stack: list[tuple[int, str]] = []
        self.sections: list[Section] = []
        self.units: list[Unit] = []
        self.toc_flags: list[int] = []
        self.start_line = 1
        self.level = 0
        self.hash_level = 0  # level of the last `#`, setext or HTML heading
        self.toc_heading = False
        self.pending: list[tuple[str, Unit]] = []  # bold headings waiting for content
        self.tags: list[str] = []
        self.skipped: list[SkippedLines] = []
        self.added = 0  # units added so far

    def heading(
        self, level: int, title: str, line: int, *, real: bool = True, raw: str = ""
    ) -> None:
        """A heading; `real` for `#`, setext and HTML ones (bold headings sit below them)."""
        self._text_pending()
        self._open(level, title, line, raw)
        if real:
            self.hash_level = level

    def skip(self, reason: str, first: int, last: int) -> None:
        """Lines `first`..`last` (1-based) are not content: say why."""
        text = "\n".join(self.lines[first - 1 : last]).strip()
        entry = SkippedLines(first=first, last=last, reason=reason, text=text)
        if not self.skipped or self.skipped[-1] != entry:  # said once (two rules may see it)
            self.skipped.append(entry)

    def outline(self) -> Outline:
        """Where the heading stack stands, to come back to when a card ends."""
        return Outline(tuple(self.stack), self.level, self.hash_level, self.toc_heading)

    def restore(self, outline: Outline, line: int) -> None:
        """Close the open section (a card's) before `line` and go back to `outline`: the
        text from `line` on stands under the headings it stood under before the card."""
        if tuple(self.stack) == outline.stack:
            return  # the card had no heading of its own at this level: nothing to close
        self._text_pending()
        self.close(line - 1)
        self.stack = list(outline.stack)
        self.level, self.hash_level = outline.level, outline.hash_level
        self.toc_heading = outline.toc_heading
        self.start_line = line

    def skipped_at(self, first: int) -> bool:
        return bool(self.skipped) and self.skipped[-1].first == first

    def candidate(self, title: str, unit: Unit) -> None:
        """A bold-only paragraph: a heading if content follows before the next heading."""
        self.pending.append((title, unit))

    def open_item(self) -> None:
        self.items.append(None)

    def close_item(self) -> None:
        if self.items:
            self.items.pop()

    def heading_item(self) -> None:
        """The open item is a heading (`- ## X`): it is in the path, not the outline."""
        if self.items:
            self.items[-1] = ""

    def add(self, unit: Unit, toc: int = 0, lead: str | None = None) -> None:
        """A unit of the current section; inside a list it is stamped with its outline
        (`lead`: its text without the list marker, for an item's first block)."""
        if not unit.text.strip():
            return
        if self.pending:
            pending, self.pending = self.pending, []
            for title, cand in pending:
                self._open(min(self.hash_level + 1, 7), title, cand.first_line, "")
                self.skip("heading", cand.first_line, cand.last_line)
        if self.items:
            first = self.items[-1] is None
            outline = tuple(t for t in (self.items[:-1] if first else self.items) if t)
            if first:
                text = "" if unit.kind == "code" else lead if lead is not None else unit.text
                self.items[-1] = self._short(text)
            unit = replace(unit, outline=outline, depth=len(self.items))
        self.units.append(unit)
        self.toc_flags.append(toc)
        self.added += 1

    def _short(self, text: str) -> str:
        return first_words(text, self.parent_words)

    def finish(self) -> None:
        self._text_pending()
        self.close(len(self.lines))

    def _text_pending(self) -> None:
        pending, self.pending = self.pending, []
        for _, cand in pending:
            self.units.append(cand)
            self.toc_flags.append(0)

    def _open(self, level: int, title: str, line: int, raw: str) -> None:
        self.close(line - 1)
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        words = title.split()
        short = title if len(words) <= self.max_words else " ".join(words[: self.max_words]) + "…"
        self.stack.append((level, short))
        self.start_line = line
        self.level = level
        self.toc_heading = toc_heading(title, raw)
        if short != title:  # a sentence used as a heading: its words stay in the text
            self.units.append(Unit(kind="prose", text=title, first_line=line, last_line=line))
            self.toc_flags.append(0)

    def close(self, last_line: int) -> None:
        path = tuple(t for _, t in self.stack)
        units, flags = self.units, self.toc_flags
        self.units, self.toc_flags = [], []
        if not units and (not path or last_line < self.start_line):
            return  # nothing, or an empty stretch after an HTML card closed
        if not path:  # text before the first heading starts where its text starts
            self.start_line = units[0].first_line
        last = min(last_line, len(self.lines))
        while last > self.start_line and not self.lines[last - 1].strip():
            last -= 1
        last = max(last, self.start_line)
        parts: list[tuple[int, int, bool]] = []
        pos = 0
        for a, b in toc_runs(flags, under_toc_heading=self.toc_heading):
            if a > pos:
                parts.append((pos, a, False))
            parts.append((a, b, True))
            pos = b
        if pos < len(units) or not parts:
            parts.append((pos, len(units), False))
        for k, (a, b, toc) in enumerate(parts):
            first = self.start_line if k == 0 else units[a].first_line
            end = last if k == len(parts) - 1 else max(units[b - 1].last_line, first)
            self.sections.append(
                Section(
                    path=path,
                    level=self.level,
                    lines=(first, end),
                    units=tuple(units[a:b]),
                    toc=toc,
                )
            )


def recover(
    lines: list[str],
    covered: list[tuple[int, int]],
    meta_lines: int,
    skip: Callable[[str, int, int], None],
) -> list[Unit]:
    """Units for non-blank lines no token accounted for (text the parser dropped); the
    lines that are not text (a link definition, a fence, a rule, markup only) go to
    `skip` with their reason."""
    mask = bytearray(len(lines))
    for start, end in covered:
        mask[start:end] = b"\x01" * (min(end, len(lines)) - start)
    out: list[Unit] = []
    run: list[tuple[int, str]] = []

    def flush() -> None:
        if run:
            text = "\n".join(s for _, s in run)
            out.append(Unit(kind="prose", text=text, first_line=run[0][0], last_line=run[-1][0]))
            run.clear()

    for idx, line in enumerate(lines):
        if idx < meta_lines or mask[idx] or not line.strip():
            flush()
            continue
        reason = (
            "link_definition"
            if _REF_DEF.match(line)
            else "fence"
            if _FENCE_LINE.match(line)
            else "rule"
            if _HR_LINE.match(line)
            else "empty_item"
            if _EMPTY_ITEM.match(line)
            else None
        )
        if reason is not None:
            flush()
            skip(reason, idx + 1, idx + 1)
            continue
        m = _CONTAINER_PREFIX.match(line)
        text = clean_inline(line[m.end() :] if m else line).strip()
        if text:
            run.append((idx + 1, text))
        else:
            flush()
            skip("markup", idx + 1, idx + 1)
    flush()
    return out


def place(sections: list[Section], units: list[Unit]) -> list[Section]:
    """Put recovered units into the section whose line range holds them, in line order."""
    if not sections:
        last = units[-1].last_line
        return [Section(path=(), level=0, lines=(1, last), units=tuple(units))]
    starts = [s.lines[0] for s in sections]
    by_section: dict[int, list[Unit]] = {}
    for unit in units:
        idx = max(0, bisect_right(starts, unit.first_line) - 1)
        by_section.setdefault(idx, []).append(unit)
    out = []
    for k, s in enumerate(sections):
        extra = by_section.get(k)
        if extra:
            merged = sorted([*s.units, *extra], key=lambda u: (u.first_line, u.last_line))
            s = Section(path=s.path, level=s.level, lines=s.lines, units=tuple(merged), toc=s.toc)
        out.append(s)
    return out


def first_words(text: str, n: int) -> str:
    """An item's first line cut to `n` words (what its children carry as its name)."""
    words = text.strip().split("\n", 1)[0].split()
    if len(words) <= n:
        return " ".join(words)
    return " ".join(words[:n]) + "…"
