"""The peers' documents: the same files as `run`, sheet rows as CSVLoader's documents."""

from __future__ import annotations

import csv
from pathlib import Path

from notechunk.config import Config
from notechunk.evaluate.documents import load_documents
from notechunk.sheets.plain import row_text
from sheets_helpers import write_xlsx


def test_row_text_is_csvloader_shaped() -> None:
    assert row_text(["Pass", "State", "Notes"], ("Zoji La", "Ladakh", "")) == (
        "Pass: Zoji La\nState: Ladakh\nNotes: "
    )
    assert row_text(["A"], ("1", "2")) == "A: 1\nColumn 2: 2"


def test_documents_include_sheet_rows_of_every_format(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "notes").mkdir(parents=True)
    (src / "notes" / "a.md").write_text("# A\n\nAlpha text.\n", encoding="utf-8")
    (src / "b.md").write_bytes("# Café\n\nCrème brûlée.\n".encode("cp1252"))
    with open(src / "passes.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerows([["Pass", "State"], ["Zoji La", "Ladakh"], ["", ""], ["Nathu La", "Sikkim"]])
    rows = [
        ["Indian rivers"],
        [],
        ["River", "Origin"],
        ["Ganga", "Gangotri"],
        ["Kaveri", "Talakaveri"],
    ]
    write_xlsx(src / "rivers.xlsx", rows, title="Rivers")
    (src / "ignored.pdf").write_bytes(b"%PDF-1.4 not a note")
    got = load_documents(src, Config())
    by_source = {d.source: d for d in got.documents}
    assert list(by_source) == [
        "b.md",
        "notes/a.md",
        "passes.csv#passes:2",
        "passes.csv#passes:4",
        "rivers.xlsx#Rivers:4",
        "rivers.xlsx#Rivers:5",
    ]
    assert by_source["b.md"].text.startswith("# Café") and by_source["b.md"].kind == "markdown"
    assert by_source["passes.csv#passes:4"].text == "Pass: Nathu La\nState: Sikkim"
    assert by_source["rivers.xlsx#Rivers:4"].kind == "row"
    assert by_source["rivers.xlsx#Rivers:4"].text == "River: Ganga\nOrigin: Gangotri"
    assert got.notes == ("b.md: decoded as cp1252 (not UTF-8)",)


def test_unreadable_files_are_notes(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "fake.xlsx").write_text("<html><table></table></html>", encoding="utf-8")
    (src / "bin.md").write_bytes(b"\x00\x01\x02")
    (src / "ok.md").write_text("Fine.\n", encoding="utf-8")
    got = load_documents(src, Config())
    assert [d.source for d in got.documents] == ["ok.md"]
    assert len(got.notes) == 2
    assert got.notes[0].startswith("bin.md: binary content")
    assert got.notes[1].startswith("fake.xlsx: not a workbook")


def test_excluded_folders_are_not_read(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "out").mkdir(parents=True)
    (src / "a.md").write_text("A.\n", encoding="utf-8")
    (src / "out" / "results.md").write_text("# old results\n", encoding="utf-8")
    got = load_documents(src, Config(), exclude=[src / "out"])
    assert [d.source for d in got.documents] == ["a.md"]
