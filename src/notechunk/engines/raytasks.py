"""What the Ray engine's tasks run: plain functions of one batch of rows (no Ray import).

The chunk dataset has one row per part of a file (a file's chunks of one source type, at
most `PART_CHUNKS` of them, so no value outgrows an arrow column): `file` (discovery
ordinal), `part`, `kind`, `n` chunks, and as bytes the finished chunks (`result`, a
msgpack `FileResult` as in a spill file), their token block (`terms`), dedupe key hashes
and omit bits, the file's acronym definitions (`defines`); part 0 also carries the file's
cache `key` ("" for none), its `extras` (discarded rows, sheet reports, errors) and its glossary
statistics (`glossary`); `expand_rows` rewrites rows with acronyms expanded. Output order
is every Markdown part, then every sheet part, each by (file, part), as the local
engine's spill files.

The corpus passes' blockwise steps reuse the local engine's functions on these rows:
`index_rows` regroups the indexed chunks (non-duplicates, from the broadcast `Layout`)
into blocks of consecutive documents and counts each block's statistics (merged across
blocks in a reduce task), `postings_rows` weighs them with the broadcast statistics,
`score_rows` scores them with the broadcast index.
"""

from __future__ import annotations

import io
import os
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, FileResult
from notechunk.config import Config
from notechunk.corpus.dedupe import key_hashes
from notechunk.corpus.glossary import expand_part
from notechunk.corpus.inputs import FileInputs
from notechunk.corpus.scores import SCORE_BLOCK, index_blocks
from notechunk.corpus.scores.bm25index import CorpusStats, Index, postings, shared_terms
from notechunk.corpus.scores.retrievability import score_block
from notechunk.corpus.scores.termblock import TermBlock, from_arrays, subset, term_block, to_arrays
from notechunk.discover import SourceFile
from notechunk.engines import process_with_inputs
from notechunk.enrich.glossary import (
    Glossary,
    GlossaryStats,
)
from notechunk.io.cache import decode_result, encode_result
from notechunk.tokens import counter_for

PART_CHUNKS = 20_000
KINDS = ("markdown", "spreadsheet")
Columns = dict[str, list[Any]]
Batch = dict[str, Any]  # a Ray Data batch in numpy format: column -> array
_LEN = struct.Struct("<I")
RowKey = tuple[str, int, int]  # (kind, file, part): a row's place in output order


def pack(arrays: Sequence[NDArray[Any]]) -> bytes:
    """numpy arrays as one bytes value (the .npy format; objects refused)."""
    buf = io.BytesIO()
    buf.write(_LEN.pack(len(arrays)))
    for a in arrays:
        np.lib.format.write_array(buf, np.ascontiguousarray(a), allow_pickle=False)
    return buf.getvalue()


def unpack(data: bytes) -> tuple[NDArray[Any], ...]:
    buf = io.BytesIO(data)
    (count,) = _LEN.unpack(buf.read(_LEN.size))
    return tuple(np.lib.format.read_array(buf, allow_pickle=False) for _ in range(count))


def encode_files(files: Sequence[SourceFile]) -> bytes:
    return msgspec.msgpack.encode(
        [(os.fsencode(f.path), f.rel, f.kind, f.hierarchy, list(f.refs)) for f in files]
    )


def decode_files(data: bytes) -> list[SourceFile]:
    items = msgspec.msgpack.decode(
        data, type=list[tuple[bytes, str, str, bool, list[tuple[str, str]]]]
    )
    return [
        SourceFile(path=Path(os.fsdecode(p)), rel=r, kind=k, hierarchy=h, refs=tuple(refs))  # type: ignore[arg-type]
        for p, r, k, h, refs in items
    ]


