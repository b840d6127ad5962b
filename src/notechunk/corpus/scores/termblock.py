"""A block of chunks as flat arrays of term hashes: the input of every retrieval pass.

Each chunk gives two token streams, both through the one BM25 tokeniser's rules
(`notechunk.terms`): the document it is indexed as (its `embed_text`, or its `text` when
that is empty) and the material its pseudo-queries are drawn from (segment 0: its context,
title and heading path, or title, sheet and group for a row; segments 1..k: the sentences
of its text, which end at a line break, at a space after `.`, `!`, `?` or `;`, or after
`。`, `！`, `？`; chunk
text is normalised to single ASCII spaces). When `embed_text` is the usual
context-then-text, the two streams hold the same tokens and the text is tokenised once.

Terms are identified by a stable 64-bit hash (FNV-1a over the UTF-8 bytes, then a
murmur3 finaliser), computed for a whole block at once in numpy: no vocabulary of strings
is ever held, so memory does not grow with the number of distinct words, and blocks made
in other processes agree. Two distinct terms share a hash with probability ~n^2/2^65
(about 1e-6 for 5 million distinct terms); they would then count as one term.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk
from notechunk.finish import context_parts, embed_text
from notechunk.terms import STOPWORDS, tokens
from notechunk.terms import terms as tokenize

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)

U64 = NDArray[np.uint64]
I64 = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class TermBlock:
    """Tokens of `n_docs` chunks, flat and in chunk order.

    `doc_terms`/`doc_of` is the indexed document of each chunk (BM25 counts these);
    `q_terms`/`q_doc`/`q_seg` is the query material: segment 0 the context, 1.. the
    sentences, each token tagged with its chunk and segment.
    """

    n_docs: int
    doc_terms: U64
    doc_of: I64
    q_terms: U64
    q_doc: I64
    q_seg: I64


_SLICE = 8_192
"""Chunks tokenised in one pass: a pass holds its joined text, its token strings and
their arrays at once (~2 KB a chunk), so a million-row sheet goes in slices."""


def term_block(chunks: Sequence[Chunk]) -> TermBlock:
    """The token streams of `chunks` (see the module docstring), made `_SLICE` chunks at a
    time (a chunk's tokens depend on that chunk alone, so the slices join exactly)."""
    if len(chunks) <= _SLICE:
        return _term_block(chunks)
    return concat([_term_block(chunks[i : i + _SLICE]) for i in range(0, len(chunks), _SLICE)])


def _term_block(chunks: Sequence[Chunk]) -> TermBlock:
    """One regex pass over the whole block: each chunk's casefolded context and sentences
    are joined with marker words in capitals (no casefolded text can hold one), so a
    single `findall` yields every token, and the markers give each its chunk and segment.
    """
    if not chunks:
        empty = np.zeros(0, dtype=np.int64)
        return TermBlock(
            0, np.zeros(0, dtype=np.uint64), empty, np.zeros(0, np.uint64), empty, empty
        )
    texts: list[str] = []
    other: dict[int, list[str]] = {}  # chunks indexed as something else than context + text
    for d, c in enumerate(chunks):
        parts = context_parts(c.title, c.section_path, c.sheet, c.group)
        body = c.text.casefold().replace("\n", _SEG)
        for end in _ENDS:
            if end in body:
                body = body.replace(end, end[0] + _SEG)
        texts.append(f"{' '.join(parts).casefold()}{_SEG}{body}")
        indexed = c.embed_text or c.text
        if indexed != embed_text(parts, c.text) and (c.embed_text or parts):
            other[d] = tokenize(indexed)
    h = hash_terms(tokens(_DOC.join(texts)))
    doc_hash, seg_hash = _marker_hashes()
    doc_mark = h == doc_hash
    seg_mark = h == seg_hash
    doc = np.cumsum(doc_mark)
    start_of_doc = np.concatenate(([0], np.flatnonzero(doc_mark) + 1))
    seg_all = np.cumsum(seg_mark)
    seg = seg_all - seg_all[start_of_doc][doc]
    keep = ~doc_mark & ~seg_mark & ~np.isin(h, _stop_hashes())
    q_terms, q_doc, q_seg = h[keep], doc[keep].astype(np.int64), seg[keep].astype(np.int64)
    if not other:
        return TermBlock(len(chunks), q_terms, q_doc, q_terms, q_doc, q_seg)
    doc_terms: list[U64] = []
    doc_of: list[I64] = []
    bounds = np.searchsorted(q_doc, np.arange(len(chunks) + 1))
    hashed = hash_terms([w for ws in other.values() for w in ws])  # one call: its cost is per call
    cuts = np.cumsum([0] + [len(ws) for ws in other.values()])
    own = {d: hashed[cuts[k] : cuts[k + 1]] for k, d in enumerate(other)}
    for d in range(len(chunks)):
        mine = own[d] if d in own else q_terms[bounds[d] : bounds[d + 1]]
        doc_terms.append(mine)
        doc_of.append(np.full(len(mine), d, dtype=np.int64))
    return TermBlock(
        len(chunks), np.concatenate(doc_terms), np.concatenate(doc_of), q_terms, q_doc, q_seg
    )


_SEG = " QQSEGQQ "
_ENDS = (". ", "! ", "? ", "; ", "。", "！", "？")  # a sentence ends here, or at a line break
_DOC = " QQDOCQQ "


@cache
def _marker_hashes() -> tuple[np.uint64, np.uint64]:
    """The hashes of the two marker words (constants, worked out once a process)."""
    doc, seg = hash_terms([_DOC.strip(), _SEG.strip()])
    return np.uint64(doc), np.uint64(seg)


@cache
def _stop_hashes() -> U64:
    """The stop words' hashes (worked out once a process, shared read-only)."""
    out = hash_terms(sorted(STOPWORDS))
    out.flags.writeable = False
    return out


def hash_terms(tokens: list[str]) -> U64:
    """Stable 64-bit hash of each token (FNV-1a, then the murmur3 64-bit finaliser)."""
    n = len(tokens)
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    data = np.frombuffer("\x00".join(tokens).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    ends = np.flatnonzero(data == 0)  # \x00 is never part of a \w token
    starts = np.concatenate(([0], ends + 1)).astype(np.int64)
    lengths = np.concatenate((ends, [len(data)])).astype(np.int64) - starts
    order = np.argsort(-lengths, kind="stable")  # longest first: position k touches a prefix
    starts_sorted, lengths_sorted = starts[order], lengths[order]
    h = np.full(n, _FNV_OFFSET, dtype=np.uint64)
    longest = int(lengths_sorted[0])
    # tokens longer than `pos`, for every pos (lengths are in descending order)
    alive = np.searchsorted(-lengths_sorted, -np.arange(longest), side="left")
    with np.errstate(over="ignore"):
        for pos in range(longest):
            active = int(alive[pos])
            byte = data[starts_sorted[:active] + pos].astype(np.uint64)
            h[:active] = (h[:active] ^ byte) * _FNV_PRIME
        h ^= h >> np.uint64(33)
        h *= np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(33)
        h *= np.uint64(0xC4CEB9FE1A85EC53)
        h ^= h >> np.uint64(33)
    out = np.empty(n, dtype=np.uint64)
    out[order] = h
    return out


def sorted_unique(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """np.unique by sorting (numpy's hash-based unique is far slower on these sizes)."""
    keys = np.sort(keys)
    if len(keys) < 2:
        return keys
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))]


