"""Readers: one file in, `RawSheet`s of display strings out, with the sheet's real row numbers.

Contract:
- `sniff(path)` names what the bytes are (zip, ole, html, ...) before any parser sees them.
- `check_zip(path, cfg)` refuses zip bombs (total uncompressed size, ratio, member count)
  and parts with `<!DOCTYPE` (XML entities), before calamine or openpyxl open the file.
- `read_workbook` streams rows with calamine `iter_rows()`; `read_csv` streams with the
  csv module (BOM, UTF-16 BOM, UTF-8, else cp1252; never pandas, so "NA" stays "NA").
- Every cell becomes the string a person reads: 2023 not 2023.0, ISO dates (time only if
  not midnight), percent-formatted cells as "42%" (xlsx/xlsm: the cell's style is read from
  the sheet XML), `#DIV/0!` kept, integers longer than 15 digits taken from the XML text.
- Row numbers are 1-based and real: python-calamine 0.9 `iter_rows()` yields from row 1 even
  when the used range starts lower (pinned by a test); if a version yields from the range
  start instead, `_row_offset` notices a non-blank first row and shifts by `start`.
- Merged ranges: the top-left value is copied down the first column of the range (a person
  reads a vertically merged "State" cell as applying to each row); horizontal spans are read
  once.

Limits: .xls/.ods cells carry no number format through calamine, so a percent there shows as
the stored fraction (0.42); formulas without cached values are detected only in xlsx/xlsm.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from notechunk.config import SheetsConfig
from notechunk.errors import InputError, UnsupportedInput
from notechunk.textio import FALLBACK_FLAG, detect_encoding

WORKBOOK_SUFFIXES = frozenset({".xlsx", ".xlsm", ".xls", ".ods"})
SHEET_SUFFIXES = WORKBOOK_SUFFIXES | {".csv"}

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_DOCTYPE_PREFIX_BYTES = 65536


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetRow:
    """One row: its real 1-based number, its cells as display strings, per-cell notes."""

    number: int
    cells: tuple[str, ...]
    flags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class RawSheet:
    name: str
    visible: bool
    rows: Iterator[SheetRow]


def sniff(path: Path) -> str:
    """'zip', 'ole', 'empty', 'html', 'xml', 'text' or 'binary' from the first bytes."""
    with path.open("rb") as fh:
        head = fh.read(2048)
    if not head:
        return "empty"
    if head.startswith(_ZIP_MAGIC):
        return "zip"
    if head.startswith(_OLE_MAGIC):
        return "ole"
    text = head.lstrip(b"\xef\xbb\xbf\xff\xfe\x00 \t\r\n").lower().replace(b"\x00", b"")
    if text.startswith((b"<!doctype html", b"<html")) or b"<table" in text or b"<html" in text:
        return "html"
    if text.startswith(b"<?xml") or text.startswith(b"<"):
        return "xml"
    if b"\x00" not in head[:512] or head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "text"
    return "binary"


def check_container(path: Path, rel: str, cfg: SheetsConfig) -> None:
    """Raise `InputError` with one clear reason unless the bytes fit the extension."""
    kind = sniff(path)
    suffix = path.suffix.lower()
    if kind == "empty":
        raise InputError(rel, "empty file (0 bytes)")
    if kind in ("html", "xml", "text", "binary"):
        label = {"html": "HTML", "xml": "XML", "text": "text/CSV", "binary": "unknown binary"}
        raise UnsupportedInput(rel, f"not a workbook (looks like {label[kind]})")
    if kind == "ole" and suffix != ".xls":
        raise UnsupportedInput(
            rel,
            "password-protected or encrypted workbook (OLE container named "
            f"{suffix}; remove the password or save as plain {suffix})",
        )
    if kind == "zip" and suffix == ".xls":
        raise UnsupportedInput(rel, "not a legacy .xls (zip container; rename to .xlsx)")
    if kind == "zip":
        check_zip(path, rel, cfg)


def check_zip(path: Path, rel: str, cfg: SheetsConfig) -> None:
    """Refuse zip bombs and DOCTYPE-bearing parts before any XML parser sees them."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > cfg.max_zip_members:
                raise InputError(
                    rel, f"zip bomb suspected: {len(infos)} members > {cfg.max_zip_members}"
                )
            total = sum(i.file_size for i in infos)
            packed = sum(i.compress_size for i in infos)
            if total > cfg.max_unzipped_bytes:
                raise InputError(
                    rel,
                    f"zip bomb suspected: {total} bytes uncompressed > "
                    f"max_unzipped_bytes {cfg.max_unzipped_bytes}",
                )
            ratio = total / max(packed, 1)
            if ratio > cfg.max_zip_ratio and total > 1_000_000:
                raise InputError(
                    rel,
                    f"zip bomb suspected: compression ratio {ratio:.0f} > "
                    f"max_zip_ratio {cfg.max_zip_ratio:g}",
                )
            for info in infos:
                if not info.filename.lower().endswith((".xml", ".rels", ".vml")):
                    continue
                with zf.open(info) as member:
                    prefix = member.read(_DOCTYPE_PREFIX_BYTES)
                if b"<!doctype" in prefix.lower():
                    raise InputError(
                        rel, f"refused: part {info.filename} declares a <!DOCTYPE> (XML entities)"
                    )
    except zipfile.BadZipFile as exc:
        raise InputError(rel, f"corrupt workbook (bad zip: {exc})") from None
    except (RuntimeError, NotImplementedError) as exc:  # encrypted member, unknown method
        raise InputError(rel, f"unreadable zip member ({exc})") from None


