"""search.bm25: one saved index per run, replaced with the run, rebuilt when damaged."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from notechunk.search import bm25 as search_bm25
from notechunk.search.runview import FinishedRun, open_run

TEXTS = [
    "Himalayan rivers are perennial: snow feeds the rivers in summer.",
    "The river Ganga rises at Gangotri.",
    "Peninsular plateaus are old and stable.",
    "",
    "Constitutional remedies: Article 32 lets a citizen move the Supreme Court.",
]


def fake_run(out: Path, texts: list[str]) -> FinishedRun:
    """An OUT holding chunks.jsonl.gz and the manifest that records it."""
    out.mkdir(parents=True, exist_ok=True)
    lines = "".join(f'{{"text": "{t}", "embed_text": "{t}"}}\n' for t in texts)
    data = gzip.compress(lines.encode(), mtime=0)
    (out / "chunks.jsonl.gz").write_bytes(data)
    entry = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    manifest = {"files": {"chunks.jsonl.gz": entry}, "metrics": {}, "schema": 1}
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return open_run(out)


def test_index_is_saved_once_and_replaced_with_the_run(tmp_path: Path) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain", "river delta"])
    calls: list[int] = []

    def texts() -> list[str]:
        calls.append(1)
        return ["monsoon rain", "river delta"]

    first, got = search_bm25.load_or_build(run, texts)
    assert got.state == "saved" and got.note is None and len(calls) == 1
    again, got = search_bm25.load_or_build(run, texts)
    assert got.state == "loaded" and len(calls) == 1  # from OUT/.search, texts never read
    assert np.array_equal(first.scores("rivers"), again.scores("rivers"))
    (entry,) = (tmp_path / "out" / ".search").glob("bm25-*")
    rerun = fake_run(tmp_path / "out", ["monsoon rain", "river delta", "plateau"])
    assert rerun.key != run.key
    _, got = search_bm25.load_or_build(rerun, lambda: ["monsoon rain", "river delta", "plateau"])
    assert got.state == "saved"
    entries = list((tmp_path / "out" / ".search").glob("bm25-*"))
    assert len(entries) == 1 and entries[0] != entry  # the stale index is gone


def test_unwritable_out_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain"])

    def refuse(*_: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("notechunk.search.runview.os.replace", refuse)
    index, got = search_bm25.load_or_build(run, lambda: ["monsoon rain"])
    assert got.state == "unsaved" and "not saved (Permission denied)" in str(got.note)
    assert index.scores("monsoon")[0] > 0
    assert not list((tmp_path / "out" / ".search").glob("*"))  # no half-written entry


def _damage_vocab(entry: Path) -> None:
    (entry / "vocab.json").write_text("{not json", encoding="utf-8")


def _damage_weights(entry: Path) -> None:  # resealed: only the shape check can tell
    np.save(entry / "data.npy", np.array([np.nan], dtype=np.float32))
    _reseal(entry)


def _damage_pointers(entry: Path) -> None:
    np.save(entry / "indptr.npy", np.array([0, 5, 2], dtype=np.int32))
    _reseal(entry)


def _damage_rows(entry: Path) -> None:
    np.save(entry / "indices.npy", np.array([99], dtype=np.int32))
    _reseal(entry)


def _damage_seal(entry: Path) -> None:
    (entry / "seal.json").unlink()


def _reseal(entry: Path) -> None:
    seal = json.loads((entry / "seal.json").read_text())
    for name in seal["files"]:
        seal["files"][name] = hashlib.sha256((entry / name).read_bytes()).hexdigest()
    (entry / "seal.json").write_text(json.dumps(seal))


def _edit_weights(entry: Path) -> None:  # a checksum mismatch
    np.save(entry / "data.npy", np.array([7.0], dtype=np.float32))


@pytest.mark.parametrize(
    "damage",
    [_damage_vocab, _damage_weights, _damage_pointers, _damage_rows, _damage_seal, _edit_weights],
    ids=["vocab-torn", "weights-nan", "pointers-back", "rows-out-of-range", "no-seal", "edited"],
)
def test_damaged_entry_is_rebuilt_with_a_note(tmp_path: Path, damage: object) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain"])
    reference, _ = search_bm25.load_or_build(run, lambda: ["monsoon rain"])
    (entry,) = (tmp_path / "out" / ".search").glob("bm25-*")
    damage(entry)  # type: ignore[operator]
    index, got = search_bm25.load_or_build(run, lambda: ["monsoon rain"])
    assert got.state == "saved"
    assert got.note is not None and "damaged search index" in got.note and "\n" not in got.note
    assert str(entry) in got.note
    assert np.array_equal(index.scores("monsoon"), reference.scores("monsoon"))
    _, again = search_bm25.load_or_build(run, lambda: ["monsoon rain"])
    assert again.state == "loaded" and again.note is None  # the rebuilt entry is believed
