"""The one BM25: Lucene's (k1 = 1.5, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5))),
as bm25s computes it, over the one tokeniser's terms (`notechunk.terms`).

The parameters and the weight formula are written here once: the corpus score pass
weighs its hashed term blocks with `weights` (`corpus.scores.bm25index`), and `Bm25Index`
(bm25s builds the weights, numpy answers a query) serves `notechunk search` (terms
stemmed by Snowball) and `notechunk eval` (terms as they are, like QA's scores).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from notechunk.terms import terms

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

K1 = 1.5
B = 0.75


def idf(n_docs: int, df: NDArray[np.int64]) -> NDArray[np.float64]:
    """Lucene's idf of each document frequency in a corpus of `n_docs` documents."""
    import numpy as np

    return np.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


def weights(
    idf_t: NDArray[np.float64],
    tf: NDArray[np.int64],
    dl: NDArray[np.int64],
    avgdl: float,
) -> NDArray[np.float32]:
    """Lucene's BM25 weight of each (term, document) pair: the term's idf, its count in the
    document and the document's length; float32, so sums agree bit for bit wherever the
    same pair is weighed."""
    import numpy as np

    norm = K1 * (1.0 - B + B * dl / (avgdl or 1.0))
    return (idf_t * tf * (K1 + 1.0) / (tf + norm)).astype(np.float32)


_EMPTY = "\x00"  # stands for a document without terms; no query term ever equals it
Stem = Callable[[list[str]], list[str]]


def make_stem(stem: bool = True) -> Stem:
    """The stemming function (identity when `stem` is False)."""
    if not stem:
        return lambda words: words
    import Stemmer

    stemmer = Stemmer.Stemmer("english")

    def apply(words: list[str]) -> list[str]:
        return list(stemmer.stemWords(words))

    return apply


def index_terms(text: str, stem: Stem) -> list[str]:
    """The BM25 terms of `text`: the shared tokeniser's terms, stemmed."""
    return stem(terms(text))


def recipe(stem: bool) -> str:
    """Names the tokenisation and parameters: a change gives another cache entry."""
    return f"v1-{'snowball' if stem else 'plain'}-k{K1}-b{B}"


class Bm25Index:
    """BM25 term weights of one run's chunks as a sparse matrix (one column per term).

    bm25s computes the weights once; they are kept as three numpy arrays (CSC: data,
    doc indices, column pointers) and the vocabulary, so answering a question needs only
    numpy: the score of a chunk is the sum of its weights for the question's terms.
    """

    def __init__(
        self, data: Any, indices: Any, indptr: Any, vocab: dict[str, int], n: int, stem: Stem
    ) -> None:
        self.data, self.indices, self.indptr = data, indices, indptr
        self.vocab, self.n, self.stem = vocab, n, stem

    @classmethod
    def build(cls, texts: Sequence[str], stem: bool = True) -> Bm25Index:
        import bm25s
        import numpy as np

        fn = make_stem(stem)
        if not texts:  # a run without chunks: bm25s cannot index nothing
            empty = np.zeros(0, dtype=np.float32)
            return cls(empty, np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.int32), {}, 0, fn)
        corpus = [index_terms(t, fn) or [_EMPTY] for t in texts]
        model = bm25s.BM25(k1=K1, b=B)
        model.index(corpus, show_progress=False)
        m = model.scores
        vocab = {str(t): int(i) for t, i in model.vocab_dict.items()}
        return cls(m["data"], m["indices"], m["indptr"], vocab, int(m["num_docs"]), fn)

    def save(self, folder: Path) -> None:
        import numpy as np

        for name in ("data", "indices", "indptr"):
            np.save(folder / f"{name}.npy", getattr(self, name), allow_pickle=False)
        meta = {"num_docs": self.n, "vocab": self.vocab}
        (folder / "vocab.json").write_text(json.dumps(meta), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path, stem: bool = True) -> Bm25Index:
        import numpy as np

        meta = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
        data, indices, indptr = (
            np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
            for name in ("data", "indices", "indptr")
        )
        vocab = {str(t): int(i) for t, i in meta["vocab"].items()}
        return cls(data, indices, indptr, vocab, int(meta["num_docs"]), make_stem(stem))

    def scores(self, query: str) -> np.ndarray:
        """One BM25 score per chunk (zeros when no query term is in the index)."""
        import numpy as np

        total = np.zeros(self.n, dtype=np.float64)
        for term in index_terms(query, self.stem):
            col = self.vocab.get(term)
            if col is not None:
                lo, hi = int(self.indptr[col]), int(self.indptr[col + 1])
                total[self.indices[lo:hi]] += self.data[lo:hi]
        return total
