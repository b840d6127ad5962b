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
from notechunk.corpus import Gathered
from notechunk.corpus.scores import BlockStore, ScoreBlocks, score_stored
from notechunk.corpus.scores.bm25index import Index, save_index
from notechunk.corpus.spill import (
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
)
from notechunk.discover import SourceFile
from notechunk.engines import (
    Processed,
    Progress,
    batches,
    process_with_inputs,
    stream_with_inputs,
)
from notechunk.enrich.glossary import Glossary

T = TypeVar("T")


def process_files(
    files: Sequence[SourceFile],
    cfg: Config,
    *,
    workers: int = 1,
    cache_root: Path | None = None,
    cfg_key: str = "",
    progress: Progress | None = None,
    pool: Executor | None = None,
) -> Iterator[Processed]:
    """One outcome per file with its pass inputs, in the order of `files` whatever the
    number of workers, yielded as each batch finishes; in this process (one worker, or
    one batch) a sheet's outcome comes in parts (`FileOutcome.more`). `pool`: the
    engine's workers (made here when None)."""
    if workers <= 1 or len(batches(files, workers)) <= 1:  # here, a sheet in parts
        here = stream_with_inputs(files, cfg, cache_root, cfg_key)
        yield from _counted(here, progress, len(files), _processed_more)
        return
    task = partial(process_with_inputs, cfg=cfg, cache_root=cache_root, cfg_key=cfg_key)
    yield from _counted(_pooled(files, workers, pool, task), progress, len(files), _processed_more)


@dataclass(frozen=True, slots=True)
class PackedOutcome:
    """A file's outcome (or a sheet part's) as the spill takes it (`corpus.spill.pack`),
    with its cache key, note and `more` (as `FileOutcome`)."""

    packed: Packed
    key: str | None
    note: str | None
    more: bool


def pack_batch(
    files: list[SourceFile], cfg: Config, cache_root: Path | None, cfg_key: str
) -> list[PackedOutcome]:
    """The map step packed for the spill where it runs: each file (a sheet part by part,
    `stream_with_inputs`) encoded as it is made, so neither this worker nor the parent
    ever holds a whole batch's chunk objects."""
    return list(_packed(stream_with_inputs(files, cfg, cache_root, cfg_key), cfg))


def pack_files(
    files: Sequence[SourceFile],
    cfg: Config,
    *,
    workers: int = 1,
    cache_root: Path | None = None,
    cfg_key: str = "",
    progress: Progress | None = None,
    pool: Executor | None = None,
) -> Iterator[PackedOutcome]:
    """`process_files` packed for the spill: in this process, or each batch packed by a
    worker of `pool`; in the order of `files` whatever the number of workers."""
    if workers <= 1 or len(batches(files, workers)) <= 1:
        here = _packed(stream_with_inputs(files, cfg, cache_root, cfg_key), cfg)
        yield from _counted(here, progress, len(files), _packed_more)
        return
    task = partial(pack_batch, cfg=cfg, cache_root=cache_root, cfg_key=cfg_key)
    yield from _counted(_pooled(files, workers, pool, task), progress, len(files), _packed_more)


def _packed(processed: Iterable[Processed], cfg: Config) -> Iterator[PackedOutcome]:
    for o, inputs in processed:
        yield PackedOutcome(pack(o.result, inputs, cfg), o.key, o.note, o.more)


def _processed_more(item: Processed) -> bool:
    return item[0].more


def _packed_more(item: PackedOutcome) -> bool:
    return item.more


def _counted(
    outcomes: Iterable[T], progress: Progress | None, total: int, more: Callable[[T], bool]
) -> Iterator[T]:
    """`outcomes` passed on, each file's last part (not `more`) counted for `progress`."""
    done = 0
    for item in outcomes:
        yield item
        if not more(item):
            done += 1
            if progress:
                progress("chunk", done, total)


def _pooled(
    files: Sequence[SourceFile],
    workers: int,
    pool: Executor | None,
    task: Callable[[list[SourceFile]], list[T]],
) -> Iterator[T]:
    """`task` over the files' batches on the pool, results in the order of the files as
    each batch finishes. At most `workers + 1` batches are in flight: finished results
    wait for the caller, so the window bounds what piles up in this process when the
    caller (spilling) is slower than the pool."""
    with ExitStack() as stack:
        if pool is None:
            pool = stack.enter_context(worker_pool(workers))
        pending: deque[Future[list[T]]] = deque()
        todo = iter(batches(files, workers))
        for part in islice(todo, workers + 1):
            pending.append(pool.submit(task, part))
        while pending:
            outcomes = pending.popleft().result()
            for part in islice(todo, 1):
                pending.append(pool.submit(task, part))
            yield from outcomes
            del outcomes


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
    """Process `files`, spill their results under `work` as they arrive, run the glossary
    pass and dedupe: every chunk a run ships, with memory that does not grow with the
    corpus. (A context manager like the Ray engine's; the spill stays under `work`.)"""
    keys: list[tuple[str, str | None]] = []
    notes: list[str] = []
    with ExitStack() as stack:
        pool = stack.enter_context(worker_pool(workers)) if workers > 1 else None

        def results() -> Iterator[Packed]:
            for outcome in pack_files(
                files,
                cfg,
                workers=workers,
                cache_root=cache_root,
                cfg_key=cfg_key,
                progress=progress,
                pool=pool,
            ):
                if not outcome.more:  # a file's last part
                    keys.append((outcome.packed.source, outcome.key))
                    if outcome.note:
                        notes.append(outcome.note)
                yield outcome.packed

        expand = expand_here if pool is None else expand_pooled(pool)
        sc = spill(results(), work, cfg, discovery_errors, user, expand, parts=2 * workers)
        blocks = score_stored if pool is None else pooled(pool, work / "index")
        yield _gathered(sc, files, keys, notes, lambda: sc.scores(score_blocks=blocks))


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
    )
