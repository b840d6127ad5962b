"""The one JSON form of every output, and atomic writes.

Byte-stable: sorted keys, fixed separators, UTF-8 without escapes, gzip without a time or
a file name in its header, so the same records give the same bytes on every machine.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from notechunk.chunk import Chunk


def dumps(obj: object, *, indent: int | None = None) -> str:
    """Sorted keys, fixed separators, UTF-8 text; `indent` gives the readable QA form."""
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=separators, indent=indent)


def atomic_write_bytes(path: Path, data: bytes, durable: bool = True) -> None:
    """Write a temporary file beside `path`, fsync it (when `durable`), move it into place.

    Cache entries skip the fsync: a torn entry fails to parse and is simply redone.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_json(path: Path, obj: object) -> None:
    """A readable JSON file (indent 2, sorted keys, trailing newline), written atomically."""
    atomic_write_bytes(path, (dumps(obj, indent=2) + "\n").encode("utf-8"))


def write_text(path: Path, text: str) -> None:
    """A UTF-8 text file, written atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


def jsonl_bytes(rows: Iterable[object]) -> bytes:
    return "".join(dumps(r) + "\n" for r in rows).encode("utf-8")


def write_jsonl(path: Path, chunks: Iterable[Chunk]) -> None:
    atomic_write_bytes(path, jsonl_bytes(c.to_json() for c in chunks))


def gzip_bytes(raw: bytes) -> bytes:
    """gzip with mtime 0 and no file name: the same input gives the same bytes."""
    return gzip.compress(raw, compresslevel=6, mtime=0)


def read_jsonl(path: Path) -> list[Chunk]:
    with open(path, encoding="utf-8") as fh:
        return [Chunk.from_json(json.loads(line)) for line in fh if line.strip()]


def iter_chunks_gz(path: Path) -> Iterator[Chunk]:
    """The chunks of a `chunks.jsonl.gz`, one at a time."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield Chunk.from_json(json.loads(line))
