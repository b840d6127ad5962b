"""The Ray engine: the same run on Ray Data, on this machine or on a cluster.

Per-file work: the discovered files, cut into batches of about equal bytes
(`engines.batches`), are a Ray Data dataset whose map tasks run the engines' map step
on each file (`engines.raytasks.file_rows`, calling `engines.process_with_inputs`; the per-file
cache is read and written by the tasks, the sheet reader's limited child process is
started inside the task). Their rows, the chunk dataset, stay in Ray's object store. A
batch whose task dies is retried one file per task, and a file whose task dies again is
that file's error. The corpus passes then run over the chunk dataset with the `corpus`
functions (`gather`: the glossary, acronyms expanded as a map, dedupe on the rows' key
hashes; `engines.raypasses`: the scores as Ray work); the driver keeps a few bytes per
chunk and writes OUT.

Ray is the `ray` extra (`ray[data]`), imported here only when the engine is used. With no
address (and no RAY_ADDRESS), a local Ray instance is started with `workers` CPUs and
shut down after the run; with one, the run joins that cluster.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from notechunk.chunk import FileError
from notechunk.config import Config
from notechunk.corpus import Gathered
from notechunk.corpus.glossary import corpus_glossary
from notechunk.discover import SourceFile
from notechunk.engines import Progress, batches
from notechunk.engines.raypasses import gather as gather_rows
from notechunk.engines.raypasses import glossary_stats_of
from notechunk.engines.raytasks import Batch, Columns, encode_files, expand_rows, file_rows
from notechunk.enrich.glossary import Glossary
from notechunk.errors import MissingExtra, UsageError

if TYPE_CHECKING:
    from ray.data import Dataset

DIED = "worker died while processing this file (its Ray task failed twice)"
_QUIET = ("ray", "ray.data", "ray.serve", "ray.train", "ray.tune")


def has_ray() -> bool:
    return importlib.util.find_spec("ray") is not None


def require_ray() -> None:
    """Raise `MissingExtra` naming `pip install 'notechunk[ray]'` when Ray is missing."""
    if not has_ray():
        raise MissingExtra("--engine ray", "ray[data]", "ray")


@contextmanager
def session(address: str | None, workers: int | None) -> Iterator[None]:
    """Ray for the run: the instance this process already holds, else the cluster at
    `address` (or RAY_ADDRESS), else a new local instance of `workers` CPUs, shut down
    at the end. Ray's own logs, progress bars and deprecation notices are silenced for
    the run (errors are ours to report, in one line each) and restored after it."""
    require_ray()
    import ray
    import ray.data

    levels = {name: logging.getLogger(name).level for name in _QUIET}
    started = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for name in _QUIET:
                logging.getLogger(name).setLevel(logging.CRITICAL)
            if not ray.is_initialized():
                where = address or os.environ.get("RAY_ADDRESS") or "local"
                local = {"num_cpus": workers} if where == "local" else {}
                try:
                    ray.init(
                        address=where,
                        include_dashboard=False,
                        log_to_driver=False,
                        logging_level=logging.CRITICAL,
                        **local,
                    )
                except ConnectionError as exc:  # an OSError, but not the outputs' fault
                    said = str(exc).strip().splitlines() or [type(exc).__name__]
                    raise UsageError(f"cannot join the Ray cluster at {where}: {said[0]}") from None
                started = True
            ctx = ray.data.DataContext.get_current()
            saved = ctx.enable_progress_bars, ctx.execution_options.preserve_order
            ctx.enable_progress_bars = False
            ctx.execution_options.preserve_order = True
            try:
                yield
            finally:
                ctx.enable_progress_bars, ctx.execution_options.preserve_order = saved
        finally:
            if started:
                ray.shutdown()
            for name, level in levels.items():
                logging.getLogger(name).setLevel(level)


@contextmanager
def gather(
    files: Sequence[SourceFile],
    discovery_errors: Sequence[FileError],
    cfg: Config,
    *,
    cfg_key: str,
    user: Sequence[tuple[str, str]] = (),
    workers: int | None = None,
    address: str | None = None,
    cache_root: Path | None = None,
    progress: Progress | None = None,
) -> Iterator[Gathered]:
    """The Ray engine's corpus, for as long as the block runs (the chunk dataset lives in
    Ray's object store): per-file work as map tasks, the glossary from every file's
    statistics, acronyms expanded as a map (`enrich.acronyms`), dedupe on the rows' key
    hashes in the driver; the scores run as Ray work when the write pass asks."""
    with session(address, workers):
        datasets, died = process(
            tuple(files),
            cfg,
            cache_root=cache_root,
            cfg_key=cfg_key,
            workers=workers,
            progress=progress,
        )
        glossary = corpus_glossary(glossary_stats_of(datasets), user)
        if cfg.enrich.acronyms and glossary.entries:
            datasets = expand(datasets, glossary, cfg, workers)
        rows = gather_rows(datasets, len(files), [*discovery_errors, *died])
        yield Gathered(
            files=len(files),
            n_markdown=rows.n_markdown,
            n_sheets=rows.n_sheets,
            original=rows.original,
            omitted=rows.omitted,
            discarded=rows.discarded,
            reports=rows.reports,
            accounts=rows.accounts,
            errors=rows.errors,
            glossary=glossary,
            keys=rows.keys,
            notes=rows.notes,
            paths=tuple((f.rel, f.path) for f in files),
            chunks=rows.chunks,
            scores=rows.scores,
        )


def cluster_cpus() -> int:
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def process(
    files: tuple[SourceFile, ...],
    cfg: Config,
    *,
    cache_root: Path | None,
    cfg_key: str,
    workers: int | None,
    progress: Progress | None,
) -> tuple[list[Dataset], list[FileError]]:
    """The chunk dataset(s) of `files` (materialized, rows by file), and an error for
    each file whose task died twice. A batch lost to a dead task is redone one file per
    task, so one bad file costs only itself. The cache path goes to the tasks absolute:
    they run in their worker's directory (on a cluster, where `ray start` ran), not ours."""
    cache_root = cache_root.absolute() if cache_root is not None else None
    if progress:
        progress("chunk", 0, len(files))
    width = workers or cluster_cpus()
    parts = batches(files, width)
    firsts = [sum(len(p) for p in parts[:i]) for i in range(len(parts))]
    main = _map_files(
        [(first, part) for first, part in zip(firsts, parts, strict=True)],
        cfg,
        cache_root,
        cfg_key,
        workers,
    )
    done = _files_done(main)
    lost = [i for i in range(len(files)) if i not in done]
    datasets = [main]
    errors: list[FileError] = []
    if lost:
        retry = _map_files([(i, [files[i]]) for i in lost], cfg, cache_root, cfg_key, workers)
        datasets.append(retry)
        again = _files_done(retry)
        errors = [
            FileError(source=files[i].rel, stage="chunk", reason=DIED)
            for i in lost
            if i not in again
        ]
    if progress:
        progress("chunk", len(files), len(files))
    return datasets, errors


