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
    """What one case's file must give: `tokens` found in its chunks, or an error entry."""

    rel: str
    outcome: Outcome
    tokens: tuple[str, ...] = ()
    all_words: bool = False  # every word of the decoded file must reach its chunks


@dataclass(frozen=True)
class Case:
    id: str
    build: Callable[[Path], list[Expect]]
    sheet: bool = False
    marks: tuple[pytest.MarkDecorator, ...] = field(default=())


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
    Case("csv-big-field", _sheet("bf.csv", _csv_big_field, "either", "zqcsv2"), sheet=True),
    Case(
        "csv-ragged",
        _sheet("r.csv", lambda: b'Term,Meaning\n"unclosed zqr1,x\nA,B,C,D,E\n', "either"),
        sheet=True,
    ),
]


# --- the run and its checks -------------------------------------------------------------


@dataclass
class Outputs:
    rc: int
    stderr: str
    errors: list[dict[str, str]]
    texts: dict[str, str]  # source -> all its chunk text (stage files: omitted ones too)


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
    return Outputs(rc, captured.err, errors, {k: "\n".join(v) for k, v in texts.items()})


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
        if err is not None:
            assert exp.outcome != "ok", f"{exp.rel} failed: {err['reason']}"
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
        res = run_cli(src, tmp_path / "out", capfd)
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
        if case.id in {"10MB-single-line", "many-dots", "long-word", "outside-link"}:
            continue  # big; covered alone
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
    entries = sorted((out / ".cache").rglob("*.json"))
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
