"""The corpus passes over the Ray engine's chunk dataset, and the chunks back in output order.

`gather` reads the small columns of every row (counts, dedupe key hashes, omit bits,
each file's key and extras) and dedupes on the hashes (`corpus.dedupe.originals`, as the local
engine): the driver holds ~25 bytes per chunk, never the chunks. `RayCorpus.scores` runs
the retrieval passes as Ray Data work over the dataset: index blocks (a map, with the
broadcast `Layout`, each block's statistics counted there), document frequencies
aggregated across blocks (a reduce task: `merge_stats`), postings weighed blockwise
with the broadcast statistics, the index laid out in one task
(`corpus.scores.bm25index.fill_index`), then every block scored against the broadcast index.
`RayCorpus.chunks` streams the chunks to the driver in output order, duplicates marked,
for `qa.artifacts.write_stream`: the same bytes as the local engine.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import (
    Chunk,
    DiscardedRow,
    FileError,
    FileResult,
    LineAccount,
    SheetReport,
)
from notechunk.corpus.dedupe import mark_duplicates, originals
from notechunk.corpus.scores import chunk_scores
from notechunk.corpus.scores.bm25index import CorpusStats, Index, Postings, fill_index, merge_stats
from notechunk.engines.raytasks import (
    KINDS,
    Batch,
    Columns,
    Layout,
    RowKey,
    decode_extras,
    decode_stats,
    index_rows,
    postings_rows,
    score_rows,
    unpack,
    unpack_stats,
)
from notechunk.enrich.glossary import GlossaryStats

if TYPE_CHECKING:
    from ray.data import Dataset


@dataclass(frozen=True, slots=True, kw_only=True)
class RayCorpus:
    """The chunk dataset after dedupe: what `engines.ray.gather` hands on as a `Gathered`."""

    datasets: tuple[Any, ...]  # ray.data.Dataset, materialized; rows by file
    original: NDArray[np.int64]
    omitted: NDArray[np.bool_]
    layout: Layout
    files: int
    n_markdown: int
    n_sheets: int
    keys: tuple[tuple[str, str | None], ...]  # (source, cache key) per file, in file order
    notes: tuple[str, ...] = ()  # for a person: cache entries not used, in file order
    discarded: tuple[DiscardedRow, ...] = ()
    reports: tuple[SheetReport, ...] = ()
    errors: tuple[FileError, ...] = ()
    accounts: tuple[LineAccount, ...] = ()

    @property
    def surviving(self) -> int:
        return int(np.count_nonzero(~self.omitted & (self.original < 0)))

    def chunks(self) -> Iterator[Chunk]:
        """Every chunk in output order, duplicates marked (streamed from the dataset)."""
        return mark_duplicates(self._results(), self.original)

    def _results(self) -> Iterator[FileResult]:
        dec = msgspec.msgpack.Decoder(FileResult)
        for kind in KINDS:
            streams = [_rows_of(ds, kind) for ds in self.datasets]
            for _, data in heapq.merge(*streams, key=lambda r: r[0]):
                yield dec.decode(data)

    def scores(self) -> NDArray[np.float64]:
        """Every chunk's retrieval score (unrounded), from the passes run on Ray."""
        import ray

        data = _union(self.datasets)
        layout = ray.put(self.layout)
        index_ds = data.map_batches(
            _index_task, batch_format="numpy", fn_kwargs={"layout": layout}
        ).materialize()
        stats = ray.remote(_merge_stats).remote(index_ds.to_arrow_refs())
        post = index_ds.map_batches(
            _postings_task, batch_format="numpy", fn_kwargs={"stats": stats}
        ).materialize()
        index = ray.remote(_assemble).remote(stats, post.to_arrow_refs())
        doc_score = np.zeros(int(np.count_nonzero(self.layout.indexed)), dtype=np.float64)
        scores_ds = index_ds.map_batches(
            _score_task, batch_format="numpy", fn_kwargs={"index": index}
        )
        for batch in scores_ds.iter_batches(batch_format="numpy", batch_size=None):
            if not len(batch.get("doc_start", ())):
                continue  # an empty block has no columns
            for doc, raw in zip(batch["doc_start"], batch["scores"], strict=True):
                got = np.frombuffer(raw, dtype=np.float64)
                doc_score[int(doc) : int(doc) + len(got)] = got
        return chunk_scores(doc_score, self.original)


def glossary_stats_of(datasets: Sequence[Dataset]) -> Iterator[GlossaryStats]:
    """Each file's glossary statistics (its part-0 row), for `corpus.glossary`."""

    def parts() -> Iterator[GlossaryStats]:
        for ds in datasets:
            for b in ds.iter_batches(batch_format="pyarrow", batch_size=None):
                if not b.num_rows:
                    continue
                for part, data in zip(
                    b.column("part").to_pylist(), b.column("glossary").to_pylist(), strict=True
                ):
                    if part == 0:
                        yield decode_stats(data)

    return parts()


