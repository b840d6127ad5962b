"""The local engine: per-file work on this machine's cores, the corpus passes over a spill.

Files are cut into contiguous batches of about equal bytes (several per worker, for
balance) and each batch runs the map step in a pool of fresh processes, packed for the
spill where it is made (`pack_batch`: `corpus.spill.pack` on each file, a sheet part by
part), so only encoded bytes and term arrays cross to the parent; results come back in
the order of the files, so `--workers N` changes nothing in the outputs. The packed
batches are written to the spill as they arrive (`corpus.spill.spill`), then the
glossary pass (on the pool, a task per spill segment) and dedupe run over the spill; the
scores and the chunks are read from it when the write pass asks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from itertools import islice
from pathlib import Path
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from notechunk._proc import mp_context, quiet_worker, release_freed_memory
from notechunk.chunk import FileError
from notechunk.config import Config
from notechunk.corpus import Aside, Gathered
from notechunk.corpus.scores import BlockStore, ScoreBlocks, score_stored
from notechunk.corpus.scores.bm25index import Index, save_index
from notechunk.corpus.spill import (
    Batch,
    ExpandSegments,
    Packed,
    Rehashed,
    Segment,
    SpilledBlocks,
    SpilledCorpus,
    expand_here,
    expand_segment,
    pack,
    score_file,
    spill,
    store,
)
from notechunk.discover import SourceFile
from notechunk.engines import (
    Progress,
    batches,
    stream_with_inputs,
)
from notechunk.enrich.glossary import Glossary

R = TypeVar("R")


def _here(files: Sequence[SourceFile], workers: int) -> bool:
    """Whether the map step runs in this process: one worker, or one batch of all."""
    return workers <= 1 or len(batches(files, workers)) <= 1


def _ticker(progress: Progress | None, total: int) -> Callable[[int], None]:
    """Counts finished files for `progress` (`tick(n)`: n more files done)."""
    count = 0

    def tick(n: int) -> None:
        nonlocal count
        count += n
        if progress:
            progress("chunk", count, total)

    return tick


@dataclass(frozen=True, slots=True)
class StoredBatch:
    """A batch as `store_batch` leaves it: its records on disk (`corpus.spill.Batch`) and
    each file's cache key and note, in order."""

    batch: Batch
    keys: tuple[tuple[str, str | None], ...]
    notes: tuple[str, ...]


def store_batch(
    files: list[SourceFile],
    folder: Path,
    cfg: Config,
    cache_root: Path | None,
    cfg_key: str,
    done: Callable[[], None] | None = None,
) -> StoredBatch:
    """The map step for a batch, stored where it runs: each file (a sheet part by part,
    `stream_with_inputs`) packed and written under `folder` as it is made, so neither a
    worker nor the parent ever holds a batch's chunks. `done`: told of each finished file
    (in this process)."""
    keys: list[tuple[str, str | None]] = []
    notes: list[str] = []

    def packed() -> Iterator[Packed]:
        for o, inputs in stream_with_inputs(files, cfg, cache_root, cfg_key):
            yield pack(o.result, inputs, cfg)
            if not o.more:  # a file's last part
                keys.append((o.result.source, o.key))
                if o.note:
                    notes.append(o.note)
                if done:
                    done()

    batch = store(packed(), folder)
    release_freed_memory()
    return StoredBatch(batch, tuple(keys), tuple(notes))


def store_files(
    files: Sequence[SourceFile],
    folder: Path,
    cfg: Config,
    *,
    workers: int = 1,
    cache_root: Path | None = None,
    cfg_key: str = "",
    progress: Progress | None = None,
    pool: Executor | None = None,
) -> Iterator[StoredBatch]:
    """`store_batch` over the files' batches, each in a folder of its own under `folder`:
    in this process (one batch of all), or on `pool`'s workers; in the order of the files
    whatever the number of workers."""
    tick = _ticker(progress, len(files))
    if _here(files, workers):
        done = partial(tick, 1)
        yield store_batch(list(files), folder / "000000", cfg, cache_root, cfg_key, done)
        return
    jobs = (
        partial(store_batch, part, folder / f"{n:06d}", cfg, cache_root, cfg_key)
        for n, part in enumerate(batches(files, workers))
    )
    for stored in _pooled(jobs, workers, pool):
        yield stored
        tick(len(stored.keys))


def _pooled(jobs: Iterable[Callable[[], R]], workers: int, pool: Executor | None) -> Iterator[R]:
    """Each job (a batch's task) on the pool, results in the order of the jobs as each
    finishes. At most `workers + 1` are in flight: finished results wait for the caller,
    so the window bounds what piles up in this process when the caller is slower than
    the pool."""
    with ExitStack() as stack:
        if pool is None:
            pool = stack.enter_context(worker_pool(workers))
        pending: deque[Future[R]] = deque()
        todo = iter(jobs)
        for job in islice(todo, workers + 1):
            pending.append(pool.submit(job))
        while pending:
            result = pending.popleft().result()
            for job in islice(todo, 1):
                pending.append(pool.submit(job))
            yield result
            del result


