"""BM25 over blocks: the corpus statistics (mergeable) and the index of shared terms.

`CorpusStats` counts documents, their total length and each term's document frequency
(terms as stable hashes, sorted); blocks counted anywhere merge in any order. Once merged,
the terms of one chunk only are dropped (`without_singles`): most of a sheet's terms are
a row's own id or number (87% of 2M terms at a million rows), and a term the vocabulary
lacks has df 1, whose idf is known, so the passes after it give it a term id of the block
(`localise`). `Index` holds the BM25 weight of every (term, chunk) pair whose term is
usable (in at most `MAX_DF_SHARE` of the chunks) and found in 2 or more chunks: the only
pairs another chunk can share with a query. The BM25 is `notechunk.bm25`'s (Lucene's, as
bm25s).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from notechunk import bm25
from notechunk.corpus.scores.termblock import I64, U64, TermBlock, sorted_unique, unique_inverse

MAX_DF_SHARE = 0.05
F64 = NDArray[np.float64]
F32 = NDArray[np.float32]


def _empty_u64() -> U64:
    return np.zeros(0, dtype=np.uint64)


def _empty_i64() -> I64:
    return np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class CorpusStats:
    """What BM25 needs of the whole index: documents, total length, df per term hash
    (`terms` sorted). `merge_stats` adds blocks' statistics; the order is free."""

    n_docs: int = 0
    total_len: int = 0
    terms: U64 = field(default_factory=_empty_u64)
    df: I64 = field(default_factory=_empty_i64)

    @classmethod
    def of_block(cls, block: TermBlock) -> CorpusStats:
        local, inv = unique_inverse(block.doc_terms)
        pairs = sorted_unique(inv * max(block.n_docs, 1) + block.doc_of)
        df = np.bincount(pairs // max(block.n_docs, 1), minlength=len(local)).astype(np.int64)
        return cls(block.n_docs, len(block.doc_terms), local, df)

    @property
    def max_df(self) -> int:
        """Terms in more chunks than this are not usable in a query."""
        return max(2, math.floor(MAX_DF_SHARE * self.n_docs))

    @property
    def avgdl(self) -> float:
        return self.total_len / self.n_docs if self.n_docs else 0.0

    def idf(self) -> F64:
        return bm25.idf(self.n_docs, self.df)

    def without_singles(self) -> CorpusStats:
        """The same corpus without the terms found in one chunk only: what the index and
        every block scored against it use (a term missing from it has df 1)."""
        keep = self.df >= 2
        return CorpusStats(self.n_docs, self.total_len, self.terms[keep], self.df[keep])

    def single_idf(self) -> float:
        """The idf of a term found in one chunk (a term the vocabulary may lack)."""
        return float(bm25.idf(self.n_docs, np.ones(1, dtype=np.int64))[0])


RANGE_BITS = 6
"""The merge works one hash range at a time, 2**RANGE_BITS of them (the hashes' top bits)."""


def merge_stats(parts: Iterable[CorpusStats], *, singles: bool = True) -> CorpusStats:
    """All blocks' statistics as one, in any order (`singles=False`: without the terms of
    one chunk only, as `without_singles`). Each block's sorted terms are cut by hash range
    as they come (slices: no sort), then each range is merged alone (one sort of its terms,
    df summed) and, without singles, its one-chunk terms let go before the next: a
    million-row sheet's terms (87% a row's own) are never held merged, and no merge
    copies the whole vocabulary."""
    shift = np.uint64(64 - RANGE_BITS)
    ranges = 1 << RANGE_BITS
    bounds = np.arange(1, ranges, dtype=np.uint64) << shift
    pieces: list[list[tuple[U64, I64]]] = [[] for _ in range(ranges)]
    n_docs = total_len = 0
    for part in parts:
        n_docs += part.n_docs
        total_len += part.total_len
        cuts = [0, *np.searchsorted(part.terms, bounds).tolist(), len(part.terms)]
        for r in range(ranges):
            lo, hi = cuts[r], cuts[r + 1]
            if hi > lo:  # copies, so the block's arrays go when it does
                pieces[r].append((part.terms[lo:hi].copy(), part.df[lo:hi].copy()))
    out_terms: list[U64] = []
    out_df: list[I64] = []
    for r in range(ranges):
        if not pieces[r]:
            continue
        terms = np.concatenate([t for t, _ in pieces[r]])
        df = np.concatenate([d for _, d in pieces[r]])
        pieces[r] = []
        order = np.argsort(terms, kind="stable")
        terms, df = terms[order], df[order]
        first = np.flatnonzero(np.concatenate(([True], terms[1:] != terms[:-1])))
        merged = CorpusStats(0, 0, terms[first], np.add.reduceat(df, first))
        if not singles:
            merged = merged.without_singles()
        out_terms.append(merged.terms)
        out_df.append(merged.df)
    if not out_terms:
        return CorpusStats(n_docs, total_len)
    return CorpusStats(n_docs, total_len, np.concatenate(out_terms), np.concatenate(out_df))


@dataclass(frozen=True, slots=True)
class Local:
    """A block's terms as term ids, and its (doc, term) counts. Ids below the vocabulary's
    size are its terms; the block's terms it lacks (found in this chunk only) follow, in
    hash order, up to `n_terms`."""

    n_terms: int
    doc_tid: I64  # per doc-stream token
    q_tid: I64  # per query-material token; -1 for a term in no document of the block
    pair_doc: I64  # distinct (doc, term) of the doc stream, sorted by doc then term
    pair_tid: I64
    pair_tf: I64
    pair_first: I64  # first position of the term in the doc stream
    doc_len: I64


def localise(block: TermBlock, stats: CorpusStats) -> Local:
    """The block against the vocabulary of `stats` (whole, or `without_singles`)."""
    local, inv = unique_inverse(block.doc_terms)
    tid = _lookup(stats.terms, local)
    single = tid < 0
    tid[single] = len(stats.terms) + np.arange(int(np.count_nonzero(single)))
    n_terms = len(stats.terms) + int(np.count_nonzero(single))
    v = max(n_terms, 1)
    doc_tid = tid[inv]
    if np.array_equal(block.q_terms, block.doc_terms):  # the usual block: one stream
        q_tid = doc_tid
    else:
        qlocal, qinv = unique_inverse(block.q_terms)
        q_local = _lookup(stats.terms, qlocal)
        missing = np.flatnonzero(q_local < 0)
        at = _lookup(local, qlocal[missing])
        q_local[missing] = np.where(at >= 0, tid[np.maximum(at, 0)], -1)
        q_tid = q_local[qinv]
    keys = block.doc_of * v + doc_tid
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    starts = np.flatnonzero(np.concatenate(([True], sk[1:] != sk[:-1]))) if len(sk) else order
    tf = np.diff(np.append(starts, len(sk)))
    return Local(
        n_terms=n_terms,
        doc_tid=doc_tid,
        q_tid=q_tid,
        pair_doc=sk[starts] // v,
        pair_tid=sk[starts] % v,
        pair_tf=tf.astype(np.int64),
        pair_first=order[starts] - _doc_starts(block)[sk[starts] // v],
        doc_len=np.bincount(block.doc_of, minlength=block.n_docs).astype(np.int64),
    )


def _doc_starts(block: TermBlock) -> I64:
    counts = np.bincount(block.doc_of, minlength=block.n_docs)
    return np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)


def _lookup(sorted_terms: U64, terms: U64) -> I64:
    """Index of each term hash in `sorted_terms`, -1 where absent."""
    if len(sorted_terms) == 0:
        return np.full(len(terms), -1, dtype=np.int64)
    pos = np.minimum(np.searchsorted(sorted_terms, terms), len(sorted_terms) - 1)
    return np.where(sorted_terms[pos] == terms, pos, -1).astype(np.int64)


@dataclass(frozen=True, slots=True)
class TermView:
    """Per term id of a block (`Local`): idf, whether a query may use it, its largest
    weight in any chunk. The vocabulary's terms, then the block's own (df 1: usable, in no
    other chunk)."""

    idf: F64
    usable: NDArray[np.bool_]
    bound: F64


def term_view(index: Index, loc: Local) -> TermView:
    stats = index.stats
    extra = loc.n_terms - len(stats.terms)
    return TermView(
        idf=np.concatenate((index.idf, np.full(extra, stats.single_idf()))),
        usable=np.concatenate((stats.df <= stats.max_df, np.ones(extra, dtype=bool))),
        bound=np.concatenate((index.bound, np.zeros(extra))),
    )


def bm25_weights(stats: CorpusStats, idf: F64, tid: I64, tf: I64, dl: I64) -> F32:
    """Lucene BM25 weight of each (term, doc) pair, as float32 (so sums agree bit for bit
    wherever the same pair is weighed)."""
    return bm25.weights(idf[tid], tf, dl, stats.avgdl)


KEYED_POSTINGS = 1 << 20
"""Up to this many postings (8 MB of keys) a lookup searches one array of keys: on
rfcs-md (0.58M postings, 4.8M lookups) 0.24 s against 0.79 s by term runs; past about a
million the keys' random reads lose (1M lookups in 2.7M generated postings: 0.38 s
against 0.25 s; in 35M, 3.3 s against 0.8 s for 2M), and each worker maps them."""


@dataclass(frozen=True, slots=True)
class Index:
    """BM25 weights of the pairs another chunk can share: usable terms in 2+ chunks.

    Term-major (CSR: `indptr` by term, `docs` sorted within each term, `weights`: 12 bytes
    a posting), so one (term, doc) weight is found by a binary search within the term's
    run (`weights_at`). A small index (up to `KEYED_POSTINGS`) also keeps `keys` = term *
    n_docs + doc, searched whole: 8 bytes more a posting, faster while it fits in cache.
    `bound[t]` = the largest weight of term t in any chunk (0 for a term in one chunk).
    """

    stats: CorpusStats
    idf: F64
    indptr: I64
    docs: NDArray[np.int32]
    weights: F64
    bound: F64
    keys: I64 | None = None


@dataclass(frozen=True, slots=True)
class Postings:
    """One block's weighed pairs of shared terms, by term then chunk (chunks numbered in
    the whole index): what `fill_index` lays out. Made wherever the block is."""

    tid: I64
    doc: I64
    w: F32


def shared_terms(stats: CorpusStats) -> NDArray[np.bool_]:
    """The terms the index keeps: usable (df <= max_df) and in 2 or more chunks."""
    return (stats.df >= 2) & (stats.df <= stats.max_df)


def postings(
    block: TermBlock, stats: CorpusStats, offset: int, idf: F64, shared: NDArray[np.bool_]
) -> Postings:
    """The (term, chunk) weights of a block whose first chunk is document `offset`, for
    the `shared_terms`, with the final statistics (`idf` = `stats.idf()`)."""
    loc = localise(block, stats)
    keep = np.zeros(len(loc.pair_tid), dtype=bool)
    known = loc.pair_tid < len(shared)
    keep[known] = shared[loc.pair_tid[known]]
    tid, doc = loc.pair_tid[keep], loc.pair_doc[keep]
    w = bm25_weights(stats, idf, tid, loc.pair_tf[keep], loc.doc_len[doc])
    order = np.lexsort((doc, tid))  # by term, then chunk
    return Postings(tid[order], doc[order] + offset, w[order])


def build_index(blocks: Iterable[TermBlock], stats: CorpusStats) -> Index:
    """Pass 2: the blocks again, in the order counted, weighed with the final statistics."""

    idf, shared = stats.idf(), shared_terms(stats)

    def parts() -> Iterable[Postings]:
        offset = 0
        for block in blocks:
            yield postings(block, stats, offset, idf, shared)
            offset += block.n_docs

    return fill_index(parts(), stats)


def fill_index(parts: Iterable[Postings], stats: CorpusStats) -> Index:
    """The index from every block's postings, given in document order.

    Each term's postings number its df, known from pass 1, so the index is laid out once
    at its final size and filled block by block (no concatenation, no global sort).
    """
    idf = stats.idf()
    sizes = np.where(shared_terms(stats), stats.df, 0)
    indptr = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    all_w = np.empty(int(indptr[-1]), dtype=np.float64)
    all_docs = np.empty(int(indptr[-1]), dtype=np.int32)
    cursor = indptr[:-1].copy()
    for part in parts:
        tid, doc, w = part.tid, part.doc, part.w
        starts = np.flatnonzero(np.concatenate(([True], tid[1:] != tid[:-1]))) if len(tid) else tid
        runs = np.diff(np.append(starts, len(tid)))
        at = cursor[tid] + np.arange(len(tid)) - np.repeat(starts, runs)
        all_w[at] = w
        all_docs[at] = doc
        cursor[tid[starts]] += runs
    bound = np.zeros(len(stats.terms), dtype=np.float64)
    filled = np.flatnonzero(sizes > 0)
    if len(filled):
        bound[filled] = np.maximum.reduceat(all_w, indptr[filled])
    keys = None
    if len(all_docs) <= KEYED_POSTINGS:
        n = max(stats.n_docs, 1)
        keys = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes) * n + all_docs
    return Index(
        stats=stats,
        idf=idf,
        indptr=indptr,
        docs=all_docs,
        weights=all_w,
        bound=bound,
        keys=keys,
    )


