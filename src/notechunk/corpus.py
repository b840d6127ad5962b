"""Corpus passes: what needs every finished chunk at once (dedupe, retrieval scores, metrics).

`gather` puts the files' results in output order (Markdown files, then spreadsheets, each
in discovery order); `dedupe` marks repeated chunks; `score` measures self-retrieval over
what ships (`embed_text`); `compute_metrics` (qa.metrics) counts the result. Each pass is
a pure function of its input and the config.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, DiscardedRow, FileError, FileResult, SheetReport
from notechunk.config import DedupeConfig
from notechunk.enrich.glossary import Glossary, build_glossary, expand_acronyms, glossary_stats
from notechunk.enrich.glossary import merge_all as merge_glossary_stats
from notechunk.qa.retrievability import retrieval_scores


@dataclass(frozen=True, slots=True, kw_only=True)
class Corpus:
    """Everything a run produced, in output order; `chunks` includes the omitted ones;
    `glossary` is the acronym glossary when the acronym pass ran."""

    chunks: tuple[Chunk, ...] = ()
    discarded: tuple[DiscardedRow, ...] = ()
    reports: tuple[SheetReport, ...] = ()
    errors: tuple[FileError, ...] = ()
    glossary: Glossary | None = None

    @property
    def markdown(self) -> list[Chunk]:
        return [c for c in self.chunks if c.source_type == "markdown"]

    @property
    def sheets(self) -> list[Chunk]:
        return [c for c in self.chunks if c.source_type == "spreadsheet"]


def gather(results: Iterable[FileResult], discovery_errors: Iterable[FileError] = ()) -> Corpus:
    """The files' results as one corpus: Markdown chunks first, then sheet rows."""
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


def expand(
    corpus: Corpus,
    results: Iterable[FileResult],
    user: Sequence[tuple[str, str]] = (),
    *,
    apply: bool = True,
) -> Corpus:
    """The acronym pass: glossary statistics per file, merged, then (with `apply`) every
    chunk expanded (enrich.glossary). The glossary itself is always kept for QA (defined
    and undefined acronyms). Runs before dedupe, which then sees the final `embed_text`."""
    stats = merge_glossary_stats(glossary_stats(r.chunks) for r in results)
    glossary = build_glossary(stats, user)
    chunks = tuple(expand_acronyms(corpus.chunks, glossary)) if apply else corpus.chunks
    return replace(corpus, chunks=chunks, glossary=glossary)


def dedupe_key(chunk: Chunk, cfg: DedupeConfig) -> str:
    """What makes two chunks the same fact: the text in its context (title, heading path,
    or sheet and group: `embed_text`), or the text alone (`dedupe.scope = "text"`)."""
    return chunk.text if cfg.scope == "text" else chunk.embed_text


def dedupe(chunks: Sequence[Chunk], cfg: DedupeConfig) -> list[Chunk]:
    """The first surviving chunk with a key wins; later copies keep their place, omitted,
    with `duplicate_of` (the first one's id) and the flag `duplicate`."""
    first: dict[str, str] = {}
    out: list[Chunk] = []
    for c in chunks:
        if not c.omit:
            key = dedupe_key(c, cfg)
            original = first.get(key)
            if original is not None:
                c = replace(c, duplicate_of=original, omit=True, flags=(*c.flags, "duplicate"))
            else:
                first[key] = c.id
        out.append(c)
    return out


def score(chunks: Sequence[Chunk]) -> list[Chunk]:
    """Every chunk with its self-retrieval score (qa.retrievability)."""
    scores = retrieval_scores(chunks)
    return [replace(c, retrieval_score=s) for c, s in zip(chunks, scores, strict=True)]


def key_hash(key: str) -> tuple[int, int]:
    """A dedupe key as 128 bits (a set of 16-byte digests, never of strings)."""
    d = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return int.from_bytes(d[:8], "little"), int.from_bytes(d[8:], "little")


def originals(
    hi: NDArray[np.uint64], lo: NDArray[np.uint64], omit: NDArray[np.bool_]
) -> NDArray[np.int64]:
    """`dedupe` on key hashes: per chunk -1, or the ordinal of the first surviving chunk
    with its key (omitted chunks are never originals and never duplicates)."""
    n = len(hi)
    out = np.full(n, -1, dtype=np.int64)
    live = np.flatnonzero(~omit)
    if len(live) < 2:
        return out
    order = live[np.lexsort((live, lo[live], hi[live]))]
    same = (hi[order][1:] == hi[order][:-1]) & (lo[order][1:] == lo[order][:-1])
    start = np.concatenate(([True], ~same))
    first = order[np.flatnonzero(start)]
    run = np.cumsum(start) - 1
    dup = ~start
    out[order[dup]] = first[run[dup]]
    return out
