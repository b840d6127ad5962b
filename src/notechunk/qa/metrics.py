"""compute_metrics: the figures of `qa/metrics.json` (SPEC §1.4), from records alone.

Invariants (tested): `total == surviving + omitted`; `surviving` is the number of lines of
`chunks.jsonl.gz`; the histograms count surviving chunks only; for every sheet that was
read, `data_rows == chunks + discarded`. Floats are rounded to 4 decimals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from notechunk.chunk import QUALITY_LABELS, Chunk, DiscardedRow, FileError, SheetReport

WORD_BINS: tuple[int, ...] = (0, 8, 12, 15, 30, 50, 100, 200, 300, 500)
SCORE_BINS = 10


def word_histogram(counts: Sequence[int]) -> list[dict[str, Any]]:
    """Bins `[lo, hi)` on `WORD_BINS` (edges at the quality thresholds), the last open."""
    out: list[dict[str, Any]] = []
    for k, lo in enumerate(WORD_BINS):
        hi = WORD_BINS[k + 1] if k + 1 < len(WORD_BINS) else None
        n = sum(1 for w in counts if w >= lo and (hi is None or w < hi))
        label = f"{lo}-{hi - 1}" if hi is not None else f"{lo}+"
        out.append({"bin": label, "lo": lo, "hi": hi, "count": n})
    return out


def score_histogram(scores: Sequence[float]) -> list[dict[str, Any]]:
    """Ten bins of width 0.1 on [0, 1]; the last includes 1.0."""
    counts = [0] * SCORE_BINS
    for s in scores:
        counts[min(SCORE_BINS - 1, max(0, int(s * SCORE_BINS)))] += 1
    return [
        {
            "bin": f"{k / SCORE_BINS:.1f}-{(k + 1) / SCORE_BINS:.1f}",
            "lo": round(k / SCORE_BINS, 1),
            "hi": round((k + 1) / SCORE_BINS, 1),
            "count": n,
        }
        for k, n in enumerate(counts)
    ]


def location(c: Chunk) -> str:
    """Where a chunk comes from, for people: `path:12-30` or `path [Sheet] row 4`."""
    if c.source_type == "spreadsheet":
        return f"{c.source} [{c.sheet}] row {c.row}"
    if c.lines is not None:
        return f"{c.source}:{c.lines[0]}-{c.lines[1]}"
    return c.source


def _r(x: float) -> float:
    return round(x, 4)


def _sheet_totals(reports: Sequence[SheetReport]) -> dict[str, Any]:
    # a truncated sheet counts its unread rows in data_rows, so it shows as not conserved
    read = [r for r in reports if r.status in ("read", "truncated")]
    broken = [
        {
            "source": r.source,
            "sheet": r.sheet,
            "data_rows": r.data_rows,
            "chunks": r.chunks,
            "discarded": r.discarded,
            "unread_rows": r.unread_rows,
        }
        for r in read
        if r.data_rows != r.chunks + r.discarded
    ]
    return {
        "sheets": len(reports),
        "by_status": dict(sorted(Counter(r.status for r in reports).items())),
        "data_rows": sum(r.data_rows for r in read),
        "blank_rows": sum(r.blank_rows for r in read),
        "chunks": sum(r.chunks for r in read),
        "discarded": sum(r.discarded for r in read),
        "conserved": not broken,
        "not_conserved": broken,
    }


def compute_metrics(
    chunks: Sequence[Chunk],
    discarded: Sequence[DiscardedRow] = (),
    sheet_reports: Sequence[SheetReport] = (),
    errors: Sequence[FileError] = (),
    lowest_scores_listed: int = 20,
) -> dict[str, Any]:
    """The metrics dict over merged chunks (omitted ones included, marked `omit`)."""
    surviving = [c for c in chunks if not c.omit]
    omitted = [c for c in chunks if c.omit]
    scores = [c.retrieval_score for c in surviving if c.retrieval_score is not None]
    per_type: dict[str, dict[str, int]] = {}
    for st in ("markdown", "spreadsheet"):
        of_type = [c for c in chunks if c.source_type == st]
        per_type[st] = {
            "total": len(of_type),
            "surviving": sum(1 for c in of_type if not c.omit),
            "omitted": sum(1 for c in of_type if c.omit),
        }
    per_source: dict[str, dict[str, Any]] = {}
    by_source: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_source.setdefault(c.source, []).append(c)
    for src in sorted(by_source):
        mine = by_source[src]
        kept = [c for c in mine if not c.omit]
        kept_scores = [c.retrieval_score for c in kept if c.retrieval_score is not None]
        per_source[src] = {
            "source_type": mine[0].source_type,
            "total": len(mine),
            "surviving": len(kept),
            "omitted": len(mine) - len(kept),
            "flagged": sum(1 for c in mine if c.quality != "ok" or c.omit),
            "avg_words": _r(sum(c.word_count for c in kept) / len(kept)) if kept else 0.0,
            "mean_retrieval_score": _r(sum(kept_scores) / len(kept_scores))
            if kept_scores
            else None,
        }
    lowest = sorted(
        (c for c in surviving if c.retrieval_score is not None),
        key=lambda c: (c.retrieval_score, c.id),
    )[:lowest_scores_listed]
    omitted_reasons = Counter(
        "duplicate" if c.duplicate_of is not None else c.quality for c in omitted
    )
    return {
        "total": len(chunks),
        "surviving": len(surviving),
        "omitted": len(omitted),
        "omitted_by_reason": dict(sorted(omitted_reasons.items())),
        "duplicates": sum(1 for c in chunks if c.duplicate_of is not None),
        "flagged": sum(1 for c in chunks if c.quality != "ok" or c.omit),
        "quality": {q: sum(1 for c in chunks if c.quality == q) for q in QUALITY_LABELS},
        "quality_surviving": {
            q: sum(1 for c in surviving if c.quality == q) for q in QUALITY_LABELS
        },
        "source_type": per_type,
        "sources": per_source,
        "avg_words_surviving": _r(sum(c.word_count for c in surviving) / len(surviving))
        if surviving
        else 0.0,
        "word_count_histogram": word_histogram([c.word_count for c in surviving]),
        "retrieval_score_histogram": score_histogram(scores),
        "retrieval_score_mean": _r(sum(scores) / len(scores)) if scores else None,
        "lowest_retrieval_scores": [
            {
                "id": c.id,
                "location": location(c),
                "retrieval_score": c.retrieval_score,
                "semantic_type": c.semantic_type,
                "text": _snippet(c.text, 160),
            }
            for c in lowest
        ],
        "semantic_types": dict(sorted(Counter(c.semantic_type or "" for c in surviving).items())),
        "sheets": _sheet_totals(sheet_reports),
        "discarded_rows": len(discarded),
        "discarded_by_rule": dict(sorted(Counter(d.rule for d in discarded).items())),
        "errors": len(errors),
    }


def _snippet(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
