"""markdown_pieces: one Markdown document into pieces (sections -> sentences -> windows ->
tiny-section merge -> bullet merge); `layout_markdown` is what `inspect` shows of it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from notechunk.chunk import Piece, Pieces
from notechunk.config import Config
from notechunk.markdown.sections import BlockParser, ParsedMarkdown, parse_markdown_sections
from notechunk.markdown.tiny import common_parent, inline_text, merge_tiny_sections
from notechunk.markdown.windows import (
    Sentence,
    Window,
    make_window,
    merge_bullets,
    section_sentences,
    window_ranges,
)
from notechunk.segment.base import Segmenter
from notechunk.tokens import TokenCounter, load_counter

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkdownLayout:
    """Everything `inspect` shows: sections, their sentences, the final windows."""

    parsed: ParsedMarkdown
    sentences: tuple[tuple[Sentence, ...], ...]
    windows: tuple[Window, ...]


def layout_markdown(
    text: str,
    cfg: Config,
    segmenter: Segmenter,
    parser: BlockParser | MarkdownIt | None = None,
    tokens: TokenCounter | None = None,
) -> MarkdownLayout:
    md = cfg.markdown
    parsed = parse_markdown_sections(
        text, parser, bold_headings=md.bold_headings, heading_max_words=md.heading_max_words
    )
    cap = md.window_max_words
    sentences = tuple(tuple(section_sentences(s, segmenter, cap)) for s in parsed.sections)
    counts = _sentence_tokens(sentences, cfg, tokens)
    windows = [
        make_window(k, start, end, sents, toc=parsed.sections[k].toc)
        for k, sents in enumerate(sentences)
        for start, end in window_ranges([x.words for x in sents], md, counts[k])
    ]
    if cfg.enrich.merge_sections:
        paths = [s.path for s in parsed.sections]
        windows = merge_tiny_sections(windows, sentences, paths, cfg.markdown)
    merged = merge_bullets(windows, sentences, cfg.markdown)
    return MarkdownLayout(parsed=parsed, sentences=sentences, windows=tuple(merged))


def _sentence_tokens(
    sentences: tuple[tuple[Sentence, ...], ...], cfg: Config, tokens: TokenCounter | None
) -> list[list[int] | None]:
    """Each section's sentence token counts for `window_max_tokens`, counted in one batch."""
    if not cfg.markdown.window_max_tokens:
        return [None] * len(sentences)
    tokens = tokens or load_counter(cfg.tokenizer)
    flat = iter(tokens.count([s.text for sents in sentences for s in sents]))
    return [[next(flat) for _ in sents] for sents in sentences]


def window_text(window: Window, sentences: tuple[tuple[Sentence, ...], ...]) -> str:
    """Sentences of one block joined by a space, blocks and sections by a newline."""
    pieces: list[str] = []
    prev: tuple[int, int] | None = None
    for sec, start, end in window.parts:
        for s in sentences[sec][start:end]:
            key = (sec, s.unit)
            if pieces:  # a bullet starts a line even inside one paragraph ("• a • b")
                pieces.append(" " if key == prev and not s.bullet else "\n")
            text = s.text
            if text.startswith("\u2022"):  # ... and is a list item like any other ("- a")
                text = "- " + text[1:].lstrip()
            pieces.append(text)
            prev = key
    return "".join(pieces)


def markdown_pieces(
    text: str,
    source: str,
    cfg: Config,
    segmenter: Segmenter,
    parser: BlockParser | MarkdownIt | None = None,
    tokens: TokenCounter | None = None,
) -> Pieces:
    """The pieces of one document, in file order, with what the document says of itself
    (title, created, tags); a table of contents is a piece omitted as `toc`."""
    lay = layout_markdown(text, cfg, segmenter, parser, tokens)
    sections = lay.parsed.sections
    pieces: list[Piece] = []
    all_paths = [s.path for s in sections]
    for w in lay.windows:
        sents = [s for sec, i, j in w.parts for s in lay.sentences[sec][i:j]]
        paths = tuple(dict.fromkeys(sections[sec].path for sec, _, _ in w.parts))
        flags = ("merged_bullets",) if w.merged else ()
        text = window_text(w, lay.sentences)
        first, last = min(s.first_line for s in sents), max(s.last_line for s in sents)
        if w.inline:
            flags = (*flags, "merged_sections")
        if len(paths) > 1:  # sections merged (tiny ones, or bullets forward): the common
            # parent's path, every other section's heading inline, so each is indexed
            parent = common_parent(paths)
            secs = dict.fromkeys(sec for sec, _, _ in w.parts)
            labelled = replace(w, inline=tuple(s for s in secs if all_paths[s] != parent))
            render = lambda part: window_text(part, lay.sentences)  # noqa: E731
            text = inline_text(labelled, all_paths, render, parent)
            # the headings said inline are text: their lines are in the chunk's `lines`
            first = min(first, *(sections[s].lines[0] for s in labelled.inline))
        pieces.append(
            Piece(
                text=text,
                section_path=common_parent(paths) if len(paths) > 1 else paths[0],
                section_paths=paths if len(paths) > 1 else (),
                lines=(first, last),
                flags=flags,
                omit_reason="toc" if w.toc else None,
            )
        )
    parsed = lay.parsed
    return Pieces(
        source=source,
        source_type="markdown",
        pieces=tuple(pieces),
        title=parsed.title,
        created=parsed.created,
        tags=parsed.tags,
        flags=("recovered_text",) if parsed.recovered_lines else (),
        skipped=parsed.skipped,
    )
