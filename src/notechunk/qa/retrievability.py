"""Self-retrieval score per chunk: do pseudo-queries drawn from a chunk find it again?

Contract:
- The index is every chunk that is not a duplicate (`duplicate_of` unset), built with
  bm25s (Lucene BM25, k1=1.5, b=0.75) over each chunk's `embed_text` (what ships to a
  retriever), tokenised by `notechunk.terms` (the eval's tokeniser too). A duplicate gets
  its original's score.
- Pseudo-queries per chunk (at most 1 + `MAX_SENTENCE_QUERIES`):
  * context query: its context (title and heading path; title, sheet and group for a
    spreadsheet row) plus the chunk's
    `CONTEXT_SALIENT_TERMS` most salient terms not already in the heading;
  * sentence queries: for up to `MAX_SENTENCE_QUERIES` sentences (first, middle, last of
    those with at least 2 distinct tokens), the `SENTENCE_TERMS` most salient terms.
  "Salient" = highest IDF in the index, ties by the term itself. Terms found in more than
  `MAX_DF_SHARE` of the indexed chunks are left out of every query (near stop words carry
  almost no BM25 weight and cost the most to score).
- Rank of the chunk for a query = 1 + number of other indexed chunks scoring at least as
  high (ties count against the chunk, so a copy does not tie for first place). The chunks
  counted are the candidates a search engine would touch: those holding a query term in
  at most `CANDIDATE_DF` chunks (the query's rarest term if none is), each scored with
  BM25 on every query term. With no term that common (small corpora) this is the exact
  BM25 rank; on large corpora it ignores chunks matching only common terms.
- `retrieval_score` = mean over the chunk's queries of 1 / rank, in [0, 1]; 1 means every
  query returned the chunk first; a chunk without any query token scores 0. Rounded to 4
  decimals.

Deterministic (no randomness, fixed order of summation) and batched: every query is
scored at once per batch from the bm25s term-score matrix, so 50k chunks take seconds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import bm25s
import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk
from notechunk.finish import context_parts
from notechunk.terms import terms as tokenize

MAX_SENTENCE_QUERIES = 3
SENTENCE_TERMS = 4
CONTEXT_SALIENT_TERMS = 2
MAX_DF_SHARE = 0.05
CANDIDATE_DF = 64
_BATCH_POSTINGS = 2_000_000

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text) if s.strip()]


def _context_text(c: Chunk) -> str:
    return " ".join(context_parts(c.title, c.section_path, c.sheet, c.group))


def retrieval_scores(chunks: Sequence[Chunk]) -> list[float]:
    """One score in [0, 1] per chunk, same order (see the module docstring)."""
    n = len(chunks)
    if n == 0:
        return []
    index_of: dict[str, int] = {}
    doc_of_chunk: list[int] = []
    docs: list[int] = []
    for i, c in enumerate(chunks):
        if c.duplicate_of is not None and c.duplicate_of in index_of:
            doc_of_chunk.append(doc_of_chunk[index_of[c.duplicate_of]])
            continue
        if c.id:
            index_of[c.id] = i
        doc_of_chunk.append(len(docs))
        docs.append(i)

    vocab: dict[str, int] = {}
    doc_tokens: list[list[int]] = []
    for i in docs:
        doc_tokens.append(
            [
                vocab.setdefault(t, len(vocab))
                for t in tokenize(chunks[i].embed_text or chunks[i].text)
            ]
        )
    if not vocab:
        return [0.0] * n
    n_docs = len(docs)
    lengths = np.asarray([len(t) for t in doc_tokens], dtype=np.int64)
    flat_tokens = np.fromiter(
        (t for toks in doc_tokens for t in toks), dtype=np.int64, count=int(lengths.sum())
    )
    pairs = _sorted_unique(
        np.repeat(np.arange(n_docs, dtype=np.int64), lengths) * len(vocab) + flat_tokens
    )
    df = np.bincount(pairs % len(vocab), minlength=len(vocab)).astype(np.int64)
    idf = np.log((n_docs - df + 0.5) / (df + 0.5) + 1.0)
    max_df = max(2, math.floor(MAX_DF_SHARE * n_docs))
    usable = df <= max_df

    model = bm25s.BM25()
    model.index((doc_tokens, vocab), create_empty_token=False, show_progress=False)
    data = np.asarray(model.scores["data"], dtype=np.float64)
    indices = np.asarray(model.scores["indices"], dtype=np.int64)
    indptr = np.asarray(model.scores["indptr"], dtype=np.int64)

    q_doc: list[int] = []  # target document of each query
    q_terms: list[list[int]] = []
    queries_of_doc = [0] * n_docs
    for d, i in enumerate(docs):
        for terms in _queries(chunks[i], doc_tokens[d], vocab, idf, usable):
            q_doc.append(d)
            q_terms.append(terms)
            queries_of_doc[d] += 1

    ranks = _ranks(q_doc, q_terms, data, indices, indptr, n_docs)
    inv = np.zeros(n_docs, dtype=np.float64)
    if len(q_doc):
        np.add.at(inv, np.asarray(q_doc, dtype=np.int64), 1.0 / ranks)
    counts = np.asarray(queries_of_doc, dtype=np.float64)
    per_doc = np.divide(inv, counts, out=np.zeros(n_docs), where=counts > 0)
    return [round(float(per_doc[doc_of_chunk[i]]), 4) for i in range(n)]


def _sorted_unique(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """np.unique by sorting (numpy's hash-based unique is far slower on these sizes)."""
    keys = np.sort(keys)
    if len(keys) < 2:
        return keys
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))]


