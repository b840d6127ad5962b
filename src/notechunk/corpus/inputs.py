"""The corpus passes' map step: what each pass needs of one file, made where the file was
processed (a pool worker, a Ray task), so the parent never re-reads a chunk's text for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from notechunk.chunk import FileResult
from notechunk.corpus.scores.termblock import TermBlock, term_block
from notechunk.enrich.glossary import GlossaryStats, glossary_stats

WHOLE_BLOCK = 50_000
"""A file of more chunks gets no token block here: the spill makes one a record at a
time, so a million-row sheet's tokens are never held whole next to its chunks."""


@dataclass(frozen=True, slots=True)
class FileInputs:
    """One file's token block (None past `WHOLE_BLOCK` chunks), glossary statistics and
    the acronyms it defines (`enrich.glossary.file_definitions`, what the glossary pass
    reads of the whole file when it expands a part of it)."""

    block: TermBlock | None
    glossary: GlossaryStats
    defines: dict[str, str]


def file_inputs(result: FileResult) -> FileInputs:
    chunks = result.chunks
    block = term_block(chunks) if len(chunks) <= WHOLE_BLOCK else None
    stats = glossary_stats(chunks)
    return FileInputs(block, stats, defined_in(stats))


def defined_in(stats: GlossaryStats) -> dict[str, str]:
    """The file's definitions from its own statistics, read off instead of found again:
    each acronym with the first long form given (`glossary_stats` keeps them in the
    order given), equal to `file_definitions` of the same chunks."""
    return {acr: next(iter(longs)) for acr, longs in stats.defined.items()}
