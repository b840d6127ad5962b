"""Retrieval metrics over rankings: recall@k, MRR and recall@budget.

A hit is a retrieved chunk whose text contains one of the question's answer strings, both
compared case-insensitively with whitespace runs collapsed to one space. For recall@budget
the ranked chunks are read in order until `budget` words have been read; the chunk that
crosses the budget is cut to the words that still fit. MRR uses the whole ranking
(1 / rank of the first hit, 0 without a hit). All functions are pure.
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
class Scores:
    """Per-run metric values; `recall_at` maps k to recall@k."""

    n_questions: int
    recall_at: dict[int, float]
    mrr: float
    recall_at_budget: float


def score_rankings(
    rankings: Sequence[Sequence[int]],
    chunk_texts: Sequence[str],
    answers: Sequence[Sequence[str]],
    ks: Sequence[int],
    budget: int,
) -> Scores:
    """Score one ranking (chunk indices, best first) per question against its answers."""
    if len(rankings) != len(answers):
        raise ValueError("one ranking per question is needed")
    norm_chunks = [normalize(t) for t in chunk_texts]
    words = [t.split() for t in norm_chunks]
    hits_at = {k: 0 for k in ks}
    rr_sum = 0.0
    budget_hits = 0
    for ranking, raw_answers in zip(rankings, answers, strict=True):
        norm_answers = [normalize(a) for a in raw_answers]
        first = first_hit_rank(ranking, norm_chunks, norm_answers)
        if first is not None:
            rr_sum += 1.0 / first
            for k in ks:
                if first <= k:
                    hits_at[k] += 1
        if budget_hit(ranking, words, norm_answers, budget):
            budget_hits += 1
    n = len(rankings)
    return Scores(
        n_questions=n,
        recall_at={k: (hits_at[k] / n if n else 0.0) for k in ks},
        mrr=rr_sum / n if n else 0.0,
        recall_at_budget=budget_hits / n if n else 0.0,
    )


def first_hit_rank(
    ranking: Sequence[int], norm_chunks: Sequence[str], norm_answers: Sequence[str]
) -> int | None:
    """1-based rank of the first chunk containing an answer, or None."""
    for rank, idx in enumerate(ranking, start=1):
        if contains_answer(norm_chunks[idx], norm_answers):
            return rank
    return None


def budget_hit(
    ranking: Sequence[int],
    chunk_words: Sequence[Sequence[str]],
    norm_answers: Sequence[str],
    budget: int,
) -> bool:
    """Whether the top chunks, read until `budget` words (the last one cut), hold an answer.

    Each chunk is judged on its own (an answer is never counted across two chunks).
    """
    left = budget
    for idx in ranking:
        if left <= 0:
            return False
        words = chunk_words[idx]
        taken = words if len(words) <= left else words[:left]
        left -= len(taken)
        if contains_answer(" ".join(taken), norm_answers):
            return True
    return False