def weights_at(index: Index, tid: I64, doc: I64) -> F64:
    """The weight of each (term, doc) pair, 0 where the doc does not hold the term: by
    the index's keys when it has them, else one binary search per pair within its
    term's run, all pairs a step at a time, `_SEARCH_SLICE` pairs at once (each step's
    arrays are a few per pair: a million pairs at once held 100 MB)."""
    docs = index.docs
    out = np.zeros(len(tid), dtype=np.float64)
    if len(tid) == 0 or len(docs) == 0:
        return out
    if index.keys is not None:
        look = tid * max(index.stats.n_docs, 1) + doc
        at = np.minimum(np.searchsorted(index.keys, look), len(docs) - 1)
        found = index.keys[at] == look
        out[found] = index.weights[at[found]]
        return out
    for first in range(0, len(tid), _SEARCH_SLICE):
        part = slice(first, first + _SEARCH_SLICE)
        out[part] = _weights_in_runs(index, tid[part], doc[part])
    return out


_SEARCH_SLICE = 1 << 17


def _weights_in_runs(index: Index, tid: I64, doc: I64) -> F64:
    docs = index.docs
    lo, end = index.indptr[tid], index.indptr[tid + 1]
    hi = end.copy()
    top = len(docs) - 1
    for _ in range(int((hi - lo).max(initial=0)).bit_length()):
        mid = (lo + hi) >> 1
        right = (docs[np.minimum(mid, top)] < doc) & (lo < hi)
        lo = np.where(right, mid + 1, lo)
        hi = np.where(right, hi, mid)
    at = np.minimum(lo, top)
    found = (lo < end) & (docs[at] == doc)
    return np.where(found, index.weights[at], 0.0)


