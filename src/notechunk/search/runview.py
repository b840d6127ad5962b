"""A finished run as search sees it: OUT's chunks.jsonl.gz, its key, and where caches live.

A run is finished when OUT/manifest.json is there (it is written last, SPEC §2). Every
index derived from the run is keyed on the sha256 of chunks.jsonl.gz, so a re-run that
changes a chunk invalidates it and an unchanged re-run (same bytes) keeps it. Line i of
chunks.jsonl.gz is document i of every index.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from notechunk.chunk import Chunk
from notechunk.errors import UsageError
from notechunk.io.publish import MANIFEST

SEARCH_DIR = ".search"
CHUNKS = "chunks.jsonl.gz"


@dataclass(frozen=True, slots=True)
class FinishedRun:
    """OUT of a finished run and the sha256 of its chunks.jsonl.gz."""

    out: Path
    key: str

    @property
    def chunks_path(self) -> Path:
        return self.out / CHUNKS

    @property
    def cache_dir(self) -> Path:
        return self.out / SEARCH_DIR


def open_run(out: Path) -> FinishedRun:
    """OUT as a finished run, or a UsageError that says what to do."""
    if not out.is_dir():
        raise UsageError(f"{out}: no such folder")
    if not (out / MANIFEST).is_file():
        raise UsageError(
            f"{out}: not a finished notechunk run (no {MANIFEST}); run `notechunk run` first"
        )
    path = out / CHUNKS
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return FinishedRun(out=out, key=digest)


def chunk_lines(run: FinishedRun) -> list[bytes]:
    """The JSON lines of chunks.jsonl.gz, one per chunk (blank lines dropped)."""
    try:
        raw = gzip.decompress(run.chunks_path.read_bytes())
    except (OSError, EOFError) as exc:
        raise UsageError(f"{run.chunks_path}: not a readable gzip file ({exc})") from None
    return [line for line in raw.split(b"\n") if line.strip()]


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


def drop_stale(run: FinishedRun, kind: str, keep: Path) -> None:
    """Remove the entries of `kind` that belong to earlier runs (best effort)."""
    for old in run.cache_dir.glob(f"{kind}-*"):
        if old != keep:
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink(missing_ok=True)
