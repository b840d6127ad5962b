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
    """One file's token block (None past `WHOLE_BLOCK` chunks) and glossary statistics."""

    block: TermBlock | None
    glossary: GlossaryStats


def file_inputs(result: FileResult) -> FileInputs:
    chunks = result.chunks
    block = term_block(chunks) if len(chunks) <= WHOLE_BLOCK else None
    return FileInputs(block, glossary_stats(chunks))
