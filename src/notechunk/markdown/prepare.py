"""What the block parser reads: the text with the constructs it does not know handled
first, around a first parse that says which lines are code.

A first parse gives the fenced code and HTML blocks (never touched); an indented "code
block" that is an outline (tab-indented bullets under a heading) is moved left so it
parses as the list it is; a Logseq page's lines are rewritten by its dialect's rules
(`logseq`). Then, outside code: Obsidian `%%comments%%` are blanked; Admonition-plugin
fences (```` ```ad-note ````) lose their fence and parameter lines so their Markdown body
is parsed as Markdown (the title becomes a unit), and so do MyST admonition directives;
MkDocs, Docusaurus and MyST colon admonitions are unwrapped (`coursesite`: the title a
unit, the body Markdown); pandoc simple, multiline and grid tables become row units and
their lines are blanked; pandoc fancy-list markers are rewritten to CommonMark ones of the
same width. When any of that changed the text, it is parsed again (when only admonitions
were found, only their bodies are) and the units found here are put into the token stream
at their lines. Line numbers never change.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from notechunk.chunk import SkippedLines
from notechunk.markdown import coursesite
from notechunk.markdown.logseq import LogseqState, apply
from notechunk.markdown.model import Unit
from notechunk.markdown.obsidian import Admonition, admonition, blank_comments
from notechunk.markdown.pandoc import (
    GLYPH_HINT,
    PAGE_HINT,
    page_number_lines,
    rewrite_fancy_lists,
    rewrite_glyph_bullets,
)
from notechunk.markdown.parse import BlockParser, Token, UnitsToken, moved, tokens_of
from notechunk.markdown.tables import find_tables

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

_INDENTED_BULLET = re.compile(r"(\t+| {4,})[-*+][ \t]+\S")
_OUTLINE_LINE = re.compile(r"[-*+][ \t]|[ \t]")  # a bullet, or a line nested under one
# searched in "\n" + text, as pandoc's hints are
_TABLE_HINT = re.compile(r"\n[ \t]*(?:-{3,}|\+[-=:]{3,})")
_FANCY_HINT = re.compile(
    r"\n[ \t]*(?:\((?:[A-Za-z]{1,7}|#|[0-9]{1,8})\)|(?:[A-Za-z]{1,7}|#)[.)])[ \t]"
)


@dataclass(frozen=True, slots=True)
class Prepared:
    tokens: Sequence[Token]
    lines: list[str]  # the text the tokens come from, by line
    markers: dict[int, str] = field(default_factory=dict)  # fancy-list markers by line
    covered: list[tuple[int, int]] = field(default_factory=list)  # lines of units found here
    skipped: tuple[SkippedLines, ...] = ()  # lines blanked here that are not text
    logseq: LogseqState | None = None  # what the Logseq dialect found (a Logseq page)


def prepare(
    body: str,
    parser: BlockParser | MarkdownIt,
    meta_lines: int,
    logseq: Mapping[str, str] | None = None,
) -> Prepared:
    """`logseq`: the corpus' block index when the text is a Logseq page (None: it is not);
    the dialect's rules rewrite its lines outside code first."""
    tokens = tokens_of(parser, body)
    lines = body.split("\n")
    outline = _outline_code(tokens, lines)
    if outline is not None:  # bullets indented under a heading: an outline, not code
        lines, body = outline, "\n".join(outline)
        tokens = tokens_of(parser, body)
    if logseq is not None:
        state = _logseq(tokens, lines, meta_lines, logseq)
        prep = prepare("\n".join(state.lines), parser, meta_lines)
        return Prepared(
            prep.tokens, prep.lines, prep.markers, prep.covered, prep.skipped, logseq=state
        )
    admonitions = ("ad-" in body and ("```ad-" in body or "~~~ad-" in body)) or (
        "```{" in body or "~~~{" in body
    )
    comments = "%%" in body
    lined = "\n" + body  # each hint holds at a line's start
    tables = _TABLE_HINT.search(lined) is not None
    fancy = _FANCY_HINT.search(lined) is not None
    course = any(hint(body) for _, hint, _ in coursesite.RULES)
    glyphs = GLYPH_HINT.search(lined) is not None
    pages = PAGE_HINT.search(lined) is not None
    if not (admonitions or comments or tables or fancy or course or glyphs or pages):
        return Prepared(tokens, lines)
    skip = bytearray(len(lines))
    skip[:meta_lines] = b"\x01" * min(meta_lines, len(lines))
    fences = []
    for tok in tokens:
        if tok.map is not None and tok.type in ("fence", "html_block"):
            start, end = tok.map[0], min(tok.map[1], len(lines))
            skip[start:end] = b"\x01" * (end - start)
            if tok.type == "fence" and tok.level == 0:
                fences.append((start, end, tok.info.strip()))
    new = list(lines)
    extra: list[UnitsToken] = []
    ads: dict[int, Admonition] = {}
    for start, end, info in fences if admonitions else ():
        ad = admonition(new, start, end, info) or coursesite.myst_directive(new, start, end, info)
        if ad is not None:
            ads[start] = ad
            skip[start:end] = bytes(end - start)  # its body is Markdown: read it
            if ad.title:
                unit = Unit(kind="prose", text=ad.title, first_line=start + 1, last_line=start + 1)
                extra.append(UnitsToken(map=[start, start + 1], units=(unit,)))
    skipped: list[SkippedLines] = []
    if comments:
        _blank_comments(new, skip)
        skipped += _changed(lines, new, "comment")
    if course:
        code = bytearray(len(lines))
        for tok in tokens:
            if tok.map is not None and tok.type == "code_block":
                code[tok.map[0] : tok.map[1]] = b"\x01" * (tok.map[1] - tok.map[0])
        for unit in coursesite.course_labels(body, new, skip, code):
            line = unit.first_line - 1
            extra.append(UnitsToken(map=[line, line + 1], units=(unit,)))
    if tables:
        for table in find_tables(new, skip):
            rows = tuple(
                Unit(kind="row", text=text, first_line=a + 1, last_line=b + 1)
                for a, b, text in table.rows
            )
            extra.append(UnitsToken(map=[table.first, table.last + 1], units=rows))
            skipped += _table_skips(new, table.first, table.last, table.rows)
            for k in range(table.first, table.last + 1):
                new[k] = ""
    for k in page_number_lines(new, skip) if pages else ():
        skipped.append(_skipped("page_number", k, new[k]))
        new[k] = ""
    if glyphs:
        rewrite_glyph_bullets(new, skip)
    markers = rewrite_fancy_lists(new, skip) if fancy else {}
    if new == lines and not ads:
        return Prepared(tokens, lines)
    only_admonitions = new == lines
    for ad in ads.values():
        for k in ad.blank:
            if new[k].strip():
                skipped.append(_skipped("admonition_fence", k, new[k]))
            new[k] = ""
    if only_admonitions:  # parse their bodies, not the whole text again
        tokens = _splice(tokens, parser, lines, ads)
    else:
        tokens = tokens_of(parser, "\n".join(new))
    extra.sort(key=lambda t: t.map[0])
    covered = [(t.map[0], t.map[1]) for t in extra]
    return Prepared(_merge(tokens, extra), new, markers, covered, tuple(skipped))


