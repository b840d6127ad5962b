"""The retrieval-score pass: every chunk's self-retrieval score, over blocks.

Three steps over the indexed chunks (those that are not duplicates), regrouped into index
blocks of about `SCORE_BLOCK` chunks (`index_blocks`): the statistics of each block,
merged (`bm25index.CorpusStats`); the index of the shared terms (`bm25index.build_index`);
each block's pseudo-queries ranked against it (`retrievability.score_block`). A duplicate
gets its original's score (`chunk_scores`). `scores` runs the three in one process over a
`BlockStore` (in memory, or spilled to disk by the local engine); the Ray engine runs the
same steps as tasks. The modules: `termblock` (chunks as arrays of term hashes),
`bm25index` (statistics and index), `queries` (pseudo-queries), `retrievability` (ranks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, with_score
from notechunk.corpus.scores.bm25index import CorpusStats, Index, build_index, merge_stats
from notechunk.corpus.scores.retrievability import score_block
from notechunk.corpus.scores.termblock import TermBlock, concat, subset, term_block

SCORE_BLOCK = 8_192
F64 = NDArray[np.float64]
FileBlocks = Iterable[tuple[TermBlock, NDArray[np.bool_]]]
"""Each stored part's token block, in output order, with which of its chunks are indexed."""


class BlockStore(Protocol):
    """Where the index blocks wait between the passes: written once, read twice."""

    def add(self, block: TermBlock) -> None: ...
    def blocks(self) -> Iterator[TermBlock]: ...


class MemoryBlocks:
    """A `BlockStore` in memory (a corpus that fits: one file, the API, tests)."""

    def __init__(self) -> None:
        self._blocks: list[TermBlock] = []

    def add(self, block: TermBlock) -> None:
        self._blocks.append(block)

    def blocks(self) -> Iterator[TermBlock]:
        return iter(self._blocks)


def index_blocks(blocks: FileBlocks, block_size: int = SCORE_BLOCK) -> Iterator[TermBlock]:
    """The indexed chunks (`keep`) of consecutive token blocks, regrouped into blocks of at
    least `block_size` chunks (the last may be smaller): the retrieval passes' unit."""
    pending: list[TermBlock] = []
    count = 0
    for block, keep in blocks:
        pending.append(block if keep.all() else subset(block, keep))
        count += pending[-1].n_docs
        if count >= block_size:
            yield concat(pending)
            pending, count = [], 0
    if pending:
        yield concat(pending)


def chunk_scores(doc_score: F64, original: NDArray[np.int64]) -> F64:
    """Each chunk's score from its indexed document's (`doc_score`, in index order); a
    duplicate gets its original's."""
    indexed = original < 0
    doc_of = np.cumsum(indexed) - 1
    dup = ~indexed
    doc_of[dup] = doc_of[original[dup]]
    return doc_score[doc_of] if len(doc_of) else np.zeros(0)


ScoreBlocks = Callable[[Index, BlockStore], Iterable[F64]]
"""The third step, scheduled by an engine: each stored block's scores, in store order."""


def score_stored(index: Index, store: BlockStore) -> Iterator[F64]:
    """The third step in this process: each stored block scored against the index."""
    offset = 0
    for block in store.blocks():
        yield score_block(block, index, offset)
        offset += block.n_docs


def scores(
    parts: Callable[[], FileBlocks],
    original: NDArray[np.int64],
    store: BlockStore,
    block_size: int = SCORE_BLOCK,
    score_blocks: ScoreBlocks = score_stored,
) -> F64:
    """Every chunk's retrieval score in output order, unrounded: statistics while the index
    blocks of `parts()` go into `store`, the index, then each stored block's scores
    (`score_blocks`: here, or on an engine's workers)."""

    def counted() -> Iterator[CorpusStats]:
        for block in index_blocks(parts(), block_size):
            store.add(block)
            yield CorpusStats.of_block(block)

    stats = merge_stats(counted(), singles=False)
    index = build_index(store.blocks(), stats)
    blocks = score_blocks(index, store)
    del index  # `score_blocks` holds it as long as it needs it (a pool's: until saved)
    per_doc = list(blocks)
    return chunk_scores(np.concatenate(per_doc) if per_doc else np.zeros(0), original)


def scored(chunks: Iterable[Chunk], values: F64) -> Iterator[Chunk]:
    """Each chunk with its retrieval score, rounded to 4 decimals (SPEC §2)."""
    for c, s in zip(chunks, values.tolist(), strict=True):
        yield with_score(c, round(s, 4))


def retrieval_scores(chunks: Sequence[Chunk], block_size: int = SCORE_BLOCK) -> list[float]:
    """`scores` over chunks held in memory, in output order with their duplicates marked
    (`duplicate_of`), rounded as shipped."""
    ordinal: dict[str, int] = {}
    original = np.full(len(chunks), -1, dtype=np.int64)
    for i, c in enumerate(chunks):
        if c.duplicate_of is not None and c.duplicate_of in ordinal:
            original[i] = ordinal[c.duplicate_of]
        elif c.id:
            ordinal.setdefault(c.id, i)
    block = term_block(chunks)
    values = scores(lambda: [(block, original < 0)], original, MemoryBlocks(), block_size)
    return [round(float(s), 4) for s in values]
