"""The corpus passes over a corpus on disk (`run`'s path: memory flat in corpus size).

`spill` writes each file's chunks and token block as they arrive (Markdown and sheets
apart, so reading them back gives output order), keeping per chunk only a 128-bit hash of
its dedupe key and its omit bit; `originals` (corpus.py) dedupes on the hashes;
`deduped` reads the chunks back with duplicates marked exactly as `corpus.dedupe` marks
them; `spilled_scores` runs the three retrieval passes over the spilled token blocks.
Each is a function over iterables of blocks, with the statistics (`CorpusStats`) explicit,
so another engine can run the same passes on blocks of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, DiscardedRow, FileError, FileResult, SheetReport
from notechunk.config import Config
from notechunk.corpus import dedupe_key, key_hash, originals
from notechunk.enrich.glossary import (
    Glossary,
    GlossaryStats,
    build_glossary,
    expand_acronyms,
    file_defines,
    glossary_stats,
    merge_all,
)
from notechunk.io.spill import ArraySpill, SpillWriter, read_spill
from notechunk.qa.retrievability import CorpusStats, build_index, merge_stats, score_block
from notechunk.qa.termblock import (
    TermBlock,
    concat,
    doc_range,
    from_arrays,
    subset,
    term_block,
    to_arrays,
)

SCORE_BLOCK = 8_192


@dataclass(frozen=True, slots=True, kw_only=True)
class SpilledCorpus:
    """A corpus on disk: Markdown and sheet results spilled in discovery order, and what
    the passes need in memory (per chunk: 8 bytes of dedupe result and an omit bit).

    `original[i]` is -1, or the output ordinal of the chunk that chunk i duplicates;
    `glossary` is the corpus glossary (acronyms expanded in the spilled chunks when
    `enrich.acronyms` is on).
    """

    folder: Path
    markdown: Path
    sheets: Path
    terms: tuple[Path, Path]  # token blocks per file: Markdown, then sheets
    n_markdown: int
    n_sheets: int
    original: NDArray[np.int64]
    discarded: tuple[DiscardedRow, ...] = ()
    reports: tuple[SheetReport, ...] = ()
    errors: tuple[FileError, ...] = ()
    glossary: Glossary | None = None

    omitted: NDArray[np.bool_]  # omitted by its runner or its label (before dedupe)

    @property
    def surviving(self) -> int:
        """Chunks that reach chunks.jsonl.gz."""
        return int(np.count_nonzero(~self.omitted & (self.original < 0)))


_KINDS = ("markdown", "spreadsheet")
_MERGE_EVERY = 256  # glossary statistics merged every so many files (memory stays small)
_RECORD = 8_192  # chunks per spill record: a million-row sheet is never encoded at once


def spill(
    results: Iterable[tuple[FileResult, TermBlock | None, GlossaryStats | None]],
    folder: Path,
    cfg: Config,
    discovery_errors: Iterable[FileError] = (),
    user: Sequence[tuple[str, str]] = (),
) -> SpilledCorpus:
    """Pass 0: every file's result to disk as it arrives, with its token block, Markdown
    and sheets apart (output order is Markdown, then sheets), its dedupe key hashes and
    its glossary statistics (block and statistics made here when None, as the workers
    make them); only small records stay in memory.
    Then the glossary (with the `user` entries) and, when `enrich.acronyms` expands
    anything, pass 1 (`_expanded`): the spill rewritten with the final `embed_text`."""
    hashes: dict[str, list[NDArray[np.uint64]]] = {k: [] for k in _KINDS}
    omits: dict[str, list[NDArray[np.bool_]]] = {k: [] for k in _KINDS}
    discarded: list[DiscardedRow] = []
    reports: list[SheetReport] = []
    errors = list(discovery_errors)
    stats: list[GlossaryStats] = []
    owns: dict[str, set[str]] = {}  # with enrich.acronyms: what each file defines
    paths = {"markdown": folder / "markdown.spill", "spreadsheet": folder / "sheets.spill"}
    terms = {k: ArraySpill(folder / f"{k}.terms") for k in _KINDS}
    with SpillWriter(paths["markdown"]) as md, SpillWriter(paths["spreadsheet"]) as sh:
        writers = {"markdown": md, "spreadsheet": sh}
        for r, block, gstats in results:
            if block is None:
                block = term_block(r.chunks)
            for kind in _KINDS:
                mask = np.asarray([c.source_type == kind for c in r.chunks], dtype=bool)
                if not mask.any():
                    continue
                mine = [c for c in r.chunks if c.source_type == kind]
                kblock = block if mask.all() else subset(block, mask)
                for lo in range(0, len(mine), _RECORD):
                    part = tuple(mine[lo : lo + _RECORD])
                    writers[kind].add(FileResult(source=r.source, chunks=part))
                    whole = len(part) == len(mine)
                    terms[kind].add(
                        to_arrays(kblock if whole else doc_range(kblock, lo, lo + len(part)))
                    )
                    hashes[kind].append(_key_hashes(part, cfg))
                    omits[kind].append(np.asarray([c.omit for c in part], dtype=bool))
            if cfg.enrich.acronyms:
                owns[r.source] = file_defines(r.chunks)
            stats.append(glossary_stats(r.chunks) if gstats is None else gstats)
            if len(stats) >= _MERGE_EVERY:
                stats = [merge_all(stats)]
            discarded += r.discarded
            reports += r.reports
            errors += r.errors
    glossary = build_glossary(merge_all(stats), user)
    if cfg.enrich.acronyms and glossary.entries:
        for kind in _KINDS:
            hashes[kind] = _expanded(paths[kind], terms[kind].path, glossary, owns, cfg)
    hl = np.concatenate([*hashes["markdown"], *hashes["spreadsheet"], np.zeros((0, 2), np.uint64)])
    omit = np.concatenate([*omits["markdown"], *omits["spreadsheet"], np.zeros(0, dtype=bool)])
    n_md = sum(len(h) for h in hashes["markdown"])
    return SpilledCorpus(
        folder=folder,
        markdown=paths["markdown"],
        sheets=paths["spreadsheet"],
        terms=(terms["markdown"].path, terms["spreadsheet"].path),
        n_markdown=n_md,
        n_sheets=len(hl) - n_md,
        original=originals(hl[:, 0], hl[:, 1], omit),
        omitted=omit,
        discarded=tuple(discarded),
        reports=tuple(reports),
        errors=tuple(sorted(errors, key=lambda e: (e.source, e.stage))),
        glossary=glossary,
    )


def _key_hashes(chunks: Sequence[Chunk], cfg: Config) -> NDArray[np.uint64]:
    keys = [key_hash(dedupe_key(c, cfg.dedupe)) for c in chunks]
    return np.asarray(keys, dtype=np.uint64).reshape(-1, 2)


def _expanded(
    spilled: Path,
    term_path: Path,
    glossary: Glossary,
    owns: Mapping[str, Set[str]],
    cfg: Config,
) -> list[NDArray[np.uint64]]:
    """Pass 1: each spill record's chunks with acronyms expanded (`expand_acronyms`, with
    what their whole file defines), written anew with its token block (made again only where a text
    changed); returns the dedupe key hashes of the final chunks."""
    raw = spilled.with_name(spilled.name + ".raw")
    raw_terms = term_path.with_name(term_path.name + ".raw")
    spilled.rename(raw)
    term_path.rename(raw_terms)
    out = ArraySpill(term_path)
    hashes: list[NDArray[np.uint64]] = []
    with SpillWriter(spilled) as writer:
        for r, arrays in zip(read_spill(raw), ArraySpill.read(raw_terms), strict=True):
            chunks = tuple(expand_acronyms(r.chunks, glossary, owns.get(r.source, set())))
            if any(a is not b for a, b in zip(chunks, r.chunks, strict=True)):
                r, arrays = (
                    FileResult(source=r.source, chunks=chunks),
                    to_arrays(term_block(chunks)),
                )
            writer.add(r)
            out.add(arrays)
            hashes.append(_key_hashes(chunks, cfg))
    raw.unlink()
    raw_terms.unlink()
    return hashes


def deduped(sc: SpilledCorpus) -> Iterator[Chunk]:
    """Every chunk in output order, duplicates marked as `dedupe` marks them."""
    results = (r for path in (sc.markdown, sc.sheets) for r in read_spill(path))
    return mark_duplicates(results, sc.original)


def mark_duplicates(results: Iterable[FileResult], original: NDArray[np.int64]) -> Iterator[Chunk]:
    """The chunks of `results` (in output order), each duplicate marked (`original[i]`:
    the ordinal of the chunk it repeats, from `corpus.originals`)."""
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


def with_score(c: Chunk, score: float) -> Chunk:
    """`replace(c, retrieval_score=score)` at half the cost (a copy of the slots): the
    write pass makes one per chunk."""
    new = object.__new__(Chunk)
    for name in _SLOTS:
        object.__setattr__(new, name, getattr(c, name))
    object.__setattr__(new, "retrieval_score", score)
    return new


_SLOTS: tuple[str, ...] = tuple(f.name for f in fields(Chunk))


def scored(chunks: Iterable[Chunk], scores: NDArray[np.float64]) -> Iterator[Chunk]:
    """Each chunk with its retrieval score, rounded to 4 decimals (SPEC §2)."""
    for c, s in zip(chunks, scores, strict=True):
        yield with_score(c, round(float(s), 4))


def spilled_scores(sc: SpilledCorpus, block_size: int = SCORE_BLOCK) -> NDArray[np.float64]:
    """Retrieval score of every chunk in output order, unrounded (qa.retrievability's
    three passes: statistics while the indexed chunks' token blocks are gathered and
    spilled, the index, then each block's queries)."""
    indexed = sc.original < 0
    gathered = ArraySpill(sc.folder / "index.terms")

    def per_file() -> Iterator[tuple[TermBlock, NDArray[np.bool_]]]:
        start = 0
        for path in sc.terms:
            for arrays in ArraySpill.read(path):
                block = from_arrays(arrays)
                yield block, indexed[start : start + block.n_docs]
                start += block.n_docs

    def counted() -> Iterator[CorpusStats]:
        for block in index_blocks(per_file(), block_size):
            yield _gather(block, gathered)

    def spilled() -> Iterator[TermBlock]:
        return (from_arrays(a) for a in ArraySpill.read(gathered.path))

    stats = merge_stats(counted())
    index = build_index(spilled(), stats)
    per_doc: list[NDArray[np.float64]] = []
    offset = 0
    for tb in spilled():
        per_doc.append(score_block(tb, index, offset))
        offset += tb.n_docs
    del index
    gathered.path.unlink(missing_ok=True)
    return chunk_scores(np.concatenate(per_doc) if per_doc else np.zeros(0), sc.original)


def index_blocks(
    blocks: Iterable[tuple[TermBlock, NDArray[np.bool_]]], block_size: int = SCORE_BLOCK
) -> Iterator[TermBlock]:
    """The indexed chunks (`keep`) of consecutive token blocks, regrouped into blocks of at
    least `block_size` chunks (the last may be smaller): the retrieval passes' unit."""
    pending: list[TermBlock] = []
    count = 0
    for block, keep in blocks:
        pending.append(block if keep.all() else subset(block, keep))
        count += pending[-1].n_docs
        if count >= block_size:
            yield concat(pending)
            pending, count = [], 0
    if pending:
        yield concat(pending)


def chunk_scores(
    doc_score: NDArray[np.float64], original: NDArray[np.int64]
) -> NDArray[np.float64]:
    """Each chunk's score from its indexed document's (`doc_score`, in index order); a
    duplicate gets its original's."""
    indexed = original < 0
    doc_of = np.cumsum(indexed) - 1
    dup = ~indexed
    doc_of[dup] = doc_of[original[dup]]
    return doc_score[doc_of] if len(doc_of) else np.zeros(0)


def _gather(block: TermBlock, out: ArraySpill) -> CorpusStats:
    out.add(to_arrays(block))
    return CorpusStats.of_block(block)
