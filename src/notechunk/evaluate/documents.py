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
from contextlib import closing
from dataclasses import dataclass
from itertools import chain, islice
from pathlib import Path
from typing import Literal

from notechunk.config import Config
from notechunk.discover import SourceFile, discover
from notechunk.errors import InputError
from notechunk.sheets.csvread import read_csv
from notechunk.sheets.header import build_header, find_header, widen
from notechunk.sheets.isolate import read_isolated
from notechunk.sheets.model import RawSheet
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
    """(row number, row text) of every non-blank row below the sheet's header (stacked
    header rows joined into one name per column, as notechunk names them)."""
    rows = iter(sheet.rows)
    head = list(islice(rows, header_search_rows))
    if not any(any(r.cells) for r in head):
        return
    header = build_header(head, find_header(head), max(len(r.cells) for r in head))
    last = max((i for i, r in enumerate(head) if r.number in set(header.rows)), default=-1)
    names = header.names
    for row in chain(head[last + 1 :], rows):
        if any(row.cells):
            if len(row.cells) > len(names):
                names = widen(names, len(row.cells))
            yield row.number, row_text(list(names), row.cells)


def _sheet_documents(f: SourceFile, cfg: Config, out: list[Document]) -> None:
    """Append the rows of every visible sheet; rows read before a failure are kept."""
    is_csv = f.path.suffix.lower() == ".csv"
    sheets = read_csv(f.path, f.rel, cfg.sheets) if is_csv else read_isolated(f.path, f.rel, cfg)
    with closing(sheets):
        for sheet in sheets:
            if not sheet.visible and not cfg.sheets.include_hidden:
                continue
            for number, text in sheet_rows(sheet, cfg.sheets.header_search_rows):
                source = f"{f.rel}#{sheet.name}:{number}"
                out.append(Document(source=source, text=text, kind="row"))


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
                _sheet_documents(f, cfg, docs)
        except InputError as exc:
            notes.append(f"{f.rel}: {exc.reason}")  # the line `run` gives: said once
        except OSError as exc:
            notes.append(f"{f.rel}: cannot read file ({exc.strerror or exc})")
    return Documents(documents=tuple(docs), notes=tuple(notes))
