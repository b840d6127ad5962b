"""compute_metrics: the figures of `qa/metrics.json` (SPEC §1.4), counted chunk by chunk.

Invariants (tested): `total == surviving + omitted`; `surviving` is the number of lines of
`chunks.jsonl.gz`; the histograms count surviving chunks only; for every sheet that was
read, `data_rows == chunks + discarded`. Floats are rounded to 4 decimals. `MetricsTally`
counts one chunk at a time, so a streamed run never holds the corpus; the records it
fills are in `metrics`.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from notechunk.chunk import (
    QUALITY_LABELS,
    Chunk,
    DiscardedRow,
    FileError,
    LineAccount,
    SheetReport,
)
from notechunk.enrich.glossary import Glossary
from notechunk.qa.metrics import (
    SCORE_BINS,
    WORD_BINS,
    EnrichmentCounts,
    LineGap,
    LineTotals,
    LowScore,
    Metrics,
    SheetGap,
    SheetTotals,
    SourceStats,
    TypeCounts,
    bins_of,
    dangling_phrases,
    location,
    omit_reason,
    score_bins_of,
    snippet,
)


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


def line_totals(accounts: Sequence[LineAccount]) -> LineTotals:
    """The Markdown files' line accounts summed, the files that do not hold listed."""
    by_reason: Counter[str] = Counter()
    for a in accounts:
        for s in a.skipped:
            by_reason[s.reason] += 1
    broken = tuple(
        LineGap(source=a.source, lines=a.lines, unaccounted=len(a.unaccounted))
        for a in accounts
        if a.unaccounted
    )
    return LineTotals(
        files=len(accounts),
        lines=sum(a.lines for a in accounts),
        in_chunks=sum(a.in_chunks for a in accounts),
        skipped=sum(a.skipped_lines for a in accounts),
        skipped_by_reason=dict(sorted(by_reason.items())),
        unaccounted=sum(len(a.unaccounted) for a in accounts),
        conserved=not broken,
        not_conserved=broken,
    )


@dataclass(slots=True)
class _Source:
    source_type: str
    total: int = 0
    surviving: int = 0
    flagged: int = 0
    words: int = 0
    score_sum: float = 0
    scored: int = 0


