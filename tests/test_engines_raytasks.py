"""engines.raytasks and raypasses without a Ray cluster: the task functions, run on rows cut
any way (small file parts, small index blocks, batches that mix Markdown and sheet rows),
give exactly the chunks and scores of the local engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from notechunk.config import Config
from notechunk.corpus.dedupe import mark_duplicates
from notechunk.corpus.scores import chunk_scores, scored
from notechunk.corpus.scores.bm25index import Postings, fill_index, merge_stats
from notechunk.discover import discover
from notechunk.engines import raytasks
from notechunk.engines.raypasses import RayCorpus, gather
from notechunk.engines.raytasks import (
    encode_files,
    file_rows,
    index_rows,
    pack,
    postings_rows,
    score_rows,
    unpack,
    unpack_stats,
)
from notechunk.job import collect
from passes import score

pa = pytest.importorskip("pyarrow", reason="the Ray engine's rows are arrow tables")


class Rows:
    """A stand-in for a materialized Ray dataset: arrow tables, in order."""

    def __init__(self, tables: list[Any]) -> None:
        self.tables = tables

    def iter_batches(self, batch_format: str, batch_size: None) -> Iterator[Any]:
        return iter(self.tables)


def corpus(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    note = "# Passes\n\nZoji La links Srinagar with Leh across the Great Himalaya range.\n"
    for i in range(4):
        body = note + f"\n## Pass {i}\n\nThe pass number {i} zqp{i} is closed in winter snow.\n"
        (src / f"n{i}.md").write_text(body)
    (src / "sub").mkdir()
    (src / "sub" / "n0.md").write_text((src / "n0.md").read_text())  # same title: duplicates
    (src / "passes.csv").write_text(
        "Pass,State,Connects\n"
        + "".join(f"Pass {i} zqr{i},Ladakh,Leh and camp {i}\n" for i in range(7))
        + "Pass 0 zqr0,Ladakh,Leh and camp 0\n"  # a duplicate row
    )
    return src


def numpy_batch(table: Any) -> dict[str, Any]:
    return {c: table.column(c).to_numpy(zero_copy_only=False) for c in table.column_names}


def test_pack_round_trips_arrays() -> None:
    arrays = (np.arange(5, dtype=np.uint64), np.zeros(0, dtype=np.int64), np.ones(3, bool))
    back = unpack(pack(arrays))
    assert all(a.dtype == b.dtype and (a == b).all() for a, b in zip(arrays, back, strict=True))


def test_task_functions_give_the_local_engines_chunks_and_scores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(raytasks, "PART_CHUNKS", 3)  # files cut into several parts
    src, cfg = corpus(tmp_path), Config()
    files = discover(src).files
    tables = []
    for first in range(0, len(files), 2):  # two files per task, kinds mixed in a block
        batch = {"first": np.array([first]), "files": [encode_files(files[first : first + 2])]}
        parts = list(file_rows(batch, cfg, None, ""))
        tables.append(pa.concat_tables([pa.Table.from_pydict(p) for p in parts]))
    got: RayCorpus = gather([Rows(tables)], len(files), [])

    # the passes, task by task, with index blocks of 2 chunks
    index_tables = [pa.Table.from_pydict(index_rows(numpy_batch(t), got.layout, 2)) for t in tables]
    stats = merge_stats(
        unpack_stats(s) for t in index_tables for s in t.column("stats").to_pylist()
    )
    posts = [postings_rows(numpy_batch(t), stats) for t in index_tables]
    parts = sorted(
        (d, p) for c in posts for d, p in zip(c["doc_start"], c["postings"], strict=True)
    )
    index = fill_index((Postings(*unpack(p)) for _, p in parts), stats)
    doc_score = np.zeros(int(np.count_nonzero(got.layout.indexed)))
    for t in index_tables:
        cols = score_rows(numpy_batch(t), index)
        for doc, raw in zip(cols["doc_start"], cols["scores"], strict=True):
            s = np.frombuffer(raw)
            doc_score[doc : doc + len(s)] = s
    chunks = list(
        scored(mark_duplicates(got._results(), got.original), chunk_scores(doc_score, got.original))
    )

    local = collect(src, cfg)
    expected = score(local.corpus.chunks)  # in memory, in one block
    assert chunks == expected  # same order, duplicates marked alike, same scores
    assert got.surviving == sum(1 for c in expected if not c.omit)
    assert {c.source_type for c in chunks if c.duplicate_of} == {"markdown", "spreadsheet"}
    assert (got.n_markdown, got.n_sheets) == (
        sum(c.source_type == "markdown" for c in local.corpus.chunks),
        sum(c.source_type == "spreadsheet" for c in local.corpus.chunks),
    )
    assert [s for s, _ in got.keys] == [f.rel for f in files]
    assert all(k is not None for _, k in got.keys)
    assert got.errors == local.corpus.errors and got.reports == local.corpus.reports
