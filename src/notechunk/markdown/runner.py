"""markdown_pieces: one Markdown document into pieces (sections -> sentences -> windows ->
tiny-section merge -> bullet merge); `layout_markdown` is what `inspect` shows of it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from notechunk.chunk import Piece, Pieces
from notechunk.config import Config
from notechunk.markdown.builder import first_words
from notechunk.markdown.logseq import journal_date, namespace_title
from notechunk.markdown.model import Section, Unit
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
from notechunk.terms import UNSPACED_CHARS
from notechunk.tokens import TokenCounter, load_counter

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


_UNSPACED = re.compile(f"[{UNSPACED_CHARS}「『（(]")
_UNSPACED_END = re.compile(f"[{UNSPACED_CHARS}。！？」』）)]$")


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
    refs: Mapping[str, str] | None = None,
) -> MarkdownLayout:
    md = cfg.markdown
    parsed = parse_markdown_sections(
        text,
        parser,
        bold_headings=md.bold_headings,
        heading_max_words=md.heading_max_words,
        parent_words=md.parent_words,
        refs=refs,
    )
    cap = md.window_max_words
    sentences = tuple(tuple(section_sentences(s, segmenter, cap)) for s in parsed.sections)
    counts = _sentence_tokens(sentences, cfg, tokens)
    windows = [
        make_window(k, start, end, sents, toc=parsed.sections[k].toc)
        for k, sents in enumerate(sentences)
        for start, end in window_ranges(
            [x.words for x in sents],
            md,
            counts[k],
            _leads(parsed.sections[k], sents),
            _heads(parsed.sections[k], sents) if md.whole_entries else None,
        )
    ]
    if cfg.enrich.merge_sections:
        paths = [s.path for s in parsed.sections]
        windows = merge_tiny_sections(windows, sentences, paths, cfg.markdown)
    merged = merge_bullets(windows, sentences, cfg.markdown)
    return MarkdownLayout(parsed=parsed, sentences=sentences, windows=tuple(merged))


def _leads(section: Section, sentences: tuple[Sentence, ...]) -> list[bool] | None:
    """Per sentence: its unit is an outline item whose children come next (a lead-in)."""
    units = section.units
    parents = [
        u.depth > 0 and k + 1 < len(units) and units[k + 1].depth > u.depth
        for k, u in enumerate(units)
    ]
    return [parents[s.unit] for s in sentences] if any(parents) else None


# an entry: a unit that opens with its number ("12.", "(3)", "b)") or a reference's "[12]"
_ENTRY = re.compile(r"[ \t]*(?:[0-9]{1,4}[.)]|\([0-9]{1,4}\)|\[[0-9]{1,4}\]|[A-Za-z][.)])[ \t]")


def _heads(section: Section, sentences: tuple[Sentence, ...]) -> list[int] | None:
    """Per sentence: the first sentence of the entry (a numbered item, paragraph or
    reference) it is in, its own index when in none; None when no entry has two."""
    units = section.units
    entry = [u.kind == "prose" and _ENTRY.match(u.text) is not None for u in units]
    heads: list[int] = []
    cut = False
    for i, s in enumerate(sentences):
        if i and entry[s.unit] and sentences[i - 1].unit == s.unit:
            heads.append(heads[-1])
            cut = True
        else:
            heads.append(i)
    return heads if cut else None


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
    """Sentences of one block joined by a space (none between Chinese or Japanese
    sentences, written without one), blocks and sections by a newline."""
    pieces: list[str] = []
    prev: tuple[int, int] | None = None
    for sec, start, end in window.parts:
        for s in sentences[sec][start:end]:
            key = (sec, s.unit)
            if pieces:  # a bullet starts a line even inside one paragraph ("• a • b")
                if key != prev or s.bullet:
                    pieces.append("\n")
                elif not (_UNSPACED_END.search(pieces[-1]) and _UNSPACED.match(s.text)):
                    pieces.append(" ")
            text = s.text
            if text.startswith("\u2022"):  # ... and is a list item like any other ("- a")
                text = "- " + text[1:].lstrip()
            pieces.append(text)
            prev = key
    return "".join(pieces)


def _dedent(text: str) -> str:
    """A window that starts at a nested item, shifted left by that item's indentation,
    so its items keep their depths relative to the first one (the first line's own
    indentation would be stripped alone)."""
    if not text.startswith(" "):
        return text
    lines = text.split("\n")
    n = len(lines[0]) - len(lines[0].lstrip(" "))
    return "\n".join(line[min(n, len(line) - len(line.lstrip(" "))) :] for line in lines)


_MARKER = re.compile(r"^\s*(?:[-*+]|[0-9]{1,9}[.)]|[A-Za-z]{1,3}[.)])[ \t]+")


def _outline_of(
    units: Sequence[Unit], sentences: Sequence[Sentence], first: int, n: int
) -> tuple[str, ...]:
    """The outline a window starting at sentence `first` stands under: its unit's
    parents, and, when it starts after the unit's first sentence (a long item cut
    between windows), the unit's own opening words, which say what the rest is about."""
    unit = sentences[first].unit
    outline = units[unit].outline
    if units[unit].depth and first and sentences[first - 1].unit == unit:
        return (*outline, first_words(_MARKER.sub("", units[unit].text, count=1), n))
    return outline


def markdown_pieces(
    text: str,
    source: str,
    cfg: Config,
    segmenter: Segmenter,
    parser: BlockParser | MarkdownIt | None = None,
    tokens: TokenCounter | None = None,
    refs: Mapping[str, str] | None = None,
) -> Pieces:
    """The pieces of one document, in file order, with what the document says of itself
    (title, created, tags, properties); a table of contents is a piece omitted as `toc`.
    `refs`: the corpus' Logseq block index (uuid -> the block's first line); a piece
    whose lines held a reference not in it is flagged `unresolved_ref`. A piece that
    starts inside an outline carries its first item's parents (`outline_path`)."""
    lay = layout_markdown(text, cfg, segmenter, parser, tokens, refs)
    sections = lay.parsed.sections
    unresolved = lay.parsed.unresolved
    parent_words = cfg.markdown.parent_words
    pieces: list[Piece] = []
    all_paths = [s.path for s in sections]
    for w in lay.windows:
        sents = [s for sec, i, j in w.parts for s in lay.sentences[sec][i:j]]
        paths = tuple(dict.fromkeys(sections[sec].path for sec, _, _ in w.parts))
        flags = ("merged_bullets",) if w.merged else ()
        text = _dedent(window_text(w, lay.sentences))
        first, last = min(s.first_line for s in sents), max(s.last_line for s in sents)
        if unresolved and any(first <= k <= last for k in unresolved):
            flags = (*flags, "unresolved_ref")
        sec0, first0, _ = w.parts[0]
        outline = _outline_of(sections[sec0].units, lay.sentences[sec0], first0, parent_words)
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
                outline_path=outline,
                flags=flags,
                omit_reason="toc" if w.toc else None,
            )
        )
    parsed = lay.parsed
    title, created = parsed.title, parsed.created
    if title is None:  # a Logseq namespace page's name (its title path) or journal day
        day = journal_date(source)
        title = namespace_title(source) or day
        created = created or day
    return Pieces(
        source=source,
        source_type="markdown",
        pieces=tuple(pieces),
        title=title,
        properties=parsed.properties,
        created=created,
        tags=parsed.tags,
        flags=("recovered_text",) if parsed.recovered_lines else (),
        skipped=parsed.skipped,
    )
