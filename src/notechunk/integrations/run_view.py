"""A published run as the MCP tools read it: `RunView` (the surviving chunks in file
order, an id index, each source's chunks, the files the run read, where the notes are,
and what ranks them) and `load_view`, which opens OUT once, read-only.

Apart from the tools (`notes_view`) and the provisional overlay (`notes_overlay`), which
both build on it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from notechunk.chunk import Chunk
from notechunk.errors import UsageError
from notechunk.io.origin import Origin, read_origin
from notechunk.io.publish import MANIFEST, read_manifest
from notechunk.search import dense
from notechunk.search.engine import Ranker
from notechunk.search.runview import CHUNKS, open_run, parse

if TYPE_CHECKING:
    import numpy as np

    from notechunk.bm25 import Bm25Index


class Ranking(Protocol):
    """What the tools rank with: the published run's `Ranker`, or the watcher's overlay."""

    def bm25_index(self) -> Bm25Index: ...

    def ranked(
        self, query: str, k: int, retriever: str, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]: ...


@dataclass(frozen=True, slots=True)
class RunView:
    """One run as the tools read it (never changed: a newer run is a new view).
    `provisional` names the changed files swapped in before their run published
    (`notes_overlay`); empty for a published run."""

    out: Path
    manifest_sha: str
    chunks: tuple[Chunk, ...]
    by_id: Mapping[str, int]
    by_source: Mapping[str, tuple[int, ...]]
    files: tuple[str, ...]
    root: Path | None
    ranker: Ranking
    published_ns: int
    provisional: tuple[str, ...] = ()

    def chunk(self, chunk_id: str) -> Chunk:
        i = self.by_id.get(chunk_id)
        if i is None:
            raise UsageError(
                f"no chunk {chunk_id!r} in this run (an edited note gets new ids: search again)"
            )
        return self.chunks[i]


def load_view(
    out: Path,
    *,
    src: Path | None = None,
    embedder: Callable[[], dense.Embedder] = dense.make_embedder,
) -> RunView:
    """OUT's published run, or a UsageError saying why it cannot be read now. `src`
    overrides where the notes are (an OUT moved from another machine, or made before
    runs recorded their origin)."""
    manifest_path = out / MANIFEST
    try:
        raw = manifest_path.read_bytes()
        published_ns = manifest_path.stat().st_mtime_ns
    except OSError:
        raise UsageError(
            f"{out}: not a finished notechunk run (no {MANIFEST}); run `notechunk run` first"
        ) from None
    run = open_run(out)
    listed = read_manifest(out).files.get(CHUNKS)
    if listed is None or listed[1] != run.key:
        raise UsageError(f"{out}: a run is being published there; ask again in a moment")
    ranker = Ranker(run, embedder=embedder, save=False)
    chunks = tuple(parse(line) for line in ranker.lines())
    origin: Origin | None = read_origin(out)
    files = origin.files if origin is not None else tuple(sorted({c.source for c in chunks}))
    root: Path | None = origin.root if origin is not None else None
    if src is not None:
        root = src.resolve()
        root = root.parent if root.is_file() else root
    empty = RunView(
        out=out,
        manifest_sha=hashlib.sha256(raw).hexdigest(),
        chunks=(),
        by_id={},
        by_source={},
        files=(),
        root=root,
        ranker=ranker,
        published_ns=published_ns,
    )
    return index_view(empty, chunks, files, ranker)


def index_view(
    base: RunView,
    chunks: tuple[Chunk, ...],
    files: tuple[str, ...],
    ranker: Ranking,
    provisional: tuple[str, ...] = (),
) -> RunView:
    """`base` with these chunks (in ranking order), files and ranker, indexed by id and
    by source."""
    by_source: dict[str, list[int]] = {}
    for i, c in enumerate(chunks):
        by_source.setdefault(c.source, []).append(i)
    return replace(
        base,
        chunks=chunks,
        by_id={c.id: i for i, c in enumerate(chunks)},
        by_source={s: tuple(ix) for s, ix in by_source.items()},
        files=files,
        ranker=ranker,
        provisional=provisional,
    )
