"""The spreadsheet runner: one file in, chunks + discarded rows + sheet reports + errors out.

`process_sheet_file` never raises for bad input. Workbooks are parsed in a worker process
with memory and time limits (`isolate.read_isolated`), because calamine can abort the
process on hostile input (RELIABILITY.md); rows stream back and are chunked here. A worker
that fails, dies or times out becomes that file's `FileError` (stage "read"); sheets
finished before keep their chunks, the sheet in progress is reported `failed` with the
figures so far. CSV files are parsed in-process (pure Python, no native parser).

Each kept row is a `Piece` (finished into a chunk by `finish.finish_file`).
Invariant (per sheet read): data_rows == chunks + discarded, where data_rows counts every
non-blank row that is not a header row: rows below the header, and rows above it that
are not stacked into it (discarded `above_header`, so a title or a row the header choice
passed over is never silent). Wholly blank rows are only counted (`blank_rows`).
Rows past `sheets.max_rows` are counted but not read: the sheet is `truncated`, its
`unread_rows` are in data_rows (so it does not balance, and the QA says not conserved)
and the file has a `FileError` naming the sheet, the row where reading stopped and the
count left unread.

A row that repeats a row of the header zone (a printed report repeats its title and header
rows on every page) is discarded as `repeated_header`.

Context carried down: a one-cell text row ("Jhelum River") is discarded
(`too_few_fields`, or `structural` for "Unit II") and becomes the `group` of the rows
below it until the next such row.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from itertools import chain, islice
from pathlib import Path

from notechunk.chunk import DiscardedRow, FileError, Piece, SheetReport
from notechunk.config import Config
from notechunk.errors import InputError
from notechunk.sheets.header import (
    Header,
    build_header,
    find_header,
    given_header,
    index_column,
    without_first_column,
)
from notechunk.sheets.isolate import read_isolated, run_isolated
from notechunk.sheets.model import RawSheet, SheetRow
from notechunk.sheets.read import read_text_sheet
from notechunk.sheets.rows import SheetRows, Tally, row_key
from notechunk.sheets.templates import select_template
from notechunk.textio import open_regular

__all__ = ["SheetFileResult", "process_sheet_file", "run_isolated"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetFileResult:
    """A file's row pieces (finished into chunks by the caller), discards, reports, errors."""

    pieces: list[Piece] = field(default_factory=list)
    discarded: list[DiscardedRow] = field(default_factory=list)
    reports: list[SheetReport] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


def process_sheet_file(path: Path, rel: str, cfg: Config) -> SheetFileResult:
    """Row pieces of every visible sheet of `path` (`rel`: its POSIX path relative to SRC)."""
    out = SheetFileResult()
    for part in sheet_file_parts(path, rel, cfg):
        out.pieces.extend(part.pieces)
        out.discarded.extend(part.discarded)
        out.reports.extend(part.reports)
        out.errors.extend(part.errors)
    return out


def sheet_file_parts(
    path: Path, rel: str, cfg: Config, every: int = 0
) -> Iterator[SheetFileResult]:
    """`process_sheet_file` in parts: row pieces in blocks of about `every` (0: each sheet
    whole) as they are final, so a huge sheet is never held whole; the discarded rows,
    sheet reports and errors in the last part (a discarded row may still change until
    its sheet ends)."""
    out = SheetFileResult()
    try:
        open_regular(path, rel).close()  # a FIFO or device is refused here, not waited on
        sheets = read_text_sheet(path, rel, cfg.sheets)
        if sheets is None:  # a workbook: read in a limited worker
            sheets = read_isolated(path, rel, cfg)
        with closing(sheets):  # a failure mid-sheet still ends the worker and its folder
            for sheet in sheets:
                for pieces in _process_sheet(sheet, rel, cfg, out, every):
                    yield SheetFileResult(pieces=pieces)
    except (InputError, OSError) as exc:
        out.errors.append(FileError(source=rel, stage="read", reason=_reason(exc)))
    yield out


def _reason(exc: InputError | OSError) -> str:
    if isinstance(exc, InputError):
        return exc.reason
    return f"cannot read file ({exc.strerror or exc})"


