"""parse_markdown_sections: a Markdown file into sections with heading paths and line ranges.

Headings come from the CommonMark parser's block tokens, never from a regex over lines,
so `#` inside fenced or indented code is not a heading and setext headings count. Also
headings (SPEC §1.1): a OneNote/pandoc paragraph that is only `[Title]{.underline}` or
`<u>Title</u>` (one level below every `#` level); a paragraph that is only bold or marked
text, followed by content (one level below the current `#` level, `bold_headings`); HTML
`<h1>`..`<h6>`. A heading longer than `heading_max_words` is cut in the path and its full
text stays in the section. pandoc constructs the parser does not know (tables, fancy
lists) are handled around it (`prepare`); HTML blocks go through an HTML parser (`html`).
Text the parser does not return is recovered line by line, so no source line is lost.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from notechunk.chunk import SkippedLines
from notechunk.markdown.builder import Builder, Outline, place, recover
from notechunk.markdown.clean import clean_inline, drop_images, has_image, inline_code
from notechunk.markdown.frontmatter import read_front_matter, split_front_matter
from notechunk.markdown.headings import PANDOC_HEADING_LEVEL, bold_heading, pandoc_heading
from notechunk.markdown.html import html_items
from notechunk.markdown.logseq import LogseqState, block_ids, is_logseq
from notechunk.markdown.model import ParsedMarkdown, Section, Unit
from notechunk.markdown.obsidian import callout, drop_block_ids, inline_fields, take_tags
from notechunk.markdown.onenote import code_box, page_header
from notechunk.markdown.pandoc import is_page_number, marker_text
from notechunk.markdown.parse import (
    BlockParser,
    Token,
    UnitsToken,
    make_block_parser,
    make_parser,
)
from notechunk.markdown.prepare import prepare
from notechunk.markdown.rows import row_text
from notechunk.markdown.toc import toc_entry, toc_fence

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = [
    "BlockParser",
    "ParsedMarkdown",
    "Section",
    "Unit",
    "make_block_parser",
    "make_parser",
    "parse_markdown_sections",
    "split_front_matter",
]


_PANDOC_LEAD = frozenset("*_[<")
_BOLD_LEAD = frozenset("*_[<")


def parse_markdown_sections(
    text: str,
    parser: BlockParser | MarkdownIt | None = None,
    *,
    bold_headings: bool = True,
    heading_max_words: int = 15,
    parent_words: int = 12,
    refs: Mapping[str, str] | None = None,
) -> ParsedMarkdown:
    """Sections of one Markdown document (see the module docstring for the rules).

    `parser`: a BlockParser (default: a new one), or a markdown-it-py MarkdownIt to use
    the reference path only. Build it once per process and pass it for many files.
    A Logseq page (`logseq.is_logseq`) is read in that dialect, its block references
    resolved from `refs` (uuid -> the block's first line; its own blocks are added)."""
    fm, body = read_front_matter(text.replace("\r\n", "\n").replace("\r", "\n"))
    index: Mapping[str, str] | None = None
    if is_logseq(body):
        index = {**block_ids(body), **(refs or {})}
    prep = prepare(body, parser if parser is not None else BlockParser(), fm.lines, index)
    b = Builder(
        prep.lines,
        bold_headings=bold_headings,
        heading_max_words=heading_max_words,
        parent_words=parent_words,
    )
    covered = _walk(prep.tokens, b, prep.markers) + prep.covered
    b.finish()
    sections = b.sections
    recovered = recover(prep.lines, covered, fm.lines, b.skip)
    if recovered:
        sections = place(sections, recovered)
    sections, page_title, created, header = page_header(sections)
    if fm.lines:
        b.skip("front_matter", 1, fm.lines)
    for unit in header:
        b.skip("page_header", unit.first_line, unit.last_line)
    ls = prep.logseq
    properties = tuple(ls.properties) if ls is not None else ()
    return ParsedMarkdown(
        metadata=fm.metadata,
        sections=tuple(sections),
        recovered_lines=sum(u.last_line - u.first_line + 1 for u in recovered),
        title=fm.title or dict(properties).get("title") or page_title,
        created=created or fm.metadata.get("created") or None,
        tags=tuple(dict.fromkeys([*fm.tags, *(ls.tags if ls else ()), *b.tags])),
        skipped=(*prep.skipped, *b.skipped, *_dropped(ls)),
        properties=properties,
        unresolved=tuple(ls.unresolved) if ls is not None else (),
    )


def _dropped(ls: LogseqState | None) -> tuple[SkippedLines, ...]:
    """What the Logseq dialect took out as metadata, each line with its reason."""
    if ls is None:
        return ()
    return tuple(
        SkippedLines(first=line, last=line, reason=reason, text=text)
        for reason, line, text in ls.dropped
    )


def _inline_source(content: str) -> str:
    """A block's inline text with continuation lines' indentation dropped, as rendering
    does (the parsers disagree on how much of it they keep)."""
    if "\n" not in content:
        return content
    return "\n".join(line.lstrip(" \t") for line in content.split("\n"))


def _prose(b: Builder, prefix: str, text: str, first: int, last: int, toc: int = 0) -> None:
    """A prose unit (list marker `prefix` kept, its indentation too); tags go to metadata."""
    text, tags = take_tags(drop_block_ids(text))
    b.tags.extend(tags)
    text = text.strip()
    if text and text not in ("-", "*", "+"):  # a lone marker: an empty item read as text
        unit = Unit(kind="prose", text=prefix + text, first_line=first, last_line=last)
        b.add(unit, toc, lead=text)
    else:
        b.skip(_empty_reason(b.lines[first - 1 : last], tags), first, last)


_SETEXT = re.compile(r"[ \t>]*(?:[-*+][ \t]+)?(?:=+|-+)[ \t]*")


def _heading_source(raw: str) -> str:
    """A heading's text without its images: an icon or figure beside the words (a Word
    export puts the figure's alt text, "Shape Description automatically generated", in
    the heading) is not its title; a heading that is only an image keeps it."""
    bare = drop_images(raw)
    return bare if bare.strip() else raw


def _alone_in_item(tokens: Sequence[Token], after: int) -> bool:
    """The list item's heading (`- ## X`) is all the item holds: with no children it
    heads nothing, so it stays an item's text (else its words would be in no chunk)."""
    return after >= len(tokens) or tokens[after].type == "list_item_close"


def _empty_reason(lines: list[str], tags: list[str]) -> str:
    """Why a block left no text: an image, a comment, tags only, or markup only."""
    raw = "\n".join(lines)
    if has_image(raw):
        return "image"
    if "<!--" in raw:
        return "comment"
    return "tags" if tags else "markup"


def _walk(tokens: Sequence[Token], b: Builder, markers: dict[int, str]) -> list[tuple[int, int]]:
    """Feed tokens to the builder; return the (0-based, end-exclusive) line spans consumed."""
    covered: list[tuple[int, int]] = []
    prefixes: list[str] = []
    pending_prefix = ""
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        t = tok.type
        if tok.map is not None and t in ("fence", "code_block", "html_block", "hr"):
            covered.append((tok.map[0], tok.map[1]))
            if t == "hr":
                b.skip("rule", tok.map[0] + 1, tok.map[1])
        if t == "paragraph" or t == "heading":  # a block and its text in one token (Rust)
            step = 1
        elif t == "paragraph_open" or t == "heading_open":  # open, inline, close (Python)
            step = 3 if i + 1 < n else 0
        else:
            step = 0
        if step and tok.map is not None:
            covered.append((tok.map[0], tok.map[1]))
            raw = _inline_source((tok if step == 1 else tokens[i + 1]).content)
            first, last = tok.map[0] + 1, tok.map[1]
            if t[0] == "h":
                if last > first and _SETEXT.fullmatch(b.lines[last - 1]):  # its underline
                    b.skip("markup", last, last)
                title, tags = take_tags(clean_inline(_heading_source(raw)).strip())
                b.tags.extend(tags)
                title = " ".join(title.split())
                if tok.level == 0 and title:
                    b.heading(int(tok.tag[1:]), title, first, raw=raw)
                    b.skip("heading", first, last)
                elif (
                    title
                    and pending_prefix
                    and tok.level == 2 * len(prefixes)
                    and not _alone_in_item(tokens, i + step)
                ):
                    b.heading(int(tok.tag[1:]), title, first, raw=raw)  # `- ## X`
                    b.heading_item()
                    b.skip("heading", first, last)
                    pending_prefix = ""
                elif title:
                    _prose(b, pending_prefix, title, first, last)
                    pending_prefix = ""
                else:
                    b.skip("empty_heading", first, last)
            else:
                pending_prefix = _paragraph(b, raw, first, last, tok.level, pending_prefix)
            i += step
            continue
        if t == "list_item_open":
            if tok.map is not None and i + 1 < n and tokens[i + 1].type == "list_item_close":
                b.skip("empty_item", tok.map[0] + 1, tok.map[0] + 1)  # a marker alone
            indent = "  " * len(prefixes)  # nesting shows as indentation
            fancy = markers.get(tok.map[0]) if tok.map is not None else None
            if fancy is not None:
                marker = f"{indent}{marker_text(fancy)} "
            else:
                marker = indent + (f"{tok.info}{tok.markup} " if tok.info else "- ")
            prefixes.append(marker)
            pending_prefix = marker
            b.open_item()
        elif t == "list_item_close":
            if prefixes:
                prefixes.pop()
            b.close_item()
            pending_prefix = ""  # an empty item: keep nothing, but do not leak its marker
        elif t in ("fence", "code_block") and tok.map is not None:
            info = tok.info.strip() if t == "fence" else ""
            body = tok.content.rstrip("\n")
            if body.strip() or toc_fence(info):
                unit = Unit(
                    kind="code",
                    text=f"```{info}\n{body}\n```",
                    first_line=tok.map[0] + 1,
                    last_line=tok.map[1],
                )
                b.add(unit, 2 if toc_fence(info) else 0)
            else:
                b.skip("empty_code", tok.map[0] + 1, tok.map[1])
        elif t == "html_block" and tok.map is not None:
            i = _html(tokens, i, b, pending_prefix, covered)
            pending_prefix = ""
            continue
        elif t == "table_open" and tok.map is not None:
            covered.append((tok.map[0], tok.map[1]))
            # its header and delimiter row (at any depth: a table in a list item too): the
            # names are in every row
            b.skip("table_header", tok.map[0] + 1, min(tok.map[0] + 2, tok.map[1]))
            i = _table(tokens, i, b)
            continue
        elif isinstance(tok, UnitsToken):
            for unit in tok.units:
                b.add(unit)
        i += 1
    return covered


def _paragraph(b: Builder, raw: str, first: int, last: int, level: int, prefix: str) -> str:
    """One paragraph's unit (or heading); returns the list prefix still pending."""
    lead = raw[:1]  # each special form starts with one of a few characters: test that first
    if level == 0 and lead in _PANDOC_LEAD:
        title = pandoc_heading(raw)
        if title is not None:
            b.heading(PANDOC_HEADING_LEVEL, title, first, real=False)
            b.skip("heading", first, last)
            return prefix
    box = callout(raw) if lead == "[" else None
    if box is not None:
        title, body = box
        _prose(b, prefix, clean_inline(title), first, first)
        if body.strip():
            _prose(b, "", clean_inline(inline_fields(body)), min(first + 1, last), last)
        return ""
    if level == 0 and b.bold_headings and not prefix and lead in _BOLD_LEAD:
        title = bold_heading(raw)
        if title is not None:
            b.candidate(title, Unit(kind="prose", text=title, first_line=first, last_line=last))
            return prefix
    text = clean_inline(inline_fields(raw)).strip()
    if level == 0 and not prefix and len(text) <= 40 and is_page_number(text):
        b.skip("page_number", first, last)
        return prefix
    _prose(b, prefix, text, first, last, 1 if toc_entry(raw) else 0)
    return ""


def _html(
    tokens: Sequence[Token], i: int, b: Builder, prefix: str, covered: list[tuple[int, int]]
) -> int:
    """One HTML block (joined with the next ones while a `<table>` is still open)."""
    tok = tokens[i]
    assert tok.map is not None
    first, last = tok.map[0] + 1, tok.map[1]
    parts = [tok.content]
    level = tok.level
    i += 1
    while _open_table(parts) and i < len(tokens) and tokens[i].type == "html_block":
        nxt = tokens[i]
        if nxt.map is not None:
            covered.append((nxt.map[0], nxt.map[1]))
            last = nxt.map[1]
        parts.append(nxt.content)
        i += 1
    before = b.added
    heading = False
    cards: list[Outline] = []
    for item in html_items("\n".join(parts)):
        if item.kind == "card":  # a block with its own heading: a section until its end
            if level == 0:
                cards.append(b.outline())
            continue
        if item.kind == "end":
            if cards:
                b.restore(cards.pop(), last + 1)
            continue
        if item.kind == "heading" and level == 0:
            b.heading(item.level, item.text, first)
            heading = True
        elif item.kind == "row":
            b.add(Unit(kind="row", text=item.text, first_line=first, last_line=last))
        else:
            text = item.text.lstrip(" ")  # a nested HTML list item keeps its indentation
            _prose(b, prefix + item.text[: len(item.text) - len(text)], text, first, last)
            prefix = ""
    if heading and b.added == before:  # a block of headings only
        b.skip("heading", first, last)
    elif not heading and b.added == before and not b.skipped_at(first):
        b.skip(_empty_reason(b.lines[first - 1 : last], []), first, last)
    return i


def _open_table(parts: list[str]) -> bool:
    html = parts[-1].lower() if len(parts) == 1 else "\n".join(parts).lower()
    return html.count("<table") > html.count("</table")


def _box_cell(b: Builder, cell: str, written: str, line: int) -> None:
    """A layout box's cell: code as written when it reads as code, else prose."""
    if not code_box(cell):
        _prose(b, "", cell, line, line)
        return
    code = "\n".join(part.rstrip() for part in inline_code(written).split("\n")).strip()
    b.add(Unit(kind="code", text=f"```\n{code}\n```", first_line=line, last_line=line))


def _lone_marker(b: Builder, line: int) -> bool:
    return 0 < line <= len(b.lines) and b.lines[line - 1].strip() in ("-", "*", "+")


def _table(tokens: Sequence[Token], i: int, b: Builder) -> int:
    """One unit per body row, as `Header: value` pairs, so a cell keeps its column name.

    A table whose header cells are all empty is a layout box (OneNote packs notes into
    one-cell tables with `<br>`): each cell is prose, its line breaks kept, or a code unit
    when its lines read as code (`onenote.code_box`: OneNote's code boxes)."""
    headers: list[str] = []
    row: list[str] = []
    raw: list[str] = []  # the row's cells as written
    row_line = 0
    in_head = False
    while i < len(tokens) and tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "thead_open":
            in_head = True
        elif tok.type == "thead_close":
            in_head = False
        elif tok.type == "tr_open":
            row, raw = [], []
            row_line = (tok.map[0] + 1) if tok.map else 0
        elif tok.type == "inline":
            row.append(clean_inline(tok.content).strip())
            raw.append(tok.content)
        elif tok.type == "tr_close":
            if _lone_marker(b, row_line):  # an empty bullet the Rust parser reads as a row
                b.skip("empty_item", row_line, row_line)  # (markdown-it-py does not)
            elif in_head:
                headers = row
            elif not any(headers):
                for cell, written in zip(row, raw, strict=True):
                    _box_cell(b, cell, written, row_line)
            else:
                text = row_text(headers, row)
                b.add(Unit(kind="row", text=text, first_line=row_line, last_line=row_line))
        i += 1
    return i + 1
