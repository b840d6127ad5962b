"""The local engine's store: a corpus on disk, so memory stays flat in corpus size.

`pack` encodes a file's result where it was made; `store` writes a batch of packed
results as they come (Markdown and sheets apart, each in records of at most `RECORD`
chunks, with their token blocks): a pool worker stores its own batch. `spill` joins the
stored batches in the order of the files (reading them back gives output order), keeping
per chunk only its dedupe key hash and omit bit; then the glossary pass (each record
expanded where the glossary changes it) and dedupe (`dedupe.originals`).
`SpilledCorpus.chunks` reads the chunks back with duplicates marked; `.scores` runs the
score pass over the spilled token blocks (`scores.scores`, index blocks spilled too).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from notechunk._proc import release_freed_memory
from notechunk.chunk import (
    Chunk,
    DiscardedRow,
    FileError,
    FileResult,
    LineAccount,
    SheetReport,
    SourceType,
)
from notechunk.config import Config
from notechunk.corpus.dedupe import Hashes, key_hashes, mark_duplicates, originals
from notechunk.corpus.glossary import corpus_glossary, expand_part
from notechunk.corpus.inputs import FileInputs, defined_in
from notechunk.corpus.scores import SCORE_BLOCK, FileBlocks, ScoreBlocks, score_stored, scores
from notechunk.corpus.scores.bm25index import load_index
from notechunk.corpus.scores.retrievability import score_block
from notechunk.corpus.scores.termblock import (
    TermBlock,
    doc_range,
    from_arrays,
    subset,
    term_block,
    to_arrays,
)
from notechunk.enrich.glossary import (
    Glossary,
    GlossaryStats,
    glossary_stats,
    merge_all,
)
from notechunk.io.spill import ArraySpill, SpillWriter, encode_result, read_spill
from notechunk.tokens import counter_for

KINDS: tuple[SourceType, ...] = ("markdown", "spreadsheet")
RECORD = 8_192  # chunks per spill record: a million-row sheet is never encoded at once
_MERGE_EVERY = 256  # glossary statistics merged every so many files (memory stays small)


class SpilledBlocks:
    """A `scores.BlockStore` on disk: each index block in a file of its own, so a worker
    can score one block alone (`score_file`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._files: list[tuple[Path, int]] = []  # (file, first document)
        self._docs = 0

    def add(self, block: TermBlock) -> None:
        path = self.folder / f"{len(self._files):06d}.block"
        ArraySpill(path).add(to_arrays(block))
        self._files.append((path, self._docs))
        self._docs += block.n_docs

    def blocks(self) -> Iterator[TermBlock]:
        return (_read_block(path) for path, _ in self._files)

    def files(self) -> list[tuple[Path, int]]:
        """Each block's file and its first document's number in the index."""
        return list(self._files)

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def _read_block(path: Path) -> TermBlock:
    (arrays,) = ArraySpill.read(path)
    return from_arrays(arrays)


def score_file(path: Path, offset: int, index_folder: Path) -> NDArray[np.float64]:
    """The third score step for one spilled block (its first document is `offset`),
    against the index `bm25index.save_index` wrote: what a worker runs. The worker hands
    the block's freed memory back before its next task (`release_freed_memory`)."""
    scored = score_block(_read_block(path), load_index(index_folder), offset)
    release_freed_memory()
    return scored


@dataclass(frozen=True, slots=True, kw_only=True)
class SpilledCorpus:
    """A corpus on disk: Markdown and sheet results spilled in discovery order, and what
    the passes need in memory (per chunk: 8 bytes of dedupe result and an omit bit).

    `original[i]` is -1, or the output ordinal of the chunk that chunk i duplicates;
    `glossary` is the corpus glossary (acronyms expanded in the spilled chunks when
    `enrich.acronyms` is on)."""

    folder: Path
    results: tuple[Path, ...]  # Markdown, then sheets (after the glossary pass: its parts)
    terms: tuple[Path, ...]  # their token blocks, record by record
    n_markdown: int
    n_sheets: int
    original: NDArray[np.int64]
    omitted: NDArray[np.bool_]  # omitted by its runner or its label (before dedupe)
    discarded: tuple[DiscardedRow, ...]
    reports: tuple[SheetReport, ...]
    errors: tuple[FileError, ...]
    glossary: Glossary
    accounts: tuple[LineAccount, ...] = ()

    def chunks(self) -> Iterator[Chunk]:
        """Every chunk in output order, duplicates marked."""
        records = (r for path in self.results for r in read_spill(path))
        return mark_duplicates(records, self.original)

    def scores(
        self, block_size: int = SCORE_BLOCK, score_blocks: ScoreBlocks = score_stored
    ) -> NDArray[np.float64]:
        """Every chunk's retrieval score in output order, unrounded (the blocks scored by
        `score_blocks`: in this process, or on the engine's pool)."""
        indexed = self.original < 0

        def parts() -> FileBlocks:
            start = 0
            for path in self.terms:
                for arrays in ArraySpill.read(path):
                    block = from_arrays(arrays)
                    yield block, indexed[start : start + block.n_docs]
                    start += block.n_docs

        store = SpilledBlocks(self.folder / "index-blocks")
        try:
            return scores(parts, self.original, store, block_size, score_blocks)
        finally:
            store.remove()


@dataclass(frozen=True, slots=True, kw_only=True)
class Segment:
    """A run of spilled records, one task of the glossary pass: `count` records from byte
    `at` of `raw` (their token blocks from `terms_at` of `raw_terms`), written expanded to
    `out` and `out_terms`."""

    raw: Path
    raw_terms: Path
    at: int
    terms_at: int
    count: int
    out: Path
    out_terms: Path


Rehashed = list[Hashes | None]  # per record: the key hashes of its expanded chunks, or None
ExpandSegments = Callable[
    [Sequence[Segment], Glossary, Mapping[str, Mapping[str, str]], Config],
    Iterator[Rehashed],
]
"""Runs the glossary pass's segments (`expand_segment` each) and yields what each gives,
in segment order: here (`expand_here`), or on an engine's workers."""


def expand_here(
    segments: Sequence[Segment],
    glossary: Glossary,
    owns: Mapping[str, Mapping[str, str]],
    cfg: Config,
) -> Iterator[Rehashed]:
    return (expand_segment(seg, glossary, owns, cfg) for seg in segments)


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """At most `RECORD` chunks of one file and kind as the spill stores them: the encoded
    `FileResult`, its token block's arrays, its dedupe key hashes and omit bits."""

    kind: SourceType
    data: bytes
    terms: tuple[NDArray[np.generic], ...]
    hashes: Hashes
    omit: NDArray[np.bool_]


@dataclass(frozen=True, slots=True, kw_only=True)
class Packed:
    """A file's result (or a sheet part's) packed for the spill (`pack`), where it was
    made: a pool worker hands back bytes and arrays, not a hundred thousand chunk objects
    for the parent to rebuild, hold and encode again."""

    source: str
    records: tuple[Record, ...]
    glossary: GlossaryStats
    defines: Mapping[str, str]
    discarded: tuple[DiscardedRow, ...] = ()
    reports: tuple[SheetReport, ...] = ()
    accounts: tuple[LineAccount, ...] = ()
    errors: tuple[FileError, ...] = ()


def pack(r: FileResult, inputs: FileInputs | None, cfg: Config) -> Packed:
    """One result's spill records (Markdown and sheets apart, each in records of at most
    `RECORD` chunks) with its pass inputs; the token block and glossary statistics made
    here when `inputs` is None (a record at a time past `WHOLE_BLOCK` chunks)."""
    block = inputs.block if inputs is not None else None
    records: list[Record] = []
    for kind in KINDS:
        mask = np.asarray([c.source_type == kind for c in r.chunks], dtype=bool)
        if not mask.any():
            continue
        mine = [c for c in r.chunks if c.source_type == kind]
        kblock = None if block is None else block if mask.all() else subset(block, mask)
        for lo in range(0, len(mine), RECORD):
            part = tuple(mine[lo : lo + RECORD])
            if kblock is None:  # made here, a record at a time
                arrays = to_arrays(term_block(part))
            elif len(part) == len(mine):
                arrays = to_arrays(kblock)
            else:
                arrays = to_arrays(doc_range(kblock, lo, lo + len(part)))
            records.append(
                Record(
                    kind=kind,
                    data=encode_result(FileResult(source=r.source, chunks=part)),
                    terms=arrays,
                    hashes=key_hashes(part, cfg.dedupe),
                    omit=np.asarray([c.omit for c in part], dtype=bool),
                )
            )
    if inputs is None:
        counted = glossary_stats(r.chunks)
        inputs = FileInputs(None, counted, defined_in(counted))
    return Packed(
        source=r.source,
        records=tuple(records),
        glossary=inputs.glossary,
        defines=inputs.defines,
        discarded=r.discarded,
        reports=r.reports,
        accounts=r.accounts,
        errors=r.errors,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Stored:
    """One kind's records of one batch as `store` wrote them: the spill and token block
    files, where each record starts in them, and per record what the passes keep in
    memory (its chunks' dedupe key hashes and omit bits)."""

    kind: SourceType
    results: Path
    terms: Path
    offsets: tuple[int, ...]
    terms_offsets: tuple[int, ...]
    hashes: tuple[Hashes, ...]
    omits: tuple[NDArray[np.bool_], ...]


@dataclass(frozen=True, slots=True)
class Batch:
    """A run of files stored (`store`): their records on disk, by kind, and each packed
    result's other parts (a `Packed` without its records), in order."""

    stored: tuple[Stored, ...]
    files: tuple[Packed, ...]


def store(packed: Iterable[Packed], folder: Path) -> Batch:
    """Packed results written under `folder` as they come, Markdown and sheets apart:
    what a pool worker does with its batch, so only key hashes, omit bits and the small
    reports cross to the parent, never the chunks."""
    paths: dict[SourceType, tuple[Path, Path]] = {}
    writers: dict[SourceType, tuple[SpillWriter, ArraySpill]] = {}
    hashes: dict[SourceType, list[Hashes]] = {k: [] for k in KINDS}
    omits: dict[SourceType, list[NDArray[np.bool_]]] = {k: [] for k in KINDS}
    files: list[Packed] = []
    with ExitStack() as stack:
        for p in packed:
            for rec in p.records:
                if rec.kind not in writers:
                    paths[rec.kind] = (folder / f"{rec.kind}.spill", folder / f"{rec.kind}.terms")
                    writer = stack.enter_context(SpillWriter(paths[rec.kind][0]))
                    writers[rec.kind] = (writer, ArraySpill(paths[rec.kind][1]))
                results, terms = writers[rec.kind]
                results.add_encoded(rec.data)
                terms.add(rec.terms)
                hashes[rec.kind].append(rec.hashes)
                omits[rec.kind].append(rec.omit)
            files.append(replace(p, records=()))
    stored = tuple(
        Stored(
            kind=kind,
            results=paths[kind][0],
            terms=paths[kind][1],
            offsets=tuple(writers[kind][0].offsets),
            terms_offsets=tuple(writers[kind][1].offsets),
            hashes=tuple(hashes[kind]),
            omits=tuple(omits[kind]),
        )
        for kind in KINDS
        if kind in writers
    )
    return Batch(stored, tuple(files))


def spill(
    batches: Iterable[Batch],
    folder: Path,
    cfg: Config,
    discovery_errors: Iterable[FileError] = (),
    user: Sequence[tuple[str, str]] = (),
    expand: ExpandSegments = expand_here,
    parts: int = 1,
) -> SpilledCorpus:
    """The stored batches (`store`, in the order of the files) as one corpus on disk:
    output order is every batch's Markdown, then every batch's sheets; only the dedupe
    key hashes, omit bits and glossary statistics stay in memory. Then the glossary pass
    (the records cut into about `parts` segments in all, run by `expand`) and dedupe.
    `folder` holds what the passes write."""
    stored: dict[SourceType, list[Stored]] = {k: [] for k in KINDS}
    discarded: list[DiscardedRow] = []
    reports: list[SheetReport] = []
    accounts: list[LineAccount] = []
    errors = list(discovery_errors)
    stats: list[GlossaryStats] = []
    owns: dict[str, dict[str, str]] = {}  # with enrich.acronyms: each file's definitions
    for batch in batches:
        for st in batch.stored:
            stored[st.kind].append(st)
        for p in batch.files:
            if cfg.enrich.acronyms and p.defines:  # a sheet's parts: the first given wins
                own = owns.setdefault(p.source, {})
                for acronym, long in p.defines.items():
                    own.setdefault(acronym, long)
            stats.append(p.glossary)
            if len(stats) >= _MERGE_EVERY:
                stats = [merge_all(stats)]
            discarded += p.discarded
            reports += p.reports
            accounts += p.accounts
            errors += p.errors
    glossary = corpus_glossary(stats, user)
    order = [*stored["markdown"], *stored["spreadsheet"]]
    hashes = [list(st.hashes) for st in order]
    results_at = tuple(st.results for st in order)
    terms_at = tuple(st.terms for st in order)
    if cfg.enrich.acronyms and glossary.entries and order:
        each = -(-parts // len(order))
        cut = [_segments(st, each) for st in order]
        got = iter(expand([seg for segs in cut for seg in segs], glossary, owns, cfg))
        for k, segs in enumerate(cut):
            fresh = [h for _ in segs for h in next(got)]
            hashes[k] = [old if h is None else h for old, h in zip(hashes[k], fresh, strict=True)]
        results_at = tuple(seg.out for segs in cut for seg in segs)
        terms_at = tuple(seg.out_terms for segs in cut for seg in segs)
        for path in {p for segs in cut for seg in segs for p in (seg.raw, seg.raw_terms)}:
            path.unlink()
    hl = np.concatenate([*(h for part in hashes for h in part), np.zeros((0, 2), np.uint64)])
    omit = np.concatenate([*(o for st in order for o in st.omits), np.zeros(0, dtype=bool)])
    n_md = sum(len(h) for st in stored["markdown"] for h in st.hashes)
    return SpilledCorpus(
        folder=folder,
        results=results_at,
        terms=terms_at,
        n_markdown=n_md,
        n_sheets=len(hl) - n_md,
        original=originals(hl, omit),
        omitted=omit,
        discarded=tuple(discarded),
        reports=tuple(reports),
        accounts=tuple(accounts),
        errors=tuple(sorted(errors, key=lambda e: (e.source, e.stage))),
        glossary=glossary,
    )


def _segments(st: Stored, parts: int) -> list[Segment]:
    """One stored file's records cut into at most `parts` runs of about equal chunks, each
    written to its own files in a folder named after the spill (in order: output order)."""
    path = st.results
    sizes = [len(h) for h in st.hashes]
    raw = path.with_name(path.name + ".raw")
    raw_terms = st.terms.with_name(st.terms.name + ".raw")
    path.rename(raw)
    st.terms.rename(raw_terms)
    path.mkdir()
    total = sum(sizes)
    out: list[Segment] = []
    first, done = 0, 0
    for i, size in enumerate(sizes):
        done += size
        last = i == len(sizes) - 1
        if last or done * parts >= (len(out) + 1) * total:
            n = len(out)
            out.append(
                Segment(
                    raw=raw,
                    raw_terms=raw_terms,
                    at=st.offsets[first],
                    terms_at=st.terms_offsets[first],
                    count=i + 1 - first,
                    out=path / f"{n:04d}.spill",
                    out_terms=path / f"{n:04d}.terms",
                )
            )
            first = i + 1
    return out


def expand_segment(
    seg: Segment, glossary: Glossary, owns: Mapping[str, Mapping[str, str]], cfg: Config
) -> Rehashed:
    """The glossary pass over one segment: each record expanded with what its whole file
    defines (`glossary.expand_part`) and written anew with its token block; returns per
    record the dedupe key hashes of its chunks when the pass changed them, else None."""
    out = ArraySpill(seg.out_terms)
    final: Rehashed = []
    tokens = counter_for(cfg.tokenizer)
    with SpillWriter(seg.out) as writer:
        records = zip(
            read_spill(seg.raw, seg.at, seg.count),
            ArraySpill.read(seg.raw_terms, seg.terms_at, seg.count),
            strict=True,
        )
        for r, arrays in records:
            own = owns.get(r.source, {})
            got = expand_part(r.chunks, glossary, own, cfg, tokens, from_arrays(arrays))
            h = None
            if got is not None:
                r = FileResult(source=r.source, chunks=got.chunks)
                arrays, h = to_arrays(got.block), got.hashes
            writer.add(r)
            out.add(arrays)
            final.append(h)
    return final
