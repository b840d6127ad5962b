"""parse_markdown_sections: a Markdown file into sections with heading paths and line ranges.

Headings come from markdown-it-py's CommonMark block tokens, never from a regex over lines,
so `#` inside fenced or indented code is not a heading and setext headings count. OneNote/
pandoc exports mark headings as a paragraph that is only `[Title]{.underline}` (optionally
inside `**`/`*`, or `<u>Title</u>`); those open a section one level below every `#` level.
The heading stack rule: a level-L heading closes every open level >= L.

Text that the parser does not return (past its nesting limit, or when it gives up on a
pathological file) is recovered line by line into the section it stands in, so no source
line is lost silently.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from notechunk.markdown.clean import clean_html_block, clean_inline
from notechunk.markdown.rsblocks import rust_parser, to_tokens

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

UnitKind = Literal["prose", "code", "row"]
PANDOC_HEADING_LEVEL = 7

_PANDOC_HEADING = re.compile(
    r"^\s*(\*\*|\*|__)?\s*(?:\[([^\]\n]+)\]\{\.underline\}|<u>(.+?)</u>)\s*\1?\s*$"
)
_FRONT_MATTER_END = re.compile(r"^(?:---|\.\.\.)\s*$")
_FM_PAIR = re.compile(r"^([A-Za-z0-9_][\w .-]*?)\s*:\s*(.*)$")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S")
_CONTAINER_PREFIX = re.compile(r"^(?:\s*(?:>|[-*+•]\s|\d{1,9}[.)]\s))+\s*")
_FENCE_LINE = re.compile(r"^\s*(?:```|~~~)")
_HR_LINE = re.compile(r"^\s{0,3}(?:[-*_]\s*){3,}$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit:
    """One block of a section: prose to sentence-split, a code block, or a table row."""

    kind: UnitKind
    text: str
    first_line: int
    last_line: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """A heading's span of the file: breadcrumbs, 1-based inclusive lines, blocks."""

    path: tuple[str, ...]
    level: int
    lines: tuple[int, int]
    units: tuple[Unit, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedMarkdown:
    metadata: dict[str, str] = field(default_factory=dict)
    sections: tuple[Section, ...] = ()
    recovered_lines: int = 0


class _Token(Protocol):
    """What `_walk` reads of a block token (markdown-it-py's Token, or rsblocks')."""

    @property
    def type(self) -> str: ...
    @property
    def map(self) -> list[int] | None: ...
    @property
    def level(self) -> int: ...
    @property
    def tag(self) -> str: ...
    @property
    def info(self) -> str: ...
    @property
    def markup(self) -> str: ...
    @property
    def content(self) -> str: ...


def make_parser() -> MarkdownIt:
    """The reference parser: markdown-it-py, CommonMark + tables, block level only (inline
    text is cleaned by `clean`), with a nesting limit high enough that real notes never
    reach it."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"maxNesting": 1000}).enable("table")
    md.disable(["inline", "text_join"])
    return md


class BlockParser:
    """Block tokens of a document: markdown-it-pyrs (Rust, several times faster) when it
    is installed and takes the text, else markdown-it-py. Both give the same sections
    (tests/test_markdown_rsblocks.py); `rust=False` forces the reference."""

    def __init__(self, *, rust: bool = True) -> None:
        self._rust: Any | None = rust_parser() if rust else None
        self._py: MarkdownIt | None = None

    @property
    def uses_rust(self) -> bool:
        return self._rust is not None

    def tokens(self, text: str) -> Sequence[_Token]:
        if self._rust is not None:
            fast = to_tokens(self._rust, text)
            if fast is not None:
                return fast
        if self._py is None:
            self._py = make_parser()
        return _py_tokens(self._py, text)


def make_block_parser() -> BlockParser:
    """The parser `parse_markdown_sections` uses by default (build one per process)."""
    return BlockParser()


def _py_tokens(md: MarkdownIt, text: str) -> Sequence[_Token]:
    try:
        return md.parse(text)
    except RecursionError:
        return []


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """YAML front matter as flat `key: value` metadata; its lines are blanked, not removed,
    so line numbers stay those of the file."""
    if not text.startswith("---"):
        return {}, text
    lines = text.split("\n")
    if lines[0].strip() != "---":
        return {}, text
    for i in range(1, min(len(lines), 500)):
        if _FRONT_MATTER_END.match(lines[i]):
            meta: dict[str, str] = {}
            for line in lines[1:i]:
                m = _FM_PAIR.match(line)
                if m and not line.startswith((" ", "\t", "-")):
                    meta[m.group(1)] = m.group(2).strip().strip("\"'")
            return meta, "\n" * i + "\n" + "\n".join(lines[i + 1 :])
    return {}, text


def pandoc_heading(content: str) -> str | None:
    """The title of a OneNote/pandoc underline-heading paragraph, else None."""
    if "underline" not in content and "<u>" not in content:
        return None
    m = _PANDOC_HEADING.match(content)
    if m is None:
        return None
    title = clean_inline(m.group(2) or m.group(3) or "").strip()
    return title or None


class _Builder:
    """Accumulates sections while walking the token stream (kept local to one parse)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.stack: list[tuple[int, str]] = []
        self.sections: list[Section] = []
        self.units: list[Unit] = []
        self.start_line = 1
        self.level = 0

    def heading(self, level: int, title: str, line: int) -> None:
        self.close(line - 1)
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, title))
        self.start_line = line
        self.level = level

    def add(self, unit: Unit) -> None:
        if unit.text.strip():
            self.units.append(unit)

    def close(self, last_line: int) -> None:
        path = tuple(t for _, t in self.stack)
        if self.units or path:
            if not path:  # text before the first heading starts where its text starts
                self.start_line = self.units[0].first_line
            last = min(last_line, len(self.lines))
            while last > self.start_line and not self.lines[last - 1].strip():
                last -= 1
            last = max(last, self.start_line)
            self.sections.append(
                Section(
                    path=path,
                    level=self.level,
                    lines=(self.start_line, last),
                    units=tuple(self.units),
                )
            )
        self.units = []


