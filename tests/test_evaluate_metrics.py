"""Metrics on hand-made rankings whose values are known exactly."""

from __future__ import annotations

import pytest

from notechunk.evaluate.metrics import budget_hit, normalize, outcomes

CHUNKS = [
    "The Ganga rises at Gangotri.",  # 0
    "The Rowlatt Act was passed in 1919.",  # 1
    "Mandamus   means\n'we command'.",  # 2
]


def test_normalize_folds_case_and_whitespace() -> None:
    assert normalize("  Mandamus \n MEANS\t'we' ") == "mandamus means 'we'"


def test_recall_and_mrr_exact() -> None:
    rankings = [[0, 1, 2], [1, 0, 2], [2, 1, 0], [1, 0, 2]]
    answers = [["gangotri"], ["1919"], ["MANDAMUS means 'we"], ["Gangotri"]]
    got = outcomes(rankings, CHUNKS, answers, budget=1000)
    assert got.first_hit == (1, 1, 1, 2)
    assert got.budget_hit == (True, True, True, True)
    assert (got.recall_at(1), got.recall_at(3)) == (0.75, 1.0)
    assert got.mrr == pytest.approx((1 + 1 + 1 + 0.5) / 4)
    assert got.recall_at_budget == 1.0
    assert got.reciprocal_ranks() == (1.0, 1.0, 1.0, 0.5)


def test_no_hit_scores_zero() -> None:
    got = outcomes([[0, 1]], CHUNKS, [["absent"]], budget=10)
    assert got.first_hit == (None,)
    assert got.recall_at(1) == 0.0 and got.mrr == 0.0 and got.recall_at_budget == 0.0


def test_answer_across_two_chunks_is_no_hit() -> None:
    got = outcomes([[0, 1]], CHUNKS, [["gangotri. the rowlatt"]], budget=100)
    assert got.first_hit == (None,) and got.budget_hit == (False,)


@pytest.mark.parametrize(
    ("budget", "hit"),
    [(5, False), (8, False), (9, True), (100, True)],
    ids=["first-only", "second-cut-before-answer", "second-cut-at-answer", "all"],
)
def test_budget_cuts_the_last_chunk(budget: int, hit: bool) -> None:
    # chunk 0 has 5 words, the answer ends at word 4 of chunk 1
    words = [["a", "b", "c", "d", "e"], ["f", "g", "h", "answer", "i", "j"]]
    assert budget_hit([0, 1], words, ["answer"], budget) is hit


def test_budget_stops_after_budget_words() -> None:
    words = [["x"] * 10, ["answer"]]
    assert budget_hit([0, 1], words, ["answer"], 10) is False
    assert budget_hit([0, 1], words, ["answer"], 11) is True


def test_rankings_must_match_questions() -> None:
    with pytest.raises(ValueError):
        outcomes([[0]], CHUNKS, [["a"], ["b"]], budget=10)
