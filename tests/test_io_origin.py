"""io.origin: OUT says where its notes are, outside the outputs and the manifest."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import make_corpus
from notechunk.cli import main
from notechunk.io.origin import ORIGIN, Origin, origin_of, read_origin


def test_a_run_records_its_root_and_files_but_not_in_the_manifest(tmp_path: Path) -> None:
    src = tmp_path / "notes"
    make_corpus(src, 3, seed=2, sentences=5)
    (src / ".hidden.md").write_text("# Hidden\n\nNot read.\n")
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    origin = read_origin(out)
    assert origin is not None
    assert origin.root == src.resolve()
    assert list(origin.files) == sorted(p.relative_to(src).as_posix() for p in src.rglob("n*.md"))
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert ORIGIN not in manifest["files"] and str(src) not in json.dumps(manifest)


def test_an_unchanged_run_from_a_moved_folder_says_where_the_notes_are_now(
    tmp_path: Path,
) -> None:
    src = tmp_path / "a"
    make_corpus(src, 2, seed=3, sentences=5)
    out = tmp_path / "out"
    assert main(["run", str(src), "--out", str(out)]) == 0
    manifest = (out / "manifest.json").read_bytes()
    moved = tmp_path / "b"
    os.rename(src, moved)
    assert main(["run", str(moved), "--out", str(out)]) == 0
    assert (out / "manifest.json").read_bytes() == manifest  # nothing else was rewritten
    origin = read_origin(out)
    assert origin is not None and origin.root == moved.resolve()


def test_a_one_file_source_is_relative_to_its_folder(tmp_path: Path) -> None:
    note = tmp_path / "one.md"
    note.write_text("# One\n\nText.\n")
    assert origin_of(note, ["one.md"]) == Origin(root=tmp_path.resolve(), files=("one.md",))


def test_a_foreign_or_missing_origin_reads_as_none(tmp_path: Path) -> None:
    assert read_origin(tmp_path) is None
    for text in ("[1]", '{"root": 3, "files": []}', "\xff", '{"root": "", "files": []}'):
        (tmp_path / ORIGIN).write_text(text, encoding="latin-1")
        assert read_origin(tmp_path) is None


def test_a_folder_name_that_is_not_utf8_round_trips(tmp_path: Path) -> None:
    odd = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/caf\xe9"))
    origin = Origin(root=odd, files=("x.md",))
    (tmp_path / ORIGIN).write_bytes(origin.to_bytes())
    assert read_origin(tmp_path) == origin
