"""run(): the whole job as the list of its passes (SPEC §1).

    discover -> process each file (read, cut into pieces, finish into chunks)
             -> corpus passes (dedupe, retrieval scores, metrics) -> publish OUT

Per-file work is a pure function of (file bytes, config), run by an engine
(`engines.local`: a process pool, results in discovery order, so `--workers N` changes
nothing in the outputs) and cached per file (`io.cache`). Publishing (`io.publish`)
stages every output and moves it into OUT with a manifest. Progress goes through a
callback; the pipeline prints nothing. `collect` is the same path without the files:
`notechunk eval` measures exactly what `run` ships.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from notechunk.chunk import FileError
from notechunk.config import Config
from notechunk.corpus import Corpus, dedupe, expand, gather, score
from notechunk.discover import discover
from notechunk.engines.local import Progress, process_files
from notechunk.enrich.glossary import parse_glossary
from notechunk.errors import ConfigError, InputError, OutputError
from notechunk.io import publish
from notechunk.io.cache import CACHE_DIR, code_fingerprint, config_key
from notechunk.io.jsonio import dumps
from notechunk.process import FileOutcome
from notechunk.qa.artifacts import write_outputs
from notechunk.qa.metrics import Metrics, compute_metrics
from notechunk.qa.sources import file_reader
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


def collect(
    src: Path,
    cfg: Config,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    cache_root: Path | None = None,
    exclude: list[Path] | None = None,
) -> Collected:
    """Discover, process each file, gather and dedupe: every chunk `run` would ship."""
    user = user_glossary(cfg)  # read first: a bad glossary file fails before any work
    found = discover(src, exclude=exclude or [])
    cfg_key = config_key(cfg, code_fingerprint())
    outcomes = process_files(
        found.files, cfg, workers=workers, cache_root=cache_root, cfg_key=cfg_key, progress=progress
    )
    corpus = gather((o.result for o in outcomes), found.errors)
    corpus = expand(corpus, (o.result for o in outcomes), user, apply=cfg.enrich.acronyms)
    corpus = replace(corpus, chunks=tuple(dedupe(corpus.chunks, cfg.dedupe)))
    return Collected(
        files=len(found.files),
        corpus=corpus,
        run_key=_run_key(cfg_key + dumps([list(p) for p in user]), outcomes, corpus.errors),
        paths=tuple((f.rel, f.path) for f in found.files),
    )


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
    workers: int = 1,
    progress: Progress | None = None,
    use_cache: bool = True,
) -> RunResult:
    """The whole job: SRC in, OUT written (SPEC §2). Returns counts and the file errors.

    When neither the inputs, the code nor the config changed and OUT still holds the
    previous run intact (every file matches its manifest hash), nothing is rewritten.
    """
    publish.check_out(out, src)
    with publish.exclusive(out):
        got = collect(
            src,
            cfg,
            workers=workers,
            progress=progress,
            cache_root=out / CACHE_DIR if use_cache else None,
            exclude=[out, *publish.own_folders(out)],
        )
        previous = publish.read_manifest(out)
        publish.remove_leftovers(out)
        unchanged = got.run_key is not None and previous.run_key == got.run_key
        if use_cache and unchanged and publish.outputs_intact(out, previous):
            metrics = Metrics.from_json(previous.metrics)
        else:
            metrics = _score_and_publish(got, out, cfg, progress)
    corpus = got.corpus
    return RunResult(
        files=got.files,
        markdown_chunks=len(corpus.markdown),
        sheet_chunks=len(corpus.sheets),
        errors=corpus.errors,
        metrics=metrics,
    )


def measure(corpus: Corpus, cfg: Config) -> tuple[Corpus, Metrics]:
    """The corpus passes after dedupe: retrieval scores, then the metrics."""
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


def _score_and_publish(
    got: Collected, out: Path, cfg: Config, progress: Progress | None
) -> Metrics:
    if progress:
        progress("qa", 0, 1)
    corpus, metrics = measure(got.corpus, cfg)
    staging = publish.staging_dir(out)
    try:
        write_outputs(staging, corpus, metrics, cfg, file_reader(dict(got.paths)))
    except OSError as exc:
        publish.remove_leftovers(out)
        raise OutputError(
            f"{out}: cannot write the outputs ({exc.strerror or type(exc).__name__}); "
            "earlier outputs kept"
        ) from None
    publish.publish(staging, out, metrics.to_json(), got.run_key)
    if progress:
        progress("qa", 1, 1)
    return metrics


def _run_key(
    cfg_key: str, outcomes: list[FileOutcome], errors: tuple[FileError, ...]
) -> str | None:
    """Identity of a run's inputs (file contents, names, code, config); None if a file was
    unread (its content is unknown, so the run cannot be called unchanged)."""
    if any(o.key is None for o in outcomes):
        return None
    h = hashlib.sha256(cfg_key.encode())
    for o in outcomes:
        h.update(f"{o.result.source}\x00{o.key}\x00".encode("utf-8", "surrogateescape"))
    h.update(dumps([e.to_json() for e in errors]).encode())
    return h.hexdigest()
