"""Retrieval metrics over rankings: per-question outcomes, then recall@k, MRR, recall@budget.

A hit is a retrieved unit whose `text` contains one of the question's answer strings,
both compared case-insensitively with whitespace runs collapsed to one space. The text,
not the indexed text: what a reader gets is the chunk's own words, and the context that
`embed_text` adds (title, heading path) would otherwise make every chunk under a heading
that names the answer a hit. For recall@budget the ranked units are read in order until
`budget` words (of their text) have been read; the unit that crosses the budget is cut to
the words that still fit. MRR uses the whole ranking (1 / rank of the first hit, 0
without one). Per-question outcomes are kept so two rows can be compared on the same
questions (`paired.py`). All functions are pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def normalize(text: str) -> str:
    """Case-folded text with every whitespace run as one space, trimmed."""
    return " ".join(text.casefold().split())


def contains_answer(normalized_text: str, normalized_answers: Sequence[str]) -> bool:
    """True when any (already normalized) answer occurs in the (normalized) text."""
    return any(a and a in normalized_text for a in normalized_answers)


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcomes:
    """Per question, in question order: the 1-based rank of the first hit (None: no hit
    in the ranking) and whether the budget-limited reading found an answer."""

    first_hit: tuple[int | None, ...]
    budget_hit: tuple[bool, ...]

    def recall_at(self, k: int) -> float:
        n = len(self.first_hit)
        return sum(1 for r in self.first_hit if r is not None and r <= k) / n if n else 0.0

    @property
    def mrr(self) -> float:
        n = len(self.first_hit)
        return sum(1.0 / r for r in self.first_hit if r is not None) / n if n else 0.0

    @property
    def recall_at_budget(self) -> float:
        n = len(self.budget_hit)
        return sum(self.budget_hit) / n if n else 0.0

    def reciprocal_ranks(self) -> tuple[float, ...]:
        return tuple(0.0 if r is None else 1.0 / r for r in self.first_hit)


def outcomes(
    rankings: Sequence[Sequence[int]],
    unit_texts: Sequence[str],
    answers: Sequence[Sequence[str]],
    budget: int,
) -> Outcomes:
    """Judge one ranking (unit indices, best first) per question against its answers."""
    if len(rankings) != len(answers):
        raise ValueError("one ranking per question is needed")
    norm_units = [normalize(t) for t in unit_texts]
    words = [t.split() for t in norm_units]
    first: list[int | None] = []
    budget_hits: list[bool] = []
    for ranking, raw_answers in zip(rankings, answers, strict=True):
        norm_answers = [normalize(a) for a in raw_answers]
        first.append(first_hit_rank(ranking, norm_units, norm_answers))
        budget_hits.append(budget_hit(ranking, words, norm_answers, budget))
    return Outcomes(first_hit=tuple(first), budget_hit=tuple(budget_hits))


def first_hit_rank(
    ranking: Sequence[int], norm_units: Sequence[str], norm_answers: Sequence[str]
) -> int | None:
    """1-based rank of the first unit containing an answer, or None."""
    for rank, idx in enumerate(ranking, start=1):
        if contains_answer(norm_units[idx], norm_answers):
            return rank
    return None


def budget_hit(
    ranking: Sequence[int],
    unit_words: Sequence[Sequence[str]],
    norm_answers: Sequence[str],
    budget: int,
) -> bool:
    """Whether the top units, read until `budget` words (the last one cut), hold an answer.

    Each unit is judged on its own (an answer is never counted across two units).
    """
    left = budget
    for idx in ranking:
        if left <= 0:
            return False
        words = unit_words[idx]
        taken = words if len(words) <= left else words[:left]
        left -= len(taken)
        if contains_answer(" ".join(taken), norm_answers):
            return True
    return False
