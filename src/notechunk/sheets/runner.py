"""The spreadsheet runner: one file in, chunks + discarded rows + sheet reports + errors out.

`process_sheet_file` never raises for bad input. Workbooks are parsed in a worker process
with memory and time limits (`isolate.read_isolated`), because calamine can abort the
process on hostile input (RELIABILITY.md); rows stream back and are chunked here. A worker
that fails, dies or times out becomes that file's `FileError` (stage "read"); sheets
finished before keep their chunks, the sheet in progress is reported `failed` with the
figures so far. CSV files are parsed in-process (pure Python, no native parser).

Invariant (per sheet read): data_rows == chunks + discarded, where data_rows counts the
non-blank rows below the header; wholly blank rows are only counted (`blank_rows`).
Rows past `sheets.max_rows` are not read: the sheet's status is `truncated` and its note
says where it stopped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import TypeVar

from notechunk.chunk import DiscardedRow, FileError, Piece, SheetReport
from notechunk.config import Config
from notechunk.errors import InputError
from notechunk.sheets.header import column_names, find_header
from notechunk.sheets.isolate import read_isolated, run_isolated
from notechunk.sheets.read import RawSheet, SheetRow, check_container, read_any, read_csv
from notechunk.sheets.skip import skip_reason
from notechunk.sheets.templates import apply, bind, fallback_text, select_template

T = TypeVar("T")


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetFileResult:
    """A file's row pieces (finished into chunks by the caller), discards, reports, errors."""

    pieces: list[Piece] = field(default_factory=list)
    discarded: list[DiscardedRow] = field(default_factory=list)
    reports: list[SheetReport] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


def process_sheet_file(path: Path, rel: str, cfg: Config) -> SheetFileResult:
    """Chunks of every visible sheet of `path` (`rel` is its POSIX path relative to SRC)."""
    chunks: list[Piece] = []
    discarded: list[DiscardedRow] = []
    reports: list[SheetReport] = []
    try:
        sheets = (
            read_csv(path, rel) if path.suffix.lower() == ".csv" else read_isolated(path, rel, cfg)
        )
        for sheet in sheets:
            _process_sheet(sheet, rel, cfg, chunks, discarded, reports)
    except InputError as exc:
        error = FileError(source=rel, stage="read", reason=exc.reason)
        return SheetFileResult(pieces=chunks, discarded=discarded, reports=reports, errors=[error])
    except OSError as exc:
        reason = f"cannot read file ({exc.strerror or exc})"
        return SheetFileResult(errors=[FileError(source=rel, stage="read", reason=reason)])
    return SheetFileResult(pieces=chunks, discarded=discarded, reports=reports)


def _process_sheet(
    sheet: RawSheet,
    rel: str,
    cfg: Config,
    chunks: list[Piece],
    discarded: list[DiscardedRow],
    reports: list[SheetReport],
) -> None:
    def report(
        status: str, header: int | None, data: int, blank: int, c: int, d: int, note: str
    ) -> None:
        reports.append(
            SheetReport(
                source=rel,
                sheet=sheet.name,
                status=status,
                header_row=header,
                data_rows=data,
                blank_rows=blank,
                chunks=c,
                discarded=d,
                note=note,
            )
        )

    if not sheet.visible and not cfg.sheets.include_hidden:
        report("hidden_skipped", None, 0, 0, 0, 0, "hidden sheet (sheets.include_hidden = false)")
        return
    template = select_template(cfg.templates, rel, sheet.name)
    rows = iter(sheet.rows)
    head = list(islice(rows, cfg.sheets.header_search_rows))
    pinned = template.header_row if template is not None else None
    header = find_header(head, pinned)
    if not any(any(r.cells) for r in head):
        report("empty", None, 0, 0, 0, 0, "no non-blank cells")
        return
    if pinned is not None and header is None:
        raise InputError(rel, f"sheet {sheet.name!r}: template header_row {pinned} not found")
    body: Iterator[SheetRow]
    if header is None:
        body = _chain(head, rows)
        above = 0
    else:
        idx = head.index(header)
        body = _chain(head[idx + 1 :], rows)
        above = idx
    width = max((len(r.cells) for r in head), default=0)
    names = column_names(header, width)
    bound = bind(template, names) if template is not None else None
    n_data = n_blank = n_chunks = n_disc = 0
    status, note = "read", ""
    if above:
        note = f"{above} row(s) above the header skipped"
    limit = cfg.sheets.max_rows
    try:
        for row in body:
            if not any(row.cells):
                n_blank += 1
                continue
            if n_data >= limit:
                status = "truncated"
                note = f"stopped at max_rows = {limit} (row {row.number} and below not read)"
                break
            n_data += 1
            if len(row.cells) > len(names):
                names = column_names(header, len(row.cells))
                if template is not None:
                    bound = bind(template, names)
            skip = skip_reason(row.cells, cfg.sheets)
            if skip is not None:
                discarded.append(
                    DiscardedRow(
                        source=rel,
                        sheet=sheet.name,
                        row=row.number,
                        rule=skip.rule,
                        cells=tuple((n, c) for n, c in zip(names, row.cells, strict=False) if c),
                        measured=skip.measured,
                        threshold=skip.threshold,
                        explanation=skip.explanation,
                    )
                )
                n_disc += 1
                continue
            flags = list(row.flags)
            text: str | None = None
            used: str | None = None
            if bound is not None:
                text, fallback_flag = apply(bound, row.cells)
                if text is None and fallback_flag:
                    flags.append(fallback_flag)
                else:
                    used = bound.name
            if text is None:
                text = fallback_text(names, row.cells)
            chunks.append(
                Piece(
                    text=text, sheet=sheet.name, row=row.number, template=used, flags=tuple(flags)
                )
            )
            n_chunks += 1
    except InputError as exc:
        header_row = header.number if header is not None else None
        report("failed", header_row, n_data, n_blank, n_chunks, n_disc, exc.reason)
        raise
    header_row = header.number if header is not None else None
    if header is None and not note:
        note = "no header row found: columns named Column 1, Column 2, ..."
    report(status, header_row, n_data, n_blank, n_chunks, n_disc, note)


