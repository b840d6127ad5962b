"""What one spreadsheet may expand to: a cell's length, a workbook's cells and characters.

Small files can stand for huge tables: an ODS row with `number-rows-repeated="200000"`, an
xlsx shared string of 1 MB referenced by every row. The readers apply these limits as the
rows stream, in the worker, before anything is chunked:

- a cell longer than `sheets.max_cell_chars` is cut there; the row carries the flag
  `cell_cut:<ref>:<original chars>` (ref as Excel names the cell: "B12");
- a workbook stops being read past `sheets.max_cells` non-empty cells, or past
  `max(1 MB, sheets.max_expansion x its size in bytes)` characters of cell text; the
  file's one-line reason says where it stopped and which key to raise.
CSV text cannot expand (each character is a byte of the file); only the cell cut applies.
"""

from __future__ import annotations

from notechunk.config import SheetsConfig
from notechunk.errors import InputError

EXPANSION_FLOOR = 1_000_000  # characters any workbook may hold, whatever its size


def col_letters(index: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA": the column part of a cell reference."""
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


def cut_cells(
    cells: tuple[str, ...], row: int, max_chars: int, col0: int = 0
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(cells with each one cut to `max_chars`, a `cell_cut:<ref>:<chars>` flag per cut).

    `row` is the 1-based row number and `col0` the index of the first cell's column.
    """
    if max(map(len, cells), default=0) <= max_chars:
        return cells, ()
    out = list(cells)
    flags: list[str] = []
    for i, cell in enumerate(cells):
        if len(cell) > max_chars:
            out[i] = cell[:max_chars].rstrip()
            flags.append(f"cell_cut:{col_letters(i + col0)}{row}:{len(cell)}")
    return tuple(out), tuple(flags)


class Budget:
    """Non-empty cells and characters read so far from one workbook, against its limits.

    Mutable on purpose and local to one read: `take` is called once per row.
    """

    __slots__ = ("_chars", "_cells", "_max_cells", "_max_chars", "_rel", "_size", "_ratio")

    def __init__(self, rel: str, cfg: SheetsConfig, file_size: int) -> None:
        self._rel = rel
        self._size = file_size
        self._ratio = cfg.max_expansion
        self._max_cells = cfg.max_cells
        self._max_chars = max(EXPANSION_FLOOR, int(cfg.max_expansion * file_size))
        self._cells = 0
        self._chars = 0

    def take(self, cells: tuple[str, ...] | list[str], sheet: str, row: int) -> None:
        """Count one row; `InputError` naming the sheet, row and key once a limit is passed."""
        for cell in cells:
            if cell:
                self._cells += 1
                self._chars += len(cell)
        where = f"stopped reading at sheet {sheet!r} row {row}"
        if self._cells > self._max_cells:
            raise InputError(
                self._rel,
                f"{where}: more than sheets.max_cells = {self._max_cells:,} non-empty cells "
                "in the workbook; the rest is not read",
            )
        if self._chars > self._max_chars:
            raise InputError(
                self._rel,
                f"{where}: the cells hold more than {self._max_chars:,} characters, over "
                f"{self._ratio:g}x the file's {self._size:,} bytes (sheets.max_expansion: "
                "a repeated row or string expands it); the rest is not read",
            )
