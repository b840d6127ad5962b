"""Chunks made by hand for tests: every required field filled with a plain default, the
place given as `lines` (Markdown) or `sheet`/`row`/`group` (a sheet row)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from notechunk.chunk import Chunk, Location, MarkdownSpan, SheetCell
from notechunk.config import Config
from notechunk.finish import finish_file
from notechunk.finish.quality import assess
from notechunk.finish.semantic import semantic_type
from notechunk.markdown import markdown_pieces
from notechunk.markdown.sections import BlockParser
from notechunk.segment.base import Segmenter
from notechunk.tokens import TokenCounter


def make_chunk(
    *,
    text: str,
    source: str = "x.md",
    source_type: str = "markdown",
    lines: tuple[int, int] | None = None,
    sheet: str | None = None,
    row: int | None = None,
    group: str | None = None,
    cls: type[Chunk] = Chunk,
    **fields: Any,
) -> Chunk:
    location: Location
    if source_type == "spreadsheet":
        location = SheetCell(sheet or "Sheet1", row if row is not None else 2, group)
    else:
        location = MarkdownSpan(*(lines or (1, 1)))
    base: dict[str, Any] = {
        "id": "",
        "section_path": (),
        "title": "",
        "embed_text": "",
        "word_count": 0,
        "quality": "ok",
        "omit": False,
        "flags": (),
        "semantic_type": semantic_type(text, source_type),  # type: ignore[arg-type]
    }
    return cls(
        text=text,
        source=source,
        source_type=source_type,  # type: ignore[arg-type]
        location=location,
        **{**base, **fields},
    )


def label(chunk: Chunk, cfg: Config) -> Chunk:
    """The chunk with `word_count`, `quality` and `omit` computed from its text, as
    finishing labels it (a chunk already omitted by its runner stays omitted)."""
    words, quality, omit, extra = assess(chunk.text, chunk.source_type, cfg, chunk.token_count)
    return replace(
        chunk,
        word_count=words,
        quality=quality,
        omit=omit or chunk.omit,
        flags=(*chunk.flags, *extra),
    )


def chunk_markdown(
    text: str,
    source: str,
    cfg: Config,
    segmenter: Segmenter,
    parser: BlockParser | None = None,
    tokens: TokenCounter | None = None,
) -> list[Chunk]:
    """Finished chunks of one document, in file order (`markdown_pieces`, then
    `finish_file`), with a chosen segmenter."""
    pieces = markdown_pieces(text, source, cfg, segmenter, parser, tokens)
    return list(finish_file(pieces, cfg, tokens))
