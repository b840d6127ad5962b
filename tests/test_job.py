"""job: the passes end to end; stage files carry final ids; the cache follows the code."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from notechunk import job
from notechunk.config import Config
from notechunk.job import collect, run


def notes(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "polity").mkdir(parents=True)
    (src / "polity" / "writs.md").write_text(
        "# Writs\n\nHabeas corpus protects personal liberty against unlawful detention by "
        "the state or by private persons, and courts issue it quickly.\n\n## Mandamus\n\n"
        "Mandamus commands a public official to perform a duty.\n"
    )
    (src / "passes.csv").write_text(
        "Pass,State,Connects\nZoji La,Ladakh,Srinagar and Leh\nNathu La,Sikkim,Sikkim and Tibet\n"
    )
    return src


def shipped(out: Path) -> list[dict[str, object]]:
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def staged(out: Path) -> list[dict[str, object]]:
    rows = []
    for name in ("markdown_chunks.jsonl", "excel_chunks.jsonl"):
        rows += [json.loads(x) for x in (out / "stages" / name).read_text().splitlines()]
    return rows


def test_run_ships_complete_chunks_and_stage_files_carry_final_ids(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run(notes(tmp_path), out, Config())
    assert result.exit_code == 0 and result.files == 2
    assert (result.markdown_chunks, result.sheet_chunks) == (2, 2)
    chunks = shipped(out)
    assert result.metrics.surviving == len(chunks) == 4
    assert all(c["id"] and c["title"] and c["embed_text"] for c in chunks)
    assert chunks[0]["embed_text"] == "writs\n" + str(chunks[0]["text"])
    row = next(c for c in chunks if c["source"] == "passes.csv")
    assert str(row["embed_text"]).startswith("passes\nPass: ")
    assert {c["id"] for c in chunks} == {c["id"] for c in staged(out)}


def test_collect_is_what_run_ships(tmp_path: Path) -> None:
    src = notes(tmp_path)
    run(src, tmp_path / "out", Config())
    got = collect(src, Config())
    ids = [c.id for c in got.corpus.chunks if not c.omit]
    assert ids == [c["id"] for c in shipped(tmp_path / "out")]


def test_editing_a_rule_redoes_the_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src, out = notes(tmp_path), tmp_path / "out"
    run(src, out, Config())
    assert {c["semantic_type"] for c in shipped(out)} != {"edited"}
    monkeypatch.setattr("notechunk.finish.semantic_type", lambda text, source_type: "edited")
    # the same code fingerprint: every cached file (and the whole OUT) is reused
    run(src, out, Config())
    assert {c["semantic_type"] for c in shipped(out)} != {"edited"}
    # --no-cache redoes everything whatever the fingerprint says
    run(src, out, Config(), use_cache=False)
    assert {c["semantic_type"] for c in shipped(out)} == {"edited"}
    # a changed fingerprint (what editing a rule's source file does) redoes every file
    fresh = tmp_path / "fresh"
    monkeypatch.undo()
    run(src, fresh, Config())
    monkeypatch.setattr("notechunk.finish.semantic_type", lambda text, source_type: "edited")
    monkeypatch.setattr(job, "code_fingerprint", lambda: "edited-code")
    run(src, fresh, Config())
    assert {c["semantic_type"] for c in shipped(fresh)} == {"edited"}


def test_unchanged_run_rewrites_nothing(tmp_path: Path) -> None:
    src, out = notes(tmp_path), tmp_path / "out"
    first = run(src, out, Config())
    stamp = (out / "chunks.jsonl.gz").stat().st_mtime_ns
    again = run(src, out, Config())
    assert again.metrics == first.metrics
    assert (out / "chunks.jsonl.gz").stat().st_mtime_ns == stamp


def test_files_discovery_skips_are_counted_and_named_in_the_summary(tmp_path: Path) -> None:
    src = notes(tmp_path)
    for rel in ("slides/week1.pdf", "img/a.png", "img/b.png"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_bytes(b"\x89binary")
    (src / "cards.txt").write_text("Zoji La|Ladakh\nNathu La|Sikkim\n")
    (src / "diary.txt").write_text("Today I read about passes.\n")
    out = tmp_path / "out"
    result = run(src, out, Config())
    assert result.exit_code == 0 and result.files == 4  # the .txt files are read
    summary = (out / "qa" / "summary.md").read_text(encoding="utf-8")
    assert "| files skipped (not notes or sheets) | 3 |" in summary
    assert "3 files skipped: 2 .png, 1 .pdf." in summary
    assert "- img/a.png\n- img/b.png\n- slides/week1.pdf\n" in summary
    sources = {c["source"]: c["source_type"] for c in shipped(out)}
    assert sources["cards.txt"] == "spreadsheet" and sources["diary.txt"] == "markdown"
    (src / "img" / "c.gif").write_bytes(b"GIF89a")  # only a skipped file more: run again
    run(src, out, Config())
    summary = (out / "qa" / "summary.md").read_text(encoding="utf-8")
    assert "4 files skipped: 2 .png, 1 .gif, 1 .pdf." in summary
