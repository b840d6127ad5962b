"""The one JSON form of every output, and atomic writes.

Byte-stable: sorted keys, fixed separators, UTF-8 without escapes, gzip without a time or
a file name in its header, so the same records give the same bytes on every machine.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

import msgspec

from notechunk.chunk import Chunk

_ENCODER = msgspec.json.Encoder(order="sorted")
# json writes floats below 1e-4 or from 1e16 with an exponent (1e-05, 1e+16), msgspec
# does not (0.00001, 1e16): where either form could be (a number at the start or after
# `:`, `,` or `[` and spaces, where JSON numbers stand; inside a string too), json is used
# instead. Anchored on those bytes, the scan rejects almost every position at once (6x
# faster than a lookbehind on notes-md's chunks); a bare number is matched at the start.
_NUMBER = rb"\s*-?(?:\d+(?:\.\d+)?e[+-]?\d|0\.0000)"
_EXPONENT_OR_TINY = re.compile(rb"[:,\[]" + _NUMBER)
_LEADING = re.compile(_NUMBER)  # a bare number: `match` at the start


def dumps(obj: object, *, indent: int | None = None) -> str:
    """Sorted keys, fixed separators, UTF-8 text; `indent` gives the readable QA form.

    The bytes of `json.dumps(obj, ensure_ascii=False, sort_keys=True, ...)`, made by
    msgspec (10x faster with an indent, where json falls back to pure Python); where the
    two could differ (a float json would write with an exponent), json writes it.
    """
    try:
        raw = _ENCODER.encode(obj)
        if indent is not None:
            raw = msgspec.json.format(raw, indent=indent)
        if not (_EXPONENT_OR_TINY.search(raw) or _LEADING.match(raw)):
            return raw.decode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError, OverflowError):
        pass
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=separators, indent=indent)


def atomic_write_bytes(path: Path, data: bytes, durable: bool = False) -> None:
    """Write a temporary file beside `path`, fsync it (when `durable`), move it into place.

    Only a commit record is fsynced: a run's outputs are staged unsynced and published
    with a manifest written durably last that names each file's hash, so a file a crash
    tore is found (OUT is then not trusted and the run is redone) at the cost of one fsync,
    not one per file; a torn cache entry fails to parse and is redone.
    """
    with atomic_open(path, durable) as fh:
        fh.write(data)


def temp_beside(path: Path) -> Path:
    """The temporary file a write of `path` goes to before it is moved into place: hidden,
    beside it, one per process (`temp_pattern` finds those a crash left)."""
    return path.with_name(f".{path.name}.tmp{os.getpid()}")


def temp_pattern(name: str) -> str:
    """A glob for the temporary files (`temp_beside`) of a file called `name`."""
    return f".{name}.tmp*"


@contextmanager
def atomic_open(path: Path, durable: bool = False) -> Iterator[BinaryIO]:
    """A file written in steps, then fsynced (when `durable`) and moved into place (as
    atomic_write_bytes); on an error the temporary file is removed, `path` untouched."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_beside(path)
    try:
        with open(tmp, "wb") as fh:
            yield fh
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def chunk_line(chunk: Chunk) -> bytes:
    """One JSONL line of a chunk: the bytes of `dumps(chunk.to_json())` and a newline,
    encoded by msgspec straight from `chunk.record()`. A chunk's only float is its
    retrieval score, in [0, 1] to 4 decimals, which json and msgspec write alike, so the
    exponent check of `dumps` is not needed (hypothesis checks the equality)."""
    try:
        return _ENCODER.encode(chunk.record()) + b"\n"
    except (UnicodeEncodeError, TypeError, OverflowError):
        return (dumps(chunk.to_json()) + "\n").encode("utf-8")


def write_json(path: Path, obj: object) -> None:
    """A readable JSON file (indent 2, sorted keys, trailing newline), written atomically."""
    atomic_write_bytes(path, (dumps(obj, indent=2) + "\n").encode("utf-8"))


def write_text(path: Path, text: str, durable: bool = False) -> None:
    """A UTF-8 text file, written atomically (and fsynced when `durable`)."""
    atomic_write_bytes(path, text.encode("utf-8"), durable)


def jsonl_bytes(rows: Iterable[object]) -> bytes:
    return "".join(dumps(r) + "\n" for r in rows).encode("utf-8")


def write_jsonl(path: Path, chunks: Iterable[Chunk]) -> None:
    atomic_write_bytes(path, b"".join(chunk_line(c) for c in chunks))


GZIP_LEVEL = 3
"""chunks.jsonl.gz: level 3 costs a third of level 6's time for 14% more bytes (bench/)."""


def gzip_bytes(raw: bytes) -> bytes:
    """gzip with mtime 0 and no file name: the same input gives the same bytes."""
    return gzip.compress(raw, compresslevel=GZIP_LEVEL, mtime=0)


def gzip_writer(fh: BinaryIO) -> gzip.GzipFile:
    """A streaming gzip writer with the header of `gzip_bytes` (mtime 0, no name)."""
    return gzip.GzipFile(filename="", fileobj=fh, mode="wb", compresslevel=GZIP_LEVEL, mtime=0)


def read_jsonl(path: Path) -> list[Chunk]:
    with open(path, encoding="utf-8") as fh:
        return [Chunk.from_json(json.loads(line)) for line in fh if line.strip()]


def iter_chunks_gz(path: Path) -> Iterator[Chunk]:
    """The chunks of a `chunks.jsonl.gz`, one at a time."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield Chunk.from_json(json.loads(line))
