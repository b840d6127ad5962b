"""The source view written: one page per source file and an index (OUT/sources/).

The pages are made from chunks streamed in output order (`write_source_pages`), one
file's page at a time, from the views of `qa.sources` rendered by `qa.sources_html`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import groupby
from pathlib import Path

from notechunk.chunk import Chunk
from notechunk.corpus import Corpus
from notechunk.io.jsonio import write_text
from notechunk.qa import sources_html
from notechunk.qa.sources import (
    INDEX,
    SOURCES_DIR,
    FileView,
    ReadSource,
    by_source,
    page_name,
)

MAX_PAGE_ITEMS = 2_000
"""Chunks and discarded rows shown on one page at most (a million-row sheet's page would
hold the sheet twice); the page says where the rest are."""


def write_source_pages(
    folder: Path,
    chunks: Iterable[Chunk],
    extras: Corpus,
    reason: Callable[[Chunk], str],
    is_flagged: Callable[[Chunk], bool],
    read: ReadSource | None,
    where: Mapping[str, str],
) -> None:
    """The source view from chunks streamed in output order (each file's chunks one
    after another): a file's page is written when its chunks are done, so only one file
    is held at a time. `extras` gives the discarded rows, sheet reports and errors;
    `where` the source of every chunk a duplicate points to (filled as the stream goes)."""
    read = read or (lambda _: None)
    kinds, rows, reports, errors = by_source(extras)
    accounts = {a.source: a for a in extras.accounts}
    target = folder / SOURCES_DIR
    summary: dict[str, sources_html.IndexRow] = {}

    def emit(source: str, kind: str, shown: list[Chunk], totals: tuple[int, int, int]) -> None:
        view = FileView(
            source=source,
            source_type=kind,
            chunks=tuple(shown),
            discarded=tuple(rows[source][:MAX_PAGE_ITEMS]),
            reports=tuple(reports[source]),
            errors=tuple(errors[source]),
            text=read(source) if kind == "markdown" else None,
            flagged=frozenset(c.id for c in shown if is_flagged(c)),
            totals=totals,
            discarded_total=len(rows[source]),
            account=accounts.get(source),
        )
        write_text(target / page_name(source), sources_html.page(view, reason, where))
        summary[source] = sources_html.index_row(view)

    for source, group in groupby(chunks, key=lambda c: c.source):
        shown: list[Chunk] = []
        n = kept = flagged = 0
        for c in group:
            n += 1
            kept += not c.omit
            flagged += is_flagged(c)
            if len(shown) < MAX_PAGE_ITEMS:
                shown.append(c)
        emit(source, shown[0].source_type, shown, (n, kept, flagged))
    for source, kind in kinds.items():
        if source not in summary:
            emit(source, kind, [], (0, 0, 0))
    write_text(target / INDEX, sources_html.index([summary[k] for k in sorted(summary)]))
