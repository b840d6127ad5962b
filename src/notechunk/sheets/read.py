"""Readers: one file in, `RawSheet`s of display strings out, with the sheet's real row numbers.

Contract:
- `guard.py` checks the container first (`sniff`, `check_container`, `check_zip`; names
  re-exported here); `cells.py` turns values into the strings a person reads.
- `read_workbook` streams rows with calamine `iter_rows()` under the limits of
  `limits.py` (a cell cut at `max_cell_chars`, a workbook stopped past `max_cells` or
  `max_expansion`); `csvread.read_csv` streams CSV with the csv module.
- Row numbers are 1-based and real: python-calamine 0.9 `iter_rows()` yields from row 1 even
  when the used range starts lower (pinned by a test); if a version yields from the range
  start instead, `_calamine_rows` notices a non-blank first row and shifts by `start`.
- Merged ranges: the top-left value is copied down the first column of the range (a person
  reads a vertically merged "State" cell as applying to each row); horizontal spans are read
  once, and each row lists the spans that start in it (`SheetRow.merged`), so a merged
  header cell can name every column it spans.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import replace
from pathlib import Path

from notechunk.config import SheetsConfig
from notechunk.discover import SHEET_EXTENSIONS, TEXT_EXTENSIONS
from notechunk.errors import InputError
from notechunk.sheets.cells import CellNote, display, xlsx_cell_notes
from notechunk.sheets.csvread import read_csv
from notechunk.sheets.guard import check_container, check_zip, sniff
from notechunk.sheets.limits import Budget, cut_cells
from notechunk.sheets.model import RawSheet, SheetRow

SHEET_SUFFIXES = SHEET_EXTENSIONS | TEXT_EXTENSIONS
TEXT_SHEET_SUFFIXES = frozenset({".csv", ".tsv", ".txt"})
"""Sheets that are text, parsed in this process (pure Python, no native parser)."""
WORKBOOK_SUFFIXES = SHEET_EXTENSIONS - TEXT_SHEET_SUFFIXES

_MAX_MERGE_FILLS = 1_000_000  # cells copied down merged ranges, per sheet


# ---------------------------------------------------------------------------- workbooks


def read_workbook(path: Path, rel: str, cfg: SheetsConfig) -> Iterator[RawSheet]:
    """Every sheet of a workbook (hidden ones too, marked), rows streamed lazily.

    Raises `InputError` once the workbook passes a limit of `limits.Budget`.
    """
    import python_calamine as pc

    notes: dict[str, dict[tuple[int, int], CellNote]] = {}
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        notes = xlsx_cell_notes(path)
    try:
        wb = pc.CalamineWorkbook.from_path(str(path))
    except pc.PasswordError:
        raise InputError(rel, "password-protected workbook") from None
    except pc.ZipError as exc:
        raise InputError(rel, f"corrupt workbook (zip: {_one_line(exc)})") from None
    except pc.XmlError as exc:
        raise InputError(rel, f"corrupt workbook (malformed XML: {_one_line(exc)})") from None
    except pc.CalamineError as exc:
        raise InputError(rel, f"corrupt workbook ({_one_line(exc)})") from None
    budget = Budget(rel, cfg, path.stat().st_size)
    for meta in wb.sheets_metadata:
        visible = str(meta.visible).endswith("Visible")
        if not visible and not cfg.include_hidden:
            yield RawSheet(name=meta.name, visible=False, rows=iter(()))
            continue
        try:
            sheet = wb.get_sheet_by_name(meta.name)
        except pc.CalamineError as exc:
            raise InputError(rel, f"sheet {meta.name!r} unreadable ({_one_line(exc)})") from None
        rows = _calamine_rows(sheet, notes.get(meta.name, {}))
        yield RawSheet(name=meta.name, visible=visible, rows=_limited(rows, meta.name, budget, cfg))


def _limited(
    rows: Iterator[SheetRow], sheet: str, budget: Budget, cfg: SheetsConfig
) -> Iterator[SheetRow]:
    for row in rows:
        cells, cut = cut_cells(row.cells, row.number, cfg.max_cell_chars)
        budget.take(cells, sheet, row.number)
        yield replace(row, cells=cells, flags=row.flags + cut) if cut else row


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] or type(exc).__name__


def _calamine_rows(sheet: object, notes: dict[tuple[int, int], CellNote]) -> Iterator[SheetRow]:
    start: tuple[int, int] | None = getattr(sheet, "start", None)
    if start is None:
        return
    row0, col0 = start
    ranges = getattr(sheet, "merged_cell_ranges", None)
    merged = _merge_fills(ranges)
    spans = _merge_spans(ranges, col0)
    carried: dict[tuple[int, int], str] = {}
    offset: int | None = None
    for i, values in enumerate(sheet.iter_rows()):  # type: ignore[attr-defined]
        cells = [v.strip() if type(v) is str else display(v) for v in values]
        if offset is None:
            # python-calamine 0.9 pads from row 0; a version that does not starts non-blank.
            offset = row0 if (row0 > 0 and any(cells)) else 0
        r = i + offset
        flags: list[str] = []
        if notes:
            for c in range(len(cells)):
                note = notes.get((r, c + col0))
                if note is None:
                    continue
                if note.text is not None:
                    cells[c] = note.text
                if note.flag is not None:
                    flags.append(note.flag)
        if merged:
            for c in range(len(cells)):
                source = merged.get((r, c + col0))
                if source is None:
                    continue
                if source == (r, c + col0):
                    carried[source] = cells[c]
                elif not cells[c]:
                    cells[c] = carried.get(source, "")
        yield SheetRow(
            number=r + 1, cells=tuple(cells), flags=tuple(flags), merged=spans.get(r, ())
        )


def _merge_fills(ranges: object) -> dict[tuple[int, int], tuple[int, int]]:
    """(row0, col0) of each cell down the first column of a merged range -> its top-left."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    if not isinstance(ranges, list):
        return out
    for (r0, c0), (r1, _c1) in ranges:
        if r1 <= r0 or len(out) + r1 - r0 > _MAX_MERGE_FILLS:
            continue  # not copied down: the value stays in the range's first row
        for r in range(r0, r1 + 1):
            out[(r, c0)] = (r0, c0)
    return out