def _salient(terms: Sequence[int], idf: NDArray[np.float64], k: int) -> list[int]:
    unique = sorted(set(terms), key=lambda t: (-idf[t], t))
    return unique[:k]


def _queries(
    chunk: Chunk,
    tokens: list[int],
    vocab: dict[str, int],
    idf: NDArray[np.float64],
    usable: NDArray[np.bool_],
) -> list[list[int]]:
    """The chunk's pseudo-queries as lists of distinct term ids (empty ones dropped)."""
    keep = [t for t in tokens if usable[t]]
    out: list[list[int]] = []
    heading = [vocab[t] for t in tokenize(_context_text(chunk)) if t in vocab]
    heading = [t for t in dict.fromkeys(heading) if usable[t]]
    if heading:
        extra = _salient([t for t in keep if t not in heading], idf, CONTEXT_SALIENT_TERMS)
        out.append(sorted(set(heading + extra)))
    candidates: list[list[int]] = []
    for sentence in _sentences(chunk.text):
        terms = [vocab[t] for t in tokenize(sentence) if t in vocab and usable[vocab[t]]]
        if len(set(terms)) >= 2:
            candidates.append(terms)
    if candidates:
        picks = sorted({0, (len(candidates) - 1) // 2, len(candidates) - 1})
        for p in picks[:MAX_SENTENCE_QUERIES]:
            out.append(sorted(_salient(candidates[p], idf, SENTENCE_TERMS)))
    elif keep and not out:
        out.append(sorted(_salient(keep, idf, SENTENCE_TERMS)))
    return [q for q in out if q]


def _ranks(
    q_doc: list[int],
    q_terms: list[list[int]],
    data: NDArray[np.float64],
    indices: NDArray[np.int64],
    indptr: NDArray[np.int64],
    n_docs: int,
) -> NDArray[np.float64]:
    """Rank of each query's target document (1 + candidates scoring at least as high).

    Candidates of a query are the documents holding one of its terms with document
    frequency <= `CANDIDATE_DF` (its rarest term if none is that rare); each candidate is
    scored on every query term. Exact whenever every term is that rare (small corpora).
    """
    nq = len(q_doc)
    ranks = np.ones(nq, dtype=np.float64)
    if nq == 0:
        return ranks
    df = np.diff(indptr)
    # one sorted key per posting, term * n_docs + doc, to look up any (term, doc) score
    gkeys = np.repeat(np.arange(len(df), dtype=np.int64), df) * n_docs + indices
    if len(gkeys) > 1 and not bool(np.all(gkeys[1:] > gkeys[:-1])):
        order = np.argsort(gkeys, kind="stable")
        gkeys, data = gkeys[order], data[order]
    q_len = np.asarray([len(t) for t in q_terms], dtype=np.int64)
    q_start = np.concatenate(([0], np.cumsum(q_len)[:-1])).astype(np.int64)
    flat = np.fromiter((t for ts in q_terms for t in ts), dtype=np.int64, count=int(q_len.sum()))
    cand: list[list[int]] = []
    for ts in q_terms:
        rare = [t for t in ts if df[t] <= CANDIDATE_DF]
        cand.append(rare or [min(ts, key=lambda t: (df[t], t))])
    pair_q = np.repeat(np.arange(nq, dtype=np.int64), [len(c) for c in cand])
    pair_t = np.fromiter((t for c in cand for t in c), dtype=np.int64, count=len(pair_q))
    q_cost = np.bincount(pair_q, weights=df[pair_t], minlength=nq) * q_len
    q_end = np.cumsum(q_cost)
    pair_start = np.searchsorted(pair_q, np.arange(nq + 1), side="left")
    target = np.asarray(q_doc, dtype=np.int64)
    start_q = 0
    while start_q < nq:  # batches of whole queries, about _BATCH_POSTINGS lookups each
        base = q_end[start_q - 1] if start_q else 0.0
        stop_q = max(int(np.searchsorted(q_end, base + _BATCH_POSTINGS, side="right")), start_q + 1)
        lo, hi = pair_start[start_q], pair_start[stop_q]
        pq, pt = pair_q[lo:hi], pair_t[lo:hi]
        lengths = df[pt]
        total = int(lengths.sum())
        offsets = np.repeat(indptr[pt] - (np.cumsum(lengths) - lengths), lengths)
        docs = indices[offsets + np.arange(total, dtype=np.int64)]
        keys = _sorted_unique(np.repeat(pq, lengths) * n_docs + docs)
        cq, cd = keys // n_docs, keys % n_docs  # candidate (query, doc) pairs
        reps = q_len[cq]
        rep = np.repeat(np.arange(len(cq), dtype=np.int64), reps)
        within = np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(
            np.cumsum(reps) - reps, reps
        )
        lookup = flat[q_start[cq][rep] + within] * n_docs + cd[rep]
        pos = np.minimum(np.searchsorted(gkeys, lookup), len(gkeys) - 1)
        vals = np.where(gkeys[pos] == lookup, data[pos], 0.0)
        sums = np.bincount(rep, weights=vals, minlength=len(cq))
        own = cd == target[cq]
        target_score = np.zeros(nq, dtype=np.float64)
        target_score[cq[own]] = sums[own]
        beats = ~own & (sums >= target_score[cq])
        ranks[start_q:stop_q] += np.bincount(cq[beats], minlength=nq)[start_q:stop_q]
        start_q = stop_q
    return ranks
