"""BM25 over a run's `embed_text`, stemmed, built once and kept in OUT/.search.

Terms are the shared tokeniser's (`notechunk.terms.terms`: case-folded word runs minus
stop words) reduced by the Snowball English stemmer (PyStemmer, the stemmer bm25s
supports), so "rivers" finds "river" and "constitutional" finds "constitution". Stemming
is an affix rule, not a dictionary: "histoplasmosis" and "Histoplasma" stay apart.
bm25s weighs the terms once; the weights are saved under OUT/.search/bm25-<key>-<recipe>/
(memory-mapped when loaded, so a second search neither rebuilds nor imports bm25s and
scipy) and replaced when the run's chunks.jsonl.gz changes.

Nothing read back is believed: an entry is used only when its seal (notechunk's version,
the run, each file's sha256: `runview.unsealed`) holds and its arrays have the shapes
and values of an index of this run (`check_index`); otherwise it is rebuilt, with a
one-line note when it was damaged rather than stale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from notechunk.bm25 import Bm25Index, recipe
from notechunk.search.runview import FinishedRun, Stored, cache_path, save_entry, unsealed


def load_or_build(
    run: FinishedRun, texts: Callable[[], Sequence[str]], stem: bool = True, save: bool = True
) -> tuple[Bm25Index, Stored]:
    """The run's index from OUT/.search, else built from `texts()` and saved there
    (unless `save` is False: a reader that must leave OUT as it is).

    Returns the index and how it was got (loaded; built and saved; built, not saved: a
    read-only OUT still gets an answer). A damaged entry is rebuilt, its note saying so.
    """
    folder = cache_path(run, "bm25", f"-{recipe(stem)}")
    why = unsealed(run, folder)
    damaged: str | None = None
    if why is None:
        try:
            index = Bm25Index.load(folder, stem)
            check_index(index, run.n_chunks)
            return index, Stored("loaded")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            why = str(exc) or type(exc).__name__
    if why not in ("absent", "stale"):
        damaged = f"{folder}: damaged search index ({why}); rebuilt"
    index = Bm25Index.build(texts(), stem)
    if not save:
        return index, Stored("unsaved", damaged)
    stored = save_entry(run, folder, index.save)
    note = "; ".join(n for n in (damaged, stored.note) if n) or None
    return index, Stored(stored.state, note)


def check_index(index: Bm25Index, n_chunks: int) -> None:
    """Raise ValueError unless `index` is a BM25 matrix over `n_chunks` chunks: CSC arrays
    of consistent lengths, column pointers that never go back, chunk numbers in range,
    finite weights, one column per vocabulary term."""
    import numpy as np

    data, indices, indptr = (np.asarray(a) for a in (index.data, index.indices, index.indptr))
    if index.n != n_chunks:
        raise ValueError(f"{index.n} documents for {n_chunks} chunks")
    if data.ndim != 1 or indices.ndim != 1 or indptr.ndim != 1:
        raise ValueError("arrays of the wrong shape")
    if not (np.issubdtype(indices.dtype, np.integer) and np.issubdtype(indptr.dtype, np.integer)):
        raise ValueError("index arrays of the wrong type")
    # bm25s may list one term more than it has columns (the empty token): never queried
    if not 0 <= len(index.vocab) + 1 - len(indptr) <= 1 or (len(indptr) and indptr[0] != 0):
        raise ValueError("column pointers do not match the vocabulary")
    if len(data) != len(indices) or (len(indptr) and indptr[-1] != len(indices)):
        raise ValueError("weights and chunk numbers of different lengths")
    if len(indptr) > 1 and bool(np.any(np.diff(indptr) < 0)):
        raise ValueError("column pointers go back")
    if len(indices) and (int(indices.min()) < 0 or int(indices.max()) >= n_chunks):
        raise ValueError("chunk numbers out of range")
    if not bool(np.all(np.isfinite(data))):
        raise ValueError("weights that are not finite")
    columns = sorted(index.vocab.values())
    if columns != list(range(len(columns))):
        raise ValueError("vocabulary columns are not 0..n-1")
    missing = [t for t, col in index.vocab.items() if col + 1 >= len(indptr)]
    if any(missing):
        raise ValueError("a term without its column")