def _table_skips(
    lines: list[str], first: int, last: int, rows: Sequence[tuple[int, int, str]]
) -> list[SkippedLines]:
    """A line-drawn table's lines outside its rows: rules, and the header above the first
    row (its names are in every row's text). Any other line is left unaccounted."""
    in_rows = {k for a, b, _ in rows for k in range(a, b + 1)}
    top = rows[0][0] if rows else last + 1
    out = []
    for k in range(first, last + 1):
        line = lines[k]
        if k in in_rows or not line.strip():
            continue
        if not any(ch.isalnum() for ch in line):
            out.append(_skipped("table_rule", k, line))
        elif k < top:
            out.append(_skipped("table_header", k, line))
    return out


def _skipped(reason: str, k: int, line: str) -> SkippedLines:
    return SkippedLines(first=k + 1, last=k + 1, reason=reason, text=line.strip())


def _changed(old: list[str], new: list[str], reason: str) -> list[SkippedLines]:
    """The lines blanked from `old` to `new` (a comment), as skipped with `reason`."""
    return [
        _skipped(reason, k, a)
        for k, (a, b) in enumerate(zip(old, new, strict=True))
        if a.strip() and not b.strip()
    ]


def _outline_code(tokens: Sequence[Token], lines: list[str]) -> list[str] | None:
    """The lines with each indented "code block" that is an outline (its first line a
    bullet, every line a bullet or a deeper line at or past that indentation: Logseq's
    tab-nested bullets under a `### Heading`) moved left by that indentation, or None
    when there is none."""
    out: list[str] | None = None
    for tok in tokens:
        if tok.type != "code_block" or tok.map is None or tok.level != 0:
            continue
        start, end = tok.map[0], min(tok.map[1], len(lines))
        block = [k for k in range(start, end) if lines[k].strip()]
        if not block:
            continue
        m = _INDENTED_BULLET.match(lines[block[0]])
        if m is None:
            continue
        indent = m.group(1)
        rest = [lines[k][len(indent) :] for k in block if lines[k].startswith(indent)]
        if len(rest) != len(block) or not all(_OUTLINE_LINE.match(r) for r in rest):
            continue
        if out is None:
            out = list(lines)
        for k in block:
            out[k] = lines[k][len(indent) :]
    return out


