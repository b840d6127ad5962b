"""run(): the whole job as the list of its passes (SPEC §1).

    check OUT -> discover -> skip if unchanged -> engine: per-file work, glossary pass,
    dedupe -> retrieval scores -> write every output as the scored chunks stream past
    (metrics counted on the way) -> publish OUT

Nothing holds the whole corpus: memory grows with a few bytes per chunk, not its text.
Per-file work is a pure function of (file bytes, config), scheduled by an engine
(`engines.local`: a process pool, results in discovery order, so `--workers N` changes
nothing in the outputs; `engines.ray`) and cached per file (`io.cache`). Publishing
(`io.publish`) stages every output and moves it into OUT with a manifest. Progress goes
through a callback; nothing here prints. `collect` is the same path without the files
(`notechunk eval` measures exactly what `run` ships).

Named `job`, not `run`: a submodule `notechunk.run` would shadow the API function
`notechunk.run` once imported.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from notechunk.chunk import Chunk, FileError
from notechunk.config import Config
from notechunk.corpus import Corpus, Gathered
from notechunk.corpus.blockrefs import link_block_refs
from notechunk.corpus.glossary import user_glossary
from notechunk.corpus.scores import scored
from notechunk.discover import Discovery, SourceFile, discover
from notechunk.engines import Progress
from notechunk.engines import local as local_engine
from notechunk.errors import InputError, OutputError, UsageError
from notechunk.io import publish
from notechunk.io.cache import CACHE_DIR, Cache, code_fingerprint, config_key
from notechunk.io.jsonio import atomic_write_bytes, dumps
from notechunk.io.origin import ORIGIN, origin_of, read_origin
from notechunk.io.parquet import require_pyarrow
from notechunk.perfile import markdown_limit, read_input
from notechunk.qa.artifacts import ViewJob, write_stream
from notechunk.qa.metrics import Metrics
from notechunk.qa.source_pages import Reuse, previous_texts

QA_STEPS = ("scores", "outputs", "sources", "publish")
"""What follows the per-file work, each step reported done as `progress("qa", k, 4)`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunResult:
    """What a run did: file and chunk counts, the failed files, the metrics it published."""

    files: int
    markdown_chunks: int
    sheet_chunks: int
    errors: tuple[FileError, ...]
    metrics: Metrics
    notes: tuple[str, ...] = ()  # one line each for a person: a damaged cache entry redone

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
        publish.check_entries(out)  # OUT is ours alone: a planted link is exit 2, naming it
        previous = publish.read_manifest(out)
        publish.remove_leftovers(out)
        found = discover(src, exclude=[out, *publish.own_folders(out)])
        found = link_block_refs(found, markdown_limit(cfg))
        cfg_key = config_key(cfg, code_fingerprint())
        cache_root = out / CACHE_DIR if use_cache else None
        if cache_root is not None and previous.run_key is not None:
            key = cached_run_key(found, cfg, cfg_key, cache_root, user)
            if key == previous.run_key and publish.outputs_intact(out, previous):
                here = origin_of(src, (f.rel for f in found.files))
                if read_origin(out) != here:  # the same notes, moved: say where they are now
                    # into the current run's folder: OUT/origin.json is its link there
                    atomic_write_bytes(publish.current_dir(out) / ORIGIN, here.to_bytes())
                metrics = Metrics.from_json(previous.metrics)
                return RunResult(
                    files=len(found.files),
                    markdown_chunks=metrics.source_type["markdown"].total,
                    sheet_chunks=metrics.source_type["spreadsheet"].total,
                    errors=_sorted(found.errors),
                    metrics=metrics,
                )
        staging = publish.staging_dir(out)
        work = staging / ".work"
        try:
            with _engine(
                found, cfg, work, cfg_key, user, workers, ray_address, progress, cache_root
            ) as got:
                if check is not None:
                    _checked(check, got.errors, out)
                reuse = _previous_texts(out, previous)
                metrics = _write(got, staging, cfg, progress, found.skipped, reuse)
                key = run_key(cfg, cfg_key, got.keys, got.errors, user, found.skipped)
            if work.exists():
                shutil.rmtree(work)
        except OSError as exc:
            publish.remove_leftovers(out)
            raise OutputError(
                f"{out}: cannot write the outputs ({exc.strerror or type(exc).__name__}); "
                "earlier outputs kept"
            ) from None
        except KeyboardInterrupt:  # the previous run stays OUT's run; its staging goes
            publish.remove_leftovers(out)
            raise
        origin = origin_of(src, (f.rel for f in found.files))
        publish.publish(staging, out, metrics.to_json(), key, beside={ORIGIN: origin.to_bytes()})
        if progress:
            progress("qa", len(QA_STEPS), len(QA_STEPS))
    return RunResult(
        files=got.files,
        markdown_chunks=got.n_markdown,
        sheet_chunks=got.n_sheets,
        errors=got.errors,
        metrics=metrics,
        notes=got.notes,
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


def _engine(
    found: Discovery,
    cfg: Config,
    work: Path,
    cfg_key: str,
    user: Sequence[tuple[str, str]],
    workers: int | None,
    ray_address: str | None,
    progress: Progress | None,
    cache_root: Path | None,
) -> AbstractContextManager[Gathered]:
    """The engine's gathered corpus: on this machine (spilled under `work`), or on Ray (the
    chunk dataset in Ray's object store, for as long as the block runs)."""
    if cfg.engine == "ray":
        from notechunk.engines import ray as ray_engine

        return ray_engine.gather(
            found.files,
            found.errors,
            cfg,
            cfg_key=cfg_key,
            user=user,
            workers=workers,
            address=ray_address,
            cache_root=cache_root,
            progress=progress,
        )
    return local_engine.gather(
        found.files,
        found.errors,
        cfg,
        work=work,
        cfg_key=cfg_key,
        user=user,
        workers=workers or 1,
        cache_root=cache_root,
        progress=progress,
    )


def _write(
    got: Gathered,
    staging: Path,
    cfg: Config,
    progress: Progress | None,
    skipped: Sequence[str] = (),
    reuse: Reuse | None = None,
) -> Metrics:
    """The retrieval scores, then every output written as the scored chunks stream past
    (metrics counted on the way) and the source view fed by the same stream, or reading
    it again on its own beside this pass when the engine has idle workers
    (`Gathered.aside`). `skipped`: the files discovery passed over, named in the summary;
    `reuse`: the previous run's source texts, linked where unchanged."""

    def step(done: int) -> None:
        if progress:
            progress("qa", done, len(QA_STEPS))

    step(0)
    scores = got.scores()
    step(1)
    extras = Corpus(
        discarded=got.discarded, reports=got.reports, errors=got.errors, accounts=got.accounts
    )
    view = ViewJob(
        folder=staging,
        chunks=got.chunks,
        scores=scores,
        original=got.original,
        extras=extras,
        cfg=cfg,
        paths=got.paths,
        reuse=reuse,
    )
    stream = scored(got.chunks(), scores)
    if got.aside is not None:  # beside the other outputs, on the engine's idle workers
        wait = got.aside(view)
    else:  # else fed by the same stream
        feed, wait = view.opened()
        stream = _feeding(stream, feed)
    metrics = write_stream(
        staging,
        stream,
        surviving=got.surviving,
        discarded=got.discarded,
        reports=got.reports,
        errors=got.errors,
        cfg=cfg,
        accounts=got.accounts,
        glossary=got.glossary,
        skipped=skipped,
    )
    step(2)
    wait()
    step(3)
    return metrics


def _feeding(chunks: Iterator[Chunk], feed: Callable[[Chunk], None]) -> Iterator[Chunk]:
    for c in chunks:
        feed(c)
        yield c


def _previous_texts(out: Path, previous: publish.Manifest) -> Reuse:
    """The source texts OUT's current run published (none when OUT has no run)."""
    try:
        return previous_texts(publish.current_dir(out), previous.files)
    except UsageError:
        return {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Collected:
    """A corpus chunked and de-duplicated (not scored), with the run key of its inputs."""

    files: int
    corpus: Corpus
    run_key: str | None
    paths: tuple[tuple[str, Path], ...] = ()  # (relative, absolute) of each file read


def collect(
    src: Path,
    cfg: Config,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    cache_root: Path | None = None,
    exclude: Sequence[Path] = (),
) -> Collected:
    """What `run` would ship, held in memory as one `Corpus` (the local engine's path,
    spilled to a temporary folder): `notechunk eval` measures exactly that."""
    user = user_glossary(cfg)
    found = link_block_refs(discover(src, exclude=exclude), markdown_limit(cfg))
    cfg_key = config_key(cfg, code_fingerprint())
    with tempfile.TemporaryDirectory(prefix="notechunk-") as tmp:
        with local_engine.gather(
            found.files,
            found.errors,
            cfg,
            work=Path(tmp),
            cfg_key=cfg_key,
            user=user,
            workers=workers,
            cache_root=cache_root,
            progress=progress,
        ) as got:
            corpus = Corpus(
                chunks=tuple(got.chunks()),
                discarded=got.discarded,
                reports=got.reports,
                errors=got.errors,
                glossary=got.glossary,
                accounts=got.accounts,
            )
            key = run_key(cfg, cfg_key, got.keys, got.errors, user, found.skipped)
    return Collected(files=got.files, corpus=corpus, run_key=key, paths=got.paths)


def cached_run_key(
    found: Discovery,
    cfg: Config,
    cfg_key: str,
    cache_root: Path,
    user: Sequence[tuple[str, str]],
) -> str | None:
    """The run key a run would get if every file is in the cache (an entry is only ever
    written for a file without errors), else None: found without processing anything."""
    cache = Cache(cache_root)
    keys: list[tuple[str, str | None]] = []
    for f in found.files:
        key = _file_key(f, cfg, cfg_key)
        if key is None or not cache.has(key):
            return None
        keys.append((f.rel, key))
    return run_key(cfg, cfg_key, keys, _sorted(found.errors), user, found.skipped)


def _file_key(f: SourceFile, cfg: Config, cfg_key: str) -> str | None:
    try:
        return read_input(f, cfg, cfg_key)[1]
    except InputError:
        return None


def run_key(
    cfg: Config,
    cfg_key: str,
    keys: Sequence[tuple[str, str | None]],
    errors: Sequence[FileError],
    user: Sequence[tuple[str, str]],
    skipped: Sequence[str] = (),
) -> str | None:
    """Identity of a run's inputs (file contents, names, code, config, glossary file,
    output formats, the names of the files skipped: the summary lists them); None if a
    file was unread (its content is unknown, so the run cannot be called unchanged)."""
    if any(key is None for _, key in keys):
        return None
    formats = f"jsonl={cfg.output.jsonl} parquet={cfg.output.parquet}"
    h = hashlib.sha256(f"{cfg_key}\x00{formats}\x00{dumps([list(p) for p in user])}".encode())
    for source, key in keys:
        h.update(f"{source}\x00{key}\x00".encode("utf-8", "surrogateescape"))
    h.update(dumps([e.to_json() for e in errors]).encode())
    if skipped:  # (none: the key a run had before files were counted as skipped)
        h.update(dumps(list(skipped)).encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _sorted(errors: Sequence[FileError]) -> tuple[FileError, ...]:
    return tuple(sorted(errors, key=lambda e: (e.source, e.stage)))
