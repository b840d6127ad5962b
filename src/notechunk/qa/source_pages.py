"""The source view written (OUT/sources/): a shell page per source file, its text once,
the shared viewer, and an index.

The pages are made from chunks streamed in output order (`write_source_pages`), one
file's view at a time (`qa.sources`, `qa.sources_html`). The costly part, deflating each
file's text and view, runs on a few threads (zlib lets go of the GIL) while the next
file's view is built. A text is named by the hash of its lines (`text/<key>.js`): when
the previous run published the same name with a hash its manifest still vouches for, the
file is linked (or copied) from there instead of compressed again, so a re-run after an
edit deflates only the texts that changed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import groupby
from pathlib import Path

from notechunk.chunk import Chunk
from notechunk.corpus import Corpus
from notechunk.io.jsonio import atomic_write_bytes, write_text
from notechunk.qa import sources_html
from notechunk.qa.sources import (
    INDEX,
    SOURCES_DIR,
    FileView,
    ReadSource,
    by_source,
    page_name,
)
from notechunk.qa.sources_assets import VIEWER_CSS, VIEWER_JS, viewer_css, viewer_js
from notechunk.textio import source_lines

MAX_PAGE_ITEMS = 2_000
"""Chunks and discarded rows shown on one page at most (a million-row sheet's page would
hold the sheet twice); the page says where the rest are."""

Reuse = Mapping[str, tuple[Path, str]]
"""A previous run's texts: `text/<key>.js` -> (its file, the sha256 its manifest gives)."""


def previous_texts(
    current: Path, files: Mapping[str, tuple[int, str]]
) -> dict[str, tuple[Path, str]]:
    """The texts of a published run (its folder and its manifest's files) a new run may
    reuse: each with the hash to check before it is linked."""
    prefix = f"{SOURCES_DIR}/{sources_html.TEXT_DIR}/"
    return {
        rel[len(SOURCES_DIR) + 1 :]: (current / rel, digest)
        for rel, (_, digest) in files.items()
        if rel.startswith(prefix)
    }


def _reused(target: Path, found: tuple[Path, str] | None) -> bool:
    """Link (else copy) the previous run's file to `target` when its bytes still hash as
    its manifest says; False when there is none or it changed."""
    if found is None:
        return False
    path, digest = found
    try:
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != digest:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, target)
        except OSError:  # no hard links here (or across devices): a copy
            shutil.copyfile(path, target)
    except OSError:
        return False
    return True


class _Writer:
    """Deflate-and-write jobs on a few threads, at most `limit` waiting (bounded memory)."""

    def __init__(self, threads: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads)
        self.slots = threading.BoundedSemaphore(threads * 4)
        self.futures: list[Future[None]] = []

    def submit(self, job: Callable[[], None]) -> None:
        self.slots.acquire()

        def run() -> None:
            try:
                job()
            finally:
                self.slots.release()

        self.futures.append(self.pool.submit(run))

    def close(self) -> None:
        """Wait for every job; the first failure (an OSError) is raised."""
        self.pool.shutdown(wait=True)
        for f in self.futures:
            f.result()


def write_source_pages(
    folder: Path,
    chunks: Iterable[Chunk],
    extras: Corpus,
    reason: Callable[[Chunk], str],
    is_flagged: Callable[[Chunk], bool],
    read: ReadSource | None,
    where: Mapping[str, str],
    reuse: Reuse | None = None,
) -> None:
    """The source view from chunks streamed in output order (each file's chunks one
    after another): a file's view is made when its chunks are done, so only one file
    is held at a time. `extras` gives the discarded rows, sheet reports and errors;
    `where` the source of every chunk a duplicate points to (filled as the stream goes);
    `reuse` the previous run's texts (`previous_texts`)."""
    read = read or (lambda _: None)
    reuse = reuse or {}
    kinds, rows, reports, errors = by_source(extras)
    accounts = {a.source: a for a in extras.accounts}
    target = folder / SOURCES_DIR
    summary: dict[str, sources_html.IndexRow] = {}
    texts: set[str] = set()
    writer = _Writer(min(4, os.cpu_count() or 1))

    def emit(source: str, kind: str, shown: list[Chunk], totals: tuple[int, int, int]) -> None:
        view = FileView(
            source=source,
            source_type=kind,
            chunks=tuple(shown),
            discarded=tuple(rows[source][:MAX_PAGE_ITEMS]),
            reports=tuple(reports[source]),
            errors=tuple(errors[source]),
            flagged=frozenset(c.id for c in shown if is_flagged(c)),
            totals=totals,
            discarded_total=len(rows[source]),
            account=accounts.get(source),
        )
        raw = read(source) if kind == "markdown" else None
        lines = source_lines(raw) if raw is not None else None
        data = sources_html.page_data(view, lines, reason, where)
        ref = _text(lines) if lines else None
        writer.submit(
            lambda: write_text(target / page_name(source), sources_html.page(view, data, ref))
        )
        summary[source] = sources_html.index_row(view)

    def _text(lines: list[str]) -> str:
        text = sources_html.text_bytes(lines)
        rel = f"{sources_html.TEXT_DIR}/{hashlib.sha256(text).hexdigest()[:32]}.js"
        if rel not in texts:
            texts.add(rel)
            path = target / rel

            def job() -> None:
                if not _reused(path, reuse.get(rel)):
                    atomic_write_bytes(path, sources_html.text_script(text))

            writer.submit(job)
        return rel

    try:
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
    finally:
        writer.close()
    write_text(target / VIEWER_CSS, viewer_css())
    write_text(target / VIEWER_JS, viewer_js())
    write_text(target / INDEX, sources_html.index([summary[k] for k in sorted(summary)]))
