"""Hostile inputs: XML entities in workbooks, input names that look like output paths,
an OUT inside SRC, and configuration that is TOML and nothing else."""

from __future__ import annotations

import io
import json
import re
import time
import zipfile
from pathlib import Path

import pytest

from notechunk.cli import main
from published import published

SRC_PACKAGE = Path(__file__).resolve().parents[1] / "src" / "notechunk"
OUTPUT_NAMES = {
    "chunks.jsonl.gz",
    "manifest.json",
    "origin.json",
    "report.html",
    "stages/markdown_chunks.jsonl",
    "stages/excel_chunks.jsonl",
}
QA_NAMES = {
    "metrics.json",
    "summary.md",
    "sample.jsonl",
    "flagged.json",
    "flagged.csv",
    "semantic_types.json",
    "discarded_rows.json",
    "discarded_rows.csv",
    "errors.json",
    "enrichment.json",
    "skipped_lines.json",
}


def _all_output_text(out: Path) -> str:
    import gzip

    parts = []
    for p in sorted(out.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            parts.append(gzip.decompress(data) if p.suffix == ".gz" else data)
    return b"\n".join(parts).decode("utf-8", "replace")


def _xlsx_with_shared_strings(xml: bytes) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Pass", "State", "Connects"])
    ws.append(["Zojila zqrow1", "Ladakh", "Srinagar and Leh through the mountains"])
    buf = io.BytesIO()
    wb.save(buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "xl/sharedStrings.xml":
                data = xml
            z.writestr(info.filename, data)
    return out.getvalue()


def _shared_strings(doctype: str, first: str) -> bytes:
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    items = [first, "Zojila zqrow1", "Ladakh", "Srinagar and Leh through the mountains", "x"]
    sis = "".join(f"<si><t>{t}</t></si>" for t in items)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n{doctype}\n'
        f'<sst xmlns="{ns}" count="6" uniqueCount="5">{sis}</sst>'
    ).encode()


def _run(
    src: Path, out: Path, capfd: pytest.CaptureFixture[str]
) -> tuple[int, list[dict[str, str]]]:
    rc = main(["run", str(src), "--out", str(out)])
    err = capfd.readouterr().err
    assert rc in (0, 1), err
    assert "Traceback" not in err
    return rc, json.loads((out / "qa" / "errors.json").read_text(encoding="utf-8"))


def test_xml_external_entity_is_refused_or_inert(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("zqsecret-do-not-leak")
    doctype = f'<!DOCTYPE sst [<!ENTITY xxe SYSTEM "file://{secret}">]>'
    src = tmp_path / "src"
    src.mkdir()
    (src / "xxe.xlsx").write_bytes(_xlsx_with_shared_strings(_shared_strings(doctype, "&xxe;")))
    out = tmp_path / "out"
    _run(src, out, capfd)
    assert "zqsecret" not in _all_output_text(out)


def test_billion_laughs_is_refused_quickly(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    ents = ['<!ENTITY l0 "lol">'] + [
        f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' for i in range(1, 10)
    ]
    doctype = f"<!DOCTYPE sst [{''.join(ents)}]>"
    src = tmp_path / "src"
    src.mkdir()
    (src / "lol.xlsx").write_bytes(_xlsx_with_shared_strings(_shared_strings(doctype, "&l9;")))
    start = time.monotonic()
    _run(src, tmp_path / "out", capfd)
    assert time.monotonic() - start < 60
    assert "lollollollollollollollollollol" not in _all_output_text(tmp_path / "out")


def test_output_paths_never_come_from_input_names(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src"
    names = [
        "chunks.jsonl.gz.md",
        "manifest.json.md",
        "qa/errors.json.md",
        "stages/markdown_chunks.jsonl.md",
        "..md",
        "...md",
        "report.html.md",
        "%2e%2e%2fescape.md",
        "con.md",
    ]
    for k, name in enumerate(names):
        path = src / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# N\n\nName trick zqname{k} text.\n")
    out = tmp_path / "out"
    rc, errors = _run(src, out, capfd)
    assert rc == 0, errors
    shipped = set(published(out))
    allowed = OUTPUT_NAMES | {f"qa/{n}" for n in QA_NAMES}
    allowed |= {"sources/index.html", "sources/viewer.js", "sources/viewer.css"}
    # the source view has one page per input, named by a sanitised slug and a hash, and
    # always inside sources/ (no separator, no leading dot, nothing else)
    safe = r"sources/[A-Za-z0-9_-][\w.-]*-[0-9a-f]{8}\.html"
    pages = {p for p in shipped if re.fullmatch(safe, p)}
    texts = {p for p in shipped if re.fullmatch(r"sources/text/[0-9a-f]{32}\.js", p)}  # by hash
    assert len(pages) == len(names) - 2  # "..md" and "...md" are hidden files: not read
    assert shipped - pages - texts <= allowed, shipped - pages - texts - allowed
    cache = [
        p.relative_to(out / ".cache").as_posix() for p in (out / ".cache").rglob("*.msgpack.gz")
    ]
    assert cache and all(re.fullmatch(r"[0-9a-f]{2}/[0-9a-f]{64}\.msgpack\.gz", c) for c in cache)
    assert sorted(tmp_path.iterdir()) == [out, src]  # nothing written beside OUT


def test_out_inside_src_is_not_read_back(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text("# A\n\nSome note zqa text in a file.\n")
    out = src / "out"
    for _ in range(2):
        rc, errors = _run(src, out, capfd)
        assert rc == 0, errors
    # a report written as CSV or Markdown into OUT/qa is never an input of the next run
    (out / "qa" / "summary.md").write_text("# Summary\n\nzqsummary must not be read.\n")
    (out / "qa" / "flagged.csv").write_text("Term,Meaning\nzqflagged,never read as input\n")
    rc, errors = _run(src, out, capfd)
    stages = (out / "stages" / "markdown_chunks.jsonl").read_text(encoding="utf-8")
    stages += (out / "stages" / "excel_chunks.jsonl").read_text(encoding="utf-8")
    assert "zqa" in stages and "zqsummary" not in stages and "zqflagged" not in stages


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("cfg.yaml", "segmenter: default\nmarkdown:\n  window_sentences: 5\n"),
        ("cfg.json", '{"segmenter": "default"}'),
        ("cfg.toml", "!!python/object/apply:os.system ['echo pwned']\n"),
        ("cfg.toml", "segmenter = \"default\"\n[markdown]\nwindow_sentences = 'ten'\n"),
    ],
    ids=["yaml", "json", "yaml-tag", "bad-type"],
)
def test_config_is_toml_only(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str, text: str
) -> None:
    cfg = tmp_path / name
    cfg.write_text(text)
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.md").write_text("# A\n\nText.\n")
    rc = main(["run", str(src), "--out", str(tmp_path / "out"), "--config", str(cfg)])
    err = capfd.readouterr().err
    assert rc == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_no_unsafe_deserialisers_in_the_package() -> None:
    """Config is TOML, caches and outputs are JSON: nothing that can run code on load."""
    unsafe = re.compile(r"\b(?:pickle|marshal|shelve|yaml\.load|eval\(|exec\()")
    hits = [
        f"{p.relative_to(SRC_PACKAGE)}:{n}"
        for p in sorted(SRC_PACKAGE.rglob("*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if unsafe.search(line) and not line.lstrip().startswith("#")
    ]
    assert not hits
