"""Paired comparison: exact sign-test values and a deterministic bootstrap."""

from __future__ import annotations

import math

import pytest

from notechunk.evaluate.paired import bootstrap_ci, compare, sign_test


@pytest.mark.parametrize(
    ("a", "b", "p"),
    [
        (0, 0, 1.0),
        (1, 0, 1.0),
        (5, 0, 2 / 32),
        (0, 5, 2 / 32),
        (8, 2, 2 * (1 + 10 + 45) / 1024),
        (3, 3, 1.0),
    ],
    ids=["nothing-differs", "one", "five-nil", "nil-five", "eight-two", "even"],
)
def test_sign_test_exact(a: int, b: int, p: float) -> None:
    assert sign_test(a, b) == pytest.approx(p)


def test_sign_test_large_counts_do_not_overflow() -> None:
    assert 0.0 <= sign_test(6000, 4000) < 1e-50
    assert math.isclose(sign_test(5000, 5000), 1.0)


def test_bootstrap_is_deterministic_and_brackets_the_mean() -> None:
    diffs = [1.0] * 30 + [0.0] * 60 + [-1.0] * 10
    first = bootstrap_ci(diffs)
    assert first == bootstrap_ci(diffs)
    assert first[0] < 0.2 < first[1]
    assert bootstrap_ci([0.0] * 50) == (0.0, 0.0)
    assert bootstrap_ci([]) == (0.0, 0.0)


def test_compare_counts_wins_per_question() -> None:
    xs = [1.0, 1.0, 0.0, 1.0, 0.0]
    ys = [0.0, 1.0, 0.0, 0.0, 1.0]
    p = compare("A", "B", "recall@budget", xs, ys)
    assert (p.n, p.a_better, p.b_better) == (5, 2, 1)
    assert p.mean_a == pytest.approx(0.6) and p.diff == pytest.approx(0.2)
    assert p.p_sign == pytest.approx(1.0)
    assert p.to_json()["ci95"] == [round(p.ci_low, 4), round(p.ci_high, 4)]
    with pytest.raises(ValueError):
        compare("A", "B", "mrr", [1.0], [])


@pytest.mark.parametrize(("a", "b"), [(520, 480), (700, 301), (10, 990)])
def test_log_space_agrees_with_the_exact_sum(
    a: int, b: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from notechunk.evaluate import paired

    exact = sign_test(a, b)
    monkeypatch.setattr(paired, "EXACT_UP_TO", 0)
    assert sign_test(a, b) == pytest.approx(exact, rel=1e-9, abs=1e-300)
