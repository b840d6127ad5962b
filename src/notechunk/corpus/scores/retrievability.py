"""Self-retrieval score per chunk: do pseudo-queries drawn from a chunk find it again?

Contract:
- The index is every chunk that is not a duplicate (`duplicate_of` unset), scored with
  Lucene BM25 (k1 = 1.5, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5)), as bm25s)
  over each chunk's `embed_text` (what ships to a retriever), tokenised by
  `notechunk.terms` (the eval's tokeniser too). A duplicate gets its original's score.
- Pseudo-queries per chunk (at most 1 + `MAX_SENTENCE_QUERIES`), over "usable" terms only
  (found in at most `MAX_DF_SHARE` of the indexed chunks: near stop words carry almost no
  BM25 weight):
  * context query: the usable terms of its context (title and heading path; title, sheet
    and group for a row) plus the chunk's `CONTEXT_SALIENT_TERMS` most salient other terms;
  * sentence queries: of the sentences with at least 2 distinct usable terms, the first,
    middle and last, each as its `SENTENCE_TERMS` most salient terms;
  * with neither, its `SENTENCE_TERMS` most salient terms.
  "Salient" = highest idf; ties go to the term said first (in the chunk, or the sentence).
- Rank of the chunk for a query = 1 + the number of other indexed chunks whose BM25 score
  is at least its own (ties count against the chunk, so a copy does not tie for first).
  This is the exact BM25 rank over the whole index, found with MaxScore pruning, which
  changes no rank: a query's terms, smallest bound first, are left out of the candidate
  search while the sum of their largest weights in any other chunk stays below the
  chunk's own score (a chunk holding only those cannot reach it); every candidate holding
  one of the remaining terms is then scored on all the query's terms.
- `retrieval_score` = mean over the chunk's queries of 1 / rank, in [0, 1], rounded to 4
  decimals; a chunk without any query scores 0.

Streaming and vectorised: chunks arrive as blocks (`termblock.TermBlock`, indexed chunks
only); pass 1 merges each block's `CorpusStats` (mergeable, so blocks can be counted on
any machine), pass 2 builds the `Index` (the weights of usable terms found in 2 or more
chunks: the only terms another chunk can share), pass 3 scores each block's queries in a
few array operations (`score_block`). Deterministic: stable hashes, sorts and sums in a
fixed order.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import NDArray

from notechunk.corpus.scores.bm25index import (
    F64,
    Index,
    Local,
    TermView,
    bm25_weights,
    localise,
    term_view,
    weights_at,
)
from notechunk.corpus.scores.queries import Queries, block_queries
from notechunk.corpus.scores.termblock import (
    I64,
    TermBlock,
)

_BATCH_LOOKUPS = 250_000
"""Candidate lookups a batch of queries may expand to (`_batches`): small batches stay in
cache (rank_queries on rfcs-md 1.23 s at 4M, 0.72 s here; notes-md 0.96 -> 0.58 s) and
bound the pass's arrays (a million-row sheet's worst block: 119 -> 61 MB traced)."""


def score_block(block: TermBlock, index: Index, offset: int) -> F64:
    """Pass 3: the retrieval score of each chunk of a block (its first doc is `offset`)."""
    loc = localise(block, index.stats)
    view = term_view(index, loc)
    queries = block_queries(block, loc, view.idf, view.usable)
    ranks = rank_queries(index, loc, view, queries, offset)
    inv = _sums(queries.doc, 1.0 / ranks, block.n_docs)
    counts = np.bincount(queries.doc, minlength=block.n_docs).astype(np.float64)
    return np.divide(inv, counts, out=np.zeros(block.n_docs), where=counts > 0)


def rank_queries(index: Index, loc: Local, view: TermView, queries: Queries, offset: int) -> F64:
    """The exact BM25 rank of each query's own chunk (see the module docstring).

    Sums run in one fixed order (essential terms, then the others, each by term), for the
    chunk and for every candidate alike, so an identical chunk ties bit for bit.
    """
    from scipy import sparse

    nq = len(queries.doc)
    ranks = np.ones(nq, dtype=np.float64)
    if nq == 0:
        return ranks
    n = max(index.stats.n_docs, 1)
    v = len(index.stats.terms)
    nt = max(loc.n_terms, 1)
    qg, qt = queries.pair_q, queries.pair_tid
    own_doc = queries.doc[qg]
    pos = np.searchsorted(loc.pair_doc * nt + loc.pair_tid, own_doc * nt + qt)
    w_own = bm25_weights(index.stats, view.idf, qt, loc.pair_tf[pos], loc.doc_len[own_doc]).astype(
        np.float64
    )
    bound = view.bound[qt]
    ess = _essential(qg, bound, w_own, nq)
    rest = ~ess & (bound > 0)
    # the other terms, largest bound first: looked up one round at a time
    r_order = np.flatnonzero(rest)[np.lexsort((qt[rest], -bound[rest], qg[rest]))]
    rq, rt, rb = qg[r_order], qt[r_order], bound[r_order]
    lone = ~ess & ~rest  # in this chunk only: added last, as for no other chunk
    own = _sums(qg[ess], w_own[ess], nq)
    for j in range(_max_run(rq)):
        pick = _nth(rq, j)
        own[rq[pick]] += w_own[r_order[pick]]
    own += _sums(qg[lone], w_own[lone], nq)
    rest_bound = _sums(rq, rb, nq)
    r_start = np.searchsorted(rq, np.arange(nq))
    r_size = np.bincount(rq, minlength=nq)
    target = queries.doc + offset
    w = sparse.csr_matrix((index.weights, index.docs, index.indptr), shape=(v, n))
    df = np.diff(index.indptr)
    cost = _sums(qg[ess], df[qt[ess]].astype(np.float64), nq)
    for lo, hi in _batches(cost):
        sel = ess & (qg >= lo) & (qg < hi)
        q = sparse.csr_matrix(
            (np.ones(int(sel.sum())), qt[sel], np.searchsorted(qg[sel], np.arange(lo, hi + 1))),
            shape=(hi - lo, v),
        )
        s = (q @ w).tocoo()
        cq, cd, part = s.row.astype(np.int64) + lo, s.col.astype(np.int64), s.data
        left = rest_bound[cq]
        for j in range(int(r_size[lo:hi].max(initial=0)) + 1):
            alive = (part + left) * (1.0 + 1e-9) >= own[cq]
            if j == 0:
                alive &= cd != target[cq]
            cq, cd, part, left = cq[alive], cd[alive], part[alive], left[alive]
            has = r_size[cq] > j
            if not has.any():
                break
            at = r_start[cq[has]] + j
            part[has] += weights_at(index, rt[at], cd[has])
            left[has] -= rb[at]
        ranks += np.bincount(cq[part >= own[cq]], minlength=nq)
    return ranks


def _sums(groups: I64, values: F64, n: int) -> F64:
    """Per-group sums in array order (np.bincount, always float64)."""
    return np.bincount(groups, weights=values, minlength=n).astype(np.float64)


def _max_run(keys: I64) -> int:
    return int(np.bincount(keys).max(initial=0)) if len(keys) else 0


def _nth(keys: I64, j: int) -> I64:
    """Positions of the j-th element of each run of equal (sorted) keys."""
    start = np.searchsorted(keys, keys)
    return np.flatnonzero(np.arange(len(keys)) - start == j)


def _essential(qg: I64, bound: F64, w_own: F64, nq: int) -> NDArray[np.bool_]:
    """MaxScore: per query, the terms (smallest bound first) whose bounds add up below the
    chunk's own score are not essential; a term found in no other chunk never is."""
    own = _sums(qg, w_own, nq)
    order = np.lexsort((bound, qg))
    cum = np.cumsum(bound[order])
    g = qg[order]
    first = np.flatnonzero(np.concatenate(([True], g[1:] != g[:-1])))
    run = np.repeat(first, np.diff(np.append(first, len(g))))
    before = np.where(run > 0, cum[np.maximum(run - 1, 0)], 0.0)
    pruned = np.empty(len(qg), dtype=bool)
    pruned[order] = (cum - before) * (1.0 + 1e-9) < own[g]
    return ~pruned & (bound > 0)


def _batches(cost: F64) -> Iterator[tuple[int, int]]:
    """Ranges of whole queries whose candidate expansion is about `_BATCH_LOOKUPS`."""
    nq = len(cost)
    ends = np.cumsum(cost)
    start = 0
    while start < nq:
        base = ends[start - 1] if start else 0.0
        stop = max(int(np.searchsorted(ends, base + _BATCH_LOOKUPS, side="right")), start + 1)
        yield start, stop
        start = stop
