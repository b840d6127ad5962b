"""Header-row detection: skip title rows, blank rows and merged title cells above the table.

The header is the first row, within the first `header_search_rows` rows, with at least 2
non-empty cells, at least half of them text (not numbers or dates; a year such as "2011"
or "2011-12" counts as text here), and a width close to the table's (>= 60% of the widest
row seen). Stacked multi-row headers are not joined: the last full row is the header.
A template's `header_row` pins it instead.

A file with no header row (a question,answer CSV) is recognised when the candidate looks
like data: a cell longer than 60 characters, or ending with "?". Columns are then named
"Column 1", "Column 2", ... and every non-blank row is data (header_row None).
"""

from __future__ import annotations

import math
import re

from notechunk.sheets.read import SheetRow
from notechunk.sheets.skip import is_numeric

# a year or fiscal year ("2011", "2011-12") is a column name in a header row
_YEAR = re.compile(r"^(?:1[89]|20)\d\d(?:-\d{2}(?:\d{2})?)?$")


def _filled(row: SheetRow) -> int:
    return sum(1 for c in row.cells if c)


def looks_like_data(row: SheetRow) -> bool:
    return any(len(c) > 60 or c.endswith("?") for c in row.cells if c)


def find_header(rows: list[SheetRow], pinned: int | None = None) -> SheetRow | None:
    """The header among the first buffered rows, or None when the table has no header."""
    if pinned is not None:
        return next((r for r in rows if r.number == pinned), None)
    nonblank = [r for r in rows if _filled(r)]
    if not nonblank:
        return None
    width = max(_filled(r) for r in nonblank)
    need = max(2, math.ceil(0.6 * width))
    for row in nonblank:
        filled = [c for c in row.cells if c]
        if len(filled) < need:
            continue
        text = sum(1 for c in filled if not is_numeric(c) or _YEAR.match(c))
        if text * 2 < len(filled):
            continue
        return None if looks_like_data(row) else row
    first = nonblank[0]
    return None if looks_like_data(first) or _filled(first) < 2 else first


def column_names(header: SheetRow | None, width: int) -> list[str]:
    """Header cells as names; empty ones "Column N"; repeats get " (2)", " (3)"."""
    cells = list(header.cells) if header is not None else []
    cells += [""] * (width - len(cells))
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, cell in enumerate(cells, start=1):
        name = re.sub(r"\s+", " ", cell).strip() or f"Column {i}"
        key = name.lower()
        seen[key] = seen.get(key, 0) + 1
        names.append(name if seen[key] == 1 else f"{name} ({seen[key]})")
    return names
