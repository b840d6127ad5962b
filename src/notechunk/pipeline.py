"""run(): the whole job as the list of its passes (SPEC §1).

    discover -> process each file (read, cut into pieces, finish into chunks)
             -> spill each file's chunks to disk as they arrive -> dedupe (key hashes)
             -> retrieval scores (statistics, index, queries: passes over the spill)
             -> write every output as the scored chunks stream past (metrics counted on
                the way) -> publish OUT

Nothing holds the whole corpus: memory grows with a few bytes per chunk, not its text.

Per-file work is a pure function of (file bytes, config), run by an engine
(`engines.local`: a process pool, results in discovery order, so `--workers N` changes
nothing in the outputs) and cached per file (`io.cache`). Publishing (`io.publish`)
stages every output and moves it into OUT with a manifest. Progress goes through a
callback; the pipeline prints nothing. `gathered` makes the corpus these passes read
(`gathered.collect` is the same path without the files: `notechunk eval` measures exactly
what `run` ships).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from notechunk.chunk import Chunk, FileError
from notechunk.config import Config
from notechunk.corpus import Corpus, score
from notechunk.discover import discover
from notechunk.engines.local import Progress
from notechunk.enrich.glossary import build_glossary
from notechunk.errors import OutputError
from notechunk.gathered import Passes, cached_run_key, run_key, stream, user_glossary
from notechunk.io import publish
from notechunk.io.cache import CACHE_DIR, code_fingerprint, config_key
from notechunk.io.jsonio import atomic_write_bytes
from notechunk.io.origin import ORIGIN, origin_of, read_origin
from notechunk.io.parquet import require_pyarrow
from notechunk.qa.artifacts import stream_source_view, write_stream
from notechunk.qa.metrics import Metrics
from notechunk.qa.sources import file_reader
from notechunk.qa.tally import compute_metrics
from notechunk.spilled import scored


@dataclass(frozen=True, slots=True, kw_only=True)
class RunResult:
    """What a run did: file and chunk counts, the failed files, the metrics it published."""

    files: int
    markdown_chunks: int
    sheet_chunks: int
    errors: tuple[FileError, ...]
    metrics: Metrics

    @property
    def exit_code(self) -> int:
        return 1 if self.errors else 0


def run(
    src: Path,
    out: Path,
    cfg: Config,
    workers: int | None = 1,
    progress: Progress | None = None,
    use_cache: bool = True,
    ray_address: str | None = None,
    check: Callable[[tuple[FileError, ...]], None] | None = None,
) -> RunResult:
    """The whole job: SRC in, OUT written (SPEC §2). Returns counts and the file errors.

    When neither the inputs, the code nor the config changed, every file is in the cache
    and OUT still holds the previous run intact (every file matches its manifest hash),
    nothing is processed or rewritten. `cfg.engine` says where the work runs (`workers`
    processes here, or Ray: `workers` CPUs of a local instance, or the cluster at
    `ray_address`); the outputs are the same bytes. `check` sees the run's file errors
    before anything is written: what it raises ends the run with OUT as it was (the
    watcher keeps the previous good run while a file is half-saved). OUT/origin.json
    says where SRC is, for readers of the notes themselves (`io.origin`).
    """
    if cfg.output.parquet:
        require_pyarrow("[output] parquet = true")
    if cfg.engine == "ray":
        from notechunk.engines.ray import require_ray

        require_ray()
    user = user_glossary(cfg)  # read first: a bad glossary file fails before any work
    publish.check_out(out, src)
    with publish.exclusive(out):
        previous = publish.read_manifest(out)
        publish.remove_leftovers(out)
        exclude = [out, *publish.own_folders(out)]
        cache_root = out / CACHE_DIR if use_cache else None
        if cache_root is not None and previous.run_key is not None:
            found = discover(src, exclude=exclude)
            key = cached_run_key(found.files, found.errors, cfg, cache_root, user)
            if key == previous.run_key and publish.outputs_intact(out, previous):
                here = origin_of(src, (f.rel for f in found.files))
                if read_origin(out) != here:  # the same notes, moved: say where they are now
                    atomic_write_bytes(out / ORIGIN, here.to_bytes())
                metrics = Metrics.from_json(previous.metrics)
                return RunResult(
                    files=len(found.files),
                    markdown_chunks=metrics.source_type["markdown"].total,
                    sheet_chunks=metrics.source_type["spreadsheet"].total,
                    errors=tuple(sorted(found.errors, key=lambda e: (e.source, e.stage))),
                    metrics=metrics,
                )
        staging = publish.staging_dir(out)
        work = staging / ".work"
        try:
            with _passes(
                src, cfg, work, workers, ray_address, progress, cache_root, exclude, user
            ) as got:
                if check is not None:
                    _checked(check, got.errors, out)
                metrics = _write(got, staging, cfg, progress)
            if work.exists():
                shutil.rmtree(work)
        except OSError as exc:
            publish.remove_leftovers(out)
            raise OutputError(
                f"{out}: cannot write the outputs ({exc.strerror or type(exc).__name__}); "
                "earlier outputs kept"
            ) from None
        origin = origin_of(src, (rel for rel, _ in got.paths))
        publish.publish(
            staging, out, metrics.to_json(), got.run_key, beside={ORIGIN: origin.to_bytes()}
        )
        if progress:
            progress("qa", 1, 1)
    return RunResult(
        files=got.files,
        markdown_chunks=got.n_markdown,
        sheet_chunks=got.n_sheets,
        errors=got.errors,
        metrics=metrics,
    )


def _checked(
    check: Callable[[tuple[FileError, ...]], None], errors: tuple[FileError, ...], out: Path
) -> None:
    """Run the caller's check; whatever it raises leaves OUT as it was (staging removed)."""
    try:
        check(errors)
    except BaseException:
        publish.remove_leftovers(out)
        raise


