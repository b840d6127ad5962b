"""The local engine: per-file work on this machine's cores, results in discovery order.

Files are cut into contiguous batches of about equal bytes (several per worker, for
balance) and each batch runs `process.process_batch` in a pool of fresh processes; the
results are put back in the order of the files, so `--workers N` changes nothing in the
outputs. Each file's token block (`qa.termblock`, the retrieval passes' input) is made in
the worker too, and results are yielded batch by batch for the caller to spill.
`mp_context` is the one multiprocessing context of the package (the sheet
reader's isolated workers use it too).
"""

from __future__ import annotations

import multiprocessing as mp
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from multiprocessing.context import ForkServerContext, SpawnContext
from pathlib import Path

from notechunk.config import Config
from notechunk.discover import SourceFile
from notechunk.enrich.glossary import GlossaryStats, glossary_stats
from notechunk.process import FileOutcome, process_batch
from notechunk.qa.termblock import TermBlock, term_block

Progress = Callable[[str, int, int], None]
Processed = tuple[FileOutcome, TermBlock, GlossaryStats]
"""A file's outcome, the token block of its chunks (the retrieval passes' input) and its
glossary statistics: per-file work, so made in the worker."""
"""progress(stage, done, total): called as work finishes."""


def mp_context() -> ForkServerContext | SpawnContext:
    """Fresh processes, never a plain fork of this one: a forked worker inherits the
    parent's multiprocessing state (a forkserver the sheet reader started earlier in the
    same process makes its next isolated read fail with ChildProcessError), and whatever
    locks other threads held."""
    if sys.platform.startswith("linux"):
        return mp.get_context("forkserver")
    return mp.get_context("spawn")


BATCH_BYTES = 2_000_000
"""At most about this much input per batch (a CSV row of 100 bytes is ~1.5 KB of
records): a batch's results travel back at once, so
this bounds what a worker and the parent hold of it (a bigger file is a batch alone)."""


def batches(files: Sequence[SourceFile], workers: int) -> list[list[SourceFile]]:
    """Contiguous batches of roughly equal bytes, several per worker for balance."""
    if not files:
        return []
    n = max(1, min(len(files), workers * 4))
    sizes = [_size(f) for f in files]
    target = max(1, min(sum(sizes) // n, BATCH_BYTES))
    out: list[list[SourceFile]] = [[]]
    acc = 0
    for f, size in zip(files, sizes, strict=True):
        if acc >= target and out[-1]:
            out.append([])
            acc = 0
        out[-1].append(f)
        acc += size
    return out


def _size(f: SourceFile) -> int:
    try:
        return f.path.stat().st_size
    except OSError:
        return 0


def process_files(
    files: Sequence[SourceFile],
    cfg: Config,
    *,
    workers: int = 1,
    cache_root: Path | None = None,
    cfg_key: str = "",
    progress: Progress | None = None,
) -> Iterator[Processed]:
    """One outcome per file, in the order of `files`, whatever the number of workers,
    yielded as each batch finishes (so the caller can spill it and let it go), with the
    token block and glossary statistics of its chunks, made in the worker (per-file work)."""
    total = len(files)
    done = 0
    parts = batches(files, workers)
    if workers <= 1 or len(parts) <= 1:
        for part in parts:
            outcomes = process_with_terms(part, cfg, cache_root, cfg_key)
            done += len(outcomes)
            if progress:
                progress("chunk", done, total)
            yield from outcomes
        return
    ahead = 2 * workers  # batches in flight: finished results wait for the caller, so
    # a window bounds what piles up when the caller (spilling) is slower than the pool
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp_context()) as pool:
        pending: deque[Future[list[Processed]]] = deque()
        todo = iter(parts)
        for part in islice(todo, ahead):
            pending.append(pool.submit(process_with_terms, part, cfg, cache_root, cfg_key))
        while pending:
            outcomes = pending.popleft().result()
            for part in islice(todo, 1):
                pending.append(pool.submit(process_with_terms, part, cfg, cache_root, cfg_key))
            done += len(outcomes)
            if progress:
                progress("chunk", done, total)
            yield from outcomes
            del outcomes


def process_with_terms(
    files: list[SourceFile], cfg: Config, cache_root: Path | None, cfg_key: str
) -> list[Processed]:
    """`process.process_batch`, each outcome with its chunks' token block and glossary
    statistics."""
    return [
        (o, term_block(o.result.chunks), glossary_stats(o.result.chunks))
        for o in process_batch(files, cfg, cache_root, cfg_key)
    ]
