"""The records the Markdown parse produces: units, sections, the parsed document."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from notechunk.chunk import SkippedLines

UnitKind = Literal["prose", "code", "row"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit:
    """One block of a section: prose to sentence-split, a code block, or a table row.

    `outline`: the items the unit stands under in an outline (each its first words),
    outermost first: the parents of the item it begins, or every open item for a later
    block of an item; `depth`: how many list items it is inside (0: none)."""

    kind: UnitKind
    text: str
    first_line: int
    last_line: int
    outline: tuple[str, ...] = ()
    depth: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """A heading's span of the file: breadcrumbs, 1-based inclusive lines, blocks.

    `toc` marks a table of contents: its chunk is flagged `toc` and omitted."""

    path: tuple[str, ...]
    level: int
    lines: tuple[int, int]
    units: tuple[Unit, ...]
    toc: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ParsedMarkdown:
    """One document's sections and what it says about itself.

    `title`: front matter `title`, else the OneNote page title (the file-name fallback is
    the caller's); `created`: the OneNote page date and time (ISO 8601 when readable) or a
    timestamp line under the title; `tags`: front matter tags and Obsidian `#tags`;
    `properties`: a Logseq page's properties; `unresolved`: lines where a block
    reference was removed because no block of the corpus has its id."""

    metadata: dict[str, str] = field(default_factory=dict)
    sections: tuple[Section, ...] = ()
    recovered_lines: int = 0
    title: str | None = None
    created: str | None = None
    tags: tuple[str, ...] = ()
    skipped: tuple[SkippedLines, ...] = ()  # lines that are not content, with the reason
    properties: tuple[tuple[str, str], ...] = ()
    unresolved: tuple[int, ...] = ()
