"""The peers' view of a corpus: the same files `run` reads, as plain documents.

Discovery is the product's own (`discover.discover`), so peers and notechunk see the same
files. A Markdown file is one document, decoded with `textio.decode_text` (BOM, UTF-8,
cp1252). A spreadsheet gives one document per non-blank row below its header, written as
`header: value` lines: what LangChain's `CSVLoader` yields for a row (every column, empty
values included). Rows are read with the project's own sheet readers (CSV in process,
workbooks in the isolated worker), so every format `run` reads works here, and the header
is the one notechunk detects (a title row above the table is not a header for a peer
either). What could not be read is a note, as it is an error for `run`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Literal

from notechunk.config import Config
from notechunk.discover import SourceFile, discover
from notechunk.errors import InputError
from notechunk.sheets.header import column_names, find_header
from notechunk.sheets.isolate import read_isolated
from notechunk.sheets.read import RawSheet, SheetRow, read_csv
from notechunk.textio import read_text

DocKind = Literal["markdown", "row"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    """One peer document: a whole Markdown file, or one spreadsheet row (`kind="row"`)."""

    source: str
    text: str
    kind: DocKind = "markdown"


@dataclass(frozen=True, slots=True, kw_only=True)
class Documents:
    documents: tuple[Document, ...]
    notes: tuple[str, ...] = ()


def row_text(names: list[str], cells: tuple[str, ...]) -> str:
    """CSVLoader's page content for a row: one `header: value` line per column."""
    width = max(len(names), len(cells))
    heads = [*names, *(f"Column {i}" for i in range(len(names) + 1, width + 1))]
    values = [*cells, *([""] * (width - len(cells)))]
    return "\n".join(f"{h.strip()}: {v.strip()}" for h, v in zip(heads, values, strict=True))


def sheet_rows(sheet: RawSheet, header_search_rows: int) -> Iterator[tuple[int, str]]:
    """(row number, row text) of every non-blank row below the sheet's header."""
    rows = iter(sheet.rows)
    head = list(islice(rows, header_search_rows))
    header = find_header(head)
    body: Iterable[SheetRow] = head if header is None else head[head.index(header) + 1 :]
    width = max((len(r.cells) for r in head), default=0)
    names = column_names(header, width)
    for row in _chain(body, rows):
        if any(row.cells):
            if len(row.cells) > len(names):
                names = column_names(header, len(row.cells))
            yield row.number, row_text(names, row.cells)


def _chain(first: Iterable[SheetRow], rest: Iterator[SheetRow]) -> Iterator[SheetRow]:
    yield from first
    yield from rest


def _sheet_documents(f: SourceFile, cfg: Config) -> list[Document]:
    sheets = read_csv(f.path, f.rel) if f.path.suffix.lower() == ".csv" else None
    out: list[Document] = []
    for sheet in sheets if sheets is not None else read_isolated(f.path, f.rel, cfg):
        if not sheet.visible and not cfg.sheets.include_hidden:
            continue
        for number, text in sheet_rows(sheet, cfg.sheets.header_search_rows):
            source = f"{f.rel}#{sheet.name}:{number}"
            out.append(Document(source=source, text=text, kind="row"))
    return out


def load_documents(src: Path, cfg: Config, exclude: Iterable[Path] = ()) -> Documents:
    """Every file `run` would read under `src`, as peer documents, in discovery order."""
    found = discover(src, exclude=exclude)
    docs: list[Document] = []
    notes = [f"{e.source}: {e.reason}" for e in found.errors]
    for f in found.files:
        try:
            if f.kind == "markdown":
                decoded = read_text(f.path, f.rel)
                docs.append(Document(source=f.rel, text=decoded.text))
                if decoded.fell_back:
                    notes.append(f"{f.rel}: decoded as cp1252 (not UTF-8)")
            else:
                docs.extend(_sheet_documents(f, cfg))
        except InputError as exc:
            notes.append(f"{f.rel}: {exc.reason} (peers read nothing more of it)")
        except OSError as exc:
            notes.append(f"{f.rel}: cannot read file ({exc.strerror or exc})")
    return Documents(documents=tuple(docs), notes=tuple(notes))
