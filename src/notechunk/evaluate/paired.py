"""Paired comparison of two eval rows on the same questions: sign test and bootstrap.

Two rows measured on the same questions differ by the questions one answers and the
other does not; comparing their means alone ignores that pairing. For each metric
(recall@budget: per-question 0/1; MRR: per-question reciprocal rank):

- the exact two-sided sign test over the questions where the rows differ (`a_better`
  of them favour A, `b_better` favour B; ties carry no information): p is the chance of
  a split at least this uneven if either row were as likely to win each question;
- a paired bootstrap of the mean difference A - B: `BOOTSTRAP_ROUNDS` resamples of the
  questions with a fixed seed, the 2.5 and 97.5 percentiles as a 95% interval.

Deterministic: the same outcomes give the same numbers on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

BOOTSTRAP_ROUNDS = 2000
SEED = 20240601
EXACT_UP_TO = 1000


@dataclass(frozen=True, slots=True, kw_only=True)
class Paired:
    """A against B on one metric over the same `n` questions."""

    a: str
    b: str
    metric: str
    n: int
    mean_a: float
    mean_b: float
    a_better: int
    b_better: int
    p_sign: float
    ci_low: float
    ci_high: float

    @property
    def diff(self) -> float:
        return self.mean_a - self.mean_b

    def to_json(self) -> dict[str, object]:
        return {
            "a": self.a,
            "b": self.b,
            "metric": self.metric,
            "n": self.n,
            "mean_a": round(self.mean_a, 4),
            "mean_b": round(self.mean_b, 4),
            "diff": round(self.diff, 4),
            "a_better": self.a_better,
            "b_better": self.b_better,
            "p_sign": round(self.p_sign, 4),
            "ci95": [round(self.ci_low, 4), round(self.ci_high, 4)],
        }


def sign_test(a_better: int, b_better: int) -> float:
    """Exact two-sided binomial sign test p-value (1.0 when nothing differs).

    Up to `EXACT_UP_TO` differing questions the tail is summed in integers; beyond, in
    log space (`lgamma`), where the relative error stays far below any reported digit.
    """
    n = a_better + b_better
    if n == 0:
        return 1.0
    k = min(a_better, b_better)
    if n <= EXACT_UP_TO:
        tail = sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)
    else:
        logs = [_log_binom_half(n, i) for i in range(k + 1)]
        top = max(logs)
        tail = math.exp(top) * sum(math.exp(x - top) for x in logs)
    return min(1.0, 2 * tail)


def _log_binom_half(n: int, i: int) -> float:
    """log(C(n, i) / 2**n)."""
    return math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2)


def bootstrap_ci(diffs: Sequence[float], rounds: int = BOOTSTRAP_ROUNDS) -> tuple[float, float]:
    """95% percentile interval of the mean of `diffs` under resampling (numpy's PCG64 with
    a fixed seed: the same on every machine), in blocks of rounds to bound memory."""
    import numpy as np

    n = len(diffs)
    if n == 0:
        return (0.0, 0.0)
    values = np.asarray(diffs, dtype=np.float64)
    rng = np.random.default_rng(SEED)
    means: list[float] = []
    block = max(1, 2_000_000 // n)
    for start in range(0, rounds, block):
        picks = rng.integers(0, n, size=(min(block, rounds - start), n))
        means.extend(float(m) for m in values[picks].mean(axis=1))
    means.sort()
    return means[int(0.025 * rounds)], means[min(rounds - 1, int(0.975 * rounds))]


def compare(a: str, b: str, metric: str, xs: Sequence[float], ys: Sequence[float]) -> Paired:
    """A (`xs`) against B (`ys`), one value per question in the same order."""
    if len(xs) != len(ys):
        raise ValueError("paired values need the same questions")
    n = len(xs)
    diffs = [x - y for x, y in zip(xs, ys, strict=True)]
    a_better = sum(1 for d in diffs if d > 0)
    b_better = sum(1 for d in diffs if d < 0)
    low, high = bootstrap_ci(diffs)
    return Paired(
        a=a,
        b=b,
        metric=metric,
        n=n,
        mean_a=sum(xs) / n if n else 0.0,
        mean_b=sum(ys) / n if n else 0.0,
        a_better=a_better,
        b_better=b_better,
        p_sign=sign_test(a_better, b_better),
        ci_low=low,
        ci_high=high,
    )
