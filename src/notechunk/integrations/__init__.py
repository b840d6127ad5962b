"""Adapters to retrieval frameworks, each an extra, imported only when used:

    notechunk.integrations.langchain    pip install 'notechunk[langchain]'
    notechunk.integrations.llamaindex   pip install 'notechunk[llamaindex]'

This module holds what they share and imports neither framework: a chunk's metadata made
safe for any vector store (flat str/int/float/bool values, no None, no lists) and the
choice of the text a framework embeds.
"""

from __future__ import annotations

from typing import Literal

from notechunk.chunk import Chunk
from notechunk.errors import UsageError

Content = Literal["embed_text", "text"]
Metadata = dict[str, str | int | float | bool]
CONTEXT_KEYS = ("title", "section_path")
CITATION_KEYS = ("source", "lines", "sheet", "row")


def chunk_metadata(chunk: Chunk) -> Metadata:
    """id, source, source_type, title, section_path and outline_path (" > "-joined), lines
    ("first-last"), sheet, row, quality, flags (", "-joined), word_count, token_count; keys
    whose value is empty or None are left out, so every value is a plain scalar.

    >>> from notechunk import chunk_markdown_text
    >>> (chunk,) = chunk_markdown_text("# A\\n\\n## B\\n\\nOne fact here.", source="a.md")
    >>> chunk_metadata(chunk)["section_path"], chunk_metadata(chunk)["lines"]
    ('A > B', '5-5')
    """
    meta: Metadata = {
        "id": chunk.id,
        "source": chunk.source,
        "source_type": chunk.source_type,
        "title": chunk.title,
        "quality": chunk.quality,
        "word_count": chunk.word_count,
    }
    if chunk.section_path:
        meta["section_path"] = " > ".join(chunk.section_path)
    if chunk.outline_path:
        meta["outline_path"] = " > ".join(chunk.outline_path)
    if chunk.lines is not None:
        meta["lines"] = f"{chunk.lines[0]}-{chunk.lines[1]}"
    if chunk.sheet is not None:
        meta["sheet"] = chunk.sheet
    if chunk.row is not None:
        meta["row"] = chunk.row
    if chunk.flags:
        meta["flags"] = ", ".join(chunk.flags)
    if chunk.token_count is not None:
        meta["token_count"] = chunk.token_count
    return meta


def content_of(chunk: Chunk, content: Content) -> str:
    """The text a framework stores and embeds: `embed_text` (context and text) or `text`."""
    if content == "embed_text":
        return chunk.embed_text
    if content == "text":
        return chunk.text
    raise UsageError(f"content must be 'embed_text' or 'text', not {content!r}")
