"""The spreadsheet runner: one file in, chunks + discarded rows + sheet reports + errors out.

`process_sheet_file` never raises for bad input. Workbooks are parsed in a worker process
(forkserver on Linux, else spawn) with RLIMIT_AS = `sheets.worker_memory_mb` and a
`sheets.worker_timeout_s` timeout, because calamine can abort the process on hostile input
(RELIABILITY.md). A worker that dies or times out becomes that file's `FileError`
(stage "read"). CSV files are parsed in-process (pure Python, no native parser).

Invariant (per sheet read): data_rows == chunks + discarded, where data_rows counts the
non-blank rows below the header; wholly blank rows are only counted (`blank_rows`).
Rows past `sheets.max_rows` are not read: the sheet's status is `truncated` and its note
says where it stopped.
"""

from __future__ import annotations

import multiprocessing as mp
import re
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from notechunk.chunk import Chunk, DiscardedRow, FileError, SheetReport
from notechunk.config import Config
from notechunk.errors import InputError
from notechunk.quality import label
from notechunk.sheets.header import column_names, find_header
from notechunk.sheets.read import RawSheet, SheetRow, check_container, read_any
from notechunk.sheets.skip import skip_reason
from notechunk.sheets.templates import apply, bind, fallback_text, select_template

T = TypeVar("T")


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetFileResult:
    chunks: list[Chunk] = field(default_factory=list)
    discarded: list[DiscardedRow] = field(default_factory=list)
    reports: list[SheetReport] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


def process_sheet_file(path: Path, rel: str, cfg: Config) -> SheetFileResult:
    """Chunks of every visible sheet of `path` (`rel` is its POSIX path relative to SRC)."""
    if path.suffix.lower() == ".csv":
        return _process_local(path, rel, cfg)
    outcome = run_isolated(_process_local, (path, rel, cfg), cfg)
    if isinstance(outcome, str):
        return SheetFileResult(errors=[FileError(source=rel, stage="read", reason=outcome)])
    return outcome


def _process_local(path: Path, rel: str, cfg: Config) -> SheetFileResult:
    chunks: list[Chunk] = []
    discarded: list[DiscardedRow] = []
    reports: list[SheetReport] = []
    try:
        if path.suffix.lower() != ".csv":
            check_container(path, rel, cfg.sheets)
        for sheet in read_any(path, rel, cfg.sheets.include_hidden):
            _process_sheet(sheet, rel, cfg, chunks, discarded, reports)
    except InputError as exc:
        return SheetFileResult(
            chunks=chunks,
            discarded=discarded,
            reports=reports,
            errors=[FileError(source=rel, stage="read", reason=exc.reason)],
        )
    except OSError as exc:
        reason = f"cannot read file ({exc.strerror or exc})"
        return SheetFileResult(errors=[FileError(source=rel, stage="read", reason=reason)])
    return SheetFileResult(chunks=chunks, discarded=discarded, reports=reports)


def _process_sheet(
    sheet: RawSheet,
    rel: str,
    cfg: Config,
    chunks: list[Chunk],
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
        chunk = Chunk(
            text=text,
            source=rel,
            source_type="spreadsheet",
            sheet=sheet.name,
            row=row.number,
            template=used,
            flags=tuple(flags),
        )
        chunks.append(label(chunk, cfg))
        n_chunks += 1
    header_row = header.number if header is not None else None
    if header is None and not note:
        note = "no header row found: columns named Column 1, Column 2, ..."
    report(status, header_row, n_data, n_blank, n_chunks, n_disc, note)


def _chain(first: list[SheetRow], rest: Iterator[SheetRow]) -> Iterator[SheetRow]:
    yield from first
    yield from rest


# ---------------------------------------------------------------------------- isolation


def _context() -> Any:
    method = "forkserver" if sys.platform.startswith("linux") else "spawn"
    return mp.get_context(method)


def _worker(
    conn: Any, func: Callable[..., Any], args: tuple[Any, ...], memory_mb: int, log: str
) -> None:
    import os
    import resource

    # a native abort (calamine panics) writes to fd 2: keep it out of the user's terminal,
    # the parent reads the first line for the failure reason
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    os.dup2(fd, 2)
    os.close(fd)
    os.environ["RUST_BACKTRACE"] = "0"

    limit = memory_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        result: Any = func(*args)
    except MemoryError:
        result = f"out of memory (worker limit {memory_mb} MB)"
    except Exception as exc:  # noqa: BLE001 - the process edge: report, never a traceback
        result = f"unexpected reader failure ({type(exc).__name__}: {_first_line(exc)})"
    conn.send(result)
    conn.close()


def _first_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]


def run_isolated(func: Callable[..., T], args: tuple[Any, ...], cfg: Config) -> T | str:
    """`func(*args)` in a worker with memory and time limits; a string is a failure reason."""
    with tempfile.TemporaryDirectory(prefix="notechunk-worker-") as tmp:
        log = Path(tmp) / "stderr.txt"
        log.touch()
        return _run(func, args, cfg, str(log))


def _run(func: Callable[..., T], args: tuple[Any, ...], cfg: Config, log: str) -> T | str:
    ctx = _context()
    parent, child = ctx.Pipe(duplex=False)
    memory_mb = cfg.sheets.worker_memory_mb
    proc = ctx.Process(target=_worker, args=(child, func, args, memory_mb, log))
    proc.start()
    child.close()
    timeout = cfg.sheets.worker_timeout_s
    try:
        if not parent.poll(timeout):
            proc.kill()
            proc.join()
            return f"timeout: reading took longer than worker_timeout_s = {timeout:g} s"
        try:
            result: T | str = parent.recv()
        except (EOFError, OSError):
            proc.join()
            return _death_reason(proc.exitcode, memory_mb, Path(log))
    finally:
        parent.close()
    proc.join()
    return result


def _death_reason(code: int | None, memory_mb: int, log: Path) -> str:
    said = ""
    try:
        with log.open(encoding="utf-8", errors="replace") as fh:
            lines = [ln.strip() for ln in islice(fh, 200)]
        said = next((ln for ln in lines if "memory allocation" in ln), "")
    except OSError:
        pass
    detail = f"; {said[:160]}" if said else ""
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return (
            f"worker died ({name}) while parsing: likely a hostile or huge workbook "
            f"(memory limit {memory_mb} MB{detail})"
        )
    return f"worker died (exit code {code}) while parsing{detail}"


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
