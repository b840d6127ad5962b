"""Cell display: every cell becomes the string a person reads in it.

2023 not 2023.0, ISO dates (time only if not midnight), percent-formatted cells as "42%"
(xlsx/xlsm: the cell's style is read from the sheet XML, `xlsx_cell_notes`), `#DIV/0!`
kept, integers longer than 15 digits taken from the XML text, formulas without a cached
value flagged. A date before 1900 is a date too: Excel cannot hold one, but openpyxl and
other writers store it as a negative serial in a date style, which calamine shows as
00:00 (the date lost); `xlsx_cell_notes` reads it from the XML instead (1757-06-23), as
the ODS reader already does. Limits: .xls/.ods cells carry no number format through calamine, so a
percent there shows as the stored fraction (0.42); formulas without cached values are
detected only in xlsx/xlsm.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path


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


# built-in number formats that show a date (14-17, 22; CJK 27-36, 50-58)
_DATE_FORMATS = frozenset({14, 15, 16, 17, 22, *range(27, 37), *range(50, 59)})
_TIME_PART = frozenset({22})


def _date_styles(zf: zipfile.ZipFile) -> dict[int, bool]:
    """Cell style index -> whether its date format shows a time too (styles of dates only)."""
    from defusedxml import ElementTree

    try:
        root = ElementTree.fromstring(zf.read("xl/styles.xml"))
    except KeyError:
        return {}
    ns = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    formats = {n: n in _TIME_PART for n in _DATE_FORMATS}
    for fmt in root.iter(f"{ns}numFmt"):
        code = re.sub(r'"[^"]*"|\\.|\[[^\]]*\]', "", fmt.get("formatCode", "")).lower()
        if "y" in code or "d" in code:
            formats[int(fmt.get("numFmtId", "-1"))] = "h" in code or "s" in code
    xfs = root.find(f"{ns}cellXfs")
    if xfs is None:
        return {}
    out: dict[int, bool] = {}
    for i, xf in enumerate(xfs.findall(f"{ns}xf")):
        number = int(xf.get("numFmtId", "0"))
        if number in formats:
            out[i] = formats[number]
    return out


def _epoch(zf: zipfile.ZipFile) -> dt.datetime:
    """Day 0 of the workbook's serial dates: 1899-12-30, or 1904-01-01 (`date1904`)."""
    try:
        head = zf.read("xl/workbook.xml")[:4096]
    except KeyError:
        head = b""
    if re.search(rb'date1904="(1|true)"', head):
        return dt.datetime(1904, 1, 1)
    return dt.datetime(1899, 12, 30)


def serial_date(value: float, epoch: dt.datetime, with_time: bool) -> str | None:
    """The ISO date (and time, when the format shows one and it is not midnight) of an
    Excel serial date; None when it falls outside the calendar."""
    try:
        stamp = epoch + dt.timedelta(days=value)
    except (OverflowError, ValueError):
        return None
    stamp = stamp.replace(microsecond=0) + dt.timedelta(seconds=round(stamp.microsecond / 1e6))
    if not with_time or stamp.time() == dt.time(0, 0):
        return stamp.date().isoformat()
    return display(stamp)


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
        dates = _DateStyles(_date_styles(zf), _epoch(zf))
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
                    _scan(data, percent, notes, dates)
                    if not block:
                        break
            out[name] = notes
    return out


def _attrs(raw: bytes) -> dict[bytes, bytes]:
    return dict(_ATTR_RE.findall(raw))


@dataclass(frozen=True, slots=True)
class _DateStyles:
    styles: dict[int, bool]  # style index -> shows a time
    epoch: dt.datetime


def _scan(
    data: bytes,
    percent: frozenset[int],
    notes: dict[tuple[int, int], CellNote],
    dates: _DateStyles | None = None,
) -> None:
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
    if dates is not None and dates.styles and b"<v>-" in data:
        for m in _STYLED_RE.finditer(data):  # negative serials: dates before the epoch
            attrs = _attrs(m.group(3))
            style = attrs.get(b"s")
            if style is None or attrs.get(b"t", b"n") != b"n" or not m.group(4).startswith(b"-"):
                continue
            shows_time = dates.styles.get(int(style))
            if shows_time is None:
                continue
            try:
                text = serial_date(float(m.group(4)), dates.epoch, shows_time)
            except ValueError:
                continue
            if text is not None:
                key = (int(m.group(2)) - 1, _col_index(m.group(1)))
                notes[key] = CellNote(text, None)


_MEDIA = re.compile(r"<img\b[^<>]*>|\[sound:[^\]\n]*\]", re.IGNORECASE)
_ALT = re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)


def media_text(cell: str) -> str | None:
    """A cell with media markup, as a flash-card export writes a field's picture or sound
    (`<img src="cat.jpg">`, Anki's `[sound:cat.mp3]`), read as text: an image by its
    `alt` text, the rest left out; None when the cell holds no media (the common case,
    found by two substring tests). A file name is no fact to retrieve a row by."""
    if "<img" not in cell.casefold() and "[sound:" not in cell:
        return None
    return " ".join(_MEDIA.sub(_alt_text, cell).split())


def _alt_text(m: re.Match[str]) -> str:
    alt = _ALT.search(m.group(0)) if m.group(0)[:1] == "<" else None
    return f" {next(g for g in alt.groups() if g is not None)} " if alt else " "