def unique_inverse(values: U64) -> tuple[U64, I64]:
    """Sorted distinct values and each input's index into them (by sorting)."""
    order = np.argsort(values, kind="stable")
    s = values[order]
    start = np.concatenate(([True], s[1:] != s[:-1])) if len(s) else np.zeros(0, dtype=bool)
    inv = np.empty(len(values), dtype=np.int64)
    inv[order] = np.cumsum(start) - 1
    return s[start], inv


def reindexed(block: TermBlock, chunks: Sequence[Chunk], changed: Sequence[int]) -> TermBlock:
    """`block` of `chunks` after only the `embed_text` of the chunks at `changed` (sorted)
    was rewritten (the glossary pass): their indexed documents tokenised again, the rest
    and the query material (context and text, unchanged) kept; equal to
    `term_block(chunks)` at the cost of the changed chunks alone."""
    if not changed:
        return block
    bounds = np.searchsorted(block.doc_of, np.arange(block.n_docs + 1))
    words = [tokenize(chunks[d].embed_text or chunks[d].text) for d in changed]
    hashed = hash_terms([w for ws in words for w in ws])  # one call: its cost is per call
    cuts = np.cumsum([0] + [len(ws) for ws in words])
    terms: list[U64] = []
    of: list[I64] = []
    last = 0
    for k, d in enumerate(changed):
        terms.append(block.doc_terms[bounds[last] : bounds[d]])
        of.append(block.doc_of[bounds[last] : bounds[d]])
        terms.append(hashed[cuts[k] : cuts[k + 1]])
        of.append(np.full(len(words[k]), d, dtype=np.int64))
        last = d + 1
    terms.append(block.doc_terms[bounds[last] :])
    of.append(block.doc_of[bounds[last] :])
    return TermBlock(
        block.n_docs,
        np.concatenate(terms),
        np.concatenate(of),
        block.q_terms,
        block.q_doc,
        block.q_seg,
    )


