"""bm25: the one BM25 (Lucene's, as bm25s), stemmed or plain; the corpus score pass's
weights are its formula."""

from __future__ import annotations

import bm25s
import numpy as np
import pytest

from notechunk import bm25
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


def test_the_corpus_pass_weighs_with_the_same_formula() -> None:
    """bm25index's weights are bm25.weights with its own statistics: a lone document of one
    term repeated scores what bm25s gives it."""
    idf = bm25.idf(3, np.asarray([1, 2, 3]))
    w = bm25.weights(idf[[0]], np.asarray([2]), np.asarray([4]), 4.0)
    expected = idf[0] * 2 * (bm25.K1 + 1) / (2 + bm25.K1)  # dl == avgdl: norm is k1
    assert w.dtype == np.float32 and np.isclose(float(w[0]), expected, rtol=1e-6)


def test_score_new_weighs_a_new_chunk_as_a_rebuilt_index_would() -> None:
    texts = [
        "the river ganga flows east to the bay",
        "monsoon rain reaches kerala in june",
        "the river yamuna joins the ganga at prayag",
        "deserts of rajasthan get little rain",
    ]
    new = "a zqnew river of the north joins the ganga"
    published = bm25.Bm25Index.build(texts)
    rebuilt = bm25.Bm25Index.build([*texts, new])
    docs = [bm25.index_terms(new, bm25.make_stem())]
    for query in ("zqnew river", "ganga river", "rain"):
        got = float(published.score_new(docs, query)[0])
        want = float(rebuilt.scores(query)[-1])
        assert got == pytest.approx(want, rel=1e-6), query
    assert published.score_new([], "river").shape == (0,)
    assert float(published.score_new(docs, "kerala")[0]) == 0.0
