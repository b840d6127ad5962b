"""A finished run as search sees it: OUT's chunks.jsonl.gz, its key, and where caches live.

A run is finished when OUT's current run has its manifest and its chunks.jsonl.gz is the
one the manifest records (size and sha256): a stale or mixed OUT is refused, never
searched. Every index derived from the run is keyed on the sha256 of chunks.jsonl.gz, so
a re-run that changes a chunk invalidates it and an unchanged re-run (same bytes) keeps
it. Line i of chunks.jsonl.gz is document i of every index. Indexes live in OUT/.search,
which must be a real folder of OUT (`io.outdir`).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from notechunk._version import __version__
from notechunk.chunk import Chunk
from notechunk.errors import UsageError
from notechunk.io.outdir import check_dir, kind, own_dir, read_own
from notechunk.io.publish import MANIFEST, SEARCH_DIR, current_dir, read_manifest

CHUNKS = "chunks.jsonl.gz"


@dataclass(frozen=True, slots=True)
class FinishedRun:
    """OUT of a finished run, the folder holding its files, and the sha256 of its
    chunks.jsonl.gz."""

    out: Path
    key: str
    run: Path | None = None
    lines: tuple[bytes, ...] = ()  # the JSON line of each chunk, in file order

    @property
    def n_chunks(self) -> int:
        return len(self.lines)

    @property
    def chunks_path(self) -> Path:
        return (self.run or self.out) / CHUNKS

    @property
    def cache_dir(self) -> Path:
        return self.out / SEARCH_DIR


def open_run(out: Path) -> FinishedRun:
    """OUT as a finished run, or a UsageError that says what to do."""
    if not out.is_dir():
        raise UsageError(f"{out}: no such folder")
    run = current_dir(out)
    manifest = read_manifest(out)
    if not manifest.files:
        raise UsageError(
            f"{out}: not a finished notechunk run (no {MANIFEST}); run `notechunk run` first"
        )
    path = run / CHUNKS
    try:
        data = read_own(path)
    except OSError as exc:
        raise UsageError(f"{out / CHUNKS}: cannot read ({exc.strerror or exc})") from None
    digest = hashlib.sha256(data).hexdigest()
    if manifest.files.get(CHUNKS) != (len(data), digest):
        raise UsageError(
            f"{out}: not one complete notechunk run ({CHUNKS} is not the one of its "
            f"{MANIFEST}); run `notechunk run` again"
        )
    check_dir(out / SEARCH_DIR)  # a link there would send the indexes elsewhere: refused
    try:
        raw = gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise UsageError(f"{out / CHUNKS}: not a readable gzip file ({exc})") from None
    lines = tuple(line for line in raw.split(b"\n") if line.strip())
    return FinishedRun(out=out, key=digest, run=run, lines=lines)


def chunk_lines(run: FinishedRun) -> list[bytes]:
    """The JSON lines of chunks.jsonl.gz, one per chunk (blank lines dropped)."""
    return list(run.lines)


def parse(line: bytes) -> Chunk:
    return Chunk.from_json(json.loads(line))


def embed_texts(lines: Sequence[bytes]) -> list[str]:
    """What every retriever indexes: each chunk's `embed_text` (its text if empty)."""
    out: list[str] = []
    for line in lines:
        data = json.loads(line)
        out.append(str(data.get("embed_text") or data.get("text") or ""))
    return out


def cache_path(run: FinishedRun, kind: str, suffix: str = "") -> Path:
    """OUT/.search/<kind>-<key prefix><suffix>: one cache entry of this run."""
    return run.cache_dir / f"{kind}-{run.key[:16]}{suffix}"


def drop_stale(run: FinishedRun, prefix: str, keep: Path) -> None:
    """Remove the entries `prefix-*` that belong to earlier runs (best effort; a link is
    removed as a link, never followed)."""
    if kind(run.cache_dir) != "dir":
        return
    for old in run.cache_dir.glob(f"{prefix}-*"):
        if old == keep:
            continue
        if kind(old) == "dir":
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink(missing_ok=True)


SEAL = "seal.json"
"""Beside an index's files: the version that wrote them, the run and each file's sha256."""


@dataclass(frozen=True, slots=True)
class Stored:
    """How a search got an index: `loaded` from OUT/.search, or built now and `saved`
    there or not (`note` says why not, or why a stored one was not believed)."""

    state: str  # "loaded", "saved" or "unsaved"
    note: str | None = None


def save_entry(run: FinishedRun, folder: Path, write: Callable[[Path], None]) -> Stored:
    """Write an index entry: `write(tmp)` fills a temporary folder, sealed with each file's
    sha256, the run key and notechunk's version, then renamed to `folder` (a reader sees a
    whole entry or none). An OUT that cannot be written still gets its answer."""
    tmp = folder.with_name(f".tmp-{folder.name}-{os.getpid()}")
    try:
        own_dir(run.cache_dir)
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        write(tmp)
        files = {p.name: _sha256(p) for p in sorted(tmp.iterdir())}
        seal = {"chunks_sha256": run.key, "files": files, "notechunk": __version__}
        (tmp / SEAL).write_text(json.dumps(seal, sort_keys=True), encoding="utf-8")
        if kind(folder) == "dir":
            shutil.rmtree(folder, ignore_errors=True)
        elif kind(folder) != "absent":
            folder.unlink()
        os.replace(tmp, folder)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)  # read-only OUT, or a concurrent search won
        why = exc.strerror or type(exc).__name__
        return Stored("unsaved", f"{run.cache_dir}: the index was not saved ({why})")
    drop_stale(run, folder.name.split("-", 1)[0], keep=folder)
    return Stored("saved")


def unsealed(run: FinishedRun, folder: Path) -> str | None:
    """Why the stored entry `folder` cannot be believed (None: it can): absent, written by
    another version or for another run, or a file that is not what was sealed."""
    if kind(folder) != "dir":
        return "absent"
    try:
        seal = json.loads(read_own(folder / SEAL))
        files = seal["files"]
        if seal.get("notechunk") != __version__ or seal.get("chunks_sha256") != run.key:
            return "stale"
        if not isinstance(files, dict) or not files:
            return "no checksums"
        for name, digest in files.items():
            if "/" in name or _sha256(folder / name) != digest:
                return f"{name} does not match its checksum"
    except (OSError, ValueError, KeyError, TypeError, UsageError):
        return "no readable seal"
    return None


def _sha256(path: Path) -> str:
    return hashlib.sha256(read_own(path)).hexdigest()
