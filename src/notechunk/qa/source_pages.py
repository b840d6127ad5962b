"""The source view written (OUT/sources/): a shell page per source file, its text once,
the shared viewer, and an index.

The pages are made from chunks streamed in output order (`write_source_pages`), one
file's view at a time (`qa.sources`, `qa.sources_html`). A text is named by the hash of
its lines (`text/<key>.js`): when the previous run published the same name with a hash
its manifest still vouches for, the file is linked (or copied) from there instead of
compressed again, so a re-run after an edit deflates only the texts that changed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable, Iterable, Mapping
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
    """Where each file's deflate-and-write runs: inline (a thread pool measured no faster
    on rfcs-md, the Python around zlib holding the GIL)."""

    def submit(self, job: Callable[[], None]) -> None:
        job()

    def close(self) -> None:
        """Nothing is queued."""


class SourceView:
    """The source view written as chunks are pushed in output order (each file's chunks
    one after another), so it rides on the pass that writes the other outputs instead of
    reading every chunk again: a file's view is made when its chunks are done, so only one
    file is held at a time. `extras` gives the discarded rows, sheet reports and errors;
    `where` the source of every chunk a duplicate points to (filled as the stream goes,
    originals first); `reuse` the previous run's texts (`previous_texts`)."""

    def __init__(
        self,
        folder: Path,
        extras: Corpus,
        reason: Callable[[Chunk], str],
        is_flagged: Callable[[Chunk], bool],
        read: ReadSource | None,
        where: Mapping[str, str],
        reuse: Reuse | None = None,
    ) -> None:
        self.reason, self.is_flagged, self.where = reason, is_flagged, where
        self.read: ReadSource = read or (lambda _: None)
        self.reuse = reuse or {}
        self.kinds, self.rows, self.reports, self.errors = by_source(extras)
        self.accounts = {a.source: a for a in extras.accounts}
        self.target = folder / SOURCES_DIR
        self.summary: dict[str, sources_html.IndexRow] = {}
        self.texts: set[str] = set()
        self.writer = _Writer()
        self.source: str | None = None
        self.kind = ""
        self.shown: list[Chunk] = []
        self.n = self.kept = self.flagged = 0

    def add(self, c: Chunk) -> None:
        """One chunk of the stream; a new source closes the file before it."""
        if c.source != self.source:
            self._flush()
            self.source, self.kind = c.source, c.source_type
        self.n += 1
        self.kept += not c.omit
        self.flagged += self.is_flagged(c)
        if len(self.shown) < MAX_PAGE_ITEMS:
            self.shown.append(c)

    def _flush(self) -> None:
        if self.source is not None:
            self._emit(self.source, self.kind, self.shown, (self.n, self.kept, self.flagged))
        self.source, self.shown = None, []
        self.n = self.kept = self.flagged = 0

    def close(self) -> None:
        """The last file, the files with no chunk (errors, sheets of discarded rows only),
        every queued write finished, then the viewer and the index."""
        try:
            self._flush()
            for source, kind in self.kinds.items():
                if source not in self.summary:
                    self._emit(source, kind, [], (0, 0, 0))
        finally:
            self.writer.close()
        write_text(self.target / VIEWER_CSS, viewer_css())
        write_text(self.target / VIEWER_JS, viewer_js())
        rows = [self.summary[k] for k in sorted(self.summary)]
        write_text(self.target / INDEX, sources_html.index(rows))

    def _emit(
        self, source: str, kind: str, shown: list[Chunk], totals: tuple[int, int, int]
    ) -> None:
        view = FileView(
            source=source,
            source_type=kind,
            chunks=tuple(shown),
            discarded=tuple(self.rows[source][:MAX_PAGE_ITEMS]),
            reports=tuple(self.reports[source]),
            errors=tuple(self.errors[source]),
            flagged=frozenset(c.id for c in shown if self.is_flagged(c)),
            totals=totals,
            discarded_total=len(self.rows[source]),
            account=self.accounts.get(source),
        )
        raw = self.read(source) if kind == "markdown" else None
        lines = source_lines(raw) if raw is not None else None
        data = sources_html.page_data(view, lines, self.reason, self.where)
        ref = self._text(lines) if lines else None
        path = self.target / page_name(source)
        self.writer.submit(lambda: write_text(path, sources_html.page(view, data, ref)))
        self.summary[source] = sources_html.index_row(view)

    def _text(self, lines: list[str]) -> str:
        """The text's name; its file queued unless this run has it already."""
        text = sources_html.text_bytes(lines)
        rel = f"{sources_html.TEXT_DIR}/{hashlib.sha256(text).hexdigest()[:32]}.js"
        if rel not in self.texts:
            self.texts.add(rel)
            path, found = self.target / rel, self.reuse.get(rel)

            def job() -> None:
                if not _reused(path, found):
                    atomic_write_bytes(path, sources_html.text_script(text))

            self.writer.submit(job)
        return rel


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
    """The source view from chunks streamed in output order (`SourceView`, all at once)."""
    view = SourceView(folder, extras, reason, is_flagged, read, where, reuse)
    for c in chunks:
        view.add(c)
    view.close()
