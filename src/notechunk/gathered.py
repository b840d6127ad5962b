"""The corpus gathered for the corpus passes: discovered, processed per file, deduped.

`stream` is the local engine's form (each file's chunks spilled under a work folder as
they arrive, `Streamed` reads them back in output order); `collect` is the same held in
memory (`notechunk eval` measures exactly what `run` ships). `Passes` is what the write
pass reads from either engine, and `run_key`/`cached_run_key` name a run's inputs so an
unchanged run can be skipped. Apart from `pipeline` so that `run()` stays the list of its
passes and eval can gather a corpus without the publishing half.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, DiscardedRow, FileError, FileResult, SheetReport
from notechunk.config import Config
from notechunk.corpus import Corpus
from notechunk.discover import SourceFile, discover
from notechunk.engines.local import Progress, process_files
from notechunk.enrich.glossary import Glossary, GlossaryStats, parse_glossary
from notechunk.errors import ConfigError, InputError
from notechunk.io.cache import Cache, code_fingerprint, config_key, file_key
from notechunk.io.jsonio import dumps
from notechunk.qa.termblock import TermBlock
from notechunk.spilled import SpilledCorpus, deduped, spill, spilled_scores
from notechunk.textio import decode_text


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

    def results() -> Iterator[tuple[FileResult, TermBlock | None, GlossaryStats]]:
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
        run_key=run_key(cfg, cfg_key, keys, spilled.errors, user),
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


def cached_run_key(
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
    return run_key(cfg, cfg_key, keys, sorted(errors, key=lambda e: (e.source, e.stage)), user)


def run_key(
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