def file_rows(
    batch: Batch, cfg: Config, cache_root: Path | None, cfg_key: str
) -> Iterator[Columns]:
    """The per-file map task: each input row is a batch of files (`first` ordinal and the
    `files`); yields the chunk dataset's rows one part at a time, so the task holds one
    part's encoded bytes beside its files' results (a 100k-row sheet is five parts), and
    lets go of each file's result once its parts are out."""
    for first, data in zip(batch["first"], batch["files"], strict=True):
        processed = process_with_inputs(decode_files(data), cfg, cache_root, cfg_key)
        processed.reverse()  # popped in file order, each dropped after its parts
        for k in range(len(processed)):
            outcome, inputs = processed.pop()
            yield from _rows(int(first) + k, outcome.result, outcome.key, inputs, cfg, outcome.note)


def _rows(
    file: int,
    r: FileResult,
    key: str | None,
    inputs: FileInputs,
    cfg: Config,
    note: str | None = None,
) -> Iterator[Columns]:
    """A file's rows, one part each (as one-row columns), in output order."""
    enc = msgspec.msgpack.Encoder()
    defines = enc.encode(inputs.defines)
    kinds = np.asarray([c.source_type for c in r.chunks], dtype=object)
    parts: list[tuple[str, NDArray[np.bool_]]] = []
    for kind in KINDS:
        at = np.flatnonzero(kinds == kind)
        for lo in range(0, len(at), PART_CHUNKS):
            mask = np.zeros(len(r.chunks), dtype=bool)
            mask[at[lo : lo + PART_CHUNKS]] = True
            parts.append((kind, mask))
    for part, (kind, mask) in enumerate(parts or [("markdown", np.zeros(0, dtype=bool))]):
        mine = tuple(c for c, m in zip(r.chunks, mask, strict=True) if m)
        extras = FileResult(
            source=r.source,
            discarded=r.discarded,
            reports=r.reports,
            errors=r.errors,
            accounts=r.accounts,
        )
        row: dict[str, Any] = {
            "file": file,
            "part": part,
            "kind": kind,
            "n": len(mine),
            "key": (key or "") if part == 0 else "",  # a string column in every part
            "note": (note or "") if part == 0 else "",
            "result": enc.encode(FileResult(source=r.source, chunks=mine)),
            "extras": encode_extras(extras) if part == 0 else b"",
            "glossary": enc.encode(inputs.glossary) if part == 0 else b"",
            "defines": defines,
            "terms": pack(to_arrays(_part_block(inputs.block, mask, mine))),
            "hashes": key_hashes(mine, cfg.dedupe).tobytes(),
            "omit": np.asarray([c.omit for c in mine], dtype=bool).tobytes(),
        }
        yield {name: [row[name]] for name in COLUMNS}


def _part_block(
    block: TermBlock | None, mask: NDArray[np.bool_], mine: Sequence[Chunk]
) -> TermBlock:
    """A part's token block: cut from the file's, or made here (a huge file has none)."""
    if block is None:
        return term_block(mine)
    return block if mask.all() else subset(block, mask)


def encode_extras(r: FileResult) -> bytes:
    """A file's discarded rows, reports and errors as msgpack of their JSON form (as the
    cache stores them: a measured figure keeps its int or float type)."""
    return msgspec.msgpack.encode(encode_result(r))


def decode_extras(data: bytes) -> FileResult:
    return decode_result(msgspec.msgpack.decode(data))


COLUMNS = (
    "file",
    "part",
    "kind",
    "n",
    "key",
    "note",
    "result",
    "extras",
    "glossary",
    "defines",
    "terms",
    "hashes",
    "omit",
)


def decode_stats(data: bytes) -> GlossaryStats:
    return msgspec.msgpack.decode(data, type=GlossaryStats)


