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
    return f"v2-{'snowball' if stem else 'plain'}-k{K1}-b{B}"


class Bm25Index:
    """BM25 term weights of one run's chunks as a sparse matrix (one column per term).

    bm25s computes the weights once; they are kept as three numpy arrays (CSC: data,
    doc indices, column pointers) and the vocabulary, so answering a question needs only
    numpy: the score of a chunk is the sum of its weights for the question's terms.
    `avgdl` (the mean number of terms a chunk has) lets `score_new` weigh chunks that
    are not in the index as the index would.
    """

    def __init__(
        self,
        data: Any,
        indices: Any,
        indptr: Any,
        vocab: dict[str, int],
        n: int,
        stem: Stem,
        avgdl: float = 1.0,
    ) -> None:
        self.data, self.indices, self.indptr = data, indices, indptr
        self.vocab, self.n, self.stem, self.avgdl = vocab, n, stem, avgdl

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
        avgdl = sum(len(doc) for doc in corpus) / len(corpus)
        return cls(m["data"], m["indices"], m["indptr"], vocab, int(m["num_docs"]), fn, avgdl)

    def save(self, folder: Path) -> None:
        import numpy as np

        for name in ("data", "indices", "indptr"):
            np.save(folder / f"{name}.npy", getattr(self, name), allow_pickle=False)
        meta = {"num_docs": self.n, "vocab": self.vocab, "avgdl": self.avgdl}
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
        n, avgdl = int(meta["num_docs"]), float(meta["avgdl"])
        return cls(data, indices, indptr, vocab, n, make_stem(stem), avgdl)

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

    def score_new(self, docs: Sequence[Sequence[str]], query: str) -> np.ndarray:
        """BM25 scores of documents that are not in the index (given as their terms),
        weighed with the index's statistics (N, avgdl, document frequencies) counting
        these documents in: what a rebuilt index would give them, up to how they would
        shift every other chunk's weights. For a change not yet published. bm25s leaves
        out Lucene's constant (k1 + 1) factor; so does this, to rank with the index."""
        import numpy as np

        out = np.zeros(len(docs), dtype=np.float64)
        if not docs:
            return out
        n = self.n + len(docs)
        dl = np.array([len(doc) for doc in docs], dtype=np.int64)
        avgdl = float(self.avgdl * self.n + dl.sum()) / n
        sets = [set(doc) for doc in docs]
        for term in set(index_terms(query, self.stem)):
            col = self.vocab.get(term)
            df = 0 if col is None else int(self.indptr[col + 1]) - int(self.indptr[col])
            df += sum(term in s for s in sets)
            if df == 0:
                continue
            tf = np.array([doc.count(term) for doc in docs], dtype=np.int64)
            idf_t = idf(n, np.array([df], dtype=np.int64))
            out += weights(idf_t, tf, dl, avgdl).astype(np.float64) / (K1 + 1.0)
        return out
