"""The pseudo-queries of a block of chunks, built with array operations (no loop per chunk).

The rules are those of `retrievability`'s docstring: a context query (usable context
terms plus the most salient other terms), up to three sentence queries (first, middle and
last sentence with 2+ distinct usable terms, each its most salient terms), or else the
chunk's most salient terms. Salience = highest idf, ties to the term said first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from notechunk.corpus.scores.termblock import I64, TermBlock, unique_inverse

if TYPE_CHECKING:
    from notechunk.corpus.scores.bm25index import Local

MAX_SENTENCE_QUERIES = 3
SENTENCE_TERMS = 4
CONTEXT_SALIENT_TERMS = 2


@dataclass(frozen=True, slots=True)
class Queries:
    """Queries in (chunk, kind) order; pairs grouped by query, terms in index order."""

    doc: I64  # the block-local chunk of each query
    size: I64  # terms per query
    pair_q: I64
    pair_tid: I64


def _runs(*keys: I64) -> NDArray[np.bool_]:
    """True where a run of equal keys (already sorted together) starts."""
    n = len(keys[0])
    if n == 0:
        return np.zeros(0, dtype=bool)
    start = np.zeros(n, dtype=bool)
    start[0] = True
    for k in keys:
        start[1:] |= k[1:] != k[:-1]
    return start


def _member(values: I64, sorted_keys: I64) -> NDArray[np.bool_]:
    """values in sorted_keys, by binary search (np.isin hashes, which is slower here)."""
    if len(sorted_keys) == 0:
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_keys, values), len(sorted_keys) - 1)
    return np.asarray(sorted_keys[at] == values, dtype=np.bool_)


def _top(group: I64, tid: I64, first: I64, idf: NDArray[np.float64], k: int) -> I64:
    """Indexes of the `k` most salient distinct terms of each group (-idf, then first)."""
    order = np.lexsort((first, -idf[tid], group))
    g = group[order]
    start = np.flatnonzero(_runs(g))
    run_start = np.repeat(start, np.diff(np.append(start, len(g))))
    return order[(np.arange(len(g)) - run_start) < k]


def _first_seen(group: I64, tid: I64, pos: I64) -> tuple[I64, I64, I64]:
    """Distinct (group, term) pairs with the first position each was seen at."""
    order = np.lexsort((pos, tid, group))
    keep = order[_runs(group[order], tid[order])]
    return group[keep], tid[keep], pos[keep]


def block_queries(
    block: TermBlock, loc: Local, idf: NDArray[np.float64], usable: NDArray[np.bool_]
) -> Queries:
    n_docs = block.n_docs
    v = max(len(idf), 1)
    tid = loc.q_tid
    ok = tid >= 0
    ok[ok] = usable[tid[ok]]
    pos = np.arange(len(tid), dtype=np.int64)
    seg = block.q_seg
    kinds = int(seg.max()) + 2 if len(seg) else 2
    out_key: list[I64] = []
    out_tid: list[I64] = []

    # context query: usable context terms + the most salient other usable terms
    c = ok & (seg == 0)
    h_doc, h_tid, _ = _first_seen(block.q_doc[c], tid[c], pos[c])
    h_keys = h_doc * v + h_tid
    du = usable[loc.pair_tid]
    d_doc, d_tid, d_first = loc.pair_doc[du], loc.pair_tid[du], loc.pair_first[du]
    in_h = _member(d_doc * v + d_tid, np.sort(h_keys))
    has_h = np.zeros(n_docs, dtype=bool)
    has_h[h_doc] = True
    extra_ok = ~in_h & has_h[d_doc]
    e = _top(d_doc[extra_ok], d_tid[extra_ok], d_first[extra_ok], idf, CONTEXT_SALIENT_TERMS)
    out_key += [h_doc * kinds, d_doc[extra_ok][e] * kinds]
    out_tid += [h_tid, d_tid[extra_ok][e]]

    # sentence queries: first, middle, last sentence with 2+ distinct usable terms
    s = ok & (seg >= 1)
    group = block.q_doc[s] * kinds + seg[s]
    s_group, s_tid, s_pos = _first_seen(group, tid[s], pos[s])
    starts = np.flatnonzero(_runs(s_group))
    sizes = np.diff(np.append(starts, len(s_group)))
    cand = s_group[starts][sizes >= 2]  # candidate sentences, in (doc, sentence) order
    cand_doc = cand // kinds
    first_c = np.flatnonzero(_runs(cand_doc))
    m = np.diff(np.append(first_c, len(cand)))
    r = np.arange(len(cand)) - np.repeat(first_c, m)
    mm = np.repeat(m, m)
    picked = cand[(r == 0) | (r == (mm - 1) // 2) | (r == mm - 1)]
    in_pick = _member(s_group, picked)
    t = _top(s_group[in_pick], s_tid[in_pick], s_pos[in_pick], idf, SENTENCE_TERMS)
    out_key.append(s_group[in_pick][t])
    out_tid.append(s_tid[in_pick][t])

    # neither: the chunk's most salient usable terms
    has_s = np.zeros(n_docs, dtype=bool)
    has_s[cand_doc] = True
    f = ~has_h[d_doc] & ~has_s[d_doc]
    t = _top(d_doc[f], d_tid[f], d_first[f], idf, SENTENCE_TERMS)
    out_key.append(d_doc[f][t] * kinds)
    out_tid.append(d_tid[f][t])

    key = np.concatenate(out_key)
    terms = np.concatenate(out_tid)
    order = np.lexsort((terms, key))
    key, terms = key[order], terms[order]
    qkeys, pair_q = unique_inverse(key.astype(np.uint64))
    return Queries(
        doc=(qkeys // kinds).astype(np.int64),
        size=np.bincount(pair_q, minlength=len(qkeys)).astype(np.int64),
        pair_q=pair_q.astype(np.int64),
        pair_tid=terms.astype(np.int64),
    )
