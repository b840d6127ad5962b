"""Heavy and hostile spreadsheets (issue 13): peak RSS and wall time of `notechunk run`.

    python bench/heavy_sheets.py [CASE ...] [--src DIR]   # DIR: another checkout's src/

Each case is generated in a temporary folder and run in a fresh interpreter through the
CLI, next to one small control note; the peak RSS is the larger of the process and its
children (the sheet worker). Cases:

- sniffer: a CSV whose first 64 KB are lines holding a lone `'` (csv.Sniffer was quadratic)
- shared-string: an xlsx with one 1 MB shared string referenced by 200 cells
- ods-repeat: an ODS under 1 KB whose one row says number-rows-repeated="200000"
- big-field: a CSV with one 5 MB field (over csv's default 131,072-char field limit)
- max-rows: a 50,000-row CSV with `sheets.max_rows = 10000`
"""

from __future__ import annotations

import os
import random
import string
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import resource, sys
from notechunk.cli import main
code = main(sys.argv[1:])
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(f"PEAK_KB={peak}", file=sys.stderr)
raise SystemExit(code)
"""

CT = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
    'package/2006/content-types"><Default Extension="rels" ContentType="application/'
    'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
    '"application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName='
    '"/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    'spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType='
    '"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats'
    '.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target='
    '"xl/workbook.xml"/></Relationships>'
)
WB = (
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/'
    'spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships"><sheets><sheet name="Terms" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WB_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats'
    '.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/'
    'sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)


def shared_string_xlsx(size: int = 1 << 20, refs: int = 200) -> bytes:
    """One `size`-char shared string (random words: it compresses like text) in `refs` rows."""
    rng = random.Random(7)
    words = []
    total = 0
    while total < size:
        w = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 9)))
        words.append(w)
        total += len(w) + 1
    big = " ".join(words)[:size]
    ss = (
        '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/'
        f'spreadsheetml/2006/main" count="{refs + 2}" uniqueCount="3"><si><t>{big}</t></si>'
        "<si><t>Term</t></si><si><t>Meaning</t></si></sst>"
    )
    rows = ['<row r="1"><c r="A1" t="s"><v>1</v></c><c r="B1" t="s"><v>2</v></c></row>']
    for i in range(2, refs + 2):
        rows.append(
            f'<row r="{i}"><c r="A{i}" t="inlineStr"><is><t>term {i}</t></is></c>'
            f'<c r="B{i}" t="s"><v>0</v></c></row>'
        )
    sheet = (
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats'
        '.org/spreadsheetml/2006/main"><sheetData>' + "".join(rows) + "</sheetData></worksheet>"
    )
    return _zip(
        {
            "[Content_Types].xml": CT,
            "_rels/.rels": RELS,
            "xl/workbook.xml": WB,
            "xl/_rels/workbook.xml.rels": WB_RELS,
            "xl/sharedStrings.xml": ss,
            "xl/worksheets/sheet1.xml": sheet,
        }
    )


ODS_CONTENT = (
    '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:'
    'names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:'
    'xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'office:version="1.2"><office:body><office:spreadsheet><table:table table:name="T">'
    "<table:table-row>{header}</table:table-row>"
    '<table:table-row table:number-rows-repeated="{rows}">{row}</table:table-row>'
    "</table:table></office:spreadsheet></office:body></office:document-content>"
)


def _ods_cell(text: str, repeat: int = 1) -> str:
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return (
        f'<table:table-cell office:value-type="string"{rep}><text:p>{text}</text:p>'
        "</table:table-cell>"
    )


def repeated_ods(rows: int = 200_000) -> bytes:
    content = ODS_CONTENT.format(
        header=_ods_cell("Term") + _ods_cell("Meaning"),
        rows=rows,
        row=_ods_cell("Doctrine of lapse") + _ods_cell("annexation policy of Dalhousie"),
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:'
        'names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry '
        'manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
        'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" '
        'manifest:media-type="text/xml"/></manifest:manifest>'
    )
    return _zip(
        {
            "mimetype": "application/vnd.oasis.opendocument.spreadsheet",
            "content.xml": content,
            "META-INF/manifest.xml": manifest,
        }
    )


def _zip(members: dict[str, str]) -> bytes:
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, text in members.items():
            method = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            z.writestr(name, text, compress_type=method)
    return buf.getvalue()


def sniffer_csv() -> bytes:
    return b"'\n" * 32768 + b"Term,Meaning\nDoctrine of lapse,annexation policy\n"


def big_field_csv() -> bytes:
    return b"Term,Meaning\nbig," + b"x" * 5_000_000 + b"\nDoctrine of lapse,Dalhousie\n"


def max_rows_csv() -> bytes:
    lines = ["Term,Meaning"] + [f"term {i},meaning of entry {i}" for i in range(50_000)]
    return ("\n".join(lines) + "\n").encode()


CASES: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "sniffer": ("quotes.csv", sniffer_csv, ""),
    "shared-string": ("shared.xlsx", shared_string_xlsx, ""),
    "ods-repeat": ("repeat.ods", repeated_ods, ""),
    "big-field": ("big.csv", big_field_csv, ""),
    "max-rows": ("long.csv", max_rows_csv, "[sheets]\nmax_rows = 10000\n"),
}


def run_case(name: str, src_dir: Path) -> None:
    rel, build, config = CASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        data = build()
        (src / rel).write_bytes(data)
        (src / "control.md").write_text("# Control\n\nA control note about the Rowlatt Act.\n")
        if config:
            (src / "notechunk.toml").write_text(config)
        out = Path(tmp) / "out"
        env = {**os.environ, "PYTHONPATH": str(src_dir)}
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", PROBE, "run", str(src), "--out", str(out), "--workers", "1"],
            env=env,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - t0
        peak = int(done.stderr.rsplit("PEAK_KB=", 1)[1]) / 1024 if "PEAK_KB=" in done.stderr else 0
        written = (
            sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) if out.exists() else 0
        )
        lines = [ln for ln in done.stderr.splitlines() if ln.startswith("notechunk:") and rel in ln]
        print(
            f"{name:14} input {len(data) / 1024:8.1f} KB  exit {done.returncode}  "
            f"{wall:7.1f} s  peak RSS {peak:7.0f} MB  written {written / 1e6:8.1f} MB  "
            f"{'; '.join(lines)[:160]}"
        )
        if "Traceback" in done.stderr:
            print(done.stderr[-1500:])


def main(argv: list[str]) -> int:
    src_dir = ROOT / "src"
    names: list[str] = []
    it = iter(argv)
    for a in it:
        if a == "--src":
            src_dir = Path(next(it))
        else:
            names.append(a)
    for name in names or list(CASES):
        run_case(name, src_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
