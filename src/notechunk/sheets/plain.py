"""A sheet as plain documents, what a peer chunker is given: one document per non-blank
row below the header, written as `header: value` lines (LangChain's `CSVLoader` page
content: every column, empty values included). Rows come from the project's own readers
(CSV in process, workbooks in the isolated worker), so the header is the one notechunk
detects (a title row above the table is not a header for a peer either)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from itertools import chain, islice
from pathlib import Path

from notechunk.config import Config
from notechunk.sheets.header import build_header, find_header, given_header, widen
from notechunk.sheets.isolate import read_isolated
from notechunk.sheets.model import RawSheet
from notechunk.sheets.read import read_text_sheet


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
    if sheet.columns is not None:  # a card deck: every row is a card
        header = given_header(sheet.columns)
    else:
        header = build_header(head, find_header(head), max(len(r.cells) for r in head))
    last = max((i for i, r in enumerate(head) if r.number in set(header.rows)), default=-1)
    names = header.names
    for row in chain(head[last + 1 :], rows):
        if any(row.cells):
            if len(row.cells) > len(names):
                names = widen(names, header.made_up, len(row.cells))[0]
            yield row.number, row_text(list(names), row.cells)


def plain_rows(path: Path, rel: str, cfg: Config) -> Iterator[tuple[str, str]]:
    """(`rel#sheet:row`, row text) of every visible sheet's rows; a failure raises
    `InputError` after the rows read before it."""
    sheets = read_text_sheet(path, rel, cfg.sheets)
    if sheets is None:  # a workbook: read in a limited worker
        sheets = read_isolated(path, rel, cfg)
    with closing(sheets):
        for sheet in sheets:
            if not sheet.visible and not cfg.sheets.include_hidden:
                continue
            for number, text in sheet_rows(sheet, cfg.sheets.header_search_rows):
                yield f"{rel}#{sheet.name}:{number}", text
