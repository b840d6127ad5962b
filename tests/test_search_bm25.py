"""search.bm25: one saved index per run, replaced with the run, rebuilt when damaged."""

from __future__ import annotations

import gzip
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
    out.mkdir(parents=True, exist_ok=True)
    (out / "manifest.json").write_text("{}", encoding="utf-8")
    lines = "".join(f'{{"text": "{t}", "embed_text": "{t}"}}\n' for t in texts)
    (out / "chunks.jsonl.gz").write_bytes(gzip.compress(lines.encode(), mtime=0))
    return open_run(out)


def test_index_is_saved_once_and_replaced_with_the_run(tmp_path: Path) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain", "river delta"])
    calls: list[int] = []

    def texts() -> list[str]:
        calls.append(1)
        return ["monsoon rain", "river delta"]

    first, built = search_bm25.load_or_build(run, texts)
    assert built and len(calls) == 1
    again, built = search_bm25.load_or_build(run, texts)
    assert not built and len(calls) == 1  # loaded from OUT/.search, texts never read
    assert np.array_equal(first.scores("rivers"), again.scores("rivers"))
    (entry,) = (tmp_path / "out" / ".search").glob("bm25-*")
    rerun = fake_run(tmp_path / "out", ["monsoon rain", "river delta", "plateau"])
    assert rerun.key != run.key
    _, built = search_bm25.load_or_build(rerun, lambda: ["monsoon rain", "river delta", "plateau"])
    assert built
    entries = list((tmp_path / "out" / ".search").glob("bm25-*"))
    assert len(entries) == 1 and entries[0] != entry  # the stale index is gone


def test_unwritable_out_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain"])

    def refuse(*_: object) -> None:
        raise PermissionError("read-only")

    monkeypatch.setattr(search_bm25.os, "replace", refuse)
    index, built = search_bm25.load_or_build(run, lambda: ["monsoon rain"])
    assert built and index.scores("monsoon")[0] > 0
    assert not list((tmp_path / "out" / ".search").glob("*"))  # no half-written entry


def test_damaged_entry_is_rebuilt(tmp_path: Path) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain"])
    search_bm25.load_or_build(run, lambda: ["monsoon rain"])
    (entry,) = (tmp_path / "out" / ".search").glob("bm25-*")
    (entry / "vocab.json").write_text("{not json", encoding="utf-8")
    index, built = search_bm25.load_or_build(run, lambda: ["monsoon rain"])
    assert built and index.scores("monsoon")[0] > 0
