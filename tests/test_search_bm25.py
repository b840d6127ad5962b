"""search.bm25: stemmed terms, scores equal to bm25s's, one saved index per run."""

from __future__ import annotations

import gzip
from pathlib import Path

import bm25s
import numpy as np
import pytest

from notechunk.search import bm25
from notechunk.search.runview import FinishedRun, open_run
from notechunk.terms import terms

TEXTS = [
    "Himalayan rivers are perennial: snow feeds the rivers in summer.",
    "The river Ganga rises at Gangotri.",
    "Peninsular plateaus are old and stable.",
    "",
    "Constitutional remedies: Article 32 lets a citizen move the Supreme Court.",
]


@pytest.mark.parametrize("stem", [True, False], ids=["stemmed", "plain"])
def test_scores_equal_bm25s(stem: bool) -> None:
    index = bm25.Bm25Index.build(TEXTS, stem=stem)
    fn = bm25.make_stem(stem)
    model = bm25s.BM25(k1=bm25.K1, b=bm25.B)
    model.index([fn(terms(t)) or ["\x00"] for t in TEXTS], show_progress=False)
    for query in ("rivers of the Himalaya", "constitution remedy", "plateau river"):
        ids = model.get_tokens_ids(fn(terms(query)))
        expected = model.get_scores(ids) if ids else np.zeros(len(TEXTS))
        assert np.allclose(index.scores(query), expected), query


def test_stemming_joins_inflections_only() -> None:
    stemmed, plain = bm25.Bm25Index.build(TEXTS), bm25.Bm25Index.build(TEXTS, stem=False)
    # "river" finds the chunk that only says "rivers", and "constitution" its adjective
    assert stemmed.scores("river")[0] > 0 and plain.scores("river")[0] == 0
    assert stemmed.scores("constitution")[4] > 0 and plain.scores("constitution")[4] == 0
    # an affix rule, not a dictionary: a disease is not its fungus
    fungus = bm25.Bm25Index.build(["Histoplasma capsulatum grows in soil."])
    assert fungus.scores("histoplasmosis")[0] == 0


def test_query_without_known_terms_scores_zero() -> None:
    index = bm25.Bm25Index.build(TEXTS)
    assert not index.scores("the of and").any()
    assert not index.scores("zzzz").any()


def fake_run(out: Path, texts: list[str]) -> FinishedRun:
    out.mkdir(parents=True, exist_ok=True)
    (out / "manifest.json").write_text("{}", encoding="utf-8")
    lines = "".join(f'{{"text": "{t}", "embed_text": "{t}"}}\n' for t in texts)
    (out / "chunks.jsonl.gz").write_bytes(gzip.compress(lines.encode(), mtime=0))
    return open_run(out)


def test_index_is_saved_once_and_replaced_with_the_run(tmp_path: Path) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain", "river delta"])
    calls: list[int] = []

    def texts() -> list[str]:
        calls.append(1)
        return ["monsoon rain", "river delta"]

    first, built = bm25.load_or_build(run, texts)
    assert built and len(calls) == 1
    again, built = bm25.load_or_build(run, texts)
    assert not built and len(calls) == 1  # loaded from OUT/.search, texts never read
    assert np.array_equal(first.scores("rivers"), again.scores("rivers"))
    (entry,) = (tmp_path / "out" / ".search").glob("bm25-*")
    rerun = fake_run(tmp_path / "out", ["monsoon rain", "river delta", "plateau"])
    assert rerun.key != run.key
    _, built = bm25.load_or_build(rerun, lambda: ["monsoon rain", "river delta", "plateau"])
    assert built
    entries = list((tmp_path / "out" / ".search").glob("bm25-*"))
    assert len(entries) == 1 and entries[0] != entry  # the stale index is gone


def test_unwritable_out_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain"])

    def refuse(*_: object) -> None:
        raise PermissionError("read-only")

    monkeypatch.setattr(bm25.os, "replace", refuse)
    index, built = bm25.load_or_build(run, lambda: ["monsoon rain"])
    assert built and index.scores("monsoon")[0] > 0
    assert not list((tmp_path / "out" / ".search").glob("*"))  # no half-written entry


def test_damaged_entry_is_rebuilt(tmp_path: Path) -> None:
    run = fake_run(tmp_path / "out", ["monsoon rain"])
    bm25.load_or_build(run, lambda: ["monsoon rain"])
    (entry,) = (tmp_path / "out" / ".search").glob("bm25-*")
    (entry / "vocab.json").write_text("{not json", encoding="utf-8")
    index, built = bm25.load_or_build(run, lambda: ["monsoon rain"])
    assert built and index.scores("monsoon")[0] > 0


def test_score_new_weighs_a_new_chunk_as_a_rebuilt_index_would() -> None:
    from notechunk.search.bm25 import Bm25Index, index_terms, make_stem

    texts = [
        "the river ganga flows east to the bay",
        "monsoon rain reaches kerala in june",
        "the river yamuna joins the ganga at prayag",
        "deserts of rajasthan get little rain",
    ]
    new = "a zqnew river of the north joins the ganga"
    published = Bm25Index.build(texts)
    rebuilt = Bm25Index.build([*texts, new])
    terms = [index_terms(new, make_stem())]
    for query in ("zqnew river", "ganga river", "rain"):
        got = float(published.score_new(terms, query)[0])
        want = float(rebuilt.scores(query)[-1])
        assert got == pytest.approx(want, rel=1e-6), query
    assert published.score_new([], "river").shape == (0,)
    assert float(published.score_new(terms, "kerala")[0]) == 0.0