def expand(
    datasets: list[Dataset], glossary: Glossary, cfg: Config, workers: int | None
) -> list[Dataset]:
    """The chunk datasets with acronyms expanded (`raytasks.expand_rows`, the glossary
    broadcast once), materialized: the dedupe and the passes read the final text."""
    import ray

    ref = ray.put(glossary)
    return [
        ds.map_batches(
            _expand_task,
            batch_format="numpy",
            fn_kwargs={"glossary": ref, "cfg": cfg},
            compute=_pool(workers),
        ).materialize()
        for ds in datasets
    ]


def _expand_task(batch: Batch, glossary: Any, cfg: Config) -> Columns:
    import ray

    return expand_rows(
        batch, ray.get(glossary) if isinstance(glossary, ray.ObjectRef) else glossary, cfg
    )


def _map_files(
    items: list[tuple[int, list[SourceFile]]],
    cfg: Config,
    cache_root: Path | None,
    cfg_key: str,
    workers: int | None,
) -> Dataset:
    import ray.data

    rows = [{"first": first, "files": encode_files(part)} for first, part in items]
    # `max_retries` goes as a Ray remote argument (deprecated, but the only way in Ray
    # 2.5x; `session` silences the notice): one retry for a lost worker, never Ray Data's
    # default of endless retries for a file that kills its worker every time
    ctx = ray.data.DataContext.get_current()
    saved = ctx.max_errored_blocks
    ctx.max_errored_blocks = -1  # here only: a dead task loses its rows; `process` redoes
    try:  # them (in the corpus passes, any failed task fails the run)
        ds = ray.data.from_items(rows, override_num_blocks=max(1, len(rows)))
        mapped = ds.map_batches(
            file_rows,
            batch_size=1,
            batch_format="numpy",
            fn_kwargs={"cfg": cfg, "cache_root": cache_root, "cfg_key": cfg_key},
            compute=_pool(workers),
            max_retries=1,
        )
        return mapped.materialize()
    finally:
        ctx.max_errored_blocks = saved


def _pool(workers: int | None) -> Any:
    import ray.data

    return ray.data.TaskPoolStrategy(size=workers)


def _files_done(ds: Dataset) -> set[int]:
    """The file ordinals that have rows in `ds` (their tasks finished)."""
    done: set[int] = set()
    for batch in ds.iter_batches(batch_format="pyarrow", batch_size=None):
        done.update(batch.column("file").to_pylist())
    return done
