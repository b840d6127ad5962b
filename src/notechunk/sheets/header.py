"""Header detection: skip title rows above the table, join stacked header rows, name columns.

The header is the first row, within the first `header_search_rows` rows, with at least 2
non-empty cells, at least half of them text (not numbers or dates; a year such as "2011"
or "2011-12" counts as text here), and a width close to the table's (>= 60% of the
second-widest row seen: one stray wide row does not make itself the header). A template's
`header_row` pins it instead (and nothing is stacked onto a pinned row).

Stacked headers (SPEC §1.2) are joined into one name per column, top to bottom:
- up to 3 rows directly above the header (no blank row between) whose cells are all short
  text, unless the row is a title (one cell, in the first column) or sits under a row
  filled in the same columns (a run of alike rows is a table, not a header);
- up to 2 rows directly below it whose cells are all short text, whose first column is
  empty (or repeats the header's), and under whose text the data rows hold numbers (a
  units row "", "m", "mg/m3" over figures). A row whose every cell is a unit (`is_unit`)
  is a units row: its parts go in parentheses ("Depth (m)").
A horizontally merged header cell names every column it spans; a repeated part (a
vertically merged "Geographic Area") is said once. Rows above the header that are not
stacked are the runner's to report (`above_header`).

A file with no header row (a question,answer CSV) is recognised when the candidate looks
like data: a cell longer than 60 characters, or ending with "?"; or, in a table whose
columns are written in different scripts (a vocabulary list: French | Russian, Uzbek |
Russian), when each of its cells is in its column's script as the rows below are (a
header names such columns in one language: "French | Russian"). Columns are then named
"Column 1", "Column 2", ... and every non-blank row is data.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace

from notechunk.sheets.model import SheetRow
from notechunk.sheets.skip import is_numeric, is_placeholder

# a year or fiscal year ("2011", "2011-12") is a column name in a header row
_YEAR = re.compile(r"^(?:1[89]|20)\d\d(?:-\d{2}(?:\d{2})?)?$")
_MAX_ABOVE, _MAX_BELOW, _LOOKAHEAD = 3, 2, 10


@dataclass(frozen=True, slots=True, kw_only=True)
class Header:
    """The header of a sheet: its row (None: no header), the rows joined into the names
    (`rows`, top to bottom, the header row among them) and one unique name per column;
    `made_up`: the columns the sheet gave no name, named "Column N" here (`_unique`)."""

    row: int | None
    rows: tuple[int, ...]
    names: tuple[str, ...]
    first_col: int = 0  # the first column the header names (group headers stand there)
    made_up: frozenset[int] = frozenset()


def given_header(columns: tuple[str, ...]) -> Header:
    """The header of a format that names its own columns (a card deck: every row is
    data); a column it leaves unnamed ("") is made up."""
    return Header(row=None, rows=(), names=tuple(_unique(list(columns))), made_up=_blank(columns))


def without_first_column(header: Header) -> Header:
    """The header once its first column is left out (a DataFrame's row index)."""
    return replace(
        header,
        names=header.names[1:],
        first_col=max(0, header.first_col - 1),
        made_up=frozenset(i - 1 for i in header.made_up if i),
    )


def labels(names: tuple[str, ...], made_up: frozenset[int]) -> tuple[str, ...]:
    """The label each column's value carries in a row's text: its name, or "" for a name
    made up because the sheet gave none ("Column 2" says nothing a reader can use)."""
    return tuple("" if i in made_up else n for i, n in enumerate(names))


def _blank(names: list[str] | tuple[str, ...]) -> frozenset[int]:
    return frozenset(i for i, name in enumerate(names) if not name)


def _filled(row: SheetRow) -> int:
    return sum(1 for c in row.cells if c)


def looks_like_data(row: SheetRow) -> bool:
    return any(len(c) > 60 or c.endswith("?") for c in row.cells if c)


def _script(cell: str) -> str:
    """The script of a cell's first letter ("LATIN", "CYRILLIC", "CJK"), "" without one."""
    letter = next((ch for ch in cell if ch.isalpha()), "")
    return unicodedata.name(letter, "").partition(" ")[0] if letter else ""


def _in_column_scripts(row: SheetRow, rows: list[SheetRow]) -> bool:
    """Is `row` written like the data below it in a table whose columns differ in script:
    each of its cells in its column's script (that of 80% of the column's cells below, at
    least 3), two scripts at least among its columns?"""
    below = [r for r in rows[rows.index(row) + 1 :] if _filled(r) >= 2][: 4 * _LOOKAHEAD]
    if len(below) < 3:
        return False
    scripts: set[str] = set()
    for col, cell in enumerate(row.cells):
        if not cell:
            continue
        seen = Counter(_script(r.cells[col]) for r in below if col < len(r.cells) and r.cells[col])
        top, hits = seen.most_common(1)[0] if seen else ("", 0)
        if not top or hits < 3 or hits < 0.8 * seen.total() or _script(cell) != top:
            return False
        scripts.add(top)
    return len(scripts) >= 2


def _texty(cell: str) -> bool:
    return not is_numeric(cell) or bool(_YEAR.match(cell))


def find_header(rows: list[SheetRow], pinned: int | None = None) -> SheetRow | None:
    """The header among the first buffered rows, or None when the table has no header."""
    if pinned is not None:
        return next((r for r in rows if r.number == pinned), None)
    nonblank = [r for r in rows if _filled(r)]
    if not nonblank:
        return None
    counts = sorted(_filled(r) for r in nonblank)
    width = counts[-2] if len(counts) >= 3 else counts[-1]
    need = max(2, math.ceil(0.6 * width))
    for row in nonblank:
        filled = [c for c in row.cells if c]
        if len(filled) < need:
            continue
        text = sum(1 for c in filled if _texty(c))
        if text * 2 < len(filled):
            continue
        return None if looks_like_data(row) or _in_column_scripts(row, rows) else row
    first = nonblank[0]
    return None if looks_like_data(first) or _filled(first) < 2 else first


def build_header(
    head: list[SheetRow], header: SheetRow | None, width: int, *, stack: bool = True
) -> Header:
    """The sheet's `Header` from its buffered first rows and the row `find_header` chose."""
    if header is None:
        return Header(
            row=None,
            rows=(),
            names=tuple(column_names(None, width)),
            made_up=frozenset(range(width)),
        )
    at = head.index(header)
    above = _stack_above(head, at) if stack else []
    below = _stack_below(head, at) if stack else []
    rows = [head[i] for i in (*above, at, *below)]
    units = bool(below) and all(is_unit(c) for c in head[below[-1]].cells if c)
    width = max(width, *(len(r.cells) for r in rows))
    parts: list[list[str]] = [[] for _ in range(width)]
    for k, row in enumerate(rows):
        cells = _spread(row) if k <= len(above) else list(row.cells)
        is_units = units and k == len(rows) - 1
        for col, cell in enumerate(cells):
            text = re.sub(r"\s+", " ", cell).strip()
            if not text or (parts[col] and parts[col][-1] == text):
                continue
            if is_units and not (text.startswith("(") and text.endswith(")")):
                text = f"({text})"
            parts[col].append(text)
    joined = [" ".join(p) for p in parts]
    return Header(
        row=header.number,
        rows=tuple(r.number for r in rows),
        names=tuple(_unique(joined)),
        first_col=next((i for i, name in enumerate(joined) if name), 0),
        made_up=_blank(joined),
    )


_UNIT_WORDS = frozenset(
    "acres hectares ha percent pct crore crores lakh lakhs million millions billion billions "
    "thousand thousands units nos persons people years days hours minutes seconds degrees "
    "rs inr usd eur gbp".split()
)
_UNIT_MARKS = frozenset("/%$€£₹°_^·")


def is_unit(cell: str) -> bool:
    """A cell of a units row: "(m)", "mg/m3", "degree_C", "km", "%", "crore", not "2001"."""
    v = cell.strip()
    if (v[:1], v[-1:]) in (("(", ")"), ("[", "]")):
        return True
    if " " in v or len(v) > 15 or _YEAR.match(v) or v.isdigit():
        return False
    return (
        bool(_UNIT_MARKS.intersection(v))
        or (len(v) <= 3 and v.isalpha())
        or v.lower().rstrip(".") in _UNIT_WORDS
    )


def _spread(row: SheetRow) -> list[str]:
    """The row's cells with each horizontally merged value copied across its span."""
    cells = list(row.cells)
    for first, last in row.merged:
        if first < len(cells) and cells[first]:
            for c in range(first + 1, min(last, len(cells) - 1) + 1):
                cells[c] = cells[c] or cells[first]
    return cells


def _short_text(row: SheetRow) -> bool:
    """Every non-empty cell is header-like text: short, not a number, not a placeholder."""
    filled = [c for c in row.cells if c]
    return bool(filled) and all(
        _texty(c) and len(c) <= 60 and not c.endswith("?") and not is_placeholder(c) for c in filled
    )


def _stack_above(head: list[SheetRow], at: int) -> list[int]:
    out: list[int] = []
    i = at - 1
    while i >= 0 and len(out) < _MAX_ABOVE:
        row = head[i]
        filled = [c for c, v in enumerate(row.cells) if v]
        if not _short_text(row) or filled == [0]:  # a title: one cell, first column
            break
        if i > 0 and _pattern(head[i - 1]) == filled:  # a run of alike rows: a table
            break
        out.insert(0, i)
        i -= 1
    return out


def _pattern(row: SheetRow) -> list[int]:
    return [c for c, v in enumerate(row.cells) if v]


def _stack_below(head: list[SheetRow], at: int) -> list[int]:
    out: list[int] = []
    j = at + 1
    while j < len(head) and len(out) < _MAX_BELOW:
        row = head[j]
        # a data row names its record in the first column; a header part leaves it empty
        # (or repeats the header's own cell there: a vertically merged "Geographic Area")
        if not _short_text(row) or row.cells[0] not in ("", head[at].cells[0]):
            break
        data = [r for r in head[j + 1 :] if _filled(r) >= 2 and not _short_text(r)]
        text_cols = [c for c, v in enumerate(row.cells) if v]
        if not _numbers_under(text_cols, data[:_LOOKAHEAD]):
            break
        out.append(j)
        j += 1
    return out


def _numbers_under(cols: list[int], data: list[SheetRow]) -> bool:
    """Of these columns, do at least half of those with values below hold numbers there?"""
    below = [[r.cells[c] for r in data if c < len(r.cells) and r.cells[c]] for c in cols]
    filled = [values for values in below if values]
    hits = sum(1 for values in filled if any(is_numeric(v) for v in values))
    return bool(filled) and hits * 2 >= len(filled)


def _unique(names: list[str]) -> list[str]:
    """Empty names become "Column N"; a repeat gets " (2)", " (3)", ... never a name that
    is already taken ("Year", "Year (2)", "Year" -> "Year", "Year (2)", "Year (3)")."""
    out: list[str] = []
    taken: set[str] = set()
    for i, name in enumerate(names, start=1):
        name = name or f"Column {i}"
        candidate, k = name, 1
        while candidate.lower() in taken:
            k += 1
            candidate = f"{name} ({k})"
        taken.add(candidate.lower())
        out.append(candidate)
    return out


def index_column(head: list[SheetRow], header: Header) -> bool:
    """Is the first column a row index without a name, as a DataFrame's `to_csv` writes it
    (an empty header cell over 0, 1, 2, ... or 1, 2, 3, ...)? It holds no fact of the row
    (the row number is kept anyway), so the runner leaves it out and says so."""
    if header.row is None or len(header.names) < 3:
        return False
    rows = {r.number: r for r in head}
    if any(rows[n].cells[:1] != ("",) for n in header.rows if n in rows):
        return False
    below = [r for r in head if r.number > max(header.rows) and any(r.cells)]
    if len(below) < 3 or any(r.merged for r in below):
        return False
    firsts = [r.cells[0] for r in below]
    if not all(v.isascii() and v.isdigit() for v in firsts):
        return False
    start = int(firsts[0])
    return start in (0, 1) and all(int(v) == start + i for i, v in enumerate(firsts))


def widen(
    names: tuple[str, ...], made_up: frozenset[int], width: int
) -> tuple[tuple[str, ...], frozenset[int]]:
    """`names` extended to `width` columns ("Column 7", ...), still unique, and the made-up
    columns with the new ones among them."""
    wider = tuple(_unique([*names, *([""] * (width - len(names)))]))
    return wider, made_up | frozenset(range(len(names), width))


def column_names(header: SheetRow | None, width: int) -> list[str]:
    """Header cells as names; empty ones "Column N"; repeats made unique (`_unique`)."""
    cells = list(header.cells) if header is not None else []
    cells += [""] * (width - len(cells))
    return _unique([re.sub(r"\s+", " ", cell).strip() for cell in cells])
