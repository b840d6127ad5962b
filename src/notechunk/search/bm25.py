"""BM25 over a run's `embed_text`, stemmed, built once and kept in OUT/.search.

Terms are the shared tokeniser's (`notechunk.terms.terms`: case-folded word runs minus
stop words) reduced by the Snowball English stemmer (PyStemmer, the stemmer bm25s
supports), so "rivers" finds "river" and "constitutional" finds "constitution". Stemming
is an affix rule, not a dictionary: "histoplasmosis" and "Histoplasma" stay apart.
bm25s weighs the terms once; the weights are saved under OUT/.search/bm25-<key>-<recipe>/
(memory-mapped when loaded, so a second search neither rebuilds nor imports bm25s and
scipy) and replaced when the run's chunks.jsonl.gz changes.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence

from notechunk.bm25 import Bm25Index, recipe
from notechunk.search.runview import FinishedRun, cache_path, drop_stale


def load_or_build(
    run: FinishedRun, texts: Callable[[], Sequence[str]], stem: bool = True, save: bool = True
) -> tuple[Bm25Index, bool]:
    """The run's index from OUT/.search, else built from `texts()` and saved there
    (unless `save` is False: a reader that must leave OUT as it is).

    Returns the index and whether it was built now. An OUT that cannot be written (a
    read-only copy) still gets an answer, just without the saved index.
    """
    folder = cache_path(run, "bm25", f"-{recipe(stem)}")
    if (folder / "vocab.json").is_file():
        try:
            return Bm25Index.load(folder, stem), False
        except (OSError, ValueError, KeyError):
            if save:
                shutil.rmtree(folder, ignore_errors=True)  # a damaged entry is rebuilt
    index = Bm25Index.build(texts(), stem)
    if not save:
        return index, True
    tmp = folder.with_name(f".tmp-{folder.name}-{os.getpid()}")
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        index.save(tmp)
        os.replace(tmp, folder)
        drop_stale(run, "bm25", keep=folder)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # read-only OUT, or a concurrent search won
    return index, True
