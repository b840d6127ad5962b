"""Incremental re-runs: per-file results cached under OUT/.cache, keyed by content + code + config.

A file's key hashes the run key (notechunk's version, a fingerprint of the package's own
source files, the config as TOML), the file's relative path and its bytes. Editing a rule
changes the fingerprint, so the next run redoes every file; a changed file is redone and
nothing else is. Entries are written as files finish, so an interrupted run resumes.

An entry is JSON lines: the file's source, discarded rows, sheet reports, errors and chunk
count, then one chunk a line (msgspec, typed both ways), written and read in a stream so a
million-row sheet's entry is never one document in memory.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from notechunk._version import __version__
from notechunk.chunk import Chunk, DiscardedRow, FileError, FileResult, SheetReport
from notechunk.config import Config, OutputConfig, to_toml
from notechunk.io.jsonio import atomic_open, dumps

CACHE_DIR = ".cache"
_WRITE_BATCH = 1_024  # chunk lines encoded per write
_PACKAGE = Path(__file__).resolve().parents[1]


def code_fingerprint(package: Path = _PACKAGE) -> str:
    """sha256 over every .py file of the package (relative path and bytes, sorted)."""
    h = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode() + b"\x00")
        h.update(path.read_bytes())
        h.update(b"\x00")
    return h.hexdigest()


def config_key(cfg: Config, fingerprint: str) -> str:
    """What every cached result depends on besides its file: version, code and config
    (less the engine and the output formats, which change no file's result)."""
    cfg = replace(cfg, engine="local", output=OutputConfig())
    return hashlib.sha256(f"{__version__}\n{fingerprint}\n{to_toml(cfg)}".encode()).hexdigest()


def file_key(data: bytes, rel: str, cfg_key: str) -> str:
    h = hashlib.sha256(cfg_key.encode())
    h.update(rel.encode("utf-8", "surrogateescape") + b"\x00")
    h.update(data)
    return h.hexdigest()


def file_key_of(fh: BinaryIO, rel: str, cfg_key: str) -> str:
    """`file_key` of a file read block by block (a sheet is never read whole for it)."""
    h = hashlib.sha256(cfg_key.encode())
    h.update(rel.encode("utf-8", "surrogateescape") + b"\x00")
    while block := fh.read(1 << 20):
        h.update(block)
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class Cache:
    root: Path

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def has(self, key: str) -> bool:
        """Whether an entry for `key` exists (not whether it parses: `get` checks that)."""
        return self._path(key).is_file()

    def get(self, key: str) -> FileResult | None:
        """The cached result, or None when absent, torn or of a foreign shape."""
        try:
            with open(self._path(key), "rb") as fh:
                head = json.loads(fh.readline())
                dec = msgspec.json.Decoder(Chunk)
                chunks = tuple(dec.decode(line) for line in fh)
            if not isinstance(head, dict) or head.get("n") != len(chunks):
                return None
            return replace(decode_result({**head, "chunks": []}), chunks=chunks)
        except (OSError, ValueError, KeyError, TypeError, AttributeError, msgspec.MsgspecError):
            return None

    def put(self, key: str, result: FileResult) -> None:
        """Store a result; a cache that cannot be written (disk full) only costs speed."""
        head = encode_result(replace(result, chunks=()))
        del head["chunks"]
        head["n"] = len(result.chunks)
        enc = msgspec.json.Encoder()
        try:
            with atomic_open(self._path(key), durable=False) as fh:
                fh.write(dumps(head).encode() + b"\n")
                for lo in range(0, len(result.chunks), _WRITE_BATCH):
                    batch = result.chunks[lo : lo + _WRITE_BATCH]
                    fh.write(b"".join(enc.encode(c) + b"\n" for c in batch))
        except OSError:
            pass


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
