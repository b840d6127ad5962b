"""The corpus passes run in memory over a handful of chunks, for tests: what `run` does
after per-file work, without the files (gather in output order, score, measure)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from notechunk.chunk import Chunk, FileError, FileResult
from notechunk.config import Config
from notechunk.corpus import Corpus
from notechunk.corpus.scores import retrieval_scores
from notechunk.qa.metrics import Metrics
from notechunk.qa.tally import compute_metrics


def gather(results: Iterable[FileResult], discovery_errors: Iterable[FileError] = ()) -> Corpus:
    """The files' results as one corpus: Markdown chunks first, then sheet rows, errors
    sorted (the order of every output)."""
    results = list(results)
    chunks = [c for r in results for c in r.chunks]
    errors = [*discovery_errors, *(e for r in results for e in r.errors)]
    return Corpus(
        chunks=(
            *(c for c in chunks if c.source_type == "markdown"),
            *(c for c in chunks if c.source_type == "spreadsheet"),
        ),
        discarded=tuple(d for r in results for d in r.discarded),
        reports=tuple(s for r in results for s in r.reports),
        errors=tuple(sorted(errors, key=lambda e: (e.source, e.stage))),
    )


def score(chunks: Sequence[Chunk]) -> list[Chunk]:
    """Every chunk with its self-retrieval score (`corpus.scores.retrieval_scores`)."""
    values = retrieval_scores(chunks)
    return [replace(c, retrieval_score=s) for c, s in zip(chunks, values, strict=True)]


def measure(corpus: Corpus, cfg: Config) -> tuple[Corpus, Metrics]:
    """The passes after dedupe: retrieval scores, then the metrics."""
    corpus = replace(corpus, chunks=tuple(score(corpus.chunks)))
    metrics = compute_metrics(
        corpus.chunks,
        corpus.discarded,
        corpus.reports,
        corpus.errors,
        lowest_scores_listed=cfg.qa.lowest_scores_listed,
        glossary=corpus.glossary,
    )
    return corpus, metrics
