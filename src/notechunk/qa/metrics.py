"""The figures of `qa/metrics.json` (SPEC §1.4) as typed records, and how QA names a chunk.

The records become JSON only at the edge (`to_json`), and come back typed
(`Metrics.from_json`), so a renamed field is a type error, not a silent 0. The histogram
bins (`WORD_BINS`, `SCORE_BINS`, `Bin`) are defined here with the records; `location`,
`snippet`, `omit_reason` and `dangling_phrases` say where a chunk is and what it holds in
the words every QA file uses. The counting is in `tally`: apart so that the shape of
metrics.json reads on its own, for the report and the CLI that only read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from notechunk.chunk import Chunk

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
class LineGap:
    """A Markdown file whose account does not hold: `unaccounted` non-blank lines are in
    no chunk and were not skipped with a reason."""

    source: str
    lines: int
    unaccounted: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LineTotals:
    """The Markdown line accounts summed: `lines == in_chunks + skipped + unaccounted`
    (non-blank lines); `skipped_by_reason` counts the skipped spans (qa/skipped_lines.json)
    by their reason."""

    files: int = 0
    lines: int = 0
    in_chunks: int = 0
    skipped: int = 0
    skipped_by_reason: dict[str, int] = field(default_factory=dict)
    unaccounted: int = 0
    conserved: bool = True
    not_conserved: tuple[LineGap, ...] = ()


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
    markdown_lines: LineTotals = field(default_factory=LineTotals)
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


def bins_of(counts: Sequence[int]) -> tuple[Bin, ...]:
    out: list[Bin] = []
    for k, lo in enumerate(WORD_BINS):
        hi = WORD_BINS[k + 1] if k + 1 < len(WORD_BINS) else None
        label = f"{lo}-{hi - 1}" if hi is not None else f"{lo}+"
        out.append(Bin(bin=label, lo=lo, hi=hi, count=counts[k]))
    return tuple(out)


def score_bins_of(counts: Sequence[int]) -> tuple[Bin, ...]:
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


def dangling_phrases(c: Chunk) -> list[str]:
    return [f.split(":", 1)[1] for f in c.flags if f.startswith("dangling:")]


def snippet(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
