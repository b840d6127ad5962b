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
callback; the pipeline prints nothing. `collect` is the same path without the files:
`notechunk eval` measures exactly what `run` ships.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, DiscardedRow, FileError, FileResult, SheetReport
from notechunk.config import Config
from notechunk.corpus import Corpus, score
from notechunk.discover import SourceFile, discover
from notechunk.engines.local import Progress, process_files
from notechunk.enrich.glossary import Glossary, GlossaryStats, build_glossary, parse_glossary
from notechunk.errors import ConfigError, InputError, OutputError
from notechunk.io import publish
from notechunk.io.cache import CACHE_DIR, Cache, code_fingerprint, config_key, file_key
from notechunk.io.jsonio import dumps
from notechunk.io.parquet import require_pyarrow
from notechunk.qa.artifacts import stream_source_view, write_stream
from notechunk.qa.metrics import Metrics, compute_metrics
from notechunk.qa.sources import file_reader
from notechunk.qa.termblock import TermBlock
from notechunk.spilled import SpilledCorpus, deduped, scored, spill, spilled_scores
from notechunk.textio import decode_text


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


@dataclass(frozen=True, slots=True, kw_only=True)
class Collected:
    """A corpus chunked and de-duplicated (not scored), with the run key of its inputs."""

    files: int
    corpus: Corpus
    run_key: str | None
    paths: tuple[tuple[str, Path], ...] = ()  # (relative, absolute) of each file read


@dataclass(frozen=True, slots=True, kw_only=True)
class Streamed:
    """The streaming form of `Collected`: the corpus spilled to disk (`chunks()` reads it
    back in output order, duplicates marked), with the run key of its inputs."""

    files: int
    spilled: SpilledCorpus
    run_key: str | None
    paths: tuple[tuple[str, Path], ...] = ()  # (relative, absolute) of each file read

    def chunks(self) -> Iterator[Chunk]:
        return deduped(self.spilled)

    def scores(self) -> NDArray[np.float64]:
        """Every chunk's retrieval score, unrounded (the passes over the spill)."""
        return spilled_scores(self.spilled)

    @property
    def surviving(self) -> int:
        return self.spilled.surviving

    @property
    def n_markdown(self) -> int:
        return self.spilled.n_markdown

    @property
    def n_sheets(self) -> int:
        return self.spilled.n_sheets

    @property
    def discarded(self) -> tuple[DiscardedRow, ...]:
        return self.spilled.discarded

    @property
    def reports(self) -> tuple[SheetReport, ...]:
        return self.spilled.reports

    @property
    def errors(self) -> tuple[FileError, ...]:
        return self.spilled.errors

    @property
    def glossary(self) -> Glossary | None:
        return self.spilled.glossary

    @property
    def original(self) -> NDArray[np.int64]:
        return self.spilled.original


class Passes(Protocol):
    """A deduped corpus as the write pass reads it, whichever engine made it
    (`Streamed`: the local engine's spill; `engines.raypasses.RayCorpus`: Ray)."""

    @property
    def files(self) -> int: ...
    @property
    def run_key(self) -> str | None: ...
    @property
    def surviving(self) -> int: ...
    @property
    def n_markdown(self) -> int: ...
    @property
    def n_sheets(self) -> int: ...
    @property
    def discarded(self) -> tuple[DiscardedRow, ...]: ...
    @property
    def reports(self) -> tuple[SheetReport, ...]: ...
    @property
    def errors(self) -> tuple[FileError, ...]: ...
    @property
    def paths(self) -> tuple[tuple[str, Path], ...]: ...
    @property
    def glossary(self) -> Glossary | None: ...
    @property
    def original(self) -> NDArray[np.int64]: ...
    def chunks(self) -> Iterator[Chunk]: ...
    def scores(self) -> NDArray[np.float64]: ...


def stream(
    src: Path,
    cfg: Config,
    work: Path,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    cache_root: Path | None = None,
    exclude: list[Path] | None = None,
    user: Sequence[tuple[str, str]] | None = None,
) -> Streamed:
    """Discover, process each file, spill the results under `work` as they arrive, dedupe:
    every chunk `run` would ship, with memory that does not grow with the corpus.
    `user`: the glossary file's entries (read here from `enrich.glossary` when None)."""
    if user is None:
        user = user_glossary(cfg)  # read first: a bad glossary file fails before any work
    found = discover(src, exclude=exclude or [])
    cfg_key = config_key(cfg, code_fingerprint())
    keys: list[tuple[str, str | None]] = []

    def results() -> Iterator[tuple[FileResult, TermBlock, GlossaryStats]]:
        for o, block, stats in process_files(
            found.files,
            cfg,
            workers=workers,
            cache_root=cache_root,
            cfg_key=cfg_key,
            progress=progress,
        ):
            keys.append((o.result.source, o.key))
            yield o.result, block, stats

    spilled = spill(results(), work, cfg, found.errors, user)
    return Streamed(
        files=len(found.files),
        spilled=spilled,
        run_key=_run_key(cfg, cfg_key, keys, spilled.errors, user),
        paths=tuple((f.rel, f.path) for f in found.files),
    )


