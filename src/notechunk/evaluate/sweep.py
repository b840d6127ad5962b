"""The sweep: each strategy's units made once, then ranked by each retriever and judged.

Rows come out strategy by strategy, each strategy's retrievers in the order asked. Peers
run after the other strategies because Chonkie is sized after notechunk's config row.
Progress and the clock are passed in (the CLI shows a bar and uses the real clock; tests
pass nothing and a fixed clock), so the sweep itself prints nothing and reads no
environment.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from notechunk.evaluate.metrics import Outcomes, outcomes
from notechunk.evaluate.questions import Question
from notechunk.evaluate.retrieve import Retriever, rank
from notechunk.evaluate.rows import EvalRow, Measured
from notechunk.evaluate.strategies import Inputs, Strategy, Unit

RANK_DEPTH = 1000
Clock = Callable[[], float]
Step = Callable[[str], None]
"""step(description): called before each (strategy, retriever) is measured."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    ks: tuple[int, ...]
    budget: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepResult:
    measured: tuple[Measured, ...]
    notes: tuple[str, ...]


def judge(
    units: Sequence[Unit],
    questions: Sequence[Question],
    retriever: Retriever,
    settings: Settings,
) -> Outcomes:
    """Rank the units' index texts for every question; judge hits on their texts."""
    if not units:
        return Outcomes(first_hit=(None,) * len(questions), budget_hit=(False,) * len(questions))
    depth = min(len(units), max(RANK_DEPTH, *settings.ks))
    rankings = rank(
        retriever, [u.index_text for u in units], [q.question for q in questions], depth
    )
    return outcomes(
        rankings, [u.text for u in units], [q.answers for q in questions], settings.budget
    )


def run_sweep(
    strategies: Sequence[Strategy],
    inputs: Inputs,
    questions: Sequence[Question],
    retrievers: Sequence[Retriever],
    settings: Settings,
    *,
    clock: Clock = time.perf_counter,
    step: Step | None = None,
) -> SweepResult:
    """Every strategy with every retriever; notes (deduplicated, in order) say what a
    person should know: files that failed, fallback decodings, strategies with no units."""
    measured: list[Measured] = []
    notes: dict[str, None] = {}
    for strategy in strategies:
        start = clock()
        made = strategy.make(inputs)
        chunk_s = clock() - start
        notes.update(dict.fromkeys(made.notes))
        if not made.units:
            notes[f"{strategy.name}: no chunks (every question is a miss)"] = None
        for retriever in retrievers:
            if step is not None:
                step(f"{strategy.name} / {retriever.name}")
            start = clock()
            got = judge(made.units, questions, retriever, settings)
            row = _row(
                strategy, retriever.name, made.units, got, settings, chunk_s, clock() - start
            )
            measured.append(Measured(row=row, outcomes=got))
    return SweepResult(measured=tuple(measured), notes=tuple(notes))


def _row(
    strategy: Strategy,
    retriever: str,
    units: Sequence[Unit],
    got: Outcomes,
    settings: Settings,
    chunk_s: float,
    retrieve_s: float,
) -> EvalRow:
    n = len(units)
    return EvalRow(
        strategy=strategy.name,
        params=strategy.params,
        retriever=retriever,
        n_chunks=n,
        mean_words=sum(len(u.text.split()) for u in units) / n if n else 0.0,
        mean_chars=sum(len(u.text) for u in units) / n if n else 0.0,
        recall_at=tuple((k, got.recall_at(k)) for k in settings.ks),
        mrr=got.mrr,
        recall_at_budget=got.recall_at_budget,
        chunk_s=chunk_s,
        retrieve_s=retrieve_s,
    )