def gather(datasets: Sequence[Dataset], files: int, died: Sequence[FileError]) -> RayCorpus:
    """Read the rows' small columns in output order; dedupe on the key hashes."""
    rows: dict[str, list[tuple[RowKey, int, bytes, bytes]]] = {k: [] for k in KINDS}
    extras: list[tuple[int, FileResult]] = []
    keys: dict[int, tuple[str, str | None]] = {}
    notes: dict[int, str] = {}
    for ds in datasets:
        for b in ds.iter_batches(batch_format="pyarrow", batch_size=None):
            if not b.num_rows:
                continue
            names = ("kind", "file", "part", "n", "key", "note")
            cols = {c: b.column(c).to_pylist() for c in names}
            hashes, omit, extra = b.column("hashes"), b.column("omit"), b.column("extras")
            for i, kind in enumerate(cols["kind"]):
                key: RowKey = (kind, cols["file"][i], cols["part"][i])
                rows[kind].append((key, cols["n"][i], hashes[i].as_py(), omit[i].as_py()))
                if key[2] == 0:
                    r = decode_extras(extra[i].as_py())
                    extras.append((key[1], r))
                    keys[key[1]] = (r.source, cols["key"][i] or None)
                    if cols["note"][i]:
                        notes[key[1]] = cols["note"][i]
    ordered = sorted(rows["markdown"]) + sorted(rows["spreadsheet"])
    counts = np.asarray([n for _, n, _, _ in ordered], dtype=np.int64)
    hl = np.frombuffer(b"".join(h for _, _, h, _ in ordered), dtype=np.uint64).reshape(-1, 2)
    omit = np.frombuffer(b"".join(o for _, _, _, o in ordered), dtype=bool)
    original = originals(hl, omit)
    indexed = original < 0
    starts = np.cumsum(counts) - counts
    docs_before = np.concatenate(([0], np.cumsum(indexed))).astype(np.int64)
    layout = Layout(
        starts={
            key: (int(s), int(docs_before[s]))
            for (key, _, _, _), s in zip(ordered, starts, strict=True)
        },
        indexed=indexed,
    )
    extras.sort(key=lambda e: e[0])
    n_md = sum(n for _, n, _, _ in rows["markdown"])
    errors = [*died, *(e for _, r in extras for e in r.errors)]
    died_keys = {e.source: (e.source, None) for e in died}
    return RayCorpus(
        datasets=tuple(datasets),
        original=original,
        omitted=omit.copy(),
        layout=layout,
        files=files,
        n_markdown=n_md,
        n_sheets=len(omit) - n_md,
        keys=tuple(keys[f] for f in sorted(keys)) + tuple(died_keys.values()),
        notes=tuple(notes[f] for f in sorted(notes)),
        discarded=tuple(d for _, r in extras for d in r.discarded),
        reports=tuple(s for _, r in extras for s in r.reports),
        accounts=tuple(a for _, r in extras for a in r.accounts),
        errors=tuple(errors),
    )


def _rows_of(ds: Dataset, kind: str) -> Iterator[tuple[tuple[int, int], bytes]]:
    for b in ds.iter_batches(batch_format="pyarrow", batch_size=None):
        if not b.num_rows:
            continue
        kinds, files, parts = (b.column(c).to_pylist() for c in ("kind", "file", "part"))
        result = b.column("result")
        for i, k in enumerate(kinds):
            if k == kind:
                yield (files[i], parts[i]), result[i].as_py()


def _union(datasets: Sequence[Dataset]) -> Dataset:
    first, *rest = datasets
    return first.union(*rest) if rest else first


def _get(value: Any) -> Any:
    """A broadcast value: fetched from the object store when it is a reference."""
    import ray

    return ray.get(value) if isinstance(value, ray.ObjectRef) else value


def _index_task(batch: Batch, layout: Any) -> Columns:
    return index_rows(batch, _get(layout))


def _postings_task(batch: Batch, stats: Any) -> Columns:
    return postings_rows(batch, _get(stats))


def _score_task(batch: Batch, index: Any) -> Columns:
    return score_rows(batch, _get(index))


def _assemble(stats: CorpusStats, tables: list[Any]) -> Index:
    """The index from every block's postings, in document order (one task)."""
    import ray

    parts: list[tuple[int, bytes]] = []
    for table in ray.get(tables):
        if not table.num_rows:
            continue
        parts += zip(
            table.column("doc_start").to_pylist(), table.column("postings").to_pylist(), strict=True
        )
    parts.sort(key=lambda p: p[0])

    def postings() -> Iterator[Postings]:
        for _, raw in parts:
            tid, doc, w = unpack(raw)
            yield Postings(tid, doc, w)

    return fill_index(postings(), stats)


def _merge_stats(tables: list[Any]) -> CorpusStats:
    """Document frequencies aggregated across every index block (a reduce task: the
    blocks' statistics were counted in the map that made them), without the terms of one
    chunk (`CorpusStats.without_singles`)."""
    import ray

    def parts() -> Iterator[CorpusStats]:
        for ref in tables:
            table = ray.get(ref)
            if table.num_rows:
                yield from (unpack_stats(raw) for raw in table.column("stats").to_pylist())

    return merge_stats(parts(), singles=False)
