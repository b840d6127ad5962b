"""search(): rank a finished run's chunks for one question, best first.

`bm25` (stemmed, no extra needed), `dense` (the `dense` extra) or `hybrid`: the two
rankings fused by reciprocal rank (score = sum of 1 / (60 + rank) over the rankings a
chunk is in, the constant of Cormack et al. 2009). Ties keep file order, so the same
run and question always give the same hits. BM25 returns only chunks that share a term
with the question; a question with no known term has no BM25 hits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from notechunk.chunk import Chunk
from notechunk.errors import UsageError
from notechunk.search import bm25, dense
from notechunk.search.runview import (
    FinishedRun,
    Stored,
    chunk_lines,
    embed_texts,
    open_run,
    parse,
)

if TYPE_CHECKING:
    import numpy as np

Retriever = Literal["bm25", "dense", "hybrid"]
RETRIEVERS: tuple[Retriever, ...] = ("bm25", "dense", "hybrid")
RRF_K = 60
FUSION_DEPTH = 100


@dataclass(frozen=True, slots=True)
class Hit:
    rank: int
    score: float
    chunk: Chunk


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The hits, which indexes this search had to build (False: loaded from OUT), which
    of those it saved in OUT/.search (a read-only OUT saves none), and notes a person
    should see (a damaged index rebuilt, an index not saved, a fallback)."""

    query: str
    retriever: str
    hits: tuple[Hit, ...]
    built: dict[str, bool] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    saved: tuple[str, ...] = ()


def top(scores: np.ndarray, depth: int, positive_only: bool = False) -> list[int]:
    """Indices of the `depth` highest scores, ties in index order."""
    import numpy as np

    order = np.argsort(-scores, kind="stable")[:depth]
    return [int(i) for i in order if not positive_only or scores[i] > 0]


def rrf(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[tuple[int, float]]:
    """Reciprocal-rank fusion: (index, fused score), best first, ties by first appearance."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, idx in enumerate(ranking, start=1):
            fused[idx] = fused.get(idx, 0.0) + 1.0 / (k + rank)
    return sorted(fused.items(), key=lambda item: -item[1])


def search(
    out: Path,
    query: str,
    *,
    k: int = 5,
    retriever: str = "bm25",
    embedder: Callable[[], dense.Embedder] = dense.make_embedder,
) -> SearchResult:
    """The top `k` chunks of the finished run in `out` for `query`."""
    if retriever not in RETRIEVERS:
        raise UsageError(f"unknown retriever {retriever!r} (known: {', '.join(RETRIEVERS)})")
    if k < 1:
        raise UsageError("-k must be at least 1")
    if not query.strip():
        raise UsageError("the question is empty")
    run = open_run(out)
    lines = chunk_lines(run)
    got: dict[str, Stored] = {}

    def texts() -> list[str]:
        return embed_texts(lines)

    ranked: list[tuple[int, float]]
    if retriever == "bm25":
        scores = _bm25(run, query, texts, got)
        ranked = [(i, float(scores[i])) for i in top(scores, k, positive_only=True)]
    elif retriever == "dense":
        scores = _dense(run, query, texts, got, embedder)
        ranked = [(i, float(scores[i])) for i in top(scores, k)]
    else:
        lexical = _bm25(run, query, texts, got)
        semantic = _dense(run, query, texts, got, embedder)
        depth = max(FUSION_DEPTH, k)
        rankings = [top(lexical, depth, positive_only=True), top(semantic, depth)]
        ranked = rrf(rankings)[:k]
    hits = tuple(
        Hit(rank=n, score=score, chunk=parse(lines[i])) for n, (i, score) in enumerate(ranked, 1)
    )
    notes = [s.note for s in got.values() if s.note]
    if not hits and not lines:
        notes.append(f"{out} has no chunks to search")
    return SearchResult(
        query=query,
        retriever=retriever,
        hits=hits,
        built={name: s.state != "loaded" for name, s in got.items()},
        notes=tuple(notes),
        saved=tuple(name for name, s in got.items() if s.state == "saved"),
    )


def _bm25(
    run: FinishedRun, query: str, texts: Callable[[], list[str]], got: dict[str, Stored]
) -> np.ndarray:
    index, got["bm25"] = bm25.load_or_build(run, texts)
    return index.scores(query)


def _dense(
    run: FinishedRun,
    query: str,
    texts: Callable[[], list[str]],
    got: dict[str, Stored],
    embedder: Callable[[], dense.Embedder],
) -> np.ndarray:
    model = embedder()
    vectors, got["dense"] = dense.load_or_embed(run, texts, model)
    return dense.dense_scores(vectors, model, query)