def _stop(pool: ProcessPoolExecutor) -> None:
    """End a pool without waiting for the batches its workers are in (they ignore SIGINT,
    so an interrupted run would otherwise wait for each to finish). The executor keeps
    its processes in `_processes`: there is no public way to stop a running task."""
    for proc in list(getattr(pool, "_processes", {}).values()):
        proc.kill()
    pool.shutdown(wait=False, cancel_futures=True)


@contextmanager
def gather(
    files: Sequence[SourceFile],
    discovery_errors: Sequence[FileError],
    cfg: Config,
    *,
    work: Path,
    cfg_key: str,
    user: Sequence[tuple[str, str]] = (),
    workers: int = 1,
    cache_root: Path | None = None,
    progress: Progress | None = None,
) -> Iterator[Gathered]:
    """Process `files`, each batch stored under `work` where it is processed, run the
    glossary pass and dedupe: every chunk a run ships, with memory that does not grow
    with the corpus. (A context manager like the Ray engine's; the spill stays under
    `work`.)"""
    keys: list[tuple[str, str | None]] = []
    notes: list[str] = []
    with ExitStack() as stack:
        pool = stack.enter_context(worker_pool(workers)) if workers > 1 else None

        def stored() -> Iterator[Batch]:
            for sb in store_files(
                files,
                work / "batches",
                cfg,
                workers=workers,
                cache_root=cache_root,
                cfg_key=cfg_key,
                progress=progress,
                pool=pool,
            ):
                keys.extend(sb.keys)
                notes.extend(sb.notes)
                yield sb.batch

        expand = expand_here if pool is None else expand_pooled(pool)
        sc = spill(stored(), work, cfg, discovery_errors, user, expand, parts=2 * workers)
        blocks = score_stored if pool is None else pooled(pool, work / "index")
        aside = None if pool is None else beside(pool)
        yield _gathered(sc, files, keys, notes, lambda: sc.scores(score_blocks=blocks), aside)


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """The engine's workers: fresh processes (`_proc.mp_context`) that ignore SIGINT, kept
    for the whole run (per-file work, then the score pass), so they start once. Ctrl-C or
    a caller that gives up stops them at once (`_stop`)."""
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=mp_context(), initializer=quiet_worker
    )
    try:
        yield pool
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown(wait=True)


def expand_pooled(pool: Executor) -> ExpandSegments:
    """The glossary pass on the pool: one task per spill segment
    (`corpus.spill.expand_segment`), the results taken back in segment order."""

    def run(
        segments: Sequence[Segment],
        glossary: Glossary,
        owns: Mapping[str, Mapping[str, str]],
        cfg: Config,
    ) -> Iterator[Rehashed]:
        futures = [pool.submit(expand_segment, seg, glossary, owns, cfg) for seg in segments]
        for future in futures:
            yield future.result()

    return run


def beside(pool: Executor) -> Aside:
    """A write job on the pool, which the write pass leaves idle: it reads what it needs
    from the spill itself, so nothing but the job is sent (`corpus.Aside`)."""

    def run(job: Callable[[], None]) -> Callable[[], None]:
        future = pool.submit(job)
        return future.result

    return run


def pooled(pool: Executor, index_folder: Path) -> ScoreBlocks:
    """The score pass's third step on the pool: the index saved once for the workers to
    memory-map, each spilled block scored by one task (`corpus.spill.score_file`), the
    results taken back in block order."""

    def run(index: Index, store: BlockStore) -> Iterator[NDArray[np.float64]]:
        if not isinstance(store, SpilledBlocks):
            yield from score_stored(index, store)
            return
        save_index(index, index_folder)
        del index  # the workers map the saved one: this process lets its copy go
        release_freed_memory()  # and what the statistics and the index left in its heap
        futures = [
            pool.submit(score_file, path, first, index_folder) for path, first in store.files()
        ]
        for future in futures:
            yield future.result()

    return run


def _gathered(
    sc: SpilledCorpus,
    files: Sequence[SourceFile],
    keys: list[tuple[str, str | None]],
    notes: list[str],
    scores: Callable[[], NDArray[np.float64]],
    aside: Aside | None,
) -> Gathered:
    return Gathered(
        files=len(files),
        n_markdown=sc.n_markdown,
        n_sheets=sc.n_sheets,
        original=sc.original,
        omitted=sc.omitted,
        discarded=sc.discarded,
        reports=sc.reports,
        accounts=sc.accounts,
        errors=sc.errors,
        glossary=sc.glossary,
        keys=tuple(keys),
        notes=tuple(notes),
        paths=tuple((f.rel, f.path) for f in files),
        chunks=sc.chunks,
        scores=scores,
        aside=aside,
    )