def collect(
    src: Path,
    cfg: Config,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    cache_root: Path | None = None,
    exclude: list[Path] | None = None,
) -> Collected:
    """`stream` held in memory: every chunk `run` would ship, as one `Corpus`."""
    with tempfile.TemporaryDirectory(prefix="notechunk-") as tmp:
        got = stream(
            src,
            cfg,
            Path(tmp),
            workers=workers,
            progress=progress,
            cache_root=cache_root,
            exclude=exclude,
        )
        sc = got.spilled
        corpus = Corpus(
            chunks=tuple(got.chunks()),
            discarded=sc.discarded,
            reports=sc.reports,
            errors=sc.errors,
            glossary=sc.glossary,
        )
    return Collected(files=got.files, corpus=corpus, run_key=got.run_key, paths=got.paths)


def user_glossary(cfg: Config) -> tuple[tuple[str, str], ...]:
    """The `enrich.glossary` file's entries (none when unset); ConfigError when unreadable."""
    path = cfg.enrich.glossary
    if not path:
        return ()
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the glossary ({exc.strerror or exc})") from None
    try:
        text = decode_text(data, path).text
    except InputError as exc:
        raise ConfigError(f"{path}: {exc.reason}") from None
    return parse_glossary(text, path)


def run(
    src: Path,
    out: Path,
    cfg: Config,
    workers: int | None = 1,
    progress: Progress | None = None,
    use_cache: bool = True,
    ray_address: str | None = None,
) -> RunResult:
    """The whole job: SRC in, OUT written (SPEC §2). Returns counts and the file errors.

    When neither the inputs, the code nor the config changed, every file is in the cache
    and OUT still holds the previous run intact (every file matches its manifest hash),
    nothing is processed or rewritten. `cfg.engine` says where the work runs (`workers`
    processes here, or Ray: `workers` CPUs of a local instance, or the cluster at
    `ray_address`); the outputs are the same bytes.
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
            key = _cached_run_key(found.files, found.errors, cfg, cache_root, user)
            if key == previous.run_key and publish.outputs_intact(out, previous):
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
                metrics = _write(got, staging, cfg, progress)
            if work.exists():
                shutil.rmtree(work)
        except OSError as exc:
            publish.remove_leftovers(out)
            raise OutputError(
                f"{out}: cannot write the outputs ({exc.strerror or type(exc).__name__}); "
                "earlier outputs kept"
            ) from None
        publish.publish(staging, out, metrics.to_json(), got.run_key)
        if progress:
            progress("qa", 1, 1)
    return RunResult(
        files=got.files,
        markdown_chunks=got.n_markdown,
        sheet_chunks=got.n_sheets,
        errors=got.errors,
        metrics=metrics,
    )


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
            run_key=_run_key(cfg, cfg_key, got.keys, got.errors, user),
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


def _cached_run_key(
    files: Sequence[SourceFile],
    errors: Sequence[FileError],
    cfg: Config,
    cache_root: Path,
    user: Sequence[tuple[str, str]],
) -> str | None:
    """The run key a run would get if every file is in the cache (an entry is only ever
    written for a file without errors), else None: found without processing anything."""
    cfg_key = config_key(cfg, code_fingerprint())
    cache = Cache(cache_root)
    keys: list[tuple[str, str | None]] = []
    for f in files:
        try:
            key = file_key(f.path.read_bytes(), f.rel, cfg_key)
        except OSError:
            return None
        if not cache.has(key):
            return None
        keys.append((f.rel, key))
    return _run_key(cfg, cfg_key, keys, sorted(errors, key=lambda e: (e.source, e.stage)), user)


def _run_key(
    cfg: Config,
    cfg_key: str,
    keys: Sequence[tuple[str, str | None]],
    errors: Sequence[FileError],
    user: Sequence[tuple[str, str]],
) -> str | None:
    """Identity of a run's inputs (file contents, names, code, config, glossary file,
    output formats);
    None if a file was unread (its content is unknown, so the run cannot be called
    unchanged)."""
    if any(key is None for _, key in keys):
        return None
    formats = f"jsonl={cfg.output.jsonl} parquet={cfg.output.parquet}"
    h = hashlib.sha256(f"{cfg_key}\x00{formats}\x00{dumps([list(p) for p in user])}".encode())
    for source, key in keys:
        h.update(f"{source}\x00{key}\x00".encode("utf-8", "surrogateescape"))
    h.update(dumps([e.to_json() for e in errors]).encode())
    return h.hexdigest()
