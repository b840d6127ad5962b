"""pandoc's line-drawn tables (simple, multiline, grid), found by line before the parser.

CommonMark knows only pipe tables; pandoc writes simple, multiline and grid tables, whose
dash rules a CommonMark parser reads as setext underlines or thematic breaks (one table
row became the heading of 94 chunks). `find_tables` recognises them before the block
parser, by pandoc's own rules (MANUAL.txt, "Tables"): a simple table is a header line over
a dash line of column segments, rows up to a blank line; a multiline table opens with a
full-width dash line and separates rows by blank lines; headerless forms open and close
with the segment line; a grid table is drawn with `+---+` rules, `=` under the header.
Columns are cut by display width, as pandoc aligns them (a CJK character is two columns).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from notechunk.markdown.clean import clean_inline
from notechunk.markdown.grid import GRID_RULE, grid_rows
from notechunk.markdown.rows import cut, row_text

_DASHES = re.compile(r"[ \t]*-{3,}(?: +-{3,})*[ \t]*$")
_SEGMENT = re.compile(r"-+")
MAX_TABLE_LINES = 5000
MIN_BOX_RULE = 20


@dataclass(frozen=True, slots=True)
class LineTable:
    """A table found by line: 0-based inclusive line range, rows as (first, last, text)."""

    first: int
    last: int
    rows: tuple[tuple[int, int, str], ...]


def find_tables(lines: Sequence[str], skip: bytearray) -> list[LineTable]:
    """pandoc simple, multiline and grid tables, in line order (`skip[i]` marks lines in
    fenced code, HTML blocks or front matter, which are never table lines)."""
    out: list[LineTable] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        table = None
        if not skip[i] and "-" in line:
            if "+" in line and GRID_RULE.match(line):
                table = _grid(lines, skip, i)
            elif _DASHES.match(line):
                table = _dash_table(lines, skip, i)
        if table is None:
            i += 1
            continue
        out.append(table)
        i = table.last + 1
    return out


def _blank(lines: Sequence[str], i: int) -> bool:
    return i < 0 or i >= len(lines) or not lines[i].strip()


def _segments(line: str) -> list[int]:
    return [m.start() for m in _SEGMENT.finditer(line)]


def _dash_table(lines: Sequence[str], skip: bytearray, i: int) -> LineTable | None:
    starts = _segments(lines[i])
    if len(starts) >= 2 and not _blank(lines, i - 1) and _blank(lines, i - 2):
        if not skip[i - 1] and not _DASHES.match(lines[i - 1]):  # simple, header above
            end = i + 1
            while end < len(lines) and lines[end].strip() and not skip[end]:
                end += 1
            last = end - 1
            body = list(range(i + 1, end))
            if body and _DASHES.match(lines[last]):
                body.pop()
            if not body:
                return None
            return _build(lines, starts, [i - 1], [[k] for k in body], i - 1, last)
    if not _blank(lines, i - 1):
        return None
    head: list[int] = []
    if len(starts) == 1:  # a full-width rule opens a multiline table with a header
        k = i + 1
        while k < len(lines) and k <= i + 12 and lines[k].strip() and not skip[k]:
            if _DASHES.match(lines[k]):
                break
            k += 1
        if k >= len(lines) or k == i + 1 or not _DASHES.match(lines[k]):
            return None
        if len(_segments(lines[k])) == 1:  # a one-cell box: pandoc's one-column table
            return _box(lines, i, k)
        starts = _segments(lines[k])
        head, i = list(range(i + 1, k)), k
    close = _closing_rule(lines, skip, i)
    if close is None:
        return None
    body_lines = list(range(i + 1, close))
    if not body_lines or _blank(lines, i + 1):
        return None
    multiline = bool(head) or any(_blank(lines, k) for k in body_lines)
    rows = _groups(lines, body_lines, multiline=multiline)
    first = head[0] - 1 if head else i
    return _build(lines, starts, head, rows, first, close)


def _box(lines: Sequence[str], i: int, k: int) -> LineTable | None:
    """Text between two equal full-width rules (a formula boxed in Word): one row. Short
    rules are left alone: `---` / text / `---` is a rule and a setext heading."""
    top, bottom = lines[i].strip(), lines[k].strip()
    if len(top) < MIN_BOX_RULE or top != bottom or not _blank(lines, k + 1):
        return None
    return _build(lines, _segments(lines[i]), [], [list(range(i + 1, k))], i, k)


def _closing_rule(lines: Sequence[str], skip: bytearray, i: int) -> int | None:
    """The dash line that ends a table opened at line i: followed by a blank line."""
    for k in range(i + 1, min(len(lines), i + MAX_TABLE_LINES)):
        if skip[k]:
            return None
        if _DASHES.match(lines[k]) and _blank(lines, k + 1):
            return k
        if _blank(lines, k) and _blank(lines, k + 1):
            return None
    return None


def _groups(lines: Sequence[str], body: list[int], *, multiline: bool) -> list[list[int]]:
    if not multiline:
        return [[k] for k in body if lines[k].strip()]
    groups: list[list[int]] = [[]]
    for k in body:
        if lines[k].strip():
            groups[-1].append(k)
        elif groups[-1]:
            groups.append([])
    return [g for g in groups if g]


def _build(
    lines: Sequence[str],
    starts: list[int],
    head: list[int],
    rows: list[list[int]],
    first: int,
    last: int,
) -> LineTable:
    headers = _join_cells([cut(lines[k], starts) for k in head], len(starts))
    out = []
    for group in rows:
        cells = _join_cells([cut(lines[k], starts) for k in group], len(starts))
        text = row_text(headers, cells)
        if text:
            out.append((group[0], group[-1], text))
    return LineTable(first=first, last=last, rows=tuple(out))


def _join_cells(parts: list[list[str]], width: int) -> list[str]:
    """Column texts of several source lines, each column's pieces joined by a space."""
    cols: list[list[str]] = [[] for _ in range(width)]
    for cells in parts:
        for k, cell in enumerate(cells[:width]):
            if cell.strip():
                cols[k].append(cell.strip())
    return [clean_inline(" ".join(c)).strip() for c in cols]


def _grid(lines: Sequence[str], skip: bytearray, i: int) -> LineTable | None:
    end = i + 1
    while end < len(lines) and not skip[end] and lines[end].lstrip().startswith(("|", "+")):
        end += 1
    last = end - 1
    if last == i or not GRID_RULE.match(lines[last]):
        return None
    head, rows = grid_rows(lines[i : last + 1])
    out = []
    for a, b, cells in rows:
        text = row_text(head if len(cells) > 1 or len(head) <= 1 else [], cells)
        if text:
            out.append((i + a, i + b, text))
    return LineTable(first=i, last=last, rows=tuple(out))
