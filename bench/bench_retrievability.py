"""Time retrieval_scores on N synthetic chunks (Zipf vocabulary): `python bench/... [N]`."""

from __future__ import annotations

import sys
import time

import numpy as np

from notechunk.chunk import Chunk, MarkdownSpan
from notechunk.corpus.scores import retrieval_scores


def synthetic(n: int, seed: int = 1) -> list[Chunk]:
    rng = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(30_000)])
    lengths = rng.integers(10, 200, size=n)
    ids = np.minimum(rng.zipf(1.3, size=int(lengths.sum())) - 1, len(vocab) - 1)
    words = vocab[ids]
    chunks, pos = [], 0
    for i, k in enumerate(lengths):
        toks = words[pos : pos + k]
        pos += k
        text = ". ".join(" ".join(toks[j : j + 12]) for j in range(0, k, 12))
        path = (f"Topic {vocab[i % 700]}", f"Part {i % 5}")
        chunks.append(
            Chunk(
                id=str(i),
                text=text,
                source=f"f{i // 25}.md",
                source_type="markdown",
                location=MarkdownSpan(i, i),
                section_path=path,
                title=f"f{i // 25}",
                embed_text=" > ".join((f"f{i // 25}", *path)) + "\n" + text,
                word_count=int(k),
                quality="ok",
                omit=False,
                flags=(),
                semantic_type="narrative",
            )
        )
    return chunks


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    t0 = time.perf_counter()
    chunks = synthetic(n)
    t1 = time.perf_counter()
    scores = retrieval_scores(chunks)
    t2 = time.perf_counter()
    print(
        f"{n} chunks: generate {t1 - t0:.1f}s, score {t2 - t1:.1f}s, "
        f"mean {sum(scores) / n:.3f}, min {min(scores):.3f}"
    )
