"""Tables of contents: not content, but a list of the headings that follow.

A chunk made of one is flagged `toc` and omitted (SPEC §1.1). Recognised: the Obsidian
```` ```toc ```` block; a run of at least `MIN_ENTRIES` blocks that are only a link to an
anchor in the page (`[Title](#title)`, pandoc's `[Title [2](#t)](#t)`) or a title with
dot leaders and a page number; and, under a heading named like a table of contents
("Contents", pandoc's `{.TOC-Heading}`), any such entries at all.
"""

from __future__ import annotations

import re

MIN_ENTRIES = 3
_ANCHOR_END = re.compile(r"\]\(#[^()\s]+\)[ \t]*$")
_LEADERS = re.compile(r"[^\n]{1,200}?(?:\.{4,}|…{2,}|\t)[ \t]*\d{1,4}[ \t]*")
_TITLES = frozenset(
    """contents|table of contents|toc|index|índice|contenido|tabla de contenidos|sommaire|
    table des matières|inhalt|inhaltsverzeichnis|sommario|indice|содержание|оглавление|
    目录|目次|목차""".replace("\n", "").split("|")
)


def toc_fence(info: str) -> bool:
    return info.strip().lower() in ("toc", "table-of-contents")


def toc_heading(title: str, raw: str) -> bool:
    return ".TOC-Heading" in raw or title.strip().strip(":").strip().lower() in _TITLES


def toc_entry(raw: str) -> bool:
    """A block that is only a link to an anchor of the page, or a dot-leader entry."""
    raw = raw.strip()
    if raw.startswith("[") and _ANCHOR_END.search(raw):
        return raw.count("](") == raw.count("](#")
    if not raw[-1:].isdigit() or ("...." not in raw and "…" not in raw and "\t" not in raw):
        return False
    return _LEADERS.fullmatch(raw) is not None


def toc_runs(flags: list[int], *, under_toc_heading: bool) -> list[tuple[int, int]]:
    """[start, end) index runs of units that form a table of contents.

    `flags[i]`: 0 content, 1 an entry (a run counts from MIN_ENTRIES, or from one under
    a contents heading), 2 a table of contents on its own (a ```` ```toc ```` block)."""
    out = []
    i = 0
    while i < len(flags):
        if not flags[i]:
            i += 1
            continue
        j = i
        while j < len(flags) and flags[j]:
            j += 1
        if under_toc_heading or 2 in flags[i:j] or j - i >= MIN_ENTRIES:
            out.append((i, j))
        i = j
    return out