def _process_sheet(
    sheet: RawSheet, rel: str, cfg: Config, out: SheetFileResult, every: int
) -> Iterator[list[Piece]]:
    """One sheet's row pieces, in blocks (`SheetRows.body`); its discarded rows and report
    go to `out`. A limit hit mid-sheet still yields the pieces before it, then raises."""

    def report(status: str, header_row: int | None, t: Tally, note: str) -> None:
        out.reports.append(
            SheetReport(
                source=rel,
                sheet=sheet.name,
                status=status,
                header_row=header_row,
                data_rows=t.data + t.unread,
                blank_rows=t.blank,
                chunks=t.chunks,
                discarded=t.discarded,
                note=note,
                unread_rows=t.unread,
            )
        )

    t = Tally()
    if not sheet.visible and not cfg.sheets.include_hidden:
        report("hidden_skipped", None, t, "hidden sheet (sheets.include_hidden = false)")
        return
    template = select_template(cfg.templates, rel, sheet.name)
    rows: Iterator[SheetRow] = iter(sheet.rows)
    head: list[SheetRow] = []
    stop: InputError | None = None  # a limit hit while buffering: chunk what came first
    try:
        for row in islice(rows, cfg.sheets.header_search_rows):
            head.append(row)
    except InputError as exc:
        stop, rows = exc, iter(())
    if not any(any(r.cells) for r in head):
        if stop is not None:
            raise stop
        report("empty", None, t, "no non-blank cells")
        return
    pinned = template.header_row if template is not None else None
    if sheet.columns is not None:  # the format names the columns: every row is data
        header = given_header(sheet.columns)
    else:
        found = find_header(head, pinned)
        if pinned is not None and found is None:
            msg = f"sheet {sheet.name!r}: template header_row {pinned} not found"
            raise InputError(rel, msg)
        width = max(len(r.cells) for r in head)
        header = build_header(head, found, width, stack=pinned is None)
    in_header = set(header.rows)
    indexed = index_column(head, header)
    if indexed:  # a DataFrame's unnamed row index: no fact of the row
        header = without_first_column(header)
        head, rows = [_drop_first(r) for r in head], map(_drop_first, rows)
    last = max((i for i, r in enumerate(head) if r.number in in_header), default=-1)
    above = [r for r in head[: max(last, 0)] if r.number not in in_header]
    zone = {row_key(r.cells): r.number for r in reversed(head[: last + 1]) if any(r.cells)}
    sheet_rows = SheetRows(
        sheet.name,
        rel,
        _format_config(cfg, sheet.min_fields),
        header,
        template,
        zone,
        out.discarded,
        t,
        title=sheet_title(above),
    )
    failure: InputError | OSError | None = None
    try:
        for row in above:
            sheet_rows.above_header(row)
        yield from sheet_rows.body(chain(head[last + 1 :], rows), every)
        if stop is not None:
            raise stop
    except (InputError, OSError) as exc:  # the figures so far, the rows read kept
        report("failed", header.row, t, _reason(exc))
        failure = exc
    sheet_rows.settle()
    if rest := sheet_rows.take():
        yield rest
    if failure is not None:
        raise failure
    note = _note(header, len(above) - sum(1 for r in above if not any(r.cells)))
    if indexed:
        index = "column 1 (no name; 0, 1, 2, ...: a row index) left out of the rows' text"
        note = f"{note}; {index}" if note else index
    if sheet.columns is not None:
        note = f"card deck: columns {', '.join(header.names)}, one card a row"
    if t.unread:
        limit = cfg.sheets.max_rows
        where = f"stopped at sheets.max_rows = {limit:,}"
        unread = f"{t.unread:,} non-blank row(s) from row {t.first_unread} on not read"
        report("truncated", header.row, t, f"{where}: {unread}")
        reason = f"sheet {sheet.name!r}: {where}; {unread}"
        out.errors.append(FileError(source=rel, stage="read", reason=reason))
        return
    report("read", header.row, t, note)


def _drop_first(row: SheetRow) -> SheetRow:
    return replace(row, cells=row.cells[1:])


def _format_config(cfg: Config, min_fields: int | None) -> Config:
    """`cfg` with the format's own `min_fields` (an Anki export's row is a card, and one
    field is a whole card: a cloze, "2 x 3 = 6")."""
    if min_fields is None or min_fields == cfg.sheets.min_fields:
        return cfg
    return replace(cfg, sheets=replace(cfg.sheets, min_fields=min_fields))


def sheet_title(above: Sequence[SheetRow]) -> str | None:
    """The sheet's title (SPEC v3): the text of the first one-cell row above the header
    ("Important Mountain Passes of India", a merged cell counted once; a row that opens
    in lower case is a note, not a title), or None."""
    for row in above:
        cells = {c.strip() for c in row.cells if c.strip()}  # a merged title repeats
        text = " ".join(next(iter(cells)).split()) if len(cells) == 1 else ""
        if text and not text[0].islower():  # "table with row headers in column A": a note
            return text
    return None


def _note(header: Header, above: int) -> str:
    parts = []
    if header.row is None:
        parts.append("no header row found: columns named Column 1, Column 2, ...")
    elif len(header.rows) > 1:
        parts.append(f"header rows {header.rows[0]}-{header.rows[-1]} joined")
    if above:
        parts.append(f"{above} row(s) above the header listed as discarded (above_header)")
    return "; ".join(parts)