class MetricsTally:
    """`compute_metrics` one chunk at a time: the same figures (floats summed in chunk
    order, as before), in memory that grows with the number of sources, not of chunks."""

    def __init__(self, lowest_scores_listed: int = 20) -> None:
        self.k = lowest_scores_listed
        self.total = self.surviving = self.duplicates = self.flagged = self.words = 0
        self.omitted_by: Counter[str] = Counter()
        self.quality: Counter[str] = Counter()
        self.quality_kept: Counter[str] = Counter()
        self.types: dict[str, list[int]] = {"markdown": [0, 0, 0], "spreadsheet": [0, 0, 0]}
        self.sources: dict[str, _Source] = {}
        self.word_bins = [0] * len(WORD_BINS)
        self.score_bins = [0] * SCORE_BINS
        self.score_sum: float = 0
        self.scored = 0
        self.lowest: list[tuple[float, str, Chunk]] = []
        self.semantic: Counter[str] = Counter()
        self.merged = self.resolved = self.chunks_resolved = self.chunks_dangling = 0
        self.expanded = self.chunks_expanded = 0
        self.dangling: Counter[str] = Counter()

    def add(self, c: Chunk) -> None:
        self.total += 1
        src = self.sources.get(c.source)
        if src is None:
            src = self.sources[c.source] = _Source(c.source_type)
        src.total += 1
        t = self.types.get(c.source_type)
        if t is not None:
            t[0] += 1
        self.quality[c.quality] += 1
        flagged = c.quality != "ok" or c.omit
        self.flagged += flagged
        src.flagged += flagged
        self.duplicates += c.duplicate_of is not None
        if c.omit:
            self.omitted_by[omit_reason(c)] += 1
            if t is not None:
                t[2] += 1
            return
        self.surviving += 1
        src.surviving += 1
        if t is not None:
            t[1] += 1
        self.words += c.word_count
        src.words += c.word_count
        self.quality_kept[c.quality] += 1
        self.semantic[c.semantic_type or ""] += 1
        if c.flags or c.resolved or c.acronyms:  # else nothing of it to count (most rows)
            self._enriched(c)
        self.word_bins[
            bisect.bisect_right(WORD_BINS, c.word_count) - 1 if c.word_count >= 0 else 0
        ] += 1
        s = c.retrieval_score
        if s is None:
            return
        self.score_sum += s
        self.scored += 1
        src.score_sum += s
        src.scored += 1
        self.score_bins[min(SCORE_BINS - 1, max(0, int(s * SCORE_BINS)))] += 1
        if len(self.lowest) < self.k or (s, c.id) < self.lowest[-1][:2]:
            bisect.insort(self.lowest, (s, c.id, c), key=lambda x: x[:2])
            del self.lowest[self.k :]

    def _enriched(self, c: Chunk) -> None:
        self.merged += "merged_sections" in c.flags
        self.resolved += len(c.resolved)
        self.chunks_resolved += bool(c.resolved)
        phrases = dangling_phrases(c)
        self.dangling.update(phrases)
        self.chunks_dangling += bool(phrases)
        self.expanded += len(c.acronyms)
        self.chunks_expanded += bool(c.acronyms)

    def enrichment(self, glossary: Glossary | None) -> EnrichmentCounts:
        return EnrichmentCounts(
            merged_sections=self.merged,
            references_resolved=self.resolved,
            chunks_resolved=self.chunks_resolved,
            dangling=sum(self.dangling.values()),
            chunks_dangling=self.chunks_dangling,
            dangling_by_phrase=dict(sorted(self.dangling.items(), key=lambda x: (-x[1], x[0]))),
            acronyms_defined=len(glossary.entries) if glossary else 0,
            acronyms_expanded=self.expanded,
            chunks_expanded=self.chunks_expanded,
            acronyms_undefined=len(glossary.undefined) if glossary else 0,
        )

    def result(
        self,
        discarded: Sequence[DiscardedRow] = (),
        sheet_reports: Sequence[SheetReport] = (),
        errors: Sequence[FileError] = (),
        glossary: Glossary | None = None,
        accounts: Sequence[LineAccount] = (),
    ) -> Metrics:
        kept = self.surviving
        return Metrics(
            total=self.total,
            surviving=kept,
            omitted=self.total - kept,
            omitted_by_reason=dict(sorted(self.omitted_by.items())),
            duplicates=self.duplicates,
            flagged=self.flagged,
            quality={q: self.quality[q] for q in QUALITY_LABELS},
            quality_surviving={q: self.quality_kept[q] for q in QUALITY_LABELS},
            source_type={
                st: TypeCounts(total=v[0], surviving=v[1], omitted=v[2])
                for st, v in self.types.items()
            },
            sources={k: _source_stats(self.sources[k]) for k in sorted(self.sources)},
            avg_words_surviving=_r(self.words / kept) if kept else 0.0,
            word_count_histogram=bins_of(self.word_bins),
            retrieval_score_histogram=score_bins_of(self.score_bins),
            retrieval_score_mean=_r(self.score_sum / self.scored) if self.scored else None,
            lowest_retrieval_scores=tuple(
                LowScore(
                    id=c.id,
                    location=location(c),
                    retrieval_score=c.retrieval_score,
                    semantic_type=c.semantic_type,
                    text=snippet(c.text, 160),
                )
                for _, _, c in self.lowest
            ),
            semantic_types=dict(sorted(self.semantic.items())),
            sheets=_sheet_totals(sheet_reports),
            markdown_lines=line_totals(accounts),
            discarded_rows=len(discarded),
            discarded_by_rule=dict(sorted(Counter(d.rule for d in discarded).items())),
            errors=len(errors),
            enrichment=self.enrichment(glossary),
        )


def _source_stats(s: _Source) -> SourceStats:
    return SourceStats(
        source_type=s.source_type,
        total=s.total,
        surviving=s.surviving,
        omitted=s.total - s.surviving,
        flagged=s.flagged,
        avg_words=_r(s.words / s.surviving) if s.surviving else 0.0,
        mean_retrieval_score=_r(s.score_sum / s.scored) if s.scored else None,
    )


def compute_metrics(
    chunks: Iterable[Chunk],
    discarded: Sequence[DiscardedRow] = (),
    sheet_reports: Sequence[SheetReport] = (),
    errors: Sequence[FileError] = (),
    lowest_scores_listed: int = 20,
    glossary: Glossary | None = None,
    accounts: Sequence[LineAccount] = (),
) -> Metrics:
    """The metrics over finished chunks (omitted ones included, marked `omit`)."""
    tally = MetricsTally(lowest_scores_listed)
    for c in chunks:
        tally.add(c)
    return tally.result(discarded, sheet_reports, errors, glossary, accounts)
