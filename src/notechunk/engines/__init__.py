"""Where the work runs. An engine schedules the per-file work (`perfile`) and the corpus
passes (`corpus`) and never re-implements either: `local` (this machine's cores, a process
pool, the corpus spilled to disk) and `ray` (Ray Data, here or on a cluster) give the
write pass the same `corpus.Gathered`, so their outputs are the same bytes.

What both share is here: how files are cut into batches of about equal bytes, the map
step each batch runs (per-file work, then each file's pass inputs), and the progress
callback type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from notechunk.config import Config
from notechunk.corpus.inputs import FileInputs, file_inputs
from notechunk.discover import SourceFile
from notechunk.perfile import SHEET_PART, FileOutcome, file_outcomes, process_batch

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): called as work finishes."""

Processed = tuple[FileOutcome, FileInputs]
"""A file's outcome and what the corpus passes need of it, both made in the worker."""

BATCH_BYTES = 2_000_000
"""At most about this much input per batch (a bigger file is a batch alone): a pool
engine takes a batch's results back at once (the local engine stores them in the worker,
only their hashes and reports travel), so this bounds what the parent holds of it."""


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


def process_with_inputs(
    files: list[SourceFile], cfg: Config, cache_root: Path | None, cfg_key: str
) -> list[Processed]:
    """The map step of every engine: `perfile.process_batch`, then each outcome's pass
    inputs (`corpus.inputs.file_inputs`), in the worker."""
    return [(o, file_inputs(o.result)) for o in process_batch(files, cfg, cache_root, cfg_key)]


def stream_with_inputs(
    files: Iterable[SourceFile], cfg: Config, cache_root: Path | None, cfg_key: str
) -> Iterator[Processed]:
    """The map step in this process, lazily: a sheet's outcome in parts of `SHEET_PART`
    rows (`FileOutcome.more` on all but the last), each with its pass inputs, so the
    caller spills a huge sheet part by part and never holds it whole."""
    for o in file_outcomes(files, cfg, cache_root, cfg_key, every=SHEET_PART):
        yield o, file_inputs(o.result)