def _logseq(
    tokens: Sequence[Token], lines: list[str], meta_lines: int, refs: Mapping[str, str]
) -> LogseqState:
    code = bytearray(len(lines))
    code[:meta_lines] = b"\x01" * min(meta_lines, len(lines))
    for tok in tokens:
        # Logseq writes code fenced: an indented "code block" is an outline nested deep
        if tok.map is not None and tok.type in ("fence", "html_block"):
            start, end = tok.map[0], min(tok.map[1], len(lines))
            code[start:end] = b"\x01" * (end - start)
    return apply(LogseqState(lines=list(lines), code=code, refs=refs))


def _splice(
    tokens: Sequence[Token],
    parser: BlockParser | MarkdownIt,
    lines: list[str],
    ads: dict[int, Admonition],
) -> list[Token]:
    """The tokens with each admonition fence replaced by the tokens of its body."""
    out: list[Token] = []
    for tok in tokens:
        ad = None
        if tok.type == "fence" and tok.map is not None and tok.level == 0:
            ad = ads.get(tok.map[0])
        if ad is None:
            out.append(tok)
            continue
        start, end = ad.body
        out.extend(moved(tokens_of(parser, "\n".join(lines[start:end])), start))
    return out


def _blank_comments(lines: list[str], skip: bytearray) -> None:
    """Blank `%%comments%%` in each run of lines outside code (line count unchanged)."""
    start = 0
    while start < len(lines):
        if skip[start]:
            start += 1
            continue
        end = start
        while end < len(lines) and not skip[end]:
            end += 1
        chunk = "\n".join(lines[start:end])
        if "%%" in chunk:
            lines[start:end] = blank_comments(chunk).split("\n")
        start = end


def _merge(tokens: Sequence[Token], extra: list[UnitsToken]) -> list[Token]:
    """Tokens with each units token placed before the first token at or after its line."""
    out: list[Token] = []
    k = 0
    for tok in tokens:
        while k < len(extra) and tok.map is not None and tok.map[0] >= extra[k].map[0]:
            out.append(extra[k])
            k += 1
        out.append(tok)
    out.extend(extra[k:])
    return out
