"""pandoc grid tables (MANUAL.txt, "Extension: grid_tables"): cells drawn with `+---+`
rules and `|` sides, `=` under the header rows. Cells may hold several lines and blocks
(a cell's lines are joined; `> ` quote markers dropped; a nested grid table becomes its
rows); cells may span columns (a header's span names every column under it) and rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from notechunk.markdown.clean import clean_inline
from notechunk.markdown.rows import columns, row_text

GRID_RULE = re.compile(r"[ \t]*\+(?:[-=:]+\+)+[ \t]*$")
_QUOTE = re.compile(r"^(?:>[ \t]?)+")
_RULE_ONLY = re.compile(r"[ :+]*[-=]{3,}[-=:+ ]*$")
_RULE_CELL = re.compile(r":?[-=]{2,}:?")


def grid_rows(block: Sequence[str]) -> tuple[list[str], list[tuple[int, int, list[str]]]]:
    """(headers, [(first, last, cells)]) of a grid table; lines relative to the block."""
    bounds: set[int] = set()  # column edges: the `+` of every full rule (spans add edges)
    for line in block:
        if GRID_RULE.match(line):
            bounds.update(col for col, ch in columns(line) if ch == "+")
    ncols = max(1, len(bounds) - 1)
    order = sorted(bounds)
    groups: list[list[int]] = []
    header = False
    current: list[int] = []
    for k, line in enumerate(block[1:], start=1):
        if not GRID_RULE.match(line):
            current.append(k)
            continue
        if current:
            groups.append(current)
        current = []
        if "=" in line and len(groups) == 1 and not header:
            header = True
    headers: list[str] = []
    if header and groups:
        cells = _grid_cells([block[j] for j in groups[0]], order, ncols, spread=True)
        headers = _cell_texts(cells)
        groups = groups[1:]
    rows = []
    for g in groups:
        lines = [block[j] for j in g]
        for texts in _sub_rows(lines, order, ncols):
            if ncols > 1 and _spans_all(lines, order):  # one cell across the table: a
                texts = [" ".join(t for t in texts if t)]  # label row, not column 1's value
            rows.append((g[0], g[-1], texts))
    return headers, rows


def _sub_rows(lines: list[str], bounds: list[int], ncols: int) -> list[list[str]]:
    """A row's cells, or, when partial rules inside it split some columns (a cell that
    spans rows beside them: "Temperature" over min, mean, max), one row per split, the
    spanning cells repeated in each."""
    ruled = [_ruled_columns(line, bounds, ncols) for line in lines]
    cuts = [j for j, cols in enumerate(ruled) if cols]
    if not cuts:
        return [_cell_texts(_grid_cells(lines, bounds, ncols, spread=False))]
    split = set().union(*(ruled[j] for j in cuts))
    whole = _cell_texts(_grid_cells(lines, bounds, ncols, spread=False))
    out = []
    for lo, hi in zip([-1, *cuts], [*cuts, len(lines)], strict=True):
        part = lines[lo + 1 : hi]
        if not part:
            continue
        texts = _cell_texts(_grid_cells(part, bounds, ncols, spread=False))
        out.append([texts[k] if k in split else whole[k] for k in range(ncols)])
    return out or [whole]


def _ruled_columns(line: str, bounds: list[int], ncols: int) -> set[int]:
    """The columns a partial rule line (`| Temperature +-------+------+`) draws a rule in."""
    if "+" not in line:
        return set()
    cells = _grid_cells([line], bounds, ncols, spread=False)
    return {k for k, pieces in enumerate(cells) if pieces and _RULE_CELL.fullmatch(pieces[0])}


def _spans_all(lines: list[str], bounds: list[int]) -> bool:
    """Whether no line of a row has a separator on an inner column edge."""
    inner = set(bounds[1:-1])
    return all(not (ch in "|+" and col in inner) for line in lines for col, ch in columns(line))


def _grid_cells(rows: list[str], bounds: list[int], ncols: int, *, spread: bool) -> list[list[str]]:
    """Per column, the pieces of each source line between the separators that stand on
    a column boundary (a `|` elsewhere is text). A cell spanning columns goes to its first
    column, or, in a header (`spread`), to every column it spans."""
    index = {col: k for k, col in enumerate(bounds)}
    cols: list[list[str]] = [[] for _ in range(ncols)]
    for line in rows:
        k = -1
        piece: list[str] = []
        for col, ch in columns(line):
            if ch in "|+" and col in index:
                nxt = index[col]
                if 0 <= k < ncols:
                    text = "".join(piece)
                    for j in range(k, min(nxt, ncols) if spread else k + 1):
                        cols[j].append(text)
                k, piece = nxt, []
            else:
                piece.append(ch)
    return cols


def _cell_texts(cols: list[list[str]]) -> list[str]:
    """A cell's lines as text: quote markers and rowspan rules dropped, a nested grid
    table as its rows."""
    out = []
    for pieces in cols:
        lines = [p for p in (_QUOTE.sub("", p.strip()).strip() for p in pieces) if p]
        out.append(" ".join(part for part in _nested(lines) if part))
    return out


def _nested(lines: list[str]) -> list[str]:
    """A cell's text in pieces: each nested grid table (a rule line, bordered lines, a
    rule line: pandoc draws a Word figure and its caption so) as its rows, the lines
    around it joined and cleaned, rule-only lines dropped."""
    out: list[str] = []
    text: list[str] = []
    k = 0
    while k < len(lines):
        end = _table_end(lines, k) if GRID_RULE.match(lines[k]) else k
        if end > k + 1:
            out.append(clean_inline(" ".join(text)).strip())
            text = []
            head, rows = grid_rows(lines[k : end + 1])
            out.append("; ".join(row_text(head, cells) for _, _, cells in rows))
            k = end + 1
            continue
        if not _RULE_ONLY.match(lines[k]):
            text.append(lines[k])
        k += 1
    out.append(clean_inline(" ".join(text)).strip())
    return out


def _table_end(lines: list[str], start: int) -> int:
    """The last rule line of the grid table opening at `start`: the bordered lines (`|`
    or `+` first) run on to it; `start` when none closes it."""
    end = start
    for k in range(start + 1, len(lines)):
        if not lines[k].startswith(("|", "+")):
            break
        if GRID_RULE.match(lines[k]):
            end = k
    return end