def _chain(first: list[SheetRow], rest: Iterator[SheetRow]) -> Iterator[SheetRow]:
    yield from first
    yield from rest


# ---------------------------------------------------------------------------- suggestions


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "sheet"


def _sheet_headers(path: Path, rel: str, cfg: Config) -> list[tuple[str, int | None, list[str]]]:
    if path.suffix.lower() != ".csv":
        check_container(path, rel, cfg.sheets)
    out: list[tuple[str, int | None, list[str]]] = []
    for sheet in read_any(path, rel, cfg.sheets.include_hidden):
        if not sheet.visible and not cfg.sheets.include_hidden:
            continue
        head = list(islice(sheet.rows, cfg.sheets.header_search_rows))
        if not any(any(r.cells) for r in head):
            continue
        header = find_header(head)
        width = max(len(r.cells) for r in head)
        names = [n for n, c in zip(column_names(header, width), _widest(head), strict=False) if c]
        out.append((sheet.name, header.number if header else None, names))
    return out


def _widest(rows: list[SheetRow]) -> list[bool]:
    width = max(len(r.cells) for r in rows)
    return [any(i < len(r.cells) and r.cells[i] for r in rows) for i in range(width)]


def suggest_templates(path: Path, rel: str, cfg: Config) -> str:
    """A starter `[[templates]]` TOML block per sheet, naming its real columns.

    Every field is wrapped in an optional `[...]` segment, so the starter never fails on
    an empty cell; edit `text` into a sentence. Unreadable files give a TOML comment line.
    """
    if path.suffix.lower() == ".csv":
        try:
            found: list[tuple[str, int | None, list[str]]] | str = _sheet_headers(path, rel, cfg)
        except InputError as exc:
            found = exc.reason
    else:
        outcome = run_isolated(_safe_headers, (path, rel, cfg), cfg)
        found = outcome
    if isinstance(found, str):
        return f"# {rel}: {found}\n"
    blocks: list[str] = []
    base = Path(rel).name
    for sheet, header_row, names in found:
        name = _slug(Path(rel).stem) + ("" if len(found) == 1 else "_" + _slug(sheet))
        fields_text = " ".join(f"[{_esc(n)}: {{{_esc(n)}}}.]" for n in names)
        lines = [
            f"# {rel} / sheet {sheet!s}: columns " + ", ".join(names),
            "[[templates]]",
            f"name = {_q(name)}",
            f"match = {_q('*' + base)}",
            f"sheet = {_q(sheet)}",
            f"text = {_q(fields_text)}",
        ]
        if header_row is not None and header_row != 1:
            lines.append(f"header_row = {header_row}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) if blocks else f"# {rel}: no non-empty sheet\n"


def _safe_headers(
    path: Path, rel: str, cfg: Config
) -> list[tuple[str, int | None, list[str]]] | str:
    try:
        return _sheet_headers(path, rel, cfg)
    except InputError as exc:
        return exc.reason


def _esc(name: str) -> str:
    return name.replace("{", "{{").replace("}", "}}").replace("[", "[[").replace("]", "]]")


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
