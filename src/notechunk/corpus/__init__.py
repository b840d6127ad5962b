"""The corpus passes: what needs every finished chunk at once.

Each pass is written once, over blocks of chunks, and every engine (local, Ray, the
in-memory API path) only schedules it:

    inputs   per file, where the file was processed: its chunks' token block and
             glossary statistics and definitions (the map step)
    glossary the corpus glossary from every file's statistics, then acronyms expanded
             part by part (`enrich.acronyms`)
    dedupe   key hashes per chunk, the originals over the corpus, duplicates marked
    scores   retrieval statistics over index blocks, the index, each block's scores
    spill    the local engine's store: results and token blocks on disk, in output order

`Gathered` is what an engine hands the write pass: counts, the dedupe result and the
chunks and scores as streams in output order (Markdown files, then sheets, each in
discovery order), and the engine's idle workers (`aside`) when it has them. `Corpus` is
a whole corpus held in memory (tests, reports rebuilt).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, DiscardedRow, FileError, LineAccount, SheetReport
from notechunk.enrich.glossary import Glossary

Aside = Callable[[Callable[[], None]], Callable[[], None]]
"""Runs a picklable job beside this process (on an engine's workers, idle once the corpus
passes are done) and gives back what waits for it, raising the job's error."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Corpus:
    """Everything a run produced, in output order, held in memory; `chunks` includes the
    omitted ones; `glossary` is the acronym glossary when the acronym pass ran."""

    chunks: tuple[Chunk, ...] = ()
    discarded: tuple[DiscardedRow, ...] = ()
    reports: tuple[SheetReport, ...] = ()
    errors: tuple[FileError, ...] = ()
    glossary: Glossary | None = None
    accounts: tuple[LineAccount, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Gathered:
    """A corpus processed, expanded and deduped by an engine, ready to be scored and
    written. `original[i]` is -1 or the ordinal of the chunk that chunk i repeats;
    `omitted[i]` says chunk i was omitted before dedupe; `keys` is each file's cache key
    (None: unread), for the run key; `chunks()` streams every chunk in output order,
    duplicates marked; `scores()` is every chunk's retrieval score, unrounded."""

    files: int
    n_markdown: int
    n_sheets: int
    original: NDArray[np.int64]
    omitted: NDArray[np.bool_]
    discarded: tuple[DiscardedRow, ...]
    reports: tuple[SheetReport, ...]
    errors: tuple[FileError, ...]
    glossary: Glossary
    keys: tuple[tuple[str, str | None], ...]
    paths: tuple[tuple[str, Path], ...]  # (relative, absolute) of each file read
    chunks: Callable[[], Iterator[Chunk]]
    scores: Callable[[], NDArray[np.float64]]
    notes: tuple[str, ...] = ()  # for a person: cache entries not used (damaged), redone
    accounts: tuple[LineAccount, ...] = ()  # each Markdown file's line account
    aside: Aside | None = None  # where a write job can run beside the write pass

    @property
    def surviving(self) -> int:
        """Chunks that reach chunks.jsonl.gz."""
        return int(np.count_nonzero(~self.omitted & (self.original < 0)))