def _merge_spans(ranges: object, col0: int) -> dict[int, tuple[tuple[int, int], ...]]:
    """row0 -> the (first, last) cell indexes of the horizontal merged ranges starting there."""
    out: dict[int, list[tuple[int, int]]] = {}
    if not isinstance(ranges, list):
        return {}
    for (r0, c0), (_r1, c1) in ranges:
        if c1 > c0 >= col0:
            out.setdefault(r0, []).append((c0 - col0, c1 - col0))
    return {r: tuple(sorted(v)) for r, v in out.items()}


def read_text_sheet(
    path: Path, rel: str, cfg: SheetsConfig
) -> Generator[RawSheet, None, None] | None:
    """The reader of a sheet that is text (`.csv`; a `.tsv` or `.txt` card deck, or a
    `.csv` that opens with Anki's `#separator:` header lines), or None for a workbook
    (read in an isolated worker, or by `read_workbook`)."""
    from notechunk.sheets.cards import anki_export, read_deck

    suffix = path.suffix.lower()
    if suffix == ".csv" and not anki_export(path, rel):
        return read_csv(path, rel, cfg)
    if suffix in TEXT_SHEET_SUFFIXES:
        return read_deck(path, rel, cfg)
    return None


def read_any(path: Path, rel: str, cfg: SheetsConfig) -> Iterator[RawSheet]:
    text = read_text_sheet(path, rel, cfg)
    return text if text is not None else read_workbook(path, rel, cfg)


__all__ = [
    "SHEET_SUFFIXES",
    "WORKBOOK_SUFFIXES",
    "RawSheet",
    "SheetRow",
    "check_container",
    "check_zip",
    "display",
    "read_any",
    "read_text_sheet",
    "read_workbook",
    "sniff",
    "xlsx_cell_notes",
]
