"""Dedupe: the first surviving chunk with a key wins; later copies are omitted duplicates.

A chunk's key is its text in its context (`embed_text`: title and heading path, or sheet
and group), or its text alone with `dedupe.scope = "text"`: the same "Doxycycline" under
three diseases is three facts. Every engine runs the same three steps: `key_hashes` (per
chunk, 128 bits: made where the chunks are, so no engine ships their texts to dedupe),
`originals` (over the whole corpus's hashes and omit bits) and `mark_duplicates` (as the
chunks stream past in output order). `dedupe` is the three in memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, FileResult
from notechunk.config import DedupeConfig

Hashes = NDArray[np.uint64]
"""One row of two 64-bit halves per chunk: the 128-bit hash of its dedupe key."""


def dedupe_key(chunk: Chunk, cfg: DedupeConfig) -> str:
    """What makes two chunks the same fact: the text in its context (title, heading path,
    or sheet and group: `embed_text`), or the text alone (`dedupe.scope = "text"`)."""
    return chunk.text if cfg.scope == "text" else chunk.embed_text


def key_hash(key: str) -> tuple[int, int]:
    """A dedupe key as 128 bits (a set of 16-byte digests, never of strings)."""
    d = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return int.from_bytes(d[:8], "little"), int.from_bytes(d[8:], "little")


def key_hashes(chunks: Sequence[Chunk], cfg: DedupeConfig) -> Hashes:
    """The key hash of each chunk, as an (n, 2) array."""
    keys = [key_hash(dedupe_key(c, cfg)) for c in chunks]
    return np.asarray(keys, dtype=np.uint64).reshape(-1, 2)


def originals(hashes: Hashes, omit: NDArray[np.bool_]) -> NDArray[np.int64]:
    """Per chunk -1, or the ordinal of the first surviving chunk with its key (omitted
    chunks are never originals and never duplicates). Each temporary is let go as soon
    as it has served: at five million chunks, one is 40 MB."""
    out = np.full(len(hashes), -1, dtype=np.int64)
    live = np.flatnonzero(~omit)
    if len(live) < 2:
        return out
    hi, lo = hashes[:, 0], hashes[:, 1]
    order = live[np.lexsort((live, lo[live], hi[live]))]
    del live
    key = hi[order]
    start = np.empty(len(order), dtype=bool)
    start[0] = True
    np.not_equal(key[1:], key[:-1], out=start[1:])
    key = lo[order]
    start[1:] |= key[1:] != key[:-1]
    del key
    first = order[np.flatnonzero(start)]
    run = np.cumsum(start) - 1
    dup = ~start
    out[order[dup]] = first[run[dup]]
    return out


def mark_duplicates(results: Iterable[FileResult], original: NDArray[np.int64]) -> Iterator[Chunk]:
    """The chunks of `results` (in output order), each duplicate marked: omitted, with
    `duplicate_of` (the id of the chunk it repeats) and the flag `duplicate`."""
    needed = set(original[original >= 0].tolist())
    ids: dict[int, str] = {}
    i = 0
    for r in results:
        for c in r.chunks:
            o = int(original[i])
            if o >= 0:
                c = replace(c, duplicate_of=ids[o], omit=True, flags=(*c.flags, "duplicate"))
            elif i in needed:
                ids[i] = c.id
            yield c
            i += 1


def dedupe(chunks: Sequence[Chunk], cfg: DedupeConfig) -> list[Chunk]:
    """The three steps over chunks held in memory (one file, or a corpus in output order)."""
    omit = np.asarray([c.omit for c in chunks], dtype=bool)
    original = originals(key_hashes(chunks, cfg), omit)
    return list(mark_duplicates([FileResult(source="", chunks=tuple(chunks))], original))