def _inline_source(content: str) -> str:
    """A block's inline text with continuation lines' indentation dropped, as rendering
    does (the parsers disagree on how much of it they keep)."""
    if "\n" not in content:
        return content
    return "\n".join(line.lstrip(" \t") for line in content.split("\n"))


def _walk(tokens: Sequence[_Token], b: _Builder) -> list[tuple[int, int]]:
    """Feed tokens to the builder; return the (0-based, end-exclusive) line spans consumed."""
    covered: list[tuple[int, int]] = []
    prefixes: list[str] = []
    pending_prefix = ""
    i = 0
    n = len(tokens)
    while i < n:
        tok = tokens[i]
        t = tok.type
        if tok.map is not None and t in ("fence", "code_block", "html_block", "hr"):
            covered.append((tok.map[0], tok.map[1]))
        if t == "heading_open" and tok.map is not None:
            covered.append((tok.map[0], tok.map[1]))
            title = clean_inline(_inline_source(tokens[i + 1].content)).strip() if i + 1 < n else ""
            line = tok.map[0] + 1
            if tok.level == 0 and title:
                b.heading(int(tok.tag[1:]), title, line)
            elif title:
                b.add(
                    Unit(
                        kind="prose",
                        text=pending_prefix + title,
                        first_line=line,
                        last_line=tok.map[1],
                    )
                )
                pending_prefix = ""
            i += 3
            continue
        if t == "paragraph_open" and tok.map is not None and i + 1 < n:
            covered.append((tok.map[0], tok.map[1]))
            content = _inline_source(tokens[i + 1].content)
            first, last = tok.map[0] + 1, tok.map[1]
            pandoc = pandoc_heading(content) if tok.level == 0 else None
            if pandoc is not None:
                b.heading(PANDOC_HEADING_LEVEL, pandoc, first)
            else:
                b.add(
                    Unit(
                        kind="prose",
                        text=pending_prefix + clean_inline(content).strip(),
                        first_line=first,
                        last_line=last,
                    )
                )
                pending_prefix = ""
            i += 3
            continue
        if t == "list_item_open":
            indent = "  " * len(prefixes)  # nesting shows as indentation
            marker = indent + (f"{tok.info}{tok.markup} " if tok.info else "- ")
            prefixes.append(marker)
            pending_prefix = marker
        elif t == "list_item_close":
            if prefixes:
                prefixes.pop()
            if pending_prefix:  # an empty item: keep nothing, but do not leak its marker
                pending_prefix = ""
        elif t in ("fence", "code_block") and tok.map is not None:
            info = tok.info.strip() if t == "fence" else ""
            body = tok.content.rstrip("\n")
            if body.strip():
                b.add(
                    Unit(
                        kind="code",
                        text=f"```{info}\n{body}\n```",
                        first_line=tok.map[0] + 1,
                        last_line=tok.map[1],
                    )
                )
        elif t == "html_block" and tok.map is not None:
            text = clean_html_block(tok.content).strip()
            if text:
                b.add(
                    Unit(
                        kind="prose",
                        text=pending_prefix + text,
                        first_line=tok.map[0] + 1,
                        last_line=tok.map[1],
                    )
                )
                pending_prefix = ""
        elif t == "table_open" and tok.map is not None:
            covered.append((tok.map[0], tok.map[1]))
            i = _table(tokens, i, b)
            continue
        i += 1
    return covered


