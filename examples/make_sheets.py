"""Write the sample sheets into examples/notes/sheets/ (deterministic: same bytes every run).

    python examples/make_sheets.py

The facts are written for the examples (rounded, study-note style), not copied from any
source. Each file shows one behaviour of the sheet runner:
- passes.xlsx: the `passes` template, an empty "Connects" cell (optional segment), a
  structural "Part A" row, tag noise (#imp, [PYQ 2019], ★) and a mnemonic column.
- rivers.xlsx: the `rivers` template, a hidden "Scratch" sheet, a percent column.
- constitution_articles.csv: UTF-8 with BOM, multi-line quoted cells, fallback text.
- gdp.xlsx: a merged title row above the header, a numbers-only row (mostly_numeric),
  a notes column, a "Total" row (structural).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
from pathlib import Path

import openpyxl

OUT = Path(__file__).resolve().parent / "notes" / "sheets"
FIXED = dt.datetime(2024, 1, 1, 0, 0, 0)

PASSES = [
    ["Pass", "State", "Connects", "Altitude", "Range", "Mnemonic"],
    ["Part A"],
    ["Zoji La", "Ladakh", "Srinagar and Leh", "3528 m", "Zaskar", "Mnemonic: Zoji joins"],
    ["Khardung La", "Ladakh", "Leh and the Nubra valley #imp", "5359 m", "Ladakh", ""],
    [
        "Rohtang",
        "Himachal Pradesh",
        "Kullu and Lahaul-Spiti [PYQ 2019]",
        "3978 m",
        "Pir Panjal",
        "",
    ],
    [
        "Shipki La",
        "Himachal Pradesh",
        "Kinnaur and Tibet ★",
        "5669 m",
        "Zaskar",
        "Trick: Shimla-Shipki",
    ],
    ["Nathu La", "Sikkim", "Sikkim and the Chumbi valley of Tibet", "4310 m", "Dongkya", ""],
    ["Bomdi La", "Arunachal Pradesh", "", "2600 m", "Eastern Himalaya", ""],
    ["Part B"],
    ["Palghat Gap", "Kerala", "Palakkad and Coimbatore", "300 m", "Western Ghats", ""],
    ["Thal Ghat", "Maharashtra", "Nashik and Mumbai", "585 m", "Western Ghats", ""],
]

RIVERS = [
    ["River", "Origin", "Length (km)", "Drains into", "Basin share", "Major tributaries"],
    ["Godavari", "Trimbakeshwar, Nashik", 1465, "Bay of Bengal", 0.098, "Pranhita, Indravati"],
    ["Krishna", "Mahabaleshwar", 1400, "Bay of Bengal", 0.08, "Tungabhadra, Bhima"],
    ["Narmada", "Amarkantak", 1312, "Gulf of Khambhat", 0.03, "Tawa, Hiran"],
    ["Mahanadi", "Sihawa, Dhamtari", 851, "Bay of Bengal", 0.043, ""],
    ["Kaveri", "Talakaveri, Kodagu", 800, "Bay of Bengal", 0.025, "Kabini, Bhavani"],
]

ARTICLES = [
    ["Article", "Title", "Summary"],
    [
        "14",
        "Equality before law",
        "The State shall not deny to any person equality before "
        "the law or the equal protection of the laws within the territory of India.",
    ],
    [
        "19",
        "Six freedoms",
        "Citizens have the freedoms of speech and expression, assembly, "
        "association, movement, residence and profession,\nsubject to reasonable restrictions.",
    ],
    [
        "21",
        "Protection of life and personal liberty",
        "No person shall be deprived of life or "
        "personal liberty except according to procedure established by law.",
    ],
    [
        "21A",
        "Right to education",
        "Free and compulsory education for all children aged six "
        "to fourteen, added by the 86th Amendment in 2002.",
    ],
    [
        "32",
        "Constitutional remedies",
        "The right to move the Supreme Court for the enforcement "
        "of fundamental rights; Ambedkar called it the heart and soul of the Constitution.",
    ],
    ["", "", ""],
    ["Part IV"],
    [
        "44",
        "Uniform civil code",
        "The State shall endeavour to secure a uniform civil code "
        "for citizens throughout the territory of India (a Directive Principle).",
    ],
]

GDP_TITLE = "Gross state domestic product, current prices (₹ lakh crore, illustrative)"
GDP = [
    ["State", "2021-22", "2022-23", "Growth", "Notes"],
    ["Maharashtra", 31.1, 35.3, 0.135, "Largest state economy; services led by Mumbai"],
    ["Tamil Nadu", 20.7, 23.6, 0.14, "Strong manufacturing base around Chennai and Coimbatore"],
    ["Karnataka", 19.6, 22.4, 0.143, "IT services concentrated in Bengaluru"],
    ["Gujarat", 19.4, 22.0, 0.134, "Petrochemicals and ports along the Gulf of Khambhat"],
    ["", 1.1, 1.2, 0.05, ""],
    ["Total", 90.8, 103.3, 0.138],
]


def _percent(ws: openpyxl.worksheet.worksheet.Worksheet, col: str, first: int, last: int) -> None:
    for r in range(first, last + 1):
        ws[f"{col}{r}"].number_format = "0.0%"


def _save(wb: openpyxl.Workbook, path: Path) -> None:
    """Save with fixed timestamps (document properties and zip entries)."""
    wb.properties.created = FIXED
    wb.properties.modified = FIXED
    buf = io.BytesIO()
    wb.save(buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as dst:
        for info in sorted(src.infolist(), key=lambda i: i.filename):
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                # openpyxl stamps the save time here whatever `modified` says
                import re

                data = re.sub(
                    rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                    rb"\g<1>2024-01-01T00:00:00Z\g<2>",
                    data,
                )
            fixed = zipfile.ZipInfo(info.filename, date_time=(2024, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, data)
    path.write_bytes(out.getvalue())


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Passes"
    for row in PASSES:
        ws.append(row)
    _save(wb, OUT / "passes.xlsx")

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Peninsular rivers"
    for row in RIVERS:
        ws.append(row)
    _percent(ws, "E", 2, len(RIVERS))
    scratch = wb.create_sheet("Scratch")
    scratch.sheet_state = "hidden"
    scratch.append(["todo", "check Kaveri length"])
    _save(wb, OUT / "rivers.xlsx")

    with (OUT / "constitution_articles.csv").open("w", encoding="utf-8-sig", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(ARTICLES)

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "GSDP"
    ws.append([GDP_TITLE])
    ws.merge_cells("A1:E1")
    ws.append([])
    for row in GDP:
        ws.append(row)
    _percent(ws, "D", 4, 3 + len(GDP))
    _save(wb, OUT / "gdp.xlsx")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