def subset(block: TermBlock, keep: NDArray[np.bool_]) -> TermBlock:
    """The chunks of `block` where `keep` is true, numbered again from 0."""
    new_id = np.cumsum(keep) - 1
    d, q = keep[block.doc_of], keep[block.q_doc]
    return TermBlock(
        int(np.count_nonzero(keep)),
        block.doc_terms[d],
        new_id[block.doc_of[d]],
        block.q_terms[q],
        new_id[block.q_doc[q]],
        block.q_seg[q],
    )


def doc_range(block: TermBlock, lo: int, hi: int) -> TermBlock:
    """Chunks `lo`..`hi - 1` of `block`, numbered again from 0 (tokens are in chunk order,
    so two binary searches find them; the arrays are views)."""
    a, b = np.searchsorted(block.doc_of, [lo, hi])
    qa, qb = np.searchsorted(block.q_doc, [lo, hi])
    return TermBlock(
        hi - lo,
        block.doc_terms[a:b],
        block.doc_of[a:b] - lo,
        block.q_terms[qa:qb],
        block.q_doc[qa:qb] - lo,
        block.q_seg[qa:qb],
    )


def concat(blocks: Sequence[TermBlock]) -> TermBlock:
    """Blocks one after another as one block (chunk numbers shifted)."""
    offsets = np.cumsum([0] + [b.n_docs for b in blocks])
    return TermBlock(
        int(offsets[-1]),
        np.concatenate([b.doc_terms for b in blocks]),
        np.concatenate([b.doc_of + o for b, o in zip(blocks, offsets, strict=False)]),
        np.concatenate([b.q_terms for b in blocks]),
        np.concatenate([b.q_doc + o for b, o in zip(blocks, offsets, strict=False)]),
        np.concatenate([b.q_seg for b in blocks]),
    )


def to_arrays(block: TermBlock) -> tuple[NDArray[np.generic], ...]:
    return (
        np.asarray([block.n_docs]),
        block.doc_terms,
        block.doc_of,
        block.q_terms,
        block.q_doc,
        block.q_seg,
    )


def from_arrays(arrays: Sequence[NDArray[np.generic]]) -> TermBlock:
    n, doc_terms, doc_of, q_terms, q_doc, q_seg = arrays
    return TermBlock(
        int(n[0]),
        doc_terms.astype(np.uint64, copy=False),
        doc_of.astype(np.int64, copy=False),
        q_terms.astype(np.uint64, copy=False),
        q_doc.astype(np.int64, copy=False),
        q_seg.astype(np.int64, copy=False),
    )
