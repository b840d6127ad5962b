"""A change made searchable before its run publishes: the watcher's provisional view.

A run publishes every output durably, seconds to minutes after a save on a large corpus;
an assistant should find the edit sooner. Before each run, the watcher chunks only the
changed files (`process.process_batch`, the same per-file work and cache the run then
reuses) and swaps them into the served view: the published chunks of other files, the
changed files' new surviving chunks (duplicates of other chunks dropped, as the run's
dedupe would), deleted files gone. BM25 scores the published chunks from the published
index and the new ones with `Bm25Index.score_new` (the index's statistics counting the
new chunks in), as one ranking. What it cannot give until the run publishes: the exact
weights of a rebuilt index (every chunk's shifts a little), acronym expansions from the
corpus glossary, and dense vectors of the new chunks (dense and hybrid rank the chunks
that did not change). Search results say the view is provisional. The run's publish
replaces it with the published run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from notechunk.chunk import Chunk
from notechunk.config import Config
from notechunk.discover import SourceFile, hierarchy_of, kind_of
from notechunk.search.engine import FUSION_DEPTH, Ranker, rrf, top

if TYPE_CHECKING:
    import numpy as np

    from notechunk.bm25 import Bm25Index
    from notechunk.integrations.run_view import RunView

Changes = Mapping[str, tuple[Chunk, ...] | None]
"""Per changed source: its new surviving chunks, or None when it is gone."""


def chunk_changes(
    changed: Sequence[tuple[str, Path]],
    cfg: Config,
    cache_root: Path | None,
) -> tuple[dict[str, tuple[Chunk, ...] | None], list[str]]:
    """The new chunks of each changed path (relative name, absolute path): None for a
    note that is gone; a file that fails is left out (its published chunks stay) and its
    reason returned."""
    from notechunk.io.cache import code_fingerprint, config_key
    from notechunk.perfile import process_batch

    out: dict[str, tuple[Chunk, ...] | None] = {}
    files: list[SourceFile] = []
    for rel, path in changed:
        kind = kind_of(path)
        if kind is None:
            continue
        if not path.is_file():
            out[rel] = None
        else:
            files.append(
                SourceFile(path=path, rel=rel, kind=kind, hierarchy=hierarchy_of(path, rel))
            )
    problems: list[str] = []
    if files:
        for o in process_batch(files, cfg, cache_root, config_key(cfg, code_fingerprint())):
            if o.result.errors:
                problems.extend(e.message() for e in o.result.errors)
                continue
            out[o.result.source] = tuple(o.result.chunks)
    return out, problems


def gone_folders(base: RunView, changed: Sequence[tuple[str, Path]]) -> dict[str, None]:
    """Sources under a changed path that is no longer there (a folder deleted or moved)."""
    gone: dict[str, None] = {}
    for rel, path in changed:
        if kind_of(path) is None and not path.exists():
            prefix = rel.rstrip("/") + "/"
            gone.update((s, None) for s in base.by_source if s.startswith(prefix))
    return gone


def overlay(base: RunView, changes: Changes, cfg: Config) -> RunView:
    """`base` with the changed sources swapped for their new chunks (see the module)."""
    import numpy as np

    from notechunk.bm25 import _EMPTY, index_terms
    from notechunk.corpus.dedupe import dedupe
    from notechunk.integrations.run_view import index_view

    kept = [i for i, c in enumerate(base.chunks) if c.source not in changes]
    fresh = [c for _, new in sorted(changes.items()) for c in (new or ())]
    # the run's dedupe over the whole corpus in output order decides which copy stays
    ordered = sorted(
        [*((base.chunks[i], i) for i in kept), *((c, -1) for c in fresh)],
        key=lambda pair: (pair[0].source_type != "markdown", pair[0].source),
    )
    marked = dedupe([c for c, _ in ordered], cfg.dedupe)
    survivors = [(c, i) for c, (_, i) in zip(marked, ordered, strict=True) if not c.omit]
    kept = [i for _, i in survivors if i >= 0]
    added = [replace(c, retrieval_score=None) for c, i in survivors if i < 0]
    published = base.ranker
    assert isinstance(published, Ranker), "an overlay is made over the published run"
    stem = published.bm25_index().stem
    terms = [index_terms(c.embed_text or c.text, stem) or [_EMPTY] for c in added]
    deleted = {s for s, new in changes.items() if new is None}
    files = sorted((set(base.files) - deleted) | {s for s, new in changes.items() if new})
    chunks = (*(base.chunks[i] for i in kept), *added)
    ranker = OverlayRanker(published, np.asarray(kept, dtype=np.int64), terms)
    return index_view(base, chunks, tuple(files), ranker, provisional=tuple(sorted(changes)))


class OverlayRanker:
    """One ranking over (kept published chunks, new chunks): see the module."""

    def __init__(self, base: Ranker, kept: np.ndarray, terms: list[list[str]]) -> None:
        self.base, self.kept, self.terms = base, kept, terms

    def bm25_index(self) -> Bm25Index:
        return self.base.bm25_index()

    def bm25_scores(self, query: str) -> np.ndarray:
        import numpy as np

        index = self.base.bm25_index()
        published = index.scores(query)[self.kept]
        return np.concatenate([published, index.score_new(self.terms, query)])

    def ranked(
        self, query: str, k: int, retriever: str, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        import numpy as np

        if retriever == "bm25":
            scores = self.bm25_scores(query)
            if allowed is not None:
                scores = np.where(allowed, scores, 0.0)
            return [(i, float(scores[i])) for i in top(scores, k, positive_only=True)]
        # dense and hybrid: the published vectors rank the chunks that did not change
        where = {int(b): v for v, b in enumerate(self.kept)}
        mask = np.zeros(len(self.base.lines()), dtype=bool)
        mask[self.kept] = True if allowed is None else allowed[: len(self.kept)]
        depth = max(FUSION_DEPTH, k)
        dense = self.base.ranked(query, depth if retriever == "hybrid" else k, "dense", mask)
        semantic = [(where[i], s) for i, s in dense if i in where]
        if retriever == "dense":
            return semantic[:k]
        lexical = self.ranked(query, depth, "bm25", allowed)
        return rrf([[i for i, _ in lexical], [i for i, _ in semantic]])[:k]