def expand_rows(batch: Batch, glossary: Glossary, cfg: Config) -> Columns:
    """The glossary pass on rows (`corpus.glossary.expand_part`): each row's chunks with
    acronyms expanded, its token block and dedupe key hashes made again where a text
    changed; every other column kept."""
    cols: Columns = {c: list(batch[c]) for c in COLUMNS}
    dec, enc = msgspec.msgpack.Decoder(FileResult), msgspec.msgpack.Encoder()
    tokens = counter_for(cfg.tokenizer)
    for i, (data, defines) in enumerate(zip(cols["result"], cols["defines"], strict=True)):
        r = dec.decode(data)
        own = msgspec.msgpack.decode(defines, type=dict[str, str])
        stored = from_arrays(unpack(cols["terms"][i]))
        got = expand_part(r.chunks, glossary, own, cfg, tokens, stored)
        if got is None:
            continue
        cols["result"][i] = enc.encode(FileResult(source=r.source, chunks=got.chunks))
        cols["terms"][i] = pack(to_arrays(got.block))
        cols["hashes"][i] = got.hashes.tobytes()
    return cols


@dataclass(frozen=True, slots=True)
class Layout:
    """What the passes' tasks need of the dedupe result: each row's first chunk and first
    document (in output order), and which chunks are indexed (not duplicates)."""

    starts: dict[RowKey, tuple[int, int]]
    indexed: NDArray[np.bool_]


def index_rows(batch: Batch, layout: Layout, block_size: int = SCORE_BLOCK) -> Columns:
    """Each run of rows whose documents follow one another, its indexed chunks regrouped
    into blocks of about `block_size` (`corpus.scores.index_blocks`), with the first document."""
    cols: Columns = {"doc_start": [], "terms": [], "stats": []}
    runs: list[tuple[int, list[tuple[TermBlock, NDArray[np.bool_]]]]] = []
    ends: dict[str, int] = {}  # kind -> next document expected in the open run
    open_run: dict[str, int] = {}  # kind -> index of its open run in `runs`
    for kind, file, part, terms in zip(
        batch["kind"], batch["file"], batch["part"], batch["terms"], strict=True
    ):
        block = from_arrays(unpack(terms))
        start, doc = layout.starts[(str(kind), int(file), int(part))]
        keep = layout.indexed[start : start + block.n_docs]
        if ends.get(kind) != doc:
            open_run[kind] = len(runs)
            runs.append((doc, []))
        runs[open_run[kind]][1].append((block, keep))
        ends[kind] = doc + int(np.count_nonzero(keep))
    for doc, pairs in runs:
        for block in index_blocks(pairs, block_size):
            if block.n_docs:
                stats = CorpusStats.of_block(block)
                cols["doc_start"].append(doc)
                cols["terms"].append(pack(to_arrays(block)))
                cols["stats"].append(pack_stats(stats))
            doc += block.n_docs
    return cols


def pack_stats(stats: CorpusStats) -> bytes:
    counts = np.asarray([stats.n_docs, stats.total_len], dtype=np.int64)
    return pack((counts, stats.terms, stats.df))


def unpack_stats(data: bytes) -> CorpusStats:
    counts, terms, df = unpack(data)
    return CorpusStats(int(counts[0]), int(counts[1]), terms, df)


def postings_rows(batch: Batch, stats: CorpusStats) -> Columns:
    """Pass 2, blockwise: each index block's postings (`bm25index.postings`)."""
    idf, shared = stats.idf(), shared_terms(stats)
    cols: Columns = {"doc_start": [], "postings": []}
    for doc, terms in zip(batch["doc_start"], batch["terms"], strict=True):
        p = postings(from_arrays(unpack(terms)), stats, int(doc), idf, shared)
        cols["doc_start"].append(int(doc))
        cols["postings"].append(pack((p.tid, p.doc, p.w)))
    return cols


def score_rows(batch: Batch, index: Index) -> Columns:
    """Pass 3, blockwise: each index block's retrieval scores (`score_block`)."""
    cols: Columns = {"doc_start": [], "scores": []}
    for doc, terms in zip(batch["doc_start"], batch["terms"], strict=True):
        scores = score_block(from_arrays(unpack(terms)), index, int(doc))
        cols["doc_start"].append(int(doc))
        cols["scores"].append(scores.astype(np.float64).tobytes())
    return cols
