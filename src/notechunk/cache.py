"""Incremental re-runs: per-file results cached under OUT/.cache, keyed by content + config.

A key is the hash of the notechunk version, the config (as TOML) and the file's bytes, so
a changed file, a changed rule or a new release is redone and nothing else is. Entries
are written atomically as files finish, so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from notechunk import __version__
from notechunk.chunk import Chunk, DiscardedRow, FileError, FileResult, SheetReport
from notechunk.config import Config, to_toml
from notechunk.merge import atomic_write_bytes, dumps

CACHE_DIR = ".cache"


def config_key(cfg: Config) -> str:
    return hashlib.sha256(f"{__version__}\n{to_toml(cfg)}".encode()).hexdigest()


def file_key(data: bytes, rel: str, cfg_key: str) -> str:
    h = hashlib.sha256(cfg_key.encode())
    h.update(rel.encode("utf-8", "surrogateescape") + b"\x00")
    h.update(data)
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class Cache:
    root: Path

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            data: dict[str, Any] = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data

    def put(self, key: str, value: dict[str, Any]) -> None:
        atomic_write_bytes(self._path(key), dumps(value).encode("utf-8"), durable=False)


def encode_result(result: FileResult) -> dict[str, Any]:
    return {
        "source": result.source,
        "chunks": [c.to_json() for c in result.chunks],
        "discarded": [d.to_json() for d in result.discarded],
        "reports": [r.to_json() for r in result.reports],
        "errors": [e.to_json() for e in result.errors],
    }


def decode_result(data: dict[str, Any]) -> FileResult:
    return FileResult(
        source=data["source"],
        chunks=tuple(Chunk.from_json(c) for c in data["chunks"]),
        discarded=tuple(DiscardedRow.from_json(d) for d in data["discarded"]),
        reports=tuple(SheetReport.from_json(r) for r in data["reports"]),
        errors=tuple(FileError.from_json(e) for e in data["errors"]),
    )