def measure(corpus: Corpus, cfg: Config) -> tuple[Corpus, Metrics]:
    """The corpus passes after dedupe, in memory: retrieval scores, then the metrics."""
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


@contextmanager
def _passes(
    src: Path,
    cfg: Config,
    work: Path,
    workers: int | None,
    ray_address: str | None,
    progress: Progress | None,
    cache_root: Path | None,
    exclude: list[Path],
    user: Sequence[tuple[str, str]],
) -> Iterator[Passes]:
    """Discover, process each file, dedupe: on this machine (spilled under `work`), or on
    Ray (the chunk dataset in Ray's object store, for as long as the block runs)."""
    if cfg.engine != "ray":
        yield stream(
            src,
            cfg,
            work,
            workers=workers or 1,
            progress=progress,
            cache_root=cache_root,
            exclude=exclude,
            user=user,
        )
        return
    from notechunk.engines import ray as engine
    from notechunk.engines.raypasses import gather, glossary_stats_of

    found = discover(src, exclude=exclude)
    cfg_key = config_key(cfg, code_fingerprint())
    with engine.session(ray_address, workers):
        datasets, died = engine.process(
            found.files,
            cfg,
            cache_root=cache_root,
            cfg_key=cfg_key,
            workers=workers,
            progress=progress,
        )
        glossary = build_glossary(glossary_stats_of(datasets), user)
        if cfg.enrich.acronyms and glossary.entries:
            datasets = engine.expand(datasets, glossary, cfg, workers)
        got = gather(datasets, len(found.files), [*found.errors, *died])
        yield replace(
            got,
            run_key=run_key(cfg, cfg_key, got.keys, got.errors, user),
            paths=tuple((f.rel, f.path) for f in found.files),
            glossary=glossary,
        )


def _write(got: Passes, staging: Path, cfg: Config, progress: Progress | None) -> Metrics:
    """The retrieval scores, then every output written as the scored chunks stream past
    (metrics counted on the way)."""
    if progress:
        progress("qa", 0, 1)
    scores = got.scores()
    metrics = write_stream(
        staging,
        scored(got.chunks(), scores),
        surviving=got.surviving,
        discarded=got.discarded,
        reports=got.reports,
        errors=got.errors,
        cfg=cfg,
        glossary=got.glossary,
    )
    # the source view: the chunks read again, one file's page at a time; `where` keeps
    # the source of each chunk a duplicate points to (it comes before its duplicates)
    needed = set(got.original[got.original >= 0].tolist())
    where: dict[str, str] = {}

    def recorded() -> Iterator[Chunk]:
        for i, c in enumerate(scored(got.chunks(), scores)):
            if i in needed:
                where[c.id] = c.source
            yield c

    extras = Corpus(discarded=got.discarded, reports=got.reports, errors=got.errors)
    stream_source_view(staging, recorded(), extras, cfg, file_reader(dict(got.paths)), where)
    return metrics
