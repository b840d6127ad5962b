"""What an assistant reads of a finished run: search, chunks, their neighbours, the notes'
own lines and their outlines, as plain JSON-ready dicts (the MCP server's tools).

`run_view.load_view` opens OUT once, read-only: the surviving chunks in file order, an id
index, each source's chunks, the run's search `Ranker` (the ranking of `notechunk search`,
its index loaded once) and the run's origin (`io.origin`: where the notes are). `Notes`
holds the view of the newest run: it looks at the manifest on every call (a stat, then
its sha256 when the stat changed) and loads a newer run when one is complete, keeping
the previous view while a run is publishing.

Every argument an assistant sends is checked here, with a one-line reason
(`UsageError`): k and neighbours in range, ids and sources that exist. `read_source`
serves only files the run read, resolved inside the run's root (no `..`, absolute path,
NUL, or symlink out of it), at most `MAX_LINES` lines and `MAX_CHARS` characters a call.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from notechunk.chunk import Chunk
from notechunk.discover import kind_of
from notechunk.errors import InputError, UsageError
from notechunk.integrations.run_view import RunView, load_view
from notechunk.io.publish import MANIFEST
from notechunk.search import dense
from notechunk.search.engine import RETRIEVERS, check_question
from notechunk.search.show import context, where

if TYPE_CHECKING:
    import numpy as np

    from notechunk.config import Config

MAX_K = 50
MAX_NEIGHBOURS = 3
MAX_LINES = 400
MAX_CHARS = 40_000
MAX_LISTED = 1_000
MAX_OUTLINE_IDS = 2_000
MAX_FILE_BYTES = 32 << 20  # a note larger than this is not read back whole to serve lines
TEXT_SHEETS = frozenset({".csv", ".tsv"})  # sheets that are text: read_source can show them


class Notes:
    """The view of OUT's newest complete run, safe to share between threads.

    `view()` costs a stat of the manifest when nothing changed; a changed manifest is
    hashed and, when it names another run, that run is loaded (the previous view is kept
    while OUT is between runs). `refresh()` does the same eagerly: the watcher calls it
    after each publish, so no question waits for the load.
    """

    def __init__(
        self,
        out: Path,
        *,
        src: Path | None = None,
        embedder: Callable[[], dense.Embedder] = dense.make_embedder,
        first_run: threading.Event | None = None,
        first_run_wait_s: float = 60.0,
    ) -> None:
        self.out, self.src, self._embedder = out, src, embedder
        self._first_run, self._wait = first_run, first_run_wait_s
        self._lock = threading.Lock()
        self._view: RunView | None = None  # the published run, or an overlay of it
        self._base: RunView | None = None  # the published run
        # changed files served before their run publishes: source -> (sequence, chunks)
        self._pending: dict[str, tuple[int, tuple[Chunk, ...] | None]] = {}
        self._seq = 0  # of the last change taken in
        self._mark = 0  # the sequence when the run now going started
        self._cfg: Config | None = None
        self._stat: tuple[int, int, int] | None = None

    def view(self, wait: bool = True) -> RunView:
        """The newest complete run; with `mcp --watch`, a question asked before the first
        run is done waits for it (up to `first_run_wait_s`) when `wait`."""
        if wait and self._view is None and self._first_run is not None:
            self._first_run.wait(self._wait)
        with self._lock:
            stamp = _stamp(self.out / MANIFEST)
            if self._view is not None and (stamp is None or stamp == self._stat):
                return self._view  # unchanged, or between runs: the last complete one
            try:
                sha = hashlib.sha256((self.out / MANIFEST).read_bytes()).hexdigest()
            except OSError:
                sha = None
            if self._view is not None and sha == self._view.manifest_sha:
                self._stat = stamp
                return self._view
            try:
                base = load_view(self.out, src=self.src, embedder=self._embedder)
            except UsageError:
                if self._view is None:
                    raise
                return self._view
            self._stat = stamp
            self._base = self._view = base
            # changes taken in after the published run started are not in it: kept
            self._pending = {s: p for s, p in self._pending.items() if p[0] > self._mark}
            self._overlay()
            return self._view

    def _overlay(self) -> None:
        """The served view: the published run with the pending changes (lock held)."""
        from notechunk.integrations.notes_overlay import overlay

        if self._base is not None:
            if self._pending and self._cfg is not None:
                changes = {s: chunks for s, (_, chunks) in self._pending.items()}
                self._view = overlay(self._base, changes, self._cfg)
            else:
                self._view = self._base

    def mark(self) -> None:
        """A run starts: what was taken in until now will be in what it publishes."""
        with self._lock:
            self._mark = self._seq

    def refresh(self) -> RunView:
        """Load a newer run now, with its BM25 index (off the request path)."""
        view = self.view(wait=False)
        view.ranker.bm25_index()
        return view

    def provisional(
        self, changed: Sequence[tuple[str, Path]], cfg: Config, cache_root: Path | None
    ) -> list[str]:
        """Serve these changed files (relative name, path) before their run publishes
        (`notes_overlay`); returns the reasons of files that could not be chunked (they
        keep their published chunks). A later publish replaces the overlay."""
        from notechunk.integrations.notes_overlay import chunk_changes, gone_folders

        base = self.refresh()
        changes, problems = chunk_changes(changed, cfg, cache_root)
        changes.update(gone_folders(base, changed))
        if not changes:
            return problems
        with self._lock:
            self._seq += 1
            self._pending.update((s, (self._seq, chunks)) for s, chunks in changes.items())
            self._cfg = cfg
            self._overlay()
        return problems


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


# --- what each tool answers --------------------------------------------------------


def chunk_json(c: Chunk, view: RunView) -> dict[str, Any]:
    """A chunk as an assistant reads it: where it is (to cite), its context, its text."""
    siblings = view.by_source.get(c.source, ())
    i = view.by_id.get(c.id)
    data: dict[str, Any] = {
        "id": c.id,
        "source": c.source,
        "where": where(c),
        "title": c.title,
        "context": context(c),
        "text": c.text,
        "quality": c.quality,
    }
    if c.source_type == "spreadsheet":
        data.update(sheet=c.sheet, row=c.row)
    elif c.lines is not None:
        data["lines"] = list(c.lines)
    if i is not None:
        data["position"] = f"{bisect_left(siblings, i) + 1} of {len(siblings)}"
    return data


def search_notes(
    view: RunView, query: str, k: int = 8, retriever: str = "bm25", source: str | None = None
) -> dict[str, Any]:
    """The best `k` chunks for `query`, ranked as `notechunk search` ranks them."""
    if not 1 <= k <= MAX_K:
        raise UsageError(f"k must be between 1 and {MAX_K} (got {k})")
    check_question(query, k, retriever)
    allowed = None if source is None else _only_source(view, source)
    ranked = view.ranker.ranked(query, k, retriever, allowed)
    hits = [
        {"rank": n, "score": round(score, 4), **chunk_json(view.chunks[i], view)}
        for n, (i, score) in enumerate(ranked, 1)
    ]
    result: dict[str, Any] = {"query": query, "retriever": retriever, "hits": hits}
    if view.provisional:
        result["provisional"] = (
            f"{len(view.provisional)} changed file(s) searched before their run published; "
            "scores settle when it does"
        )
    if not hits:
        result["note"] = "no chunk shares a word with the question: try other words" + (
            " or retriever='hybrid'" if retriever == "bm25" else ""
        )
    return result


def _only_source(view: RunView, source: str) -> np.ndarray:
    """One bool per chunk: in `source` (a file, or a folder and everything under it)."""
    import numpy as np

    folder = source.rstrip("/") + "/"
    mask = np.fromiter(
        (c.source == source or c.source.startswith(folder) for c in view.chunks),
        dtype=bool,
        count=len(view.chunks),
    )
    if not mask.any():
        raise UsageError(f"no source {source!r} in this run (list_sources names them)")
    return mask


def read_chunk(view: RunView, chunk_id: str, neighbours: int = 0) -> dict[str, Any]:
    """The chunk, with up to `neighbours` chunks before and after it in its file."""
    if not 0 <= neighbours <= MAX_NEIGHBOURS:
        raise UsageError(f"neighbours must be between 0 and {MAX_NEIGHBOURS} (got {neighbours})")
    c = view.chunk(chunk_id)
    siblings = view.by_source[c.source]
    at = bisect_left(siblings, view.by_id[chunk_id])  # a file's chunks are in index order
    before = siblings[max(0, at - neighbours) : at]
    after = siblings[at + 1 : at + 1 + neighbours]
    return {
        "chunk": chunk_json(c, view),
        "before": [chunk_json(view.chunks[i], view) for i in before],
        "after": [chunk_json(view.chunks[i], view) for i in after],
    }


def list_sources(view: RunView, under: str | None = None) -> dict[str, Any]:
    """The files of the run (optionally under one folder), with their chunk counts."""
    folder = None if under is None else under.strip("/") + "/"
    names = [s for s in view.files if folder is None or s.startswith(folder)]
    if under is not None and not names:
        raise UsageError(f"no source under {under!r} in this run")
    rows = []
    for name in names[:MAX_LISTED]:
        ix = view.by_source.get(name, ())
        first = view.chunks[ix[0]] if ix else None
        rows.append(
            {
                "source": name,
                "type": kind_of(Path(name)) or "other",
                "title": first.title if first is not None else "",
                "chunks": len(ix),
            }
        )
    result: dict[str, Any] = {"count": len(names), "sources": rows}
    if len(names) > MAX_LISTED:
        result["note"] = f"the first {MAX_LISTED} of {len(names)}: pass `under` to narrow"
    return result


def outline(view: RunView, source: str) -> dict[str, Any]:
    """A file's structure from its chunks: the heading tree of a note (each heading with
    its line range and the ids of its chunks) or the sheets of a workbook (row ranges)."""
    _known_source(view, source)
    chunks = [view.chunks[i] for i in view.by_source.get(source, ())]
    budget = [MAX_OUTLINE_IDS]
    if kind_of(Path(source)) == "spreadsheet":
        return {"source": source, "type": "spreadsheet", "sheets": _sheets(chunks, budget)}
    root = _Node("", ())
    for c in chunks:
        for path in c.section_paths or (c.section_path,):
            root.add(path, c, budget)
    result: dict[str, Any] = {
        "source": source,
        "type": "markdown",
        "title": chunks[0].title if chunks else "",
        "chunks": len(chunks),
        "headings": [child.to_json() for child in root.children],
    }
    if root.ids:
        result["before_first_heading"] = root.ids
    if budget[0] < 0:
        result["note"] = f"ids listed for the first {MAX_OUTLINE_IDS} chunks only"
    return result


class _Node:
    """A heading with its line range and chunk ids; children in the order they appear.
    A heading seen again after another one at its level is a new section (heading stack)."""

    def __init__(self, heading: str, path: tuple[str, ...]) -> None:
        self.heading, self.path = heading, path
        self.children: list[_Node] = []
        self.ids: list[str] = []
        self.lines: list[int] | None = None

    def add(self, path: Sequence[str], c: Chunk, budget: list[int]) -> None:
        node = self
        for depth, heading in enumerate(path):
            if not node.children or node.children[-1].heading != heading:
                node.children.append(_Node(heading, tuple(path[: depth + 1])))
            node = node.children[-1]
            node.widen(c)
        budget[0] -= 1
        if budget[0] >= 0 and c.id not in node.ids:
            node.ids.append(c.id)

    def widen(self, c: Chunk) -> None:
        if c.lines is None:
            return
        first, last = c.lines
        if self.lines is None:
            self.lines = [first, last]
        else:
            self.lines = [min(self.lines[0], first), max(self.lines[1], last)]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"heading": self.heading, "lines": self.lines, "ids": self.ids}
        if self.children:
            data["children"] = [child.to_json() for child in self.children]
        return data


def _sheets(chunks: Iterable[Chunk], budget: list[int]) -> list[dict[str, Any]]:
    sheets: dict[str, dict[str, Any]] = {}
    for c in chunks:
        sheet = sheets.setdefault(
            c.sheet or "", {"sheet": c.sheet or "", "rows": None, "chunks": 0, "ids": []}
        )
        sheet["chunks"] += 1
        if c.row is not None:
            rows = sheet["rows"]
            sheet["rows"] = [c.row, c.row] if rows is None else [min(rows[0], c.row), c.row]
        budget[0] -= 1
        if budget[0] >= 0:
            sheet["ids"].append(c.id)
    return list(sheets.values())


def read_source(
    view: RunView, source: str, start_line: int = 1, end_line: int | None = None
) -> dict[str, Any]:
    """Lines `start_line`..`end_line` (1-based, inclusive; numbered as chunks' `lines`
    count them) of a note the run read, at most `MAX_LINES` lines a call."""
    from notechunk.textio import decode_text, source_lines

    if start_line < 1:
        raise UsageError(f"start_line must be at least 1 (got {start_line})")
    if end_line is not None and end_line < start_line:
        raise UsageError(f"end_line {end_line} is before start_line {start_line}")
    path = safe_path(view, source)
    if kind_of(path) == "spreadsheet" and path.suffix.lower() not in TEXT_SHEETS:
        raise UsageError(
            f"{source} is a workbook, not text: outline(source) lists its sheets and "
            "read_chunk(id) reads its rows"
        )
    try:
        text = decode_text(_read_inside(path), source).text
    except InputError as exc:
        raise UsageError(str(exc)) from None
    lines = source_lines(text)
    total = len(lines)
    if start_line > max(total, 1):
        raise UsageError(f"{source} has {total} lines; start_line {start_line} is past its end")
    last = min(total, end_line if end_line is not None else start_line + MAX_LINES - 1)
    notes: list[str] = []
    if last - start_line + 1 > MAX_LINES:
        last = start_line + MAX_LINES - 1
        notes.append(f"at most {MAX_LINES} lines a call: ask for {last + 1}- next")
    body: list[str] = []
    chars = 0
    for n in range(start_line, last + 1):
        line = lines[n - 1]
        if chars + len(line) > MAX_CHARS and body:
            last = n - 1
            notes.append(f"at most {MAX_CHARS} characters a call: ask for {n}- next")
            break
        body.append(line)
        chars += len(line) + 1
    try:
        if path.stat().st_mtime_ns > view.published_ns:
            notes.append("the file changed after this run: lines may not match chunk lines")
    except OSError:
        pass
    result: dict[str, Any] = {
        "source": source,
        "start_line": start_line,
        "end_line": last,
        "total_lines": total,
        "text": "\n".join(body),
    }
    if notes:
        result["note"] = "; ".join(notes)
    return result


def _known_source(view: RunView, source: str) -> None:
    if "\x00" in source:
        raise UsageError("refused: the source name holds a NUL character")
    if source not in view.files and source not in view.by_source:
        raise UsageError(f"no source {source!r} in this run (list_sources names them)")


def safe_path(view: RunView, source: str) -> Path:
    """The file of a source of this run, resolved inside the run's root; a UsageError
    for anything else (a name the run never read, `..`, an absolute path, NUL, a link
    that now leads out of the notes)."""
    _known_source(view, source)
    if view.root is None:
        raise UsageError(
            f"{view.out} does not say where its notes are (a run made before "
            "OUT/origin.json): start the server with --src NOTES"
        )
    rel = PurePosixPath(source)
    if rel.is_absolute() or ".." in rel.parts or "\\" in source:
        raise UsageError(f"refused: {source!r} is not a path inside the notes")
    try:
        root = view.root.resolve(strict=True)
        path = (root / rel).resolve(strict=True)
    except (OSError, RuntimeError):
        raise UsageError(f"{source}: not found under the notes folder now") from None
    if not path.is_relative_to(root):
        raise UsageError(f"refused: {source!r} leads outside the notes folder")
    return path


def _read_inside(path: Path) -> bytes:
    """The bytes of a regular file, opened without following a link at its last step."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise UsageError(f"{path.name}: cannot read ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"{path.name}: not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise UsageError(f"{path.name}: {st.st_size} bytes, too large to serve its lines")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    finally:
        os.close(fd)


def source_text(view: RunView, source: str) -> str:
    """A note's text for the `notechunk://source/{path}` resource: its first lines, as
    many as one `read_source` call gives."""
    part = read_source(view, source)
    note = f"\n\n[{part['note']}]" if "note" in part else ""
    return f"{part['text']}{note}"


def chunk_text(view: RunView, chunk_id: str) -> str:
    """A chunk for the `notechunk://chunk/{id}` resource: its place, context and text."""
    c = view.chunk(chunk_id)
    head = f"{where(c)}\n{context(c)}".rstrip()
    return f"{head}\n\n{c.text}"


__all__ = [
    "MAX_K",
    "MAX_NEIGHBOURS",
    "RETRIEVERS",
    "Notes",
    "RunView",
    "chunk_text",
    "list_sources",
    "load_view",
    "outline",
    "read_chunk",
    "read_source",
    "search_notes",
    "source_text",
]
