"""Incremental re-runs: per-file results cached under OUT/.cache, keyed by content + code + config.

A file's key hashes the run key (notechunk's version, a fingerprint of the package's own
source files, the config as TOML), the file's relative path and its bytes. Editing a rule
changes the fingerprint, so the next run redoes every file; a changed file is redone and
nothing else is. Entries are written as files finish, so an interrupted run resumes.

An entry is one gzip stream (level 1: the cache is written on every cold run and read on
every warm one, so speed beats the last few bytes) of msgspec msgpack records, each behind
its length (4 bytes, big-endian): the chunks in batches (typed both ways), a zero length,
then the file's source, discarded rows, sheet reports, errors, chunk count and the
notechunk version that wrote it, then the sha256 of every byte before it (the seal). It is
written as the file's result passes in parts (`Cache.writer`; what is known only at the
end comes last), so a million-row sheet's entry is never one document in memory; it is a
fifth of the JSON lines it replaces.

Nothing read back is believed: `Cache.load` returns a result only when its seal matches,
its version is this one and it fits the file it claims to be (`fits`: its source, every
chunk's lines inside the file, every row numbered); otherwise it says why, and the file
is processed again and its entry rewritten.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from notechunk._version import __version__
from notechunk.chunk import Chunk, DiscardedRow, FileError, FileResult, LineAccount, SheetReport
from notechunk.config import Config, OutputConfig, to_toml
from notechunk.errors import UsageError
from notechunk.io.jsonio import temp_beside
from notechunk.io.outdir import open_own

CACHE_DIR = ".cache"
SUFFIX = ".msgpack.gz"  # an entry's name: its key and this
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


MAGIC = b"notechunk-cache/3\n"  # the format; an entry of another is not read
_LEN = struct.Struct(">I")
_LEVEL = 1
_MAX_RECORD = 1 << 30  # a length past this is damage, not a record to allocate


class _Damaged(Exception):
    """An entry that is not what `put` writes; its message says how."""


def _read_exact(fh: gzip.GzipFile, n: int, h: hashlib._Hash) -> bytes:
    data = fh.read(n)
    if len(data) != n:
        raise _Damaged("torn")
    h.update(data)
    return data


def _record(fh: gzip.GzipFile, h: hashlib._Hash) -> bytes | None:
    """The next record's bytes, or None at the seal's zero length."""
    (size,) = _LEN.unpack(_read_exact(fh, _LEN.size, h))
    if size == 0:
        return None
    if size > _MAX_RECORD:
        raise _Damaged("a record past any size written")
    return _read_exact(fh, size, h)


@dataclass(frozen=True, slots=True)
class Cache:
    root: Path

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}{SUFFIX}"

    def has(self, key: str) -> bool:
        """Whether an entry for `key` exists (not whether it holds: `load` checks that)."""
        return self.path(key).is_file()

    def get(self, key: str) -> FileResult | None:
        """The cached result, or None when absent or not believed (`load` says why)."""
        return self.load(key)[0]

    def load(self, key: str) -> tuple[FileResult | None, str | None]:
        """The cached result and None, or None and why the entry is not used (None too when
        there is no entry): torn, of a foreign shape, written by another version, or its
        seal does not match its bytes."""
        try:
            fd = open_own(self.path(key), os.O_RDONLY)
        except FileNotFoundError:
            return None, None
        except (OSError, UsageError):
            return None, "not a regular file"
        h = hashlib.sha256()
        try:
            with os.fdopen(fd, "rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as fh:
                if fh.read(len(MAGIC)) != MAGIC:
                    return None, "not an entry"
                h.update(MAGIC)
                dec = msgspec.msgpack.Decoder(list[Chunk])
                chunks: list[Chunk] = []
                while (batch := _record(fh, h)) is not None:
                    chunks.extend(dec.decode(batch))
                last = _record(fh, h)
                head = msgspec.msgpack.decode(last) if last is not None else None
                if not isinstance(head, dict):
                    return None, "not an entry"
                if head.get("notechunk") != __version__:
                    return None, "written by another notechunk version"
                seal = fh.read(h.digest_size)
                if fh.read(1):
                    return None, "bytes after its seal"
            if seal != h.digest():
                return None, "its bytes do not match its checksum"
            if head.get("n") != len(chunks):
                return None, "torn (chunk count)"
            fields = {k: v for k, v in head.items() if k not in ("n", "notechunk")}
            return replace(decode_result({**fields, "chunks": []}), chunks=tuple(chunks)), None
        except _Damaged as exc:
            return None, str(exc)
        except (
            OSError,  # gzip.BadGzipFile among them
            EOFError,
            zlib.error,
            ValueError,
            KeyError,
            TypeError,
            AttributeError,
            msgspec.MsgspecError,
        ):
            return None, "unreadable"

    def put(self, key: str, result: FileResult) -> None:
        """Store a result, sealed; a cache that cannot be written (disk full) costs speed."""
        with self.writer(key, result.source, errors_ok=True) as entry:
            entry.add(result)

    @contextmanager
    def writer(self, key: str, source: str, errors_ok: bool = False) -> Iterator[EntryWriter]:
        """An entry written as a file's result passes in parts (`EntryWriter.add`), kept
        only when the block ends normally and (unless `errors_ok`) no part had errors: a
        file that failed is tried again next run."""
        entry = EntryWriter(self.path(key), source, errors_ok)
        try:
            yield entry
        except BaseException:
            entry.abandon()
            raise
        entry.close()


_FAILS = (OSError, UnicodeEncodeError, TypeError, OverflowError)
"""What writing an entry may raise: a cache that cannot be written (disk full) or a value
msgpack cannot hold costs speed, never the run, so the entry is dropped."""


class EntryWriter:
    """One cache entry being written (to a temporary file, moved into place at `close`):
    chunk batches as the parts arrive, the rest at the end."""

    def __init__(self, path: Path, source: str, errors_ok: bool = False) -> None:
        self.path, self.source, self.errors_ok = path, source, errors_ok
        self.tmp = temp_beside(path)
        self.h = hashlib.sha256()
        self.enc = msgspec.msgpack.Encoder()
        self.n = 0
        self.discarded: list[DiscardedRow] = []
        self.reports: list[SheetReport] = []
        self.accounts: list[LineAccount] = []
        self.errors: list[FileError] = []
        self.fh: gzip.GzipFile | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.fh = gzip.GzipFile(self.tmp, mode="wb", compresslevel=_LEVEL, mtime=0)
            self._write(MAGIC)
        except _FAILS:
            self.abandon()

    def _write(self, data: bytes) -> None:
        assert self.fh is not None
        self.h.update(data)
        self.fh.write(data)

    def add(self, part: FileResult) -> None:
        """The next part of the file's result."""
        self.discarded += part.discarded
        self.reports += part.reports
        self.accounts += part.accounts
        self.errors += part.errors
        if self.errors and not self.errors_ok:
            self.abandon()
        if self.fh is None:
            return
        try:
            for lo in range(0, len(part.chunks), _WRITE_BATCH):
                batch = self.enc.encode(part.chunks[lo : lo + _WRITE_BATCH])
                self._write(_LEN.pack(len(batch)) + batch)
        except _FAILS:
            self.abandon()
        self.n += len(part.chunks)

    def close(self) -> None:
        """Seal the entry and move it into place (unless it was abandoned)."""
        if self.fh is None:
            return
        head = encode_result(
            FileResult(
                source=self.source,
                discarded=tuple(self.discarded),
                reports=tuple(self.reports),
                accounts=tuple(self.accounts),
                errors=tuple(self.errors),
            )
        )
        del head["chunks"]
        head["n"] = self.n
        head["notechunk"] = __version__
        try:
            last = self.enc.encode(head)
            self._write(_LEN.pack(0) + _LEN.pack(len(last)) + last)
            self.fh.write(self.h.digest())
            self.fh.close()
            os.replace(self.tmp, self.path)
        except _FAILS:
            self.abandon()

    def abandon(self) -> None:
        """Drop the entry: the temporary file is removed, no entry is left."""
        fh, self.fh = self.fh, None
        try:
            if fh is not None:
                fh.close()
        except OSError:
            pass
        self.tmp.unlink(missing_ok=True)


