"""The local engine: per-file work on this machine's cores, the corpus passes over a spill.

Files are cut into contiguous batches of about equal bytes (several per worker, for
balance) and each batch runs the map step (`engines.process_with_inputs`) in a pool of
fresh processes; results come back in the order of the files, so `--workers N` changes
nothing in the outputs. Each batch's results are spilled as they arrive
(`corpus.spill`), then the glossary pass and dedupe run over the spill; the scores and the
chunks are read from it when the write pass asks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from itertools import islice
from pathlib import Path

from notechunk._proc import mp_context, quiet_worker
from notechunk.chunk import FileError, FileResult
from notechunk.config import Config
from notechunk.corpus import Gathered
from notechunk.corpus.inputs import FileInputs
from notechunk.corpus.spill import spill
from notechunk.discover import SourceFile
from notechunk.engines import Processed, Progress, batches, process_with_inputs


def process_files(
    files: Sequence[SourceFile],
    cfg: Config,
    *,
    workers: int = 1,
    cache_root: Path | None = None,
    cfg_key: str = "",
    progress: Progress | None = None,
) -> Iterator[Processed]:
    """One outcome per file with its pass inputs, in the order of `files` whatever the
    number of workers, yielded as each batch finishes (so the caller can spill it and let
    it go)."""
    total = len(files)
    done = 0
    parts = batches(files, workers)
    if workers <= 1 or len(parts) <= 1:
        for part in parts:
            outcomes = process_with_inputs(part, cfg, cache_root, cfg_key)
            done += len(outcomes)
            if progress:
                progress("chunk", done, total)
            yield from outcomes
        return
    ahead = 2 * workers  # batches in flight: finished results wait for the caller, so
    # a window bounds what piles up when the caller (spilling) is slower than the pool
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=mp_context(), initializer=quiet_worker
    )
    try:
        pending: deque[Future[list[Processed]]] = deque()
        todo = iter(parts)
        for part in islice(todo, ahead):
            pending.append(pool.submit(process_with_inputs, part, cfg, cache_root, cfg_key))
        while pending:
            outcomes = pending.popleft().result()
            for part in islice(todo, 1):
                pending.append(pool.submit(process_with_inputs, part, cfg, cache_root, cfg_key))
            done += len(outcomes)
            if progress:
                progress("chunk", done, total)
            yield from outcomes
            del outcomes
    except BaseException:  # Ctrl-C, or the caller gave up: stop the workers now
        _stop(pool)
        raise
    pool.shutdown(wait=True)


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

    def results() -> Iterator[tuple[FileResult, FileInputs]]:
        for outcome, inputs in process_files(
            files,
            cfg,
            workers=workers,
            cache_root=cache_root,
            cfg_key=cfg_key,
            progress=progress,
        ):
            keys.append((outcome.result.source, outcome.key))
            if outcome.note:
                notes.append(outcome.note)
            yield outcome.result, inputs

    sc = spill(results(), work, cfg, discovery_errors, user)
    yield Gathered(
        files=len(files),
        n_markdown=sc.n_markdown,
        n_sheets=sc.n_sheets,
        original=sc.original,
        omitted=sc.omitted,
        discarded=sc.discarded,
        reports=sc.reports,
        errors=sc.errors,
        glossary=sc.glossary,
        keys=tuple(keys),
        notes=tuple(notes),
        paths=tuple((f.rel, f.path) for f in files),
        chunks=sc.chunks,
        scores=sc.scores,
    )
