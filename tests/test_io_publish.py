"""io.publish: the manifest is the commit record; a damaged OUT is never trusted."""

from __future__ import annotations

from pathlib import Path

import pytest

from notechunk.chunk import SCHEMA_VERSION
from notechunk.errors import UsageError
from notechunk.io import publish


def staged(out: Path) -> Path:
    staging = publish.staging_dir(out)
    (staging / "qa").mkdir(parents=True)
    (staging / "chunks.jsonl.gz").write_bytes(b"chunks")
    (staging / "qa" / "errors.json").write_text("[]\n")
    return staging


def test_publish_moves_files_and_writes_the_manifest(tmp_path: Path) -> None:
    m = publish.publish(staged(tmp_path), tmp_path, {"total": 1}, "key")
    assert not (tmp_path / publish.STAGING).exists()
    assert (tmp_path / "chunks.jsonl.gz").read_bytes() == b"chunks"
    again = publish.read_manifest(tmp_path)
    assert again == m and again.run_key == "key" and again.metrics == {"total": 1}
    assert again.schema == SCHEMA_VERSION  # the chunk records' version, for readers
    assert publish.outputs_intact(tmp_path, again)


def test_a_same_size_corruption_is_detected(tmp_path: Path) -> None:
    publish.publish(staged(tmp_path), tmp_path, {}, "key")
    (tmp_path / "chunks.jsonl.gz").write_bytes(b"chunkz")  # one byte flipped, same size
    assert not publish.outputs_intact(tmp_path, publish.read_manifest(tmp_path))
    (tmp_path / "chunks.jsonl.gz").unlink()
    assert not publish.outputs_intact(tmp_path, publish.read_manifest(tmp_path))


@pytest.mark.parametrize(
    "text",
    ["", "[]", '{"files": [1]}', '{"files": {"a": {"bytes": "x"}}}', "[" * 100_000, "{"],
    ids=["empty", "list", "files-list", "bad-entry", "deep", "torn"],
)
def test_a_foreign_manifest_reads_as_empty(tmp_path: Path, text: str) -> None:
    (tmp_path / publish.MANIFEST).write_text(text)
    m = publish.read_manifest(tmp_path)
    assert m.run_key is None and not publish.outputs_intact(tmp_path, m)


def test_leftovers_of_a_killed_run_are_removed(tmp_path: Path) -> None:
    (tmp_path / publish.STAGING / "qa").mkdir(parents=True)
    (tmp_path / f".{publish.MANIFEST}.tmp123").write_text("{")
    publish.remove_leftovers(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_one_run_per_out(tmp_path: Path) -> None:
    with publish.exclusive(tmp_path):
        with pytest.raises(UsageError, match="another notechunk run"):
            with publish.exclusive(tmp_path):
                pass
