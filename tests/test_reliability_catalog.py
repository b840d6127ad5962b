"""A catalog of bad inputs: none may crash a run, lose a neighbour's text or go unexplained.

Every case is generated here (no binary fixture is committed). Each one builds a source
folder holding the bad file(s) next to `control.md`, runs `notechunk.cli.main(["run", ...])`
in-process and checks the SPEC §2 contract:

- the exit status is 0 (nothing failed) or 1 (something failed, listed in qa/errors.json);
- nothing on stderr looks like a traceback;
- each bad file is either processed (its words are in the stage files) or named in
  qa/errors.json with a non-empty one-line reason, as its case allows;
- the control file's text is always there, and every output file is whole.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import os
import re
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import pytest

from notechunk.cli import main

Outcome = Literal["ok", "error", "either"]
CONTROL = "Control note. The Rowlatt Act zqcontrol was passed in 1919 and widely opposed."
WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Expect:
    """What one case's file must give: `tokens` found in its chunks, or an error entry
    (whose reason contains `reason`); `verify` then checks OUT for what the case is about."""

    rel: str
    outcome: Outcome
    tokens: tuple[str, ...] = ()
    all_words: bool = False  # every word of the decoded file must reach its chunks
    reason: str = ""
    verify: Callable[[Path], None] | None = None


@dataclass(frozen=True)
class Case:
    id: str
    build: Callable[[Path], list[Expect]]
    sheet: bool = False
    marks: tuple[pytest.MarkDecorator, ...] = field(default=())
    max_seconds: float | None = None  # a heavy input must not take longer than this
    alone: bool = False  # needs SRC/notechunk.toml: not part of the whole-catalog run


# --- builders ---------------------------------------------------------------------------


def _write(src: Path, rel: str, data: bytes | str) -> Path:
    path = src / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


NOTE = "# Mauryan Empire\n\nChandragupta zqtoken founded the empire. Ashoka spread Dhamma.\n"


def md(rel: str, data: bytes | str, outcome: Outcome, *tokens: str, all_words: bool = False):
    def build(src: Path) -> list[Expect]:
        _write(src, rel, data)
        return [Expect(rel, outcome, tokens, all_words)]

    return build


def _nested_indented(levels: int) -> str:
    return "".join(f"{'  ' * i}- level{i} item\n" for i in range(levels))


def _dangling(src: Path) -> list[Expect]:
    os.symlink(src / "nowhere.md", src / "x.md")
    return [Expect("x.md", "error")]


def _fifo(src: Path) -> list[Expect]:
    os.mkfifo(src / "x.md")
    return [Expect("x.md", "error")]


def _dir_named_md(src: Path) -> list[Expect]:
    _write(src, "x.md/inner.md", NOTE)
    return [Expect("x.md/inner.md", "ok", ("zqtoken",))]


def _loop_dir(src: Path) -> list[Expect]:
    _write(src, "d/n.md", NOTE)
    os.symlink(src, src / "d" / "loop")
    os.symlink("self", src / "self")
    return [Expect("d/n.md", "ok", ("zqtoken",))]


def _self_link_file(src: Path) -> list[Expect]:
    os.symlink("self.md", src / "self.md")
    return [Expect("self.md", "error")]


def _outside_link(src: Path) -> list[Expect]:
    outside = src.parent / "outside.md"
    outside.write_text("Outside secret zqoutside text.\n")
    os.symlink(outside, src / "out.md")
    return [Expect("out.md", "error")]


def _chmod000(src: Path) -> list[Expect]:
    path = _write(src, "locked.md", NOTE)
    path.chmod(0)
    # root reads it anyway; anyone else gets a listed failure
    return [Expect("locked.md", "ok" if os.geteuid() == 0 else "error", ("zqtoken",))]


def _chmod000_dir(src: Path) -> list[Expect]:
    _write(src, "locked/in.md", NOTE)
    (src / "locked").chmod(0)
    return [Expect("locked/in.md" if os.geteuid() == 0 else "locked", "either", ("zqtoken",))]


def _odd_names(src: Path) -> list[Expect]:
    names = ["with space.md", "ünïcödé नोट.md", "-leading-dash.md", "--out.md", "a;b'c\".md"]
    out = []
    for k, name in enumerate(names):
        _write(src, name, f"# N{k}\n\nOdd name zqodd{k} text here.\n")
        out.append(Expect(name, "ok", (f"zqodd{k}",)))
    return out


def _undecodable_name(src: Path) -> list[Expect]:
    raw = os.fsencode(src) + b"/bad\xff\xfename.md"
    with open(raw, "wb") as fh:
        fh.write(b"Bytes name zqbytes text.\n")
    return [Expect("bad\\xff\\xfename.md", "ok", ("zqbytes",))]


def _newline_name(src: Path) -> list[Expect]:
    _write(src, "new\nline.md", "Newline name zqnl text.\n")
    return [Expect("new\nline.md", "either", ("zqnl",))]


# --- spreadsheets -----------------------------------------------------------------------


def _xlsx_bytes(rows: list[list[object]], **kw: object) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Passes"
    for r in rows:
        ws.append(r)
    hidden = kw.get("hidden")
    if hidden:
        hs = wb.create_sheet("Secret")
        hs.append(["Pass", "State"])
        hs.append(["Hidden zqhidden pass", "Nowhere"])
        hs.sheet_state = "hidden"
    if kw.get("empty_sheet"):
        wb.create_sheet("Blank")
    if kw.get("merged"):
        ws.insert_rows(1)
        ws["A1"] = "Himalayan passes"
        ws.merge_cells("A1:C1")
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


ROWS: list[list[object]] = [
    ["Pass", "State", "Connects"],
    ["Zojila zqrow1", "Ladakh", "Srinagar and Leh through the Zanskar range"],
    ["Nathu La zqrow2", "Sikkim", "Gangtok and the Chumbi valley of Tibet"],
]


def _sheet(rel: str, data: Callable[[], bytes], outcome: Outcome, *tokens: str):
    def build(src: Path) -> list[Expect]:
        _write(src, rel, data())
        return [Expect(rel, outcome, tokens)]

    return build


def _zip_bomb() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        good = zipfile.ZipFile(io.BytesIO(_xlsx_bytes(ROWS)))
        for info in good.infolist():
            if info.filename != "xl/worksheets/sheet1.xml":
                z.writestr(info.filename, good.read(info.filename))
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as fh:
            fh.write(b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/')
            fh.write(b'spreadsheetml/2006/main"><sheetData>')
            pad = b" " * (1 << 20)
            for _ in range(300):  # 300 MB of whitespace, ~300 KB compressed
                fh.write(pad)
            fh.write(b"</sheetData></worksheet>")
    return buf.getvalue()


def _replace_member(data: bytes, name: str, new: bytes) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            z.writestr(info.filename, new if info.filename == name else src.read(info.filename))
    return buf.getvalue()


def _formulas() -> bytes:
    return _xlsx_bytes(
        [
            ["Pass", "State", "Altitude"],
            ["Rohtang zqf1", "Himachal Pradesh", "=3978*1"],
            ["Shipki La zqf2", "Himachal Pradesh", "=SUM(1,2)"],
        ]
    )


def _far_cell() -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for r in ROWS:
        ws.append(r)
    ws["XFD1048576"] = "far away"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _malformed_sheet_xml() -> bytes:
    return _replace_member(
        _xlsx_bytes(ROWS), "xl/worksheets/sheet1.xml", b"<worksheet><sheetData><row><c"
    )


def _docx_renamed() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", "<w:document/>")
    return buf.getvalue()


def _cfb() -> bytes:
    """An OLE/CFB container as an encrypted (password-protected) .xlsx starts."""
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 16 + b"\x3e\x00\x03\x00\xfe\xff"
    name = "EncryptionInfo".encode("utf-16-le")
    return header.ljust(512, b"\x00") + name.ljust(64, b"\x00") + b"\xff" * 3500


def _csv_big_field() -> bytes:
    return b"Term,Meaning\nzqcsvbig," + b"x" * 5_000_000 + b"\nDoctrine of lapse zqcsv2,Dalhousie\n"


CASES: list[Case] = [
    # --- Markdown text and encodings
    Case("empty", md("empty.md", b"", "either")),
    Case("whitespace-only", md("ws.md", " \n\t\n  \r\n\n", "either")),
    Case("bom-only", md("bom.md", codecs.BOM_UTF8, "either")),
    Case("nul-bytes", md("nul.md", b"Some zqnul text\x00 with a NUL.\n", "error")),
    Case("utf16le-bom", md("u16.md", NOTE.encode("utf-16"), "ok", "zqtoken", all_words=True)),
    Case(
        "utf16be-bom",
        md("u16be.md", codecs.BOM_UTF16_BE + NOTE.encode("utf-16-be"), "ok", "zqtoken"),
    ),
    Case("utf16-no-bom", md("u16nb.md", NOTE.encode("utf-16-le"), "either", "zqtoken")),
    Case("utf16-odd-length", md("u16odd.md", NOTE.encode("utf-16") + b"\x41", "either")),
    Case(
        "cp1252",
        md("cp.md", "# Café\n\nThe zqcp café “quoted” – dash.\n".encode("cp1252"), "ok", "café"),
    ),
    Case("utf8-bom", md("bom8.md", codecs.BOM_UTF8 + NOTE.encode(), "ok", "zqtoken")),
    Case(
        "invalid-utf8-cp1252-ok",
        md("inv.md", b"# T\n\nBroken \xc3\x28 zqinv byte.\n", "ok", "zqinv"),
    ),
    Case("undecodable", md("undec.md", b"Text zqund \x81\x8d\x8f\x90 here.\n", "error")),
    Case("bom-then-nul", md("bomnul.md", codecs.BOM_UTF8 + b"A zqbn\x00 B.\n", "error")),
    Case("random-binary", md("rand.md", bytes(range(256)) * 64, "either")),
    Case(
        "crlf-and-cr",
        md("crlf.md", "# T\r\n\r\nLine zqcrlf one.\r\rLone zqcr two.\r\n", "ok", "zqcrlf", "zqcr"),
    ),
    # --- Markdown structure
    Case(
        "10MB-single-line",
        md("big.md", "zqstart " + "word " * 2_000_000 + "zqend", "ok", "zqstart", "zqend"),
    ),
    Case(
        "10k-nested-list-one-line",
        md("deep.md", "- " * 10_000 + "zqdeep item\n\nAfter zqafter.\n", "ok", "zqdeep", "zqafter"),
    ),
    Case(
        "10k-nested-quotes",
        md("quote.md", ">" * 10_000 + " zqquote text\n", "ok", "zqquote"),
    ),
    Case(
        "2k-nested-indented-list",
        md("indent.md", _nested_indented(2_000), "ok", "level0", "level1999", all_words=True),
    ),
    Case(
        "25-nested-quotes",
        md("q25.md", "".join(">" * i + f" quote{i}\n" for i in range(1, 26)), "ok", all_words=True),
    ),
    Case(
        "unclosed-fence",
        md("fence.md", "# T\n\n```python\nzqcode = 1\n\n# not a heading\n", "ok", "zqcode"),
    ),
    Case("unclosed-tilde-fence", md("tilde.md", "Intro zqt1.\n~~~\nzqt2\n", "ok", "zqt1", "zqt2")),
    Case("headings-only", md("heads.md", "# A\n## B\n### C\n#### D\n", "either")),
    Case(
        "many-headings",
        md("manyh.md", "".join(f"# H{i}\n\nBody zq{i}x.\n" for i in range(3000)), "ok", "zq2999x"),
    ),
    Case(
        "unclosed-front-matter",
        md("fm.md", "---\ntitle: zqfm\nSome zqbody text.\n", "ok", "zqbody"),
    ),
    Case(
        "unclosed-html-comment", md("cmt.md", "Before zqc1.\n\n<!-- never closed\n", "ok", "zqc1")
    ),
    Case(
        "table-only",
        md("tab.md", "| Writ | Meaning |\n|---|---|\n| Habeas zqw | body |\n", "ok", "zqw"),
    ),
    Case("long-word", md("lw.md", "zq" + "a" * 1_000_000 + " end.\n", "either")),
    Case("many-dots", md("dots.md", "a. " * 50_000 + "zqdots\n", "ok", "zqdots")),
    # --- the input folder
    Case("symlink-loops", _loop_dir),
    Case("self-link-file", _self_link_file),
    Case("dangling-symlink", _dangling),
    Case("fifo-named-md", _fifo),
    Case("directory-named-md", _dir_named_md),
    Case("outside-link", _outside_link),
    Case("chmod-000-file", _chmod000),
    Case("chmod-000-folder", _chmod000_dir),
    Case("odd-names", _odd_names),
    Case("undecodable-name", _undecodable_name),
    Case("newline-in-name", _newline_name),
    # --- spreadsheets
    Case("xlsx-zip-bomb", _sheet("bomb.xlsx", _zip_bomb, "error"), sheet=True),
    Case(
        "xlsx-truncated",
        _sheet("trunc.xlsx", lambda: _xlsx_bytes(ROWS)[:1500], "error"),
        sheet=True,
    ),
    Case("xlsx-password-cfb", _sheet("locked.xlsx", _cfb, "error"), sheet=True),
    Case(
        "xlsx-really-html",
        _sheet("page.xlsx", lambda: b"<html><body><table><tr><td>x</td></tr></table>", "error"),
        sheet=True,
    ),
    Case(
        "xlsx-really-csv",
        _sheet("plain.xlsx", lambda: b"Pass,State\nZojila zqcx,Ladakh\n", "either"),
        sheet=True,
    ),
    Case(
        "xls-really-html",
        _sheet("page.xls", lambda: b"<html><table></table>", "either"),
        sheet=True,
    ),
    Case("xlsx-empty-file", _sheet("zero.xlsx", lambda: b"", "error"), sheet=True),
    Case("xlsx-docx-renamed", _sheet("doc.xlsx", _docx_renamed, "error"), sheet=True),
    Case("xlsx-malformed-xml", _sheet("bad.xlsx", _malformed_sheet_xml, "error"), sheet=True),
    Case("ods-junk", _sheet("junk.ods", lambda: b"PK\x03\x04junk", "error"), sheet=True),
    Case(
        "xlsx-empty-workbook", _sheet("emptywb.xlsx", lambda: _xlsx_bytes([]), "either"), sheet=True
    ),
    Case(
        "xlsx-empty-sheet",
        _sheet("es.xlsx", lambda: _xlsx_bytes(ROWS, empty_sheet=True), "ok", "zqrow1", "zqrow2"),
        sheet=True,
    ),
    Case(
        "xlsx-hidden-sheet",
        _sheet("hid.xlsx", lambda: _xlsx_bytes(ROWS, hidden=True), "ok", "zqrow1", "zqrow2"),
        sheet=True,
    ),
    Case(
        "xlsx-merged-header",
        _sheet("mer.xlsx", lambda: _xlsx_bytes(ROWS, merged=True), "ok", "zqrow1", "zqrow2"),
        sheet=True,
    ),
    Case("xlsx-formulas-uncached", _sheet("f.xlsx", _formulas, "ok", "zqf1", "zqf2"), sheet=True),
    Case("xlsx-far-cell", _sheet("far.xlsx", _far_cell, "either", "zqrow1"), sheet=True),
    Case("csv-empty", _sheet("e.csv", lambda: b"", "either"), sheet=True),
    Case(
        "csv-utf16",
        _sheet(
            "u.csv",
            lambda: "Term,Meaning\nRyotwari zqu16,Munro settlement\n".encode("utf-16"),
            "ok",
            "zqu16",
        ),
        sheet=True,
    ),
    Case(
        "csv-cp1252",
        _sheet(
            "c.csv", lambda: "Term,Meaning\nCafé zqc1252,Ré\n".encode("cp1252"), "ok", "zqc1252"
        ),
        sheet=True,
    ),
    Case(
        "csv-nul", _sheet("n.csv", lambda: b"Term,Meaning\nA\x00zqn,B c d\n", "either"), sheet=True
    ),
    Case(
        "csv-big-field",
        _sheet("bf.csv", _csv_big_field, "ok", "zqcsvbig", "zqcsv2"),
        sheet=True,
    ),
    Case(
        "csv-ragged",
        _sheet("r.csv", lambda: b'Term,Meaning\n"unclosed zqr1,x\nA,B,C,D,E\n', "either"),
        sheet=True,
    ),
]


# --- spreadsheets, round two (issue 13): rows lost without a word, heavy input ---------


def _stage_rows(out: Path, rel: str) -> list[dict[str, object]]:
    rows = []
    for line in (out / "stages" / "excel_chunks.jsonl").read_text(encoding="utf-8").splitlines():
        c = json.loads(line)
        if c["source"] == rel:
            rows.append(c)
    return rows


def _discarded(out: Path, rel: str) -> list[dict[str, object]]:
    path = out / "qa" / "discarded_rows.json"
    rows = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    return [r for r in rows if r["source"] == rel]


def _metrics_sheets(out: Path) -> dict[str, object]:
    sheets: dict[str, object] = json.loads((out / "qa" / "metrics.json").read_text())["sheets"]
    return sheets


def _max_rows(rel: str) -> Callable[[Path], list[Expect]]:
    """30 rows under `sheets.max_rows = 10`: the 20 unread rows are an error, not silence."""

    def build(src: Path) -> list[Expect]:
        _write(src, "notechunk.toml", "[sheets]\nmax_rows = 10\n")
        rows: list[list[object]] = [["Term", "Meaning"]]
        rows += [[f"term zqmr{i}", f"meaning number {i}"] for i in range(30)]
        if rel.endswith(".csv"):
            _write(src, rel, "".join(f"{a},{b}\n" for a, b in rows))
        else:
            _write(src, rel, _xlsx_bytes(rows))

        def verify(out: Path) -> None:
            texts = " ".join(str(c["text"]) for c in _stage_rows(out, rel))
            assert "zqmr0" in texts and "zqmr9" in texts and "zqmr10" not in texts
            sheets = _metrics_sheets(out)
            assert sheets["conserved"] is False
            (broken,) = sheets["not_conserved"]  # type: ignore[misc]
            assert broken["unread_rows"] == 20
            assert "Conserved: NO" in (out / "qa" / "summary.md").read_text(encoding="utf-8")

        return [Expect(rel, "error", reason="max_rows = 10", verify=verify)]

    return build


def _wide_rows_become_header(src: Path) -> list[Expect]:
    """Two wide rows among the first 30: the header moves there; the rows above stay."""
    lines = ["Term,Meaning"] + [f"term zqabove{i},meaning {i}" for i in range(10)]
    lines += ["Name,State,River,Length,Basin,Mouth"] * 2
    lines += [f"term zqbelow{i},m,x,y,z,w" for i in range(3)]
    _write(src, "wide.csv", "\n".join(lines) + "\n")

    def verify(out: Path) -> None:
        above = [d for d in _discarded(out, "wide.csv") if d["rule"] == "above_header"]
        assert len(above) == 11
        assert _metrics_sheets(out)["conserved"] is True

    tokens = tuple(f"zqabove{i}" for i in range(10)) + ("zqbelow2",)
    return [Expect("wide.csv", "ok", tokens, verify=verify)]


def _title_rows_above_header() -> bytes:
    return _xlsx_bytes(
        [
            ["Himalayan passes zqtitle"],
            ["Compiled from NCERT zqnote, class 11"],
            [],
            ["Pass", "State", "Connects"],
            ["Zojila zqrow1", "Ladakh", "Srinagar and Leh"],
        ]
    )


def _duplicate_headers(src: Path) -> list[Expect]:
    _write(
        src,
        "dup.csv",
        "Year,Year (2),Year,,Column 4\n1991,1992,1993,1994,1995\n"
        "zqdupa,zqdupb,zqdupc,zqdupd,zqdupe\n",
    )

    def verify(out: Path) -> None:
        (row,) = _discarded(out, "dup.csv")
        assert row["cells"] == {
            "Year": "1991",
            "Year (2)": "1992",
            "Year (3)": "1993",
            "Column 4": "1994",
            "Column 4 (2)": "1995",
        }

    return [Expect("dup.csv", "ok", ("zqdupa", "zqdupc", "zqdupe"), verify=verify)]


_CT = (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default '
    'Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/'
    'workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
    'sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/'
    'sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    'spreadsheetml.sharedStrings+xml"/></Types>'
)
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _zip_of(members: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, text in members.items():
            stored = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            z.writestr(name, text, compress_type=stored)
    return buf.getvalue()


def _shared_string_xlsx(size: int = 300_000, refs: int = 40) -> bytes:
    """One `size`-character shared string referenced by `refs` rows (an amplification)."""
    big = " ".join(f"w{i % 9973}" for i in range(size // 5))[:size]
    strings = f"<si><t>{big}</t></si><si><t>Term</t></si><si><t>Meaning</t></si>"
    rows = ['<row r="1"><c r="A1" t="s"><v>1</v></c><c r="B1" t="s"><v>2</v></c></row>']
    rows += [
        f'<row r="{i}"><c r="A{i}" t="inlineStr"><is><t>zqshared{i}</t></is></c>'
        f'<c r="B{i}" t="s"><v>0</v></c></row>'
        for i in range(2, refs + 2)
    ]
    return _zip_of(
        {
            "[Content_Types].xml": _CT,
            "_rels/.rels": f'<Relationships xmlns="{_PKG}"><Relationship Id="rId1" Type="'
            f'{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
            "xl/workbook.xml": f'<workbook xmlns="{_MAIN}" xmlns:r="{_REL}"><sheets><sheet '
            'name="Terms" sheetId="1" r:id="rId1"/></sheets></workbook>',
            "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{_PKG}"><Relationship Id="'
            f'rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship '
            f'Id="rId2" Type="{_REL}/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>",
            "xl/sharedStrings.xml": f'<sst xmlns="{_MAIN}">{strings}</sst>',
            "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{_MAIN}"><sheetData>'
            + "".join(rows)
            + "</sheetData></worksheet>",
        }
    )


def _ods(rows_xml: str) -> bytes:
    ns = "urn:oasis:names:tc:opendocument:xmlns"
    content = (
        f'<office:document-content xmlns:office="{ns}:office:1.0" xmlns:table="{ns}:table:1.0" '
        f'xmlns:text="{ns}:text:1.0" office:version="1.2"><office:body><office:spreadsheet>'
        f'<table:table table:name="T">{rows_xml}</table:table></office:spreadsheet>'
        "</office:body></office:document-content>"
    )
    manifest = (
        f'<manifest:manifest xmlns:manifest="{ns}:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.'
        'oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml"'
        ' manifest:media-type="text/xml"/></manifest:manifest>'
    )
    return _zip_of(
        {
            "mimetype": "application/vnd.oasis.opendocument.spreadsheet",
            "content.xml": content,
            "META-INF/manifest.xml": manifest,
        }
    )


def _ods_cell(text: str, repeat: int = 1) -> str:
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    cell = f'<table:table-cell office:value-type="string"{rep}>'
    return f"{cell}<text:p>{text}</text:p></table:table-cell>"


def _ods_rows_repeated() -> bytes:
    """Under 1 KB, 50,000 rows: `number-rows-repeated` on a row of text."""
    return _ods(
        "<table:table-row>" + _ods_cell("Term") + _ods_cell("Meaning") + "</table:table-row>"
        '<table:table-row table:number-rows-repeated="50000">'
        + _ods_cell("Doctrine zqodsrow")
        + _ods_cell("annexation policy of Dalhousie")
        + "</table:table-row>"
    )


def _ods_columns_repeated() -> bytes:
    """A row of 2,000 repeated text cells, itself repeated 1,000 times."""
    return _ods(
        "<table:table-row>" + _ods_cell("Head zqodscol", 2000) + "</table:table-row>"
        '<table:table-row table:number-rows-repeated="1000">'
        + _ods_cell("some repeated cell text", 2000)
        + "</table:table-row>"
    )


def _expansion_stopped(rel: str, token: str) -> Callable[[Path], None]:
    def verify(out: Path) -> None:
        texts = " ".join(str(c["text"]) for c in _stage_rows(out, rel))
        assert token in texts, "rows read before the limit are kept"
        assert len(_stage_rows(out, rel)) < 30_000

    return verify


def _amplified(rel: str, data: Callable[[], bytes], token: str) -> Callable[[Path], list[Expect]]:
    def build(src: Path) -> list[Expect]:
        _write(src, rel, data())
        verify = _expansion_stopped(rel, token)
        return [Expect(rel, "error", reason="sheets.max_expansion", verify=verify)]

    return build


def _shared_string_case(src: Path) -> list[Expect]:
    _write(src, "shared.xlsx", _shared_string_xlsx())

    def verify(out: Path) -> None:
        chunks = _stage_rows(out, "shared.xlsx")
        assert len(chunks) == 40
        assert all(len(str(c["text"])) < 33_000 for c in chunks)
        assert all(any(str(f).startswith("cell_cut:B") for f in c["flags"]) for c in chunks)  # type: ignore[attr-defined]

    return [Expect("shared.xlsx", "ok", ("zqshared2", "zqshared41"), verify=verify)]


SHEET_CASES_2: list[Case] = [
    Case("csv-max-rows-truncated", _max_rows("long.csv"), sheet=True, alone=True),
    Case("xlsx-max-rows-truncated", _max_rows("long.xlsx"), sheet=True, alone=True),
    Case("csv-wide-rows-become-header", _wide_rows_become_header, sheet=True),
    Case(
        "xlsx-title-and-note-above-header",
        _sheet("titled.xlsx", _title_rows_above_header, "ok", "zqtitle", "zqnote", "zqrow1"),
        sheet=True,
    ),
    Case("csv-duplicate-header-names", _duplicate_headers, sheet=True),
    Case(
        "csv-lone-quote-lines",
        _sheet("q1.csv", lambda: b"'\n" * 32768 + b"Term,Meaning\nzqq1,after\n", "ok", "zqq1"),
        sheet=True,
        max_seconds=60,
    ),
    Case(
        "csv-lone-double-quote-lines",
        _sheet("q2.csv", lambda: b'"\n' * 32768 + b"Term,Meaning\nzqq2,after\n", "either"),
        sheet=True,
        max_seconds=60,
    ),
    Case("xlsx-shared-string-amplified", _shared_string_case, sheet=True, max_seconds=60),
    Case(
        "ods-rows-repeated",
        _amplified("rows.ods", _ods_rows_repeated, "zqodsrow"),
        sheet=True,
        max_seconds=60,
    ),
    Case(
        "ods-columns-repeated",
        _amplified("cols.ods", _ods_columns_repeated, "zqodscol"),
        sheet=True,
        max_seconds=60,
    ),
]
CASES += SHEET_CASES_2


# --- the run and its checks -------------------------------------------------------------


@dataclass
class Outputs:
    rc: int
    stderr: str
    errors: list[dict[str, str]]
    texts: dict[str, str]  # source -> all its chunk text (stage files: omitted ones too)
    out: Path


def run_cli(src: Path, out: Path, capfd: pytest.CaptureFixture[str], workers: int = 1) -> Outputs:
    rc = main(["run", str(src), "--out", str(out), "--workers", str(workers)])
    captured = capfd.readouterr()
    assert rc in (0, 1), captured.err
    assert "Traceback" not in captured.err, captured.err
    assert "Traceback" not in captured.out
    errors = json.loads((out / "qa" / "errors.json").read_text(encoding="utf-8"))
    assert (rc == 1) == bool(errors), (rc, errors)
    texts: dict[str, list[str]] = {}
    for stage in ("markdown_chunks.jsonl", "excel_chunks.jsonl"):
        for line in (out / "stages" / stage).read_text(encoding="utf-8").splitlines():
            c = json.loads(line)
            texts.setdefault(c["source"], []).append(
                "\n".join([c["text"], *(p for path in _paths(c) for p in path)])
            )
    discarded = out / "qa" / "discarded_rows.json"
    if discarded.exists():
        for row in json.loads(discarded.read_text(encoding="utf-8")):
            texts.setdefault(row["source"], []).append(
                " ".join(f"{h} {v}" for h, v in row["cells"].items())
            )
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            json.loads(line)
    return Outputs(rc, captured.err, errors, {k: "\n".join(v) for k, v in texts.items()}, out)


def _paths(c: dict[str, object]) -> list[list[str]]:
    paths = [c["section_path"], *c.get("section_paths", [])]  # type: ignore[misc]
    return [list(p) for p in paths]  # type: ignore[call-overload]


def _words(text: str) -> set[str]:
    return {w.casefold() for w in WORD.findall(text)}


def check(src: Path, res: Outputs, expects: list[Expect]) -> None:
    by_source = {e["source"]: e for e in res.errors}
    for err in res.errors:
        assert err["reason"].strip(), err
        assert "\n" not in err["reason"], err
        assert err["source"], err
    assert "zqcontrol" in res.texts.get("control.md", ""), "control file lost"
    for exp in expects:
        err = by_source.get(exp.rel)
        if exp.verify is not None:
            exp.verify(res.out)
        if err is not None:
            assert exp.outcome != "ok", f"{exp.rel} failed: {err['reason']}"
            assert exp.reason in err["reason"], (exp.reason, err["reason"])
            continue
        assert exp.outcome != "error", f"{exp.rel} neither failed nor was listed"
        text = res.texts.get(exp.rel, "")
        for token in exp.tokens:
            assert token.casefold() in text.casefold(), f"{exp.rel}: {token!r} lost"
        if exp.all_words:
            from notechunk.textio import decode_text

            decoded = decode_text((src / exp.rel).read_bytes(), exp.rel).text
            lost = _words(decoded) - _words(text)
            assert not lost, f"{exp.rel}: words lost {sorted(lost)[:10]}"


def _params() -> list[object]:
    out = []
    for case in CASES:
        out.append(pytest.param(case, id=case.id, marks=list(case.marks)))
    return out


@pytest.mark.parametrize("case", _params())
def test_bad_input(case: Case, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "src"
    src.mkdir()
    _write(src, "control.md", f"# Control\n\n{CONTROL}\n")
    expects = case.build(src)
    try:
        t0 = time.perf_counter()
        res = run_cli(src, tmp_path / "out", capfd)
        elapsed = time.perf_counter() - t0
        assert case.max_seconds is None or elapsed < case.max_seconds, elapsed
        check(src, res, expects)
        for exp in expects:  # the stderr line names the failed file
            if any(e["source"] == exp.rel for e in res.errors):
                assert exp.rel in res.stderr
    finally:
        for p in [src, *src.rglob("*")]:
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)


def test_catalog_is_big_enough() -> None:
    assert len(CASES) >= 30
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("workers", [1, 2])
def test_whole_catalog_in_one_run(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], workers: int
) -> None:
    """All cases side by side: one bad file never costs another one, in workers too."""
    src = tmp_path / "src"
    src.mkdir()
    _write(src, "control.md", f"# Control\n\n{CONTROL}\n")
    expects: list[Expect] = []
    for case in CASES:
        if case.alone or case.id in {"10MB-single-line", "many-dots", "long-word", "outside-link"}:
            continue  # big, or needs its own config; covered alone
        sub = src / case.id
        sub.mkdir()
        for exp in case.build(sub):
            expects.append(Expect(f"{case.id}/{exp.rel}", exp.outcome, exp.tokens, exp.all_words))
    try:
        res = run_cli(src, tmp_path / "out", capfd, workers)
        check(src, res, [e for e in expects if "locked" not in e.rel])
        assert res.rc == 1
    finally:
        for p in [src, *src.rglob("*")]:
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)


RSS_PROBE = """
import resource, sys
from notechunk.cli import main
code = main(["run", sys.argv[1], "--out", sys.argv[2]])
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(f"PEAK_KB={peak}", file=sys.stderr)
raise SystemExit(code)
"""
MILLION = 1_000_000
RSS_BUDGET_MB = 3072  # the whole run holds its chunks; the reader itself must stream


@pytest.mark.slow
def test_million_row_csv_bounded_memory_nothing_lost(tmp_path: Path) -> None:
    import subprocess
    import sys

    src = tmp_path / "src"
    src.mkdir()
    with open(src / "big.csv", "w", encoding="utf-8", newline="") as fh:
        fh.write("Term,Meaning,Year\n")
        for i in range(MILLION):
            fh.write(f"Term zq{i},Meaning of entry number {i} in the long sheet,{1800 + i % 200}\n")
    out = tmp_path / "out"
    env = dict(os.environ)
    src_dir = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [src_dir, env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, str(src), str(out)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    peak_mb = int(done.stderr.rsplit("PEAK_KB=", 1)[1]) / 1024
    print(f"1M-row CSV: peak RSS {peak_mb:.0f} MB")  # shown with pytest -rP
    assert peak_mb < RSS_BUDGET_MB, f"peak RSS {peak_mb:.0f} MB"
    rows = 0
    with open(out / "stages" / "excel_chunks.jsonl", encoding="utf-8") as fh:
        for line in fh:
            rows += json.loads(line)["source"] == "big.csv"
    discarded = out / "qa" / "discarded_rows.json"
    if discarded.exists():
        rows += sum(r["source"] == "big.csv" for r in json.loads(discarded.read_text()))
    assert rows == MILLION  # every row a chunk or a discarded row


# --- a damaged OUT: whatever an earlier run or a disk left there, the next run recovers


def _damage_cache(out: Path) -> None:
    entries = sorted((out / ".cache").rglob("*.msgpack.gz"))
    entries[0].write_text("{}")
    entries[1].write_text("[1, 2]")
    entries[2].write_bytes(b"\x00garbage")


def _damage_manifest_list(out: Path) -> None:
    (out / "manifest.json").write_text("[1, 2]")


def _damage_manifest_junk(out: Path) -> None:
    (out / "manifest.json").write_bytes(b"\xff\xfe{")


def _stale_staging(out: Path) -> None:
    (out / ".staging" / "qa").mkdir(parents=True)
    (out / ".staging" / "qa" / "errors.json").write_text("[half")
    (out / ".staging" / "chunks.jsonl.gz").write_bytes(b"\x1f\x8b half")


def _deleted_output(out: Path) -> None:
    (out / "qa" / "errors.json").unlink()


@pytest.mark.parametrize(
    "damage",
    [_damage_cache, _damage_manifest_list, _damage_manifest_junk, _stale_staging, _deleted_output],
    ids=["cache-entries", "manifest-list", "manifest-junk", "stale-staging", "deleted-output"],
)
def test_damaged_out_recovers(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], damage: Callable[[Path], None]
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    _write(src, "control.md", f"# Control\n\n{CONTROL}\n")
    for k in range(4):
        _write(src, f"n{k}.md", NOTE.replace("zqtoken", f"zqn{k}"))
    out = tmp_path / "out"
    first = run_cli(src, out, capfd)
    reference = (out / "chunks.jsonl.gz").read_bytes()
    damage(out)
    again = run_cli(src, out, capfd)
    assert again.rc == first.rc == 0
    assert again.texts == first.texts
    assert (out / "chunks.jsonl.gz").read_bytes() == reference
    assert (out / "qa" / "errors.json").exists() and not (out / ".staging").exists()


@pytest.mark.parametrize("kind", ["file", "under-a-file"])
def test_unusable_out_is_exit_2(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], kind: str
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    _write(src, "a.md", NOTE)
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    out = blocker if kind == "file" else blocker / "out"
    assert main(["run", str(src), "--out", str(out)]) == 2
    err = capfd.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and str(out) in err


def test_workers_after_an_in_process_run(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """A process that ran once with --workers 1 (the sheet reader started its forkserver
    here) can run again with --workers 2: pool workers are not forks of this process."""
    src = tmp_path / "src"
    src.mkdir()
    _write(src, "control.md", f"# Control\n\n{CONTROL}\n")
    for k in range(4):
        _write(src, f"s{k}.xlsx", _xlsx_bytes([*ROWS, [f"Pass zqs{k}", "State", "Somewhere"]]))
        _write(src, f"n{k}.md", NOTE)
    first = run_cli(src, tmp_path / "o1", capfd, workers=1)
    second = run_cli(src, tmp_path / "o2", capfd, workers=2)
    assert first.rc == second.rc == 0
    assert first.texts == second.texts and "zqs3" in second.texts["s3.xlsx"]


# --- configs and templates that cannot work: exit 2 at load, naming the key ------------

BAD_CONFIGS = {
    "fragment-words-bool": ("[quality.spreadsheet]\nfragment_words = true\n", "fragment_words"),
    "max-words-inf": ("[quality.spreadsheet]\nmax_words = inf\n", "max_words"),
    "max-words-float": ("[quality.markdown]\nmax_words = 2.5\n", "max_words"),
    "short-words-negative": ("[quality.markdown]\nshort_words = -1\n", "short_words"),
    "max-rows-huge": ("[sheets]\nmax_rows = 1e300\n", "max_rows"),
    "memory-2-63": ("[sheets]\nworker_memory_mb = 9223372036854775807\n", "worker_memory_mb"),
    "timeout-inf": ("[sheets]\nworker_timeout_s = inf\n", "worker_timeout_s"),
    "timeout-1e300": ("[sheets]\nworker_timeout_s = 1e300\n", "worker_timeout_s"),
    "timeout-nan": ("[sheets]\nworker_timeout_s = nan\n", "worker_timeout_s"),
    "share-bool": ("[sheets]\nmostly_numeric_share = true\n", "mostly_numeric_share"),
    "max-cell-chars-zero": ("[sheets]\nmax_cell_chars = 0\n", "max_cell_chars"),
    "skip-mode-unknown": ('[skip]\nmostly_numeric = "share"\n', "skip.mostly_numeric"),
    "omit-fragments-int": ("[quality.spreadsheet]\nomit_fragments = 1\n", "omit_fragments"),
    "header-row-bool": (
        '[[templates]]\nname = "p"\nmatch = "*"\ntext = "{A}"\nheader_row = true\n',
        "header_row",
    ),
    "template-escaped-only": (
        '[[templates]]\nname = "p"\nmatch = "*"\ntext = "{{Pass}} literal"\n',
        "'p'",
    ),
    "template-empty-field": ('[[templates]]\nname = "p"\nmatch = "*"\ntext = "{}"\n', "empty"),
    "template-unbalanced-open": (
        '[[templates]]\nname = "p"\nmatch = "*"\ntext = "The {Pass pass is in {State}."\n',
        "unbalanced '{'",
    ),
    "template-unbalanced-close": (
        '[[templates]]\nname = "p"\nmatch = "*"\ntext = "The {Pass} pass}."\n',
        "unbalanced '}'",
    ),
    "template-unclosed-optional": (
        '[[templates]]\nname = "p"\nmatch = "*"\ntext = "{A}[, at {B}"\n',
        "unclosed '['",
    ),
    "template-nested-optional": (
        '[[templates]]\nname = "p"\nmatch = "*"\ntext = "{A}[ x [{B}]]"\n',
        "nest",
    ),
    "template-optional-only": (
        '[[templates]]\nname = "p"\nmatch = "*"\ntext = "[{Note}][, {Other}]"\n',
        "every field is optional",
    ),
}


@pytest.mark.parametrize(("toml", "names"), BAD_CONFIGS.values(), ids=list(BAD_CONFIGS))
def test_unusable_config_is_exit_2_naming_the_key(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], toml: str, names: str
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    _write(src, "control.md", f"# Control\n\n{CONTROL}\n")
    _write(src, "notechunk.toml", toml)
    assert main(["run", str(src), "--out", str(tmp_path / "out")]) == 2
    err = capfd.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert names in err and "notechunk.toml" in err, err
    assert not (tmp_path / "out" / "qa").exists()
    assert main(["config", "show", "--config", str(src / "notechunk.toml")]) == 2


def test_template_never_gives_an_empty_chunk(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A row that fills none of a template's fields falls back, flagged, to its cells."""
    src = tmp_path / "src"
    src.mkdir()
    _write(src, "control.md", f"# Control\n\n{CONTROL}\n")
    toml = '[[templates]]\nname = "notes"\nmatch = "*"\ntext = "Note: [{Note}][ ({Source})]"\n'
    _write(src, "notechunk.toml", toml)
    _write(src, "n.csv", "Term,Note,Source,Page\nzqterm1,,,12\nzqterm2,a real note,NCERT,3\n")
    res = run_cli(src, tmp_path / "out", capfd)
    assert res.rc == 0
    rows = {c["row"]: c for c in _stage_rows(res.out, "n.csv")}
    assert rows[2]["text"] == "Term: zqterm1. Page: 12." and rows[2]["template"] is None
    assert "template_fallback:notes:no field filled" in rows[2]["flags"]  # type: ignore[operator]
    assert rows[3]["text"] == "Note: a real note (NCERT)" and rows[3]["template"] == "notes"
    assert all(str(c["text"]).strip() for c in rows.values())


