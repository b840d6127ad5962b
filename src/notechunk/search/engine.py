"""search(): rank a finished run's chunks for one question, best first.

`bm25` (stemmed, no extra needed), `dense` (the `dense` extra) or `hybrid`: the two
rankings fused by reciprocal rank (score = sum of 1 / (60 + rank) over the rankings a
chunk is in, the constant of Cormack et al. 2009). Ties keep file order, so the same
run and question always give the same hits. BM25 returns only chunks that share a term
with the question; a question with no known term has no BM25 hits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from notechunk.bm25 import Bm25Index
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


class Ranker:
    """The rankings of one finished run, each index loaded once and kept: BM25 on the
    first lexical question, the vectors and the model on the first dense one. `search`
    makes one per question; the MCP server keeps one per run, so every question after
    the first costs only its own scoring. `save=False` never writes OUT (a reader that
    must leave it as it is builds a missing index in memory).
    """

    def __init__(
        self,
        run: FinishedRun,
        *,
        embedder: Callable[[], dense.Embedder] = dense.make_embedder,
        save: bool = True,
    ) -> None:
        self.run, self.save = run, save
        self.stored: dict[str, Stored] = {}
        self._embedder = embedder
        self._lines: list[bytes] | None = None
        self._texts: list[str] | None = None
        self._bm25: Bm25Index | None = None
        self._vectors: np.ndarray | None = None
        self._model: dense.Embedder | None = None

    @property
    def built(self) -> dict[str, bool]:
        """Which indexes this ranker built (False: loaded from OUT/.search)."""
        return {name: s.state != "loaded" for name, s in self.stored.items()}

    def notes(self) -> list[str]:
        """What a person should see about the indexes (damaged and rebuilt, not saved)."""
        return [s.note for s in self.stored.values() if s.note]

    def lines(self) -> list[bytes]:
        """The run's chunk lines (line i is document i of every index)."""
        if self._lines is None:
            self._lines = chunk_lines(self.run)
        return self._lines

    def texts(self) -> list[str]:
        if self._texts is None:
            self._texts = embed_texts(self.lines())
        return self._texts

    def bm25_index(self) -> Bm25Index:
        if self._bm25 is None:
            index, self.stored["bm25"] = bm25.load_or_build(self.run, self.texts, save=self.save)
            self._bm25 = index
        return self._bm25

    def bm25_scores(self, query: str) -> np.ndarray:
        return self.bm25_index().scores(query)

    def dense_scores(self, query: str) -> np.ndarray:
        if self._model is None:
            self._model = self._embedder()
        if self._vectors is None:
            self._vectors, self.stored["dense"] = dense.load_or_embed(
                self.run, self.texts, self._model, save=self.save
            )
        return dense.dense_scores(self._vectors, self._model, query)

    def ranked(
        self, query: str, k: int, retriever: str, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """(chunk index, score) of the best `k`, best first. `allowed` (one bool per
        chunk) keeps only those chunks, scored exactly as without it."""
        if retriever == "bm25":
            scores = _only(self.bm25_scores(query), allowed, 0.0)
            return [(i, float(scores[i])) for i in top(scores, k, positive_only=True)]
        if retriever == "dense":
            scores = _only(self.dense_scores(query), allowed, -math.inf)
            return [(i, float(scores[i])) for i in top(scores, k) if _kept(allowed, i)]
        lexical = _only(self.bm25_scores(query), allowed, 0.0)
        semantic = _only(self.dense_scores(query), allowed, -math.inf)
        depth = max(FUSION_DEPTH, k)
        rankings = [
            top(lexical, depth, positive_only=True),
            [i for i in top(semantic, depth) if _kept(allowed, i)],
        ]
        return rrf(rankings)[:k]


def _only(scores: np.ndarray, allowed: np.ndarray | None, floor: float) -> np.ndarray:
    import numpy as np

    return scores if allowed is None else np.where(allowed, scores, floor)


def _kept(allowed: np.ndarray | None, i: int) -> bool:
    return allowed is None or bool(allowed[i])


def check_question(query: str, k: int, retriever: str) -> None:
    """The arguments every search refuses, each with its one-line reason."""
    if retriever not in RETRIEVERS:
        raise UsageError(f"unknown retriever {retriever!r} (known: {', '.join(RETRIEVERS)})")
    if k < 1:
        raise UsageError("-k must be at least 1")
    if not query.strip():
        raise UsageError("the question is empty")


def search(
    out: Path,
    query: str,
    *,
    k: int = 5,
    retriever: str = "bm25",
    embedder: Callable[[], dense.Embedder] = dense.make_embedder,
) -> SearchResult:
    """The top `k` chunks of the finished run in `out` for `query`."""
    check_question(query, k, retriever)
    ranker = Ranker(open_run(out), embedder=embedder)
    ranked = ranker.ranked(query, k, retriever)
    lines = ranker.lines() if ranked else []
    hits = tuple(
        Hit(rank=n, score=score, chunk=parse(lines[i])) for n, (i, score) in enumerate(ranked, 1)
    )
    notes = list(ranker.notes())
    if not hits and not ranker.lines():
        notes.append(f"{out} has no chunks to search")
    return SearchResult(
        query=query,
        retriever=retriever,
        hits=hits,
        built={name: s.state != "loaded" for name, s in ranker.stored.items()},
        notes=tuple(notes),
        saved=tuple(name for name, s in ranker.stored.items() if s.state == "saved"),
    )
