"""A table row as text, and text columns measured as a terminal shows them.

`row_text` is how every table (pipe, pandoc, HTML) becomes text: `Header: value` pairs,
so a value never floats without its column. Column positions are display columns (a CJK
character takes two), as pandoc aligns line-drawn tables.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def row_text(headers: Sequence[str], cells: Sequence[str]) -> str:
    """`Header: value; Header: value` for the row's non-empty cells (a cell without a
    header stands alone), so a value never floats without its column."""
    pairs = []
    for k, value in enumerate(cells):
        value = " ".join(value.split())
        if not value:
            continue
        head = headers[k].strip() if k < len(headers) else ""
        pairs.append(f"{head}: {value}" if head and head != value else value)
    return "; ".join(pairs)


def width(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def columns(line: str) -> list[tuple[int, str]]:
    out, col = [], 0
    for ch in line:
        out.append((col, ch))
        col += width(ch)
    return out


def cut(line: str, starts: list[int]) -> list[str]:
    """The line cut at the display columns where each column starts."""
    cells = [""] * len(starts)
    k, col, begin = 0, 0, 0
    for idx, ch in enumerate(line):
        while k + 1 < len(starts) and col >= starts[k + 1]:
            cells[k] = line[begin:idx]
            k, begin = k + 1, idx
        col += width(ch)
    cells[k] = line[begin:]
    return cells
