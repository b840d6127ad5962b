"""Spill files: the run's per-file results on disk, in order, so no pass holds the corpus.

A spill file is a sequence of records, each a 4-byte little-endian length and a msgpack
`FileResult` (msgspec, typed: decoding builds records, never runs code). `ArraySpill` keeps
numpy arrays (the retrieval passes' token blocks) the same way. Written once, read as
many times as the corpus passes need, removed with the staging folder.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from io import BufferedReader
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

import msgspec
import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import FileResult

_LEN = struct.Struct("<I")


class SpillWriter:
    """Append `FileResult`s to `path` (created or truncated). `offsets`: where each record
    starts, so a pass can hand a run of records to a worker (`read_spill(path, at, n)`)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fh: BinaryIO = open(path, "wb")  # noqa: SIM115 - closed in close()
        self._enc = msgspec.msgpack.Encoder()
        self.offsets: list[int] = []
        self._size = 0

    def add(self, result: FileResult) -> None:
        self.add_encoded(self._enc.encode(result))

    def add_encoded(self, data: bytes) -> None:
        """A record encoded elsewhere (`encode_result`, e.g. in a pool worker)."""
        self.offsets.append(self._size)
        self._fh.write(_LEN.pack(len(data)))
        self._fh.write(data)
        self._size += _LEN.size + len(data)

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> SpillWriter:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def encode_result(result: FileResult) -> bytes:
    """A spill record's bytes, as `SpillWriter.add` writes them."""
    return msgspec.msgpack.encode(result)


def read_spill(path: Path, at: int = 0, count: int | None = None) -> Iterator[FileResult]:
    """The results of a spill file, one at a time, in the order written: all of them, or
    `count` from the record that starts at byte `at` (`SpillWriter.offsets`)."""
    dec = msgspec.msgpack.Decoder(FileResult)
    with open(path, "rb") as fh:
        fh.seek(at)
        left = -1 if count is None else count
        while left and (head := fh.read(_LEN.size)):
            (size,) = _LEN.unpack(head)
            yield dec.decode(fh.read(size))
            left -= 1


class ArraySpill:
    """Groups of numpy arrays written in order and read back in the same order.

    Each array is a small fixed header (dtype, rank, shape) and its raw bytes, read
    straight into a fresh array: a token block is six small arrays, and the `.npy`
    header's text parse cost more than the bytes themselves. `offsets`: where each group
    starts (`ArraySpill.read(path, at, n)` reads a run of them)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
        self.offsets: list[int] = []

    def add(self, arrays: tuple[NDArray[np.generic], ...]) -> None:
        with open(self.path, "ab") as fh:
            self.offsets.append(fh.tell())
            fh.write(_LEN.pack(len(arrays)))
            for a in arrays:
                a = np.ascontiguousarray(a)
                if a.dtype.hasobject:
                    raise TypeError("ArraySpill holds plain numeric arrays only")
                kind = a.dtype.str.encode("ascii")
                fh.write(_HEAD.pack(kind, a.ndim))
                fh.write(struct.pack(f"<{a.ndim}q", *a.shape))
                fh.write(a.tobytes())

    @staticmethod
    def read(
        path: Path, at: int = 0, count: int | None = None
    ) -> Iterator[tuple[NDArray[np.generic], ...]]:
        with open(path, "rb") as fh:
            fh.seek(at)
            left = -1 if count is None else count
            while left and (head := fh.read(_LEN.size)):
                (n,) = _LEN.unpack(head)
                yield tuple(_read_array(fh) for _ in range(n))
                left -= 1


_HEAD = struct.Struct("<8sB")  # dtype string (e.g. b"<u8"), rank


def _read_array(fh: BufferedReader) -> NDArray[np.generic]:
    kind, ndim = _HEAD.unpack(fh.read(_HEAD.size))
    shape = struct.unpack(f"<{ndim}q", fh.read(8 * ndim))
    out: NDArray[np.generic] = np.empty(shape, dtype=np.dtype(kind.rstrip(b"\0").decode()))
    if out.nbytes and fh.readinto(out.data.cast("B")) != out.nbytes:
        raise EOFError("spill file cut short")
    return out
