"""CSV as one sheet: encoding found from the bytes, delimiter guessed in bounded time.

- Encoding: `textio.detect_encoding` (a BOM, else UTF-8 if the whole file decodes, else
  cp1252 with the flag `encoding_fallback:cp1252` on every row). Never pandas, so "NA" stays "NA".
- Delimiter: of `,` `;` tab `|`, the one that splits the first `_GUESS_RECORDS` records
  into the same number (> 1) of fields most consistently; `,` when none does or on a tie.
  This replaces `csv.Sniffer`, whose quote detection is quadratic (64 KB of lines holding
  a lone `'` took 115 s); here the work is one csv parse of a bounded sample per candidate.
- Fields up to `FIELD_LIMIT` characters are read (the csv module stops at 131,072 by
  default and failed the file); each cell is then cut at `sheets.max_cell_chars`, flagged
  `cell_cut:<ref>:<chars>`. A longer field makes the file fail with that reason.
- A quoted multi-line cell is one record, so `row` counts records, as a spreadsheet would.
- A cell holding a flash-card export's picture or sound (`<img src=...>`, `[sound:...]`)
  is read as text (an image's `alt`, else nothing) and flagged `media_cell:<ref>`.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections import Counter
from collections.abc import Generator, Iterator
from pathlib import Path

from notechunk.config import SheetsConfig
from notechunk.errors import InputError, UnsupportedInput
from notechunk.sheets.cells import media_text
from notechunk.sheets.limits import col_letters, cut_cells
from notechunk.sheets.model import RawSheet, SheetRow
from notechunk.textio import FALLBACK_FLAG, binary_kind, detect_encoding, open_regular

FIELD_LIMIT = 1 << 24  # characters in one CSV field: raised once from csv's 131,072
_DELIMITERS = (",", ";", "\t", "|")
_GUESS_RECORDS = 50
_GUESS_BYTES = 65536


def guess_delimiter(sample: str) -> str:
    """The delimiter that splits the sample's first records most consistently (`,` first)."""
    lines = sample.splitlines()
    if len(sample) >= _GUESS_BYTES and len(lines) > 1:
        lines.pop()  # cut mid-line by the sample's end
    lines = lines[: _GUESS_RECORDS * 4]
    best, best_score = ",", (0.0, 0)
    for delimiter in _DELIMITERS:
        if not any(delimiter in line for line in lines):
            continue
        try:
            counts = [len(r) for r in csv.reader(lines, delimiter=delimiter) if any(r)]
        except csv.Error:
            continue
        counts = counts[:_GUESS_RECORDS]
        if not counts:
            continue
        width, hits = Counter(counts).most_common(1)[0]
        score = (hits / len(counts), width)
        if width > 1 and score > best_score:
            best, best_score = delimiter, score
    return best


def read_csv(path: Path, rel: str, cfg: SheetsConfig) -> Generator[RawSheet, None, None]:
    """A CSV as one sheet named after the file stem; rows numbered by record (1-based).

    Bytes that are not text are refused before any row: a known binary format by its
    magic number (a PNG, a gzip, a workbook named .csv), or NUL bytes without a UTF-16/32
    byte-order mark."""
    with open_regular(path, rel) as fh:
        head = fh.read(1 << 20)
    check_text(head, rel)
    encoding = detect_encoding(head)
    fell_back = encoding == "cp1252"
    if encoding == "utf-8":
        try:
            with open_regular(path, rel) as fh:
                decoder = codecs.getincrementaldecoder("utf-8")()
                while block := fh.read(1 << 20):
                    decoder.decode(block)
                decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            encoding, fell_back = "cp1252", True
    rows = _csv_rows(path, rel, encoding, fell_back, cfg.max_cell_chars)
    yield RawSheet(name=path.stem, visible=True, rows=rows)


def _media(cells: tuple[str, ...], row: int) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The cells with media markup read as text (`cells.media_text`) and a
    `media_cell:<ref>` flag for each, or None when no cell holds media."""
    out, flags = list(cells), []
    for col, cell in enumerate(cells):
        text = media_text(cell)
        if text is not None:
            out[col] = text
            flags.append(f"media_cell:{col_letters(col)}{row}")
    return (tuple(out), tuple(flags)) if flags else None


def check_text(head: bytes, rel: str) -> None:
    """Raise `InputError` when a CSV's first bytes are not text (`textio.binary_kind`, or
    NUL bytes without a byte-order mark that allows them)."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_BE)):
        return
    magic = binary_kind(head[:1024])
    if magic is not None:
        raise UnsupportedInput(rel, f"not a CSV file: binary content ({magic})")
    if b"\x00" in head:
        raise UnsupportedInput(rel, "not a CSV file: binary content (NUL bytes)")


def _csv_rows(
    path: Path, rel: str, encoding: str, fell_back: bool, max_chars: int
) -> Iterator[SheetRow]:
    flags = (FALLBACK_FLAG,) if fell_back else ()
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)  # process-wide; only ever raised, to one value
    with io.TextIOWrapper(
        open_regular(path, rel), encoding=encoding, errors="replace", newline=""
    ) as fh:
        delimiter = guess_delimiter(fh.read(_GUESS_BYTES))
        fh.seek(0)
        reader = csv.reader(fh, csv.excel, delimiter=delimiter)
        try:
            for i, record in enumerate(reader, start=1):
                cells, cut = cut_cells(tuple(map(str.strip, record)), i, max_chars)
                joined = "".join(cells)  # one test a row: media markup is rare
                media = _media(cells, i) if "<" in joined or "[sound:" in joined else None
                if media is not None:
                    cells, cut = media[0], cut + media[1]
                yield SheetRow(number=i, cells=cells, flags=flags + cut)
        except csv.Error as exc:
            raise InputError(rel, f"malformed CSV near record {reader.line_num}: {exc}") from None