# ---------------------------------------------------------------------------- cell display


def display(value: object) -> str:
    """The string a person reads in the cell (calamine's value types)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_number(value)
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0, 0):
            return value.date().isoformat()
        spec = "minutes" if value.second == 0 and value.microsecond == 0 else "seconds"
        return value.isoformat(sep=" ", timespec=spec)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        spec = "minutes" if value.second == 0 and value.microsecond == 0 else "seconds"
        return value.isoformat(timespec=spec)
    return str(value).strip()


def format_number(value: float) -> str:
    """2023.0 -> '2023'; 15 significant digits otherwise, as Excel shows them."""
    if value != value:  # NaN
        return ""
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    text = format(value, ".15g")
    if "e" in text:
        return text
    return text


def format_percent(value: float) -> str:
    return format_number(round(value * 100, 10)) + "%"


# ---------------------------------------------------------------------------- xlsx extras

_CELL_TAG = rb'<c r="([A-Z]{1,3})([0-9]+)"([^>]*?)'
_ERROR_RE = re.compile(_CELL_TAG + rb"(?<!/)>(?:<f[^>]*/>|<f[^>]*>[^<]*</f>)?<v>([^<]*)</v>", re.S)
_FORMULA_NO_VALUE_RE = re.compile(
    _CELL_TAG + rb"(?<!/)>(?:<f[^>]*/>|<f[^>]*>[^<]*</f>)(?:<v\s*/>|<v></v>)?</c>", re.S
)
_LONG_INT_RE = re.compile(_CELL_TAG + rb"(?<!/)><v>(-?[0-9]{16,})</v></c>")
_STYLED_RE = re.compile(_CELL_TAG + rb"(?<!/)>(?:<f[^>]*/>|<f[^>]*>[^<]*</f>)?<v>([^<]*)</v>")
_LONG_DIGITS = re.compile(rb"<v>-?[0-9]{16}")
_ATTR_RE = re.compile(rb'\b([st])="([^"]*)"')


def _col_index(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ch - 64)
    return n - 1


@dataclass(frozen=True, slots=True)
class CellNote:
    text: str | None  # replacement display text, or None to keep calamine's
    flag: str | None


def _percent_styles(zf: zipfile.ZipFile) -> frozenset[int]:
    from defusedxml import ElementTree

    try:
        root = ElementTree.fromstring(zf.read("xl/styles.xml"))
    except KeyError:
        return frozenset()
    ns = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    percent_fmts = {9, 10}
    for fmt in root.iter(f"{ns}numFmt"):
        code = re.sub(r'"[^"]*"|\\.', "", fmt.get("formatCode", ""))
        if "%" in code:
            percent_fmts.add(int(fmt.get("numFmtId", "-1")))
    xfs = root.find(f"{ns}cellXfs")
    if xfs is None:
        return frozenset()
    return frozenset(
        i
        for i, xf in enumerate(xfs.findall(f"{ns}xf"))
        if int(xf.get("numFmtId", "0")) in percent_fmts
    )


def _sheet_parts(zf: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name -> zip member of its XML."""
    from defusedxml import ElementTree

    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    rel_ns = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
    try:
        wb = ElementTree.fromstring(zf.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(zf.read("xl/_rels/workbook.xml.rels"))
    except KeyError:
        return {}
    targets = {r.get("Id"): r.get("Target", "") for r in rels}
    out: dict[str, str] = {}
    for sheet in wb.iter(f"{main}sheet"):
        target = targets.get(sheet.get(f"{rel_ns}id"), "")
        if not target:
            continue
        member = target.lstrip("/") if target.startswith("/") else "xl/" + target
        out[sheet.get("name", "")] = member
    return out


def xlsx_cell_notes(path: Path) -> dict[str, dict[tuple[int, int], CellNote]]:
    """Per sheet, the cells calamine cannot show right: (row0, col0) -> CellNote.

    Percent-styled numbers, error values, formulas without a cached value and integers
    longer than 15 digits. The sheet XML is scanned block by block (bounded memory).
    """
    out: dict[str, dict[tuple[int, int], CellNote]] = {}
    with zipfile.ZipFile(path) as zf:
        percent = _percent_styles(zf)
        for name, member in _sheet_parts(zf).items():
            notes: dict[tuple[int, int], CellNote] = {}
            try:
                fh = zf.open(member)
            except KeyError:
                continue
            with fh:
                carry = b""
                while True:
                    block = fh.read(4 << 20)
                    data = carry + block
                    if block:
                        cut = data.rfind(b"</row>")
                        if cut < 0:
                            carry = data
                            continue
                        cut += len(b"</row>")
                        data, carry = data[:cut], data[cut:]
                    _scan(data, percent, notes)
                    if not block:
                        break
            out[name] = notes
    return out


def _attrs(raw: bytes) -> dict[bytes, bytes]:
    return dict(_ATTR_RE.findall(raw))


def _scan(data: bytes, percent: frozenset[int], notes: dict[tuple[int, int], CellNote]) -> None:
    has_formula = b"<f" in data
    for m in _FORMULA_NO_VALUE_RE.finditer(data) if has_formula else ():
        key = (int(m.group(2)) - 1, _col_index(m.group(1)))
        ref = (m.group(1) + m.group(2)).decode()
        notes[key] = CellNote(None, f"formula_without_value:{ref}")
    if b't="e"' in data:
        for m in _ERROR_RE.finditer(data):
            if _attrs(m.group(3)).get(b"t") == b"e":
                key = (int(m.group(2)) - 1, _col_index(m.group(1)))
                ref = (m.group(1) + m.group(2)).decode()
                notes[key] = CellNote(m.group(4).decode(errors="replace"), f"error_value:{ref}")
    for m in _LONG_INT_RE.finditer(data) if _LONG_DIGITS.search(data) else ():
        if _attrs(m.group(3)).get(b"t", b"n") == b"n":
            key = (int(m.group(2)) - 1, _col_index(m.group(1)))
            notes[key] = CellNote(m.group(4).decode(), None)
    if percent:
        for m in _STYLED_RE.finditer(data):
            attrs = _attrs(m.group(3))
            style = attrs.get(b"s")
            if style is None or attrs.get(b"t", b"n") != b"n" or int(style) not in percent:
                continue
            try:
                value = float(m.group(4))
            except ValueError:
                continue
            key = (int(m.group(2)) - 1, _col_index(m.group(1)))
            notes[key] = CellNote(format_percent(value), None)


# ---------------------------------------------------------------------------- workbooks


def read_workbook(path: Path, rel: str, include_hidden: bool) -> Iterator[RawSheet]:
    """Every sheet of a workbook (hidden ones too, marked), rows streamed lazily."""
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
    for meta in wb.sheets_metadata:
        visible = str(meta.visible).endswith("Visible")
        if not visible and not include_hidden:
            yield RawSheet(name=meta.name, visible=False, rows=iter(()))
            continue
        try:
            sheet = wb.get_sheet_by_name(meta.name)
        except pc.CalamineError as exc:
            raise InputError(rel, f"sheet {meta.name!r} unreadable ({_one_line(exc)})") from None
        yield RawSheet(
            name=meta.name, visible=visible, rows=_calamine_rows(sheet, notes.get(meta.name, {}))
        )


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] or type(exc).__name__