def fits(result: FileResult, rel: str, n_lines: int | None) -> str | None:
    """Why a cached result cannot be the result of file `rel` (None: it can be): another
    source, a chunk of another file, Markdown lines outside the file's `n_lines`, a row
    without its sheet and number."""
    if result.source != rel:
        return "it names another file"
    for c in result.chunks:
        if c.source != rel:
            return "a chunk of another file"
        if c.source_type == "markdown":
            if c.lines is None or not 1 <= c.lines[0] <= c.lines[1]:
                return "a chunk without a line range"
            if n_lines is not None and c.lines[1] > n_lines:
                return f"lines {c.lines[0]}-{c.lines[1]} past the file's {n_lines}"
        elif c.row is None or c.row < 1 or not c.sheet:
            return "a row without its sheet and number"
    if (
        any(d.source != rel for d in result.discarded)
        or any(r.source != rel for r in result.reports)
        or any(a.source != rel for a in result.accounts)
    ):
        return "a row of another file"
    return None


def encode_result(result: FileResult) -> dict[str, Any]:
    return {
        "source": result.source,
        "chunks": [c.to_json() for c in result.chunks],
        "discarded": [d.to_json() for d in result.discarded],
        "reports": [r.to_json() for r in result.reports],
        "accounts": [a.to_json() for a in result.accounts],
        "errors": [e.to_json() for e in result.errors],
    }


def decode_result(data: dict[str, Any]) -> FileResult:
    return FileResult(
        source=data["source"],
        chunks=tuple(Chunk.from_json(c) for c in data["chunks"]),
        discarded=tuple(DiscardedRow.from_json(d) for d in data["discarded"]),
        reports=tuple(SheetReport.from_json(r) for r in data["reports"]),
        accounts=tuple(LineAccount.from_json(a) for a in data.get("accounts", ())),
        errors=tuple(FileError.from_json(e) for e in data["errors"]),
    )
