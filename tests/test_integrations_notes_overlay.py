"""notes_overlay: changed files served before their run publishes, then the published run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import notechunk
from notechunk.config import Config
from notechunk.data import SAMPLE_DIR
from notechunk.integrations import notes_view as nv
from notechunk.io.cache import CACHE_DIR


@pytest.fixture()
def served(tmp_path: Path) -> tuple[Path, Path, nv.Notes]:
    src = tmp_path / "notes"
    shutil.copytree(SAMPLE_DIR, src)
    out = tmp_path / "out"
    assert notechunk.run(src, out).exit_code == 0
    return src, out, nv.Notes(out)


def _cfg(src: Path) -> Config:
    return Config.from_toml(src / "notechunk.toml")


def test_an_edit_is_searchable_and_readable_before_its_run(
    served: tuple[Path, Path, nv.Notes],
) -> None:
    src, out, notes = served
    note = src / "polity" / "writs.md"
    note.write_text(note.read_text() + "\n## Quo warranto today\n\nThe zqfresh writ.\n")
    published = notes.view()
    problems = notes.provisional([("polity/writs.md", note)], _cfg(src), out / CACHE_DIR)
    assert problems == []
    view = notes.view()
    assert view.provisional == ("polity/writs.md",)
    found = nv.search_notes(view, "zqfresh writ", k=3)
    assert "provisional" in found
    top = found["hits"][0]
    assert top["source"] == "polity/writs.md" and "zqfresh" in top["text"]
    assert nv.read_chunk(view, top["id"], 1)["before"]  # the new chunk sits in its file
    tree = nv.outline(view, "polity/writs.md")
    assert "Quo warranto today" in [h["heading"] for h in tree["headings"]]
    # the other files are untouched, and the published view is what it was
    assert len(view.chunks) == len(published.chunks) + 1
    assert "zqfresh" not in {c.text for c in published.chunks}
    # once the run (started after the edit was taken in) publishes, the published run
    # is served, with the same top hit
    notes.mark()
    assert notechunk.run(src, out).exit_code == 0
    after = notes.refresh()
    assert after.provisional == ()
    again = nv.search_notes(after, "zqfresh writ", k=3)
    assert "provisional" not in again and again["hits"][0]["id"] == top["id"]


def test_deleted_files_and_folders_leave_the_view(served: tuple[Path, Path, nv.Notes]) -> None:
    src, out, notes = served
    (src / "history" / "indus-valley.md").unlink()
    shutil.rmtree(src / "economy")
    changed = [
        ("history/indus-valley.md", src / "history" / "indus-valley.md"),
        ("economy", src / "economy"),
    ]
    assert notes.provisional(changed, _cfg(src), out / CACHE_DIR) == []
    view = notes.view()
    sources = {c.source for c in view.chunks}
    assert "history/indus-valley.md" not in sources
    assert not any(s.startswith("economy/") for s in sources)
    listed = [s["source"] for s in nv.list_sources(view)["sources"]]
    assert "history/indus-valley.md" not in listed and "economy/banking.md" not in listed
    assert all(
        h["source"] != "history/indus-valley.md"
        for h in nv.search_notes(view, "Harappa Mohenjo-daro", k=20)["hits"]
    )


def test_a_file_that_breaks_keeps_its_published_chunks(
    served: tuple[Path, Path, nv.Notes],
) -> None:
    src, out, notes = served
    sheet = src / "sheets" / "passes.xlsx"
    sheet.write_bytes(b"PK\x03\x04 not a whole workbook")
    problems = notes.provisional([("sheets/passes.xlsx", sheet)], _cfg(src), out / CACHE_DIR)
    assert len(problems) == 1 and problems[0].startswith("sheets/passes.xlsx:")
    view = notes.view()
    assert view.provisional == ()
    assert nv.search_notes(view, "Zoji La pass Ladakh", k=10, source="sheets")["hits"]


def test_a_copy_of_another_note_is_deduped_as_the_run_would(
    served: tuple[Path, Path, nv.Notes],
) -> None:
    src, out, notes = served
    copy = src / "polity" / "writs-copy.md"  # sorts first: the run keeps its copies
    copy.write_bytes((src / "polity" / "writs.md").read_bytes())
    assert notes.provisional([("polity/writs-copy.md", copy)], _cfg(src), None) == []
    served_now = {(c.source, c.text) for c in notes.view().chunks}
    assert any(s == "polity/writs-copy.md" for s, _ in served_now)
    assert notechunk.run(src, out).exit_code == 0
    published = {(c.source, c.text) for c in nv.load_view(out).chunks}
    assert served_now == published


def test_changes_taken_in_after_a_run_started_outlive_its_publish(
    served: tuple[Path, Path, nv.Notes],
) -> None:
    src, out, notes = served
    notes.mark()  # a run starts ...
    note = src / "geography" / "monsoon.md"
    note.write_text(note.read_text() + "\n\nThe zqlate monsoon line.\n")
    notes.provisional([("geography/monsoon.md", note)], _cfg(src), out / CACHE_DIR)
    # ... and publishes what it read before the edit (here: the same notes re-run
    # without the edit, as a run that started earlier would)
    saved = note.read_text()
    note.write_text(saved.replace("\n\nThe zqlate monsoon line.\n", ""))
    (src / "geography" / "rivers-of-india.md").write_text("# Rivers\n\nA new zqriver line.\n")
    assert notechunk.run(src, out).exit_code == 0
    note.write_text(saved)
    view = notes.refresh()
    assert view.provisional == ("geography/monsoon.md",)
    assert nv.search_notes(view, "zqlate", k=1)["hits"][0]["source"] == "geography/monsoon.md"
    assert nv.search_notes(view, "zqriver", k=1)["hits"]  # the published run is underneath
