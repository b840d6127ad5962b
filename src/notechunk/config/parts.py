"""The frozen per-stage parts of `Config`, each validated on construction.

Every number a rule uses comes from here, named as SPEC §2 names it. Unknown keys are an
error (a typo silently ignored is a rule silently not applied). Every scalar key is checked
in one place (`check.check_value`) against its field's declared type and range: an
integer key takes an integer (`true` and `2.5` are refused), a float key a finite number,
each within the bounds its field declares (`num`), so `worker_timeout_s = inf` or
`worker_memory_mb = 2**63-1` stop at load with the key named, not deep inside a run.
`settings.Config` holds one of each.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field
from typing import ClassVar

from notechunk.config.check import check, check_fields, choice, num

DEFAULT_CONTEXT_DEAD_PHRASES: tuple[str, ...] = (
    "click here",
    "see above",
    "see below",
    "as mentioned",
    "as stated",
    "refer to",
    "for more",
    "for details",
    "as discussed",
    "as shown",
    "as noted",
    "as explained",
    "as described",
    "see also",
    "continued from",
    "contd",
    "same as above",
    "mentioned above",
    "in the previous",
    "as per the above",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkdownConfig:
    _TABLE: ClassVar[str] = "markdown"
    window_sentences: int = num(100, 1, 1_000_000)
    overlap: float = num(0.3, 0, 1, hi_open=True)
    window_max_words: int = num(120, 0, 1_000_000)
    window_max_tokens: int = num(0, 0, 1_000_000)
    bullet_merge_under_words: int = num(20, 0, 1_000_000)
    bullet_merge_cap_words: int = num(150, 0, 1_000_000)
    bold_headings: bool = True  # a bold-only line followed by content is a heading
    heading_max_words: int = num(15, 1, 1_000)  # a longer heading is cut in the path
    parent_words: int = num(12, 1, 1_000)  # an outline parent's words in its children's context
    whole_entries: bool = True  # a window never starts or ends inside an entry it could hold
    timeout_s: float = num(300.0, 0, 86_400, lo_open=True)
    max_file_mb: int = num(64, 1, 16_384)  # a larger note is refused, never read into memory

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def overlap_sentences(self) -> int:
        return round(self.window_sentences * self.overlap)

    @property
    def step(self) -> int:
        """window − round(window × overlap), at least 1 (SPEC §1.1)."""
        return max(1, self.window_sentences - self.overlap_sentences)


@dataclass(frozen=True, slots=True, kw_only=True)
class QualityBands:
    """Word-count bands of the quality labels; `omit_fragments` (default false: a short row
    is often a whole fact) omits fragments instead of only flagging them; `short_full_rows`
    (default false: a row whose every column is filled is a whole record) labels such a
    row `short` by its word count, as the seed did."""

    _TABLE: ClassVar[str] = "quality.*"
    fragment_words: int = num(MISSING, 0, 1_000_000)
    short_words: int = num(MISSING, 0, 1_000_000)
    max_words: int = num(MISSING, 0, 1_000_000)
    omit_fragments: bool = False
    short_full_rows: bool = False

    def __post_init__(self) -> None:
        check_fields(self)
        check(
            self.short_words >= self.fragment_words,
            "quality.*.short_words must be >= fragment_words",
        )
        check(self.max_words >= self.short_words, "quality.*.max_words must be >= short_words")


def markdown_bands() -> QualityBands:
    return QualityBands(fragment_words=15, short_words=30, max_words=500)


def sheet_bands() -> QualityBands:
    return QualityBands(fragment_words=8, short_words=12, max_words=200)


@dataclass(frozen=True, slots=True, kw_only=True)
class QualityConfig:
    markdown: QualityBands = field(default_factory=markdown_bands)
    spreadsheet: QualityBands = field(default_factory=sheet_bands)


@dataclass(frozen=True, slots=True, kw_only=True)
class ContextDeadConfig:
    phrases: tuple[str, ...] = DEFAULT_CONTEXT_DEAD_PHRASES

    def __post_init__(self) -> None:
        check(all(p.strip() for p in self.phrases), "context_dead.phrases must not be blank")


@dataclass(frozen=True, slots=True, kw_only=True)
class Template:
    """A `[[templates]]` entry: `text` with `{Column}` fields, applied where `match` globs.

    The text is parsed here, so a template that cannot work (no field, an unbalanced
    brace, every field optional) stops the load with its name and the problem.
    """

    _TABLE: ClassVar[str] = "templates"
    name: str
    match: str
    text: str
    sheet: str = "*"
    header_row: int | None = num(None, 1, 1_048_576)

    def __post_init__(self) -> None:
        check_fields(self)
        check(bool(self.name.strip()), "templates.name must not be empty")
        check(bool(self.match.strip()), f"template {self.name!r}: match must not be empty")
        from notechunk.config.syntax import template_problem

        problem = template_problem(self.text)
        check(problem is None, f"template {self.name!r}: text {self.text!r}: {problem}")


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetsConfig:
    """Reading limits. `max_cell_chars` cuts a longer cell (32,767 is Excel's own cell
    limit), flagged `cell_cut:<ref>:<chars>`; a workbook stops being read, with its reason
    in errors.json, past `max_cells` non-empty cells or past `max_expansion` characters of
    cell text per byte of the file (beyond the first MB): an 833-byte ODS that repeats a
    row 200,000 times is an amplification, not a table."""

    _TABLE: ClassVar[str] = "sheets"
    include_hidden: bool = False
    max_rows: int = num(2_000_000, 1, 1e12)
    max_unzipped_bytes: int = num(1_000_000_000, 1, 1 << 50)
    max_zip_ratio: float = num(200.0, 1, 1e9, lo_open=True)
    worker_memory_mb: int = num(4096, 64, 1 << 24)
    worker_timeout_s: float = num(600.0, 0, 7 * 86_400, lo_open=True)
    max_zip_members: int = num(10_000, 1, 10_000_000)
    min_fields: int = num(2, 1, 10_000)
    mostly_numeric_share: float = num(0.8, 0, 1, lo_open=True)
    header_search_rows: int = num(30, 1, 10_000)
    max_cell_chars: int = num(32_767, 16, 1 << 30)
    max_cells: int = num(20_000_000, 1, 1e12)
    max_expansion: float = num(1000.0, 1, 1e9)

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class SkipConfig:
    """Early row skipping. `mostly_numeric = "label"` discards a mostly-numeric row only
    when no cell is a text label; `"ratio"` decides on the numeric share alone."""

    _TABLE: ClassVar[str] = "skip"
    mostly_numeric: str = choice("label", "label", "ratio")

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class DedupeConfig:
    """`scope = "context"`: a duplicate is the same text in the same context (title and
    heading path, or sheet); `"text"`: the same text anywhere."""

    _TABLE: ClassVar[str] = "dedupe"
    scope: str = choice("context", "context", "text")

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class QAConfig:
    _TABLE: ClassVar[str] = "qa"
    sample_size: int = num(50, 0, 1e9)
    seed: int = num(13, 0, 2**32 - 1)
    lowest_scores_listed: int = num(20, 0, 1e9)
    # each list file of qa/ (flagged, discarded_rows, skipped_lines) at most this many
    # bytes: past it the most severe rows, a count of the rest, the full list in a .jsonl.gz
    max_file_bytes: int = num(10_000_000, 10_000, 1e12)

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class OutputConfig:
    """Which chunk files a run writes: `chunks.jsonl.gz` (`jsonl`) and `chunks.parquet`
    (`parquet`, needs pyarrow: `pip install 'notechunk[parquet]'`, off by default so a
    default install never fails for it). At least one of the two. `stages`: the stage
    files of every chunk as SPEC names them (`jsonl`, stages/*.jsonl) or gzip-compressed
    for a lean OUT (`gzip`, stages/*.jsonl.gz, about a seventh of the bytes)."""

    _TABLE: ClassVar[str] = "output"
    jsonl: bool = True
    parquet: bool = False
    stages: str = choice("jsonl", "jsonl", "gzip")

    def __post_init__(self) -> None:
        check_fields(self)
        check(self.jsonl or self.parquet, "output: jsonl and parquet cannot both be false")


@dataclass(frozen=True, slots=True, kw_only=True)
class EnrichConfig:
    """Enrichment passes: what makes a chunk stand alone in `embed_text`.

    `merge_sections`: consecutive tiny sibling sections (each under
    `markdown.bullet_merge_under_words`) become one chunk under their parent, each
    sub-heading kept inline. `references`: "the Act", "the Company" anywhere in a chunk,
    "he", "it", "these rights" at its start, resolved from anywhere earlier in the file
    (`resolved`) or flagged `dangling:<phrase>`; found by `references_backend` ("rules",
    or "spacy:<pipeline>" for entity antecedents). `acronyms`: a corpus glossary from the
    notes' own definitions (plus the `glossary` file, one `ACRONYM: expansion` a line)
    expands each acronym once per chunk that uses it without defining it, the defining
    file's other chunks included; the glossary and the undefined acronyms are reported in
    QA either way.
    """

    _TABLE: ClassVar[str] = "enrich"
    merge_sections: bool = True
    # every pass is on: on the shared real notes, the sample, COVID-QA and SQuAD none loses
    # questions in a paired test (p < 0.1), and references and acronyms win some on the
    # real notes (docs/benchmarks.md, "Enrichment")
    references: bool = True
    references_backend: str = "rules"
    acronyms: bool = True
    glossary: str = ""

    def __post_init__(self) -> None:
        check_fields(self)
        backend = self.references_backend
        check(
            backend == "rules" or (backend.startswith("spacy:") and len(backend) > 6),
            'enrich.references_backend must be "rules" or "spacy:<pipeline>"',
        )