# --- `templates suggest`: the output loads, matches its own file and loses no value ----

SUGGEST = {
    "control-char-header": ("t.csv", "Term,Mea\x01ning\nzqs1,zqs2\n"),
    "glob-metachar-name": ("passes[1].csv", "Pass,State\nzqs1,zqs2\n"),
    "star-and-question-name": ("a*b?.csv", "Pass,State\nzqs1,zqs2\n"),
    "brace-header": ("alt.csv", "Pass,Alt{m}\nzqs1,zqs2\n"),
    "bracket-header": ("area.csv", "Name,Area [km2]\nzqs1,zqs2\n"),
    "quote-backslash-header": ("q.csv", 'Name,"say ""x"" \\ y"\nzqs1,zqs2\n'),
    "same-name-ignoring-punct": ("same.csv", "Alt-m,Alt m,Alt_m2\nzqs1,zqs2,zqs3\n"),
}


@pytest.mark.parametrize(("name", "data"), SUGGEST.values(), ids=list(SUGGEST))
def test_templates_suggest_loads_and_keeps_every_value(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str, data: str
) -> None:
    import tomllib

    from notechunk.config import config_from_dict
    from notechunk.sheets import process_sheet_file

    path = _write(tmp_path, name, data)
    assert main(["templates", "suggest", str(path)]) == 0
    out = capfd.readouterr().out
    cfg = config_from_dict(tomllib.loads(out))  # valid TOML, a valid template
    res = process_sheet_file(path, name, cfg)
    (chunk,) = res.pieces
    assert chunk.template == cfg.templates[0].name  # the glob matches its own file
    values = data.splitlines()[1].split(",")
    assert [v for v in values if v in chunk.text] == values, (out, chunk.text)
    assert "# left out" not in out


def test_templates_suggest_names_a_column_it_cannot_reach(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """ "{A}" next to "A": no field name can reach it; the comment says so."""
    path = _write(tmp_path, "twin.csv", "A,{A}\nzqs1,zqs2\n")
    assert main(["templates", "suggest", str(path)]) == 0
    assert "# left out: {A}" in capfd.readouterr().out


@pytest.mark.parametrize(
    ("name", "data"),
    [("junk.xlsx", b"not a workbook at all"), ("empty.ods", b""), ("blank.csv", b"\n\n")],
    ids=["junk-xlsx", "empty-ods", "blank-csv"],
)
def test_templates_suggest_unreadable_is_one_line_exit_1(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str, data: bytes
) -> None:
    path = _write(tmp_path, name, data)
    assert main(["templates", "suggest", str(path)]) == 1
    captured = capfd.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1 and name in captured.err
    assert "Traceback" not in captured.err
