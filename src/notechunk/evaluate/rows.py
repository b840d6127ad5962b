"""Typed eval records: one row per (strategy, retriever), the run's metadata, serialised
only at the edge (`to_json`), so a renamed field is a type error, not a silent 0."""

from __future__ import annotations

from dataclasses import dataclass

from notechunk.evaluate.metrics import Outcomes
from notechunk.evaluate.strategies import Params


@dataclass(frozen=True, slots=True, kw_only=True)
class EvalRow:
    """What one strategy scored with one retriever, and how long it took.

    `chunk_s` is the time to make the strategy's units (shared by its retriever rows),
    `retrieve_s` the time to index them and rank every question; `wall_s` is both.
    """

    strategy: str
    params: Params
    retriever: str
    n_chunks: int
    mean_words: float
    mean_chars: float
    recall_at: tuple[tuple[int, float], ...]
    mrr: float
    recall_at_budget: float
    chunk_s: float
    retrieve_s: float

    @property
    def label(self) -> str:
        return f"{self.strategy}@{self.retriever}"

    @property
    def wall_s(self) -> float:
        return self.chunk_s + self.retrieve_s

    def recall(self, k: int) -> float:
        return dict(self.recall_at)[k]

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "strategy": self.strategy,
            "params": dict(self.params),
            "retriever": self.retriever,
            "n_chunks": self.n_chunks,
            "mean_words": round(self.mean_words, 1),
            "mean_chars": round(self.mean_chars, 1),
        }
        out.update({f"recall@{k}": round(v, 4) for k, v in self.recall_at})
        out["mrr"] = round(self.mrr, 4)
        out["recall@budget"] = round(self.recall_at_budget, 4)
        out["chunk_s"] = round(self.chunk_s, 2)
        out["retrieve_s"] = round(self.retrieve_s, 2)
        out["wall_s"] = round(self.wall_s, 2)
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Measured:
    """A row and the per-question outcomes behind it (for paired comparisons)."""

    row: EvalRow
    outcomes: Outcomes

    def per_question_json(self) -> dict[str, object]:
        return {
            "label": self.row.label,
            "first_hit": list(self.outcomes.first_hit),
            "budget_hit": [int(h) for h in self.outcomes.budget_hit],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class EvalMeta:
    """What was measured: corpus, question count, retrievers and cut-offs. `documents`
    and `rows` count the peers' documents and how many of them are spreadsheet rows
    (None when no peer or baseline ran)."""

    corpus: str
    files: int
    documents: int | None
    rows: int | None
    questions: int
    retrievers: tuple[str, ...]
    budget: int
    ks: tuple[int, ...]
    segmenter: str

    def to_json(self) -> dict[str, object]:
        return {
            "corpus": self.corpus,
            "files": self.files,
            "documents": self.documents,
            "rows": self.rows,
            "questions": self.questions,
            "retrievers": list(self.retrievers),
            "budget": self.budget,
            "ks": list(self.ks),
            "segmenter": self.segmenter,
        }
