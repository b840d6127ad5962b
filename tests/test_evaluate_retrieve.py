"""Retrievers: the shared tokeniser, stable ties, rank fusion, and the retriever list."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from notechunk.errors import UsageError
from notechunk.evaluate.dense import DenseRetriever, Embedder
from notechunk.evaluate.retrieve import (
    BM25Retriever,
    HybridRetriever,
    parse_retrievers,
    rank,
    rrf,
    search,
    top_indices,
)


class LetterEncoder:
    """A stand-in model: a text's vector counts the letters a, b, c (normalised)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.seen += texts
        vecs = np.array([[t.count(c) + 1e-3 for c in "abc"] for t in texts], dtype=np.float32)
        return vecs / np.linalg.norm(vecs, axis=1, keepdims=True)


def test_ties_keep_index_order() -> None:
    assert top_indices(np.array([0.0, 2.0, 0.0, 2.0]), 4) == [1, 3, 0, 2]


def test_bm25_ranks_and_handles_empty_texts() -> None:
    texts = ["ganga gangotri glacier", "", "rowlatt act 1919", "the of and"]
    ranks = rank(BM25Retriever(), texts, ["Where is the Gangotri glacier?", "zzz"], depth=4)
    assert ranks[0][0] == 0
    assert ranks[1] == [0, 1, 2, 3]  # no known term: all scores 0, index order


def test_bm25_uses_the_projects_tokeniser() -> None:
    # "such" and "then" are stop words of notechunk.terms (Lucene's list), not content:
    # a query made only of them matches nothing; "which" is not a stop word there
    texts = ["such then", "which river"]
    assert rank(BM25Retriever(), texts, ["such then"], depth=2) == [[0, 1]]
    got = search(BM25Retriever().index(texts), ["which"], depth=2)[0]
    assert got.indices == (1, 0) and got.scores[0] > 0 == got.scores[1]


def test_rrf_ties_share_a_rank() -> None:
    bm25 = np.array([[0.0, 3.0, 0.0, 0.0]])  # text 1 matches; 0, 2, 3 tie at zero
    dense = np.array([[0.1, 0.2, 0.9, 0.3]])
    fused = rrf([bm25, dense], k=60)[0]
    # text 2 (dense rank 1, bm25 tied rank 2) must beat text 0 (dense rank 4, bm25 rank 2)
    assert fused[2] > fused[3] > fused[0]
    assert fused[1] == pytest.approx(1 / 61 + 1 / 63)
    assert fused[0] == pytest.approx(1 / 62 + 1 / 64)


def test_hybrid_fuses_bm25_and_dense() -> None:
    dense = DenseRetriever(Embedder(None, encoder=LetterEncoder()))
    hybrid = HybridRetriever([BM25Retriever(), dense])
    texts = ["aaa zebra", "bbb", "ccc zebra"]
    assert rank(dense, texts, ["ccc"], depth=3)[0][0] == 2
    assert rank(hybrid, texts, ["zebra ccc"], depth=3)[0][0] == 2
    assert hybrid.name == "hybrid" and dense.name == "dense"


@pytest.mark.parametrize(
    ("value", "names"),
    [("bm25", ("bm25",)), ("hybrid, bm25,hybrid", ("hybrid", "bm25")), ("dense", ("dense",))],
)
def test_parse_retrievers(value: str, names: Sequence[str]) -> None:
    assert parse_retrievers(value) == tuple(names)


@pytest.mark.parametrize("value", ["tfidf", "", "bm25,colbert", " , "])
def test_unknown_retrievers_are_usage_errors(value: str) -> None:
    with pytest.raises(UsageError, match="--retriever"):
        parse_retrievers(value)