_INDEX_ARRAYS = ("idf", "indptr", "docs", "weights", "bound")


def save_index(index: Index, folder: Path) -> None:
    """The index as .npy files in `folder`, for workers to memory-map (`load_index`)."""
    folder.mkdir(parents=True, exist_ok=True)
    s = index.stats
    arrays = {
        "counts": np.asarray([s.n_docs, s.total_len], dtype=np.int64),
        "terms": s.terms,
        "df": s.df,
        **{name: getattr(index, name) for name in _INDEX_ARRAYS},
    }
    if index.keys is not None:
        arrays["keys"] = index.keys
    else:
        (folder / "keys.npy").unlink(missing_ok=True)
    for name, array in arrays.items():
        np.save(folder / f"{name}.npy", np.ascontiguousarray(array), allow_pickle=False)


def load_index(folder: Path) -> Index:
    """The index `save_index` wrote, its arrays memory-mapped (read-only, shared pages)."""

    def load(name: str) -> NDArray[Any]:
        array: NDArray[Any] = np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
        return array

    counts = load("counts")
    stats = CorpusStats(int(counts[0]), int(counts[1]), load("terms"), load("df"))
    idf, indptr, docs, weights, bound = (load(name) for name in _INDEX_ARRAYS)
    keys = load("keys") if (folder / "keys.npy").exists() else None
    return Index(stats, idf, indptr, docs, weights, bound, keys)
