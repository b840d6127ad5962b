"""compute_metrics: the figures of `qa/metrics.json` (SPEC §1.4), as typed records.

Invariants (tested): `total == surviving + omitted`; `surviving` is the number of lines of
`chunks.jsonl.gz`; the histograms count surviving chunks only; for every sheet that was
read, `data_rows == chunks + discarded`. Floats are rounded to 4 decimals. The records
become JSON only at the edge (`to_json`), and come back typed (`Metrics.from_json`), so a
renamed field is a type error, not a silent 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from notechunk.chunk import QUALITY_LABELS, Chunk, DiscardedRow, FileError, SheetReport
from notechunk.enrich.glossary import Glossary

WORD_BINS: tuple[int, ...] = (0, 8, 12, 15, 30, 50, 100, 200, 300, 500)
SCORE_BINS = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class Bin:
    bin: str
    lo: float
    hi: float | None
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TypeCounts:
    total: int
    surviving: int
    omitted: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceStats:
    source_type: str
    total: int
    surviving: int
    omitted: int
    flagged: int
    avg_words: float
    mean_retrieval_score: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class LowScore:
    id: str
    location: str
    retrieval_score: float | None
    semantic_type: str | None
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetGap:
    source: str
    sheet: str
    data_rows: int
    chunks: int
    discarded: int
    unread_rows: int = 0  # rows past sheets.max_rows: counted in data_rows, never read


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetTotals:
    sheets: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    data_rows: int = 0
    blank_rows: int = 0
    chunks: int = 0
    discarded: int = 0
    conserved: bool = True
    not_conserved: tuple[SheetGap, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class EnrichmentCounts:
    """What enrichment did to the surviving chunks: merged tiny sections, references
    resolved and dangling (by phrase), acronyms defined, expanded and undefined."""

    merged_sections: int = 0
    references_resolved: int = 0
    chunks_resolved: int = 0
    dangling: int = 0
    chunks_dangling: int = 0
    dangling_by_phrase: dict[str, int] = field(default_factory=dict)
    acronyms_defined: int = 0
    acronyms_expanded: int = 0
    chunks_expanded: int = 0
    acronyms_undefined: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Metrics:
    total: int = 0
    surviving: int = 0
    omitted: int = 0
    omitted_by_reason: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    flagged: int = 0
    quality: dict[str, int] = field(default_factory=dict)
    quality_surviving: dict[str, int] = field(default_factory=dict)
    source_type: dict[str, TypeCounts] = field(default_factory=dict)
    sources: dict[str, SourceStats] = field(default_factory=dict)
    avg_words_surviving: float = 0.0
    word_count_histogram: tuple[Bin, ...] = ()
    retrieval_score_histogram: tuple[Bin, ...] = ()
    retrieval_score_mean: float | None = None
    lowest_retrieval_scores: tuple[LowScore, ...] = ()
    semantic_types: dict[str, int] = field(default_factory=dict)
    sheets: SheetTotals = field(default_factory=SheetTotals)
    discarded_rows: int = 0
    discarded_by_rule: dict[str, int] = field(default_factory=dict)
    errors: int = 0
    enrichment: EnrichmentCounts = field(default_factory=EnrichmentCounts)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(self))
        return data

    @classmethod
    def from_json(cls, data: object) -> Metrics:
        """Typed metrics from parsed JSON; raises `ValueError` (one line) for a wrong shape."""
        try:
            return msgspec.convert(data, cls)
        except msgspec.ValidationError as exc:
            raise ValueError(f"metrics.json: {exc}") from None


def word_histogram(counts: Sequence[int]) -> tuple[Bin, ...]:
    """Bins `[lo, hi)` on `WORD_BINS` (edges at the quality thresholds), the last open."""
    out: list[Bin] = []
    for k, lo in enumerate(WORD_BINS):
        hi = WORD_BINS[k + 1] if k + 1 < len(WORD_BINS) else None
        n = sum(1 for w in counts if w >= lo and (hi is None or w < hi))
        label = f"{lo}-{hi - 1}" if hi is not None else f"{lo}+"
        out.append(Bin(bin=label, lo=lo, hi=hi, count=n))
    return tuple(out)


def score_histogram(scores: Sequence[float]) -> tuple[Bin, ...]:
    """Ten bins of width 0.1 on [0, 1]; the last includes 1.0."""
    counts = [0] * SCORE_BINS
    for s in scores:
        counts[min(SCORE_BINS - 1, max(0, int(s * SCORE_BINS)))] += 1
    return tuple(
        Bin(
            bin=f"{k / SCORE_BINS:.1f}-{(k + 1) / SCORE_BINS:.1f}",
            lo=round(k / SCORE_BINS, 1),
            hi=round((k + 1) / SCORE_BINS, 1),
            count=n,
        )
        for k, n in enumerate(counts)
    )


def location(c: Chunk) -> str:
    """Where a chunk comes from, for people: `path:12-30` or `path [Sheet] row 4`."""
    if c.source_type == "spreadsheet":
        return f"{c.source} [{c.sheet}] row {c.row}"
    if c.lines is not None:
        return f"{c.source}:{c.lines[0]}-{c.lines[1]}"
    return c.source


def omit_reason(c: Chunk) -> str:
    """The one word a count of omissions is keyed on."""
    if c.duplicate_of is not None:
        return "duplicate"
    if "toc" in c.flags:
        return "toc"
    return c.quality


def _r(x: float) -> float:
    return round(x, 4)


def _sheet_totals(reports: Sequence[SheetReport]) -> SheetTotals:
    # a truncated sheet counts its unread rows in data_rows, so it shows as not conserved
    read = [r for r in reports if r.status in ("read", "truncated")]
    broken = tuple(
        SheetGap(
            source=r.source,
            sheet=r.sheet,
            data_rows=r.data_rows,
            chunks=r.chunks,
            discarded=r.discarded,
            unread_rows=r.unread_rows,
        )
        for r in read
        if r.data_rows != r.chunks + r.discarded
    )
    return SheetTotals(
        sheets=len(reports),
        by_status=dict(sorted(Counter(r.status for r in reports).items())),
        data_rows=sum(r.data_rows for r in read),
        blank_rows=sum(r.blank_rows for r in read),
        chunks=sum(r.chunks for r in read),
        discarded=sum(r.discarded for r in read),
        conserved=not broken,
        not_conserved=broken,
    )


def _source_stats(mine: Sequence[Chunk]) -> SourceStats:
    kept = [c for c in mine if not c.omit]
    kept_scores = [c.retrieval_score for c in kept if c.retrieval_score is not None]
    return SourceStats(
        source_type=mine[0].source_type,
        total=len(mine),
        surviving=len(kept),
        omitted=len(mine) - len(kept),
        flagged=sum(1 for c in mine if c.quality != "ok" or c.omit),
        avg_words=_r(sum(c.word_count for c in kept) / len(kept)) if kept else 0.0,
        mean_retrieval_score=_r(sum(kept_scores) / len(kept_scores)) if kept_scores else None,
    )


def compute_metrics(
    chunks: Sequence[Chunk],
    discarded: Sequence[DiscardedRow] = (),
    sheet_reports: Sequence[SheetReport] = (),
    errors: Sequence[FileError] = (),
    lowest_scores_listed: int = 20,
    glossary: Glossary | None = None,
) -> Metrics:
    """The metrics over finished chunks (omitted ones included, marked `omit`)."""
    surviving = [c for c in chunks if not c.omit]
    scores = [c.retrieval_score for c in surviving if c.retrieval_score is not None]
    per_type = {
        st: TypeCounts(
            total=sum(1 for c in chunks if c.source_type == st),
            surviving=sum(1 for c in surviving if c.source_type == st),
            omitted=sum(1 for c in chunks if c.source_type == st and c.omit),
        )
        for st in ("markdown", "spreadsheet")
    }
    by_source: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_source.setdefault(c.source, []).append(c)
    lowest = sorted(
        (c for c in surviving if c.retrieval_score is not None),
        key=lambda c: (c.retrieval_score, c.id),
    )[:lowest_scores_listed]
    return Metrics(
        total=len(chunks),
        surviving=len(surviving),
        omitted=len(chunks) - len(surviving),
        omitted_by_reason=dict(sorted(Counter(omit_reason(c) for c in chunks if c.omit).items())),
        duplicates=sum(1 for c in chunks if c.duplicate_of is not None),
        flagged=sum(1 for c in chunks if c.quality != "ok" or c.omit),
        quality={q: sum(1 for c in chunks if c.quality == q) for q in QUALITY_LABELS},
        quality_surviving={q: sum(1 for c in surviving if c.quality == q) for q in QUALITY_LABELS},
        source_type=per_type,
        sources={src: _source_stats(by_source[src]) for src in sorted(by_source)},
        avg_words_surviving=_r(sum(c.word_count for c in surviving) / len(surviving))
        if surviving
        else 0.0,
        word_count_histogram=word_histogram([c.word_count for c in surviving]),
        retrieval_score_histogram=score_histogram(scores),
        retrieval_score_mean=_r(sum(scores) / len(scores)) if scores else None,
        lowest_retrieval_scores=tuple(
            LowScore(
                id=c.id,
                location=location(c),
                retrieval_score=c.retrieval_score,
                semantic_type=c.semantic_type,
                text=snippet(c.text, 160),
            )
            for c in lowest
        ),
        semantic_types=dict(sorted(Counter(c.semantic_type or "" for c in surviving).items())),
        sheets=_sheet_totals(sheet_reports),
        discarded_rows=len(discarded),
        discarded_by_rule=dict(sorted(Counter(d.rule for d in discarded).items())),
        errors=len(errors),
        enrichment=enrichment_counts(surviving, glossary),
    )


def dangling_phrases(c: Chunk) -> list[str]:
    return [f.split(":", 1)[1] for f in c.flags if f.startswith("dangling:")]


def enrichment_counts(surviving: Sequence[Chunk], glossary: Glossary | None) -> EnrichmentCounts:
    dangling = Counter(p for c in surviving for p in dangling_phrases(c))
    return EnrichmentCounts(
        merged_sections=sum(1 for c in surviving if "merged_sections" in c.flags),
        references_resolved=sum(len(c.resolved) for c in surviving),
        chunks_resolved=sum(1 for c in surviving if c.resolved),
        dangling=sum(dangling.values()),
        chunks_dangling=sum(1 for c in surviving if dangling_phrases(c)),
        dangling_by_phrase=dict(sorted(dangling.items(), key=lambda x: (-x[1], x[0]))),
        acronyms_defined=len(glossary.entries) if glossary else 0,
        acronyms_expanded=sum(len(c.acronyms) for c in surviving),
        chunks_expanded=sum(1 for c in surviving if c.acronyms),
        acronyms_undefined=len(glossary.undefined) if glossary else 0,
    )


def snippet(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