def _calamine_rows(sheet: object, notes: dict[tuple[int, int], CellNote]) -> Iterator[SheetRow]:
    start: tuple[int, int] | None = getattr(sheet, "start", None)
    if start is None:
        return
    row0, col0 = start
    merged = _merge_fills(getattr(sheet, "merged_cell_ranges", None))
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
        yield SheetRow(number=r + 1, cells=tuple(cells), flags=tuple(flags))


def _merge_fills(ranges: object) -> dict[tuple[int, int], tuple[int, int]]:
    """(row0, col0) of each cell down the first column of a merged range -> its top-left."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    if not isinstance(ranges, list):
        return out
    for (r0, c0), (r1, _c1) in ranges:
        if r1 <= r0 or r1 - r0 > 100_000:
            continue
        for r in range(r0, r1 + 1):
            out[(r, c0)] = (r0, c0)
    return out


# ---------------------------------------------------------------------------- CSV


def read_csv(path: Path, rel: str) -> Iterator[RawSheet]:
    """A CSV as one sheet named after the file stem; rows numbered by record (1-based).

    A quoted multi-line cell is one record, so `row` counts records, as a spreadsheet would.
    Encoding: the whole file must decode as UTF-8 or it is read as cp1252 (flag
    `encoding_fallback:cp1252` on every chunk).
    """
    with path.open("rb") as fh:
        head = fh.read(1 << 20)
    encoding = detect_encoding(head)
    fell_back = encoding == "cp1252"
    if encoding == "utf-8":
        try:
            with path.open("rb") as fh:
                decoder = codecs.getincrementaldecoder("utf-8")()
                while block := fh.read(1 << 20):
                    decoder.decode(block)
                decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            encoding, fell_back = "cp1252", True
    yield RawSheet(name=path.stem, visible=True, rows=_csv_rows(path, rel, encoding, fell_back))


def _csv_rows(path: Path, rel: str, encoding: str, fell_back: bool) -> Iterator[SheetRow]:
    flags = (FALLBACK_FLAG,) if fell_back else ()
    with path.open("r", encoding=encoding, errors="replace", newline="") as fh:
        sample = fh.read(65536)
        fh.seek(0)
        dialect: type[csv.Dialect] | csv.Dialect = csv.excel
        try:
            sniffed = csv.Sniffer().sniff(sample, delimiters=",;\t|")
            if sniffed.delimiter != ",":
                dialect = sniffed
        except csv.Error:
            pass
        reader = csv.reader(fh, dialect)
        try:
            for i, record in enumerate(reader, start=1):
                yield SheetRow(number=i, cells=tuple(c.strip() for c in record), flags=flags)
        except csv.Error as exc:
            raise InputError(rel, f"malformed CSV near record {reader.line_num}: {exc}") from None


def read_any(path: Path, rel: str, include_hidden: bool) -> Iterator[RawSheet]:
    if path.suffix.lower() == ".csv":
        return read_csv(path, rel)
    return read_workbook(path, rel, include_hidden)


__all__ = [
    "SHEET_SUFFIXES",
    "WORKBOOK_SUFFIXES",
    "RawSheet",
    "SheetRow",
    "check_container",
    "check_zip",
    "display",
    "read_any",
    "read_csv",
    "read_workbook",
    "sniff",
    "xlsx_cell_notes",
]