def _table(tokens: Sequence[_Token], i: int, b: _Builder) -> int:
    """One unit per body row, as `Header: value` pairs, so a cell keeps its column name."""
    headers: list[str] = []
    row: list[str] = []
    row_line = 0
    in_head = False
    while i < len(tokens) and tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "thead_open":
            in_head = True
        elif tok.type == "thead_close":
            in_head = False
        elif tok.type == "tr_open":
            row = []
            row_line = (tok.map[0] + 1) if tok.map else 0
        elif tok.type == "inline":
            row.append(clean_inline(tok.content).strip())
        elif tok.type == "tr_close":
            if in_head:
                headers = row
            elif any(row):
                pairs = [
                    f"{headers[k]}: {v}" if k < len(headers) and headers[k] else v
                    for k, v in enumerate(row)
                    if v
                ]
                b.add(
                    Unit(kind="row", text="; ".join(pairs), first_line=row_line, last_line=row_line)
                )
        i += 1
    return i + 1


def _recover(lines: list[str], covered: list[tuple[int, int]], meta_lines: int) -> list[Unit]:
    """Units for non-blank lines no token accounted for (text the parser dropped)."""
    mask = bytearray(len(lines))
    for start, end in covered:
        mask[start:end] = b"\x01" * (min(end, len(lines)) - start)
    out: list[Unit] = []
    run: list[tuple[int, str]] = []

    def flush() -> None:
        if run:
            text = "\n".join(s for _, s in run)
            out.append(Unit(kind="prose", text=text, first_line=run[0][0], last_line=run[-1][0]))
            run.clear()

    for idx, line in enumerate(lines):
        if idx < meta_lines or mask[idx] or not line.strip():
            flush()
            continue
        if _REF_DEF.match(line) or _FENCE_LINE.match(line) or _HR_LINE.match(line):
            flush()
            continue
        text = clean_inline(_CONTAINER_PREFIX.sub("", line)).strip()
        if text:
            run.append((idx + 1, text))
        else:
            flush()
    flush()
    return out


def parse_markdown_sections(
    text: str, parser: BlockParser | MarkdownIt | None = None
) -> ParsedMarkdown:
    """Sections of one Markdown document (see the module docstring for the rules).

    `parser`: a BlockParser (default: a new one), or a markdown-it-py MarkdownIt to use
    the reference path only. Build it once per process and pass it for many files."""
    metadata, body = split_front_matter(text.replace("\r\n", "\n").replace("\r", "\n"))
    meta_lines = 0 if body is text else body.count("\n", 0, len(body) - len(body.lstrip("\n")))
    lines = body.split("\n")
    b = _Builder(lines)
    if parser is None:
        parser = BlockParser()
    if isinstance(parser, BlockParser):
        tokens = parser.tokens(body)
    else:
        tokens = _py_tokens(parser, body)
    covered = _walk(tokens, b)
    b.close(len(lines))
    sections = list(b.sections)
    recovered = _recover(lines, covered, meta_lines)
    if recovered:
        sections = _place(sections, recovered)
    return ParsedMarkdown(
        metadata=metadata,
        sections=tuple(sections),
        recovered_lines=sum(u.last_line - u.first_line + 1 for u in recovered),
    )


def _place(sections: list[Section], units: list[Unit]) -> list[Section]:
    """Put recovered units into the section whose line range holds them, in line order."""
    if not sections:
        last = units[-1].last_line
        return [Section(path=(), level=0, lines=(1, last), units=tuple(units))]
    by_section: dict[int, list[Unit]] = {}
    for unit in units:
        idx = 0
        for k, s in enumerate(sections):
            if s.lines[0] <= unit.first_line:
                idx = k
        by_section.setdefault(idx, []).append(unit)
    out = []
    for k, s in enumerate(sections):
        extra = by_section.get(k)
        if extra:
            merged = sorted([*s.units, *extra], key=lambda u: (u.first_line, u.last_line))
            s = Section(path=s.path, level=s.level, lines=s.lines, units=tuple(merged))
        out.append(s)
    return out
