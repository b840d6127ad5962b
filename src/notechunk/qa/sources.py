"""The source view: every chunk shown in its file (OUT/sources/, linked from report.html).

One page per source file, plus an index. A Markdown page shows the file's own lines
(numbered as the chunks' `lines` count them: CRLF and CR are line ends, front matter
counts) cut into chunk cards in line order; lines no chunk covers are shown dimmed
between the cards, and lines a card shares with the previous one (window overlap) are
marked. A spreadsheet page shows each sheet's rows in row order: chunk rows and
discarded rows (with their rule), plus the sheet's status. Every card or row carries its
quality label, flags and, when flagged or omitted, the reason in one line; trimmed
sentences (the `trimmed` field, when the chunk has one) are shown struck through.

Pages hold only text from the notes and the chunks, all HTML-escaped (`sources_html`).
Page names come from the source path alone (`page_name`), so report.html can link to a
chunk without the source text: `sources/<page>#c-<id>`.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from notechunk.chunk import Chunk, DiscardedRow, FileError, LineAccount, SheetReport
from notechunk.corpus import Corpus
from notechunk.errors import InputError

SOURCES_DIR = "sources"
"""Chunks (and discarded rows) one source page shows: a million-row sheet's page would
hold the whole sheet in memory and in a browser; the rest are in stages/*.jsonl."""
INDEX = "index.html"
ReadSource = Callable[[str], str | None]


def page_name(source: str) -> str:
    """A stable, safe file name for a source's page: readable slug + hash of the path."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", source).strip("-.")
    if len(slug) > 60:  # keep the end (the file's own name), cut at a separator
        tail = slug[-60:]
        slug = tail.split("-", 1)[1] if "-" in tail[:-1] else tail
    slug = slug.lstrip("-.") or "file"
    digest = hashlib.sha256(source.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{slug}-{digest}.html"


def chunk_href(source: str, chunk_id: str, prefix: str = "") -> str:
    """Where a chunk is shown: `<prefix><page>#c-<id>` (prefix `sources/` from OUT)."""
    return f"{prefix}{page_name(source)}#c-{chunk_id}"


def file_reader(paths: Mapping[str, Path]) -> ReadSource:
    """Reads a source's text again at write time (the one decoder); None if unreadable."""
    from notechunk.textio import read_text

    def read(rel: str) -> str | None:
        path = paths.get(rel)
        if path is None:
            return None
        try:
            return read_text(path, rel).text
        except InputError:  # unreadable since, a FIFO swapped in, not text: no lines shown
            return None

    return read


@dataclass(frozen=True, slots=True)
class Gap:
    """Lines `first`..`last` (1-based) that no chunk covers."""

    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Card:
    """A chunk and the lines it spans; lines up to `shared_until` were in the card before."""

    chunk: Chunk
    first: int
    last: int
    shared_until: int


def layout(chunks: Sequence[Chunk], n_lines: int) -> list[Gap | Card]:
    """Chunk cards in line order with the uncovered stretches between them. A chunk's lines
    are clamped to the file's (`n_lines`): a file edited since it was chunked, or a range
    that cannot be, never sends the page past the file's end."""
    placed = sorted(
        (c for c in chunks if c.lines is not None), key=lambda c: c.lines or (0, 0)
    )  # sorted() is stable: chunks starting on the same line keep file order
    out: list[Gap | Card] = []
    shown = 0  # the last line already on the page
    for c in placed:
        assert c.lines is not None
        end = max(n_lines, 1)
        first = min(max(1, c.lines[0]), end)
        last = min(max(c.lines[1], first), end)
        if first > shown + 1:
            out.append(Gap(shown + 1, first - 1))
        out.append(Card(c, first, last, shared_until=min(shown, last)))
        shown = max(shown, last)
    if shown < n_lines:
        out.append(Gap(shown + 1, n_lines))
    out += [Card(c, 0, -1, -1) for c in chunks if c.lines is None]
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class FileView:
    """Everything one source page shows."""

    source: str
    source_type: str
    chunks: tuple[Chunk, ...] = ()
    discarded: tuple[DiscardedRow, ...] = ()
    reports: tuple[SheetReport, ...] = ()
    errors: tuple[FileError, ...] = ()
    text: str | None = None
    flagged: frozenset[str] = field(default_factory=frozenset)
    # (chunks, kept, flagged) of the whole file and its discarded rows, when the page shows
    # only the first `MAX_PAGE_ITEMS` of them
    totals: tuple[int, int, int] | None = None
    discarded_total: int | None = None
    account: LineAccount | None = None  # a Markdown file's line account

    @property
    def title(self) -> str:
        return next((c.title for c in self.chunks if c.title), "")

    @property
    def counts(self) -> tuple[int, int, int]:
        """(chunks, kept, flagged) of the whole file."""
        if self.totals is not None:
            return self.totals
        kept = sum(1 for c in self.chunks if not c.omit)
        return len(self.chunks), kept, sum(1 for c in self.chunks if c.id in self.flagged)

    @property
    def n_discarded(self) -> int:
        return len(self.discarded) if self.discarded_total is None else self.discarded_total

    @property
    def hidden(self) -> tuple[int, int]:
        """Chunks and discarded rows of the file not shown on its page."""
        return self.counts[0] - len(self.chunks), self.n_discarded - len(self.discarded)


def by_source(
    extras: Corpus,
) -> tuple[
    dict[str, str],
    dict[str, list[DiscardedRow]],
    dict[str, list[SheetReport]],
    dict[str, list[FileError]],
]:
    """The discarded rows, sheet reports and errors of each source, and its kind."""
    kinds: dict[str, str] = {}
    rows: dict[str, list[DiscardedRow]] = defaultdict(list)
    reports: dict[str, list[SheetReport]] = defaultdict(list)
    errors: dict[str, list[FileError]] = defaultdict(list)
    for d in extras.discarded:
        kinds.setdefault(d.source, "spreadsheet")
        rows[d.source].append(d)
    for r in extras.reports:
        kinds.setdefault(r.source, "spreadsheet")
        reports[r.source].append(r)
    for e in extras.errors:
        kinds.setdefault(e.source, "error")
        errors[e.source].append(e)
    return kinds, rows, reports, errors
