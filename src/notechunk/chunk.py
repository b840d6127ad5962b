"""The one `Chunk` type, the `Piece`s runners cut it from, and the records around them.

Data flows one way: a runner turns a file's bytes into `Pieces` (raw text and where it
stands); `finish.finish_file` turns those into complete `Chunk`s (normalised text, word
count, quality, semantic type, title, embed_text, id); corpus passes only add what needs
every chunk (`duplicate_of`, `retrieval_score`). Records are frozen: a pass changes one
with `dataclasses.replace`, never in place. `to_json`/`from_json` are the only way a chunk
becomes a line of a stage or output file, so the on-disk field set of SPEC §2 lives here.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Literal

import msgspec

from notechunk.terms import UNSPACED_CHARS

_UNSPACED = re.compile(f"[{UNSPACED_CHARS}]")
_NOT_CJK_WORD = re.compile(f"[^\\W{UNSPACED_CHARS}]")

SourceType = Literal["markdown", "spreadsheet"]
Quality = Literal["ok", "short", "fragment", "too_long", "too_long_tokens", "context_dead"]

QUALITY_LABELS: tuple[Quality, ...] = (
    "ok",
    "short",
    "fragment",
    "too_long",
    "too_long_tokens",
    "context_dead",
)


def unspaced_text(text: str) -> bool:
    """Whether `text` holds Chinese or Japanese, whose words `count_words` counts by
    characters (elsewhere a word count is the number of whitespace-separated parts)."""
    return not text.isascii() and _UNSPACED.search(text) is not None


def count_words(text: str) -> int:
    """Whitespace-separated words: the unit of every threshold in SPEC §1.3.

    Chinese and Japanese have no spaces between words: there every two of their
    characters count as one word (a Chinese word is one to three characters, two on
    average), so a 400-character paragraph is 200 words, not one; letters or digits beside
    them count one word more. Korean separates its words by spaces and is counted by them."""
    if not unspaced_text(text):
        return len(text.split())
    words = 0
    for part in text.split():
        cjk = len(_UNSPACED.findall(part))
        if not cjk:
            words += 1
            continue
        words += (cjk + 1) // 2
        if _NOT_CJK_WORD.search(part) is not None:
            words += 1
    return words


@dataclass(frozen=True, slots=True, kw_only=True)
class Piece:
    """What a runner cuts from a file before finishing: raw text and where it stands.

    `omit_reason` is set when the runner itself knows the piece is not content (a table
    of contents): the finished chunk is omitted and flagged with that reason. `full` marks
    a sheet row whose every column is filled: a whole record, never labelled `short`.
    """

    text: str
    section_path: tuple[str, ...] = ()
    section_paths: tuple[tuple[str, ...], ...] = ()
    lines: tuple[int, int] | None = None
    sheet: str | None = None
    row: int | None = None
    group: str | None = None
    flags: tuple[str, ...] = ()
    template: str | None = None
    omit_reason: str | None = None
    outline_path: tuple[str, ...] = ()
    full: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Pieces:
    """Every piece of one file, with what is known of the file as a whole.

    `title` is the document's own title (front matter, OneNote page header) or None, in
    which case finishing derives one from the file name ("" means none: a text given in
    memory); `flags` apply to every piece
    (an encoding fallback, recovered text); `properties` are a Logseq page's own
    (`alias` and `title` are also its context).
    """

    source: str
    source_type: SourceType
    pieces: tuple[Piece, ...] = ()
    title: str | None = None
    created: str | None = None
    tags: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    properties: tuple[tuple[str, str], ...] = ()
    skipped: tuple[SkippedLines, ...] = ()


class MarkdownSpan(msgspec.Struct, frozen=True, tag="markdown"):
    """Where a Markdown chunk stands: its 1-based inclusive line range in the file."""

    first: int
    last: int


class SheetCell(msgspec.Struct, frozen=True, tag="spreadsheet"):
    """Where a sheet row stands: its sheet, its real 1-based row number, and the group
    header it stands under ("Jhelum River" above its dams), carried down the sheet."""

    sheet: str
    row: int
    group: str | None = None


Location = MarkdownSpan | SheetCell


@dataclass(frozen=True, slots=True, kw_only=True)
class Chunk:
    """One retrieval unit, complete when made (by `finish.finish_file`): every field a
    chunk always has is required.

    `location` says where it stands in its source (`MarkdownSpan` or `SheetCell`; read
    flat as `lines`, `sheet`, `row`, `group`, as the outputs spell it). `text` is the
    clean content; `embed_text` is what a retriever should index: the context (title,
    heading path; for a row the file's title, sheet and group) and then the text. Corpus
    passes add `duplicate_of` and `retrieval_score` (None until scored). `token_count` is
    the number of tokens the configured tokenizer reads in `embed_text`, special tokens
    included (None when no tokenizer is configured). Enrichment records what it added to
    `embed_text`: `resolved` (a reference and its antecedent: "the Act" -> "Government of
    India Act 1858") and `acronyms` (an acronym and its expansion). `outline_path` is the
    chain of parent items of the outline item a chunk starts in (each its first words),
    said after the heading path in `embed_text`; `properties` are the page properties of
    an outline app's page (Logseq's `alias::`, `type::`, ...).
    """

    id: str
    text: str
    source: str
    source_type: SourceType
    location: Location
    section_path: tuple[str, ...]
    title: str
    embed_text: str
    word_count: int
    quality: Quality
    omit: bool
    flags: tuple[str, ...]
    semantic_type: str
    created: str | None = None
    tags: tuple[str, ...] = ()
    token_count: int | None = None
    template: str | None = None
    retrieval_score: float | None = None
    duplicate_of: str | None = None
    section_paths: tuple[tuple[str, ...], ...] = field(default=())
    resolved: tuple[tuple[str, str], ...] = ()
    acronyms: tuple[tuple[str, str], ...] = ()
    outline_path: tuple[str, ...] = ()
    properties: tuple[tuple[str, str], ...] = ()

    @property
    def lines(self) -> tuple[int, int] | None:
        loc = self.location
        return (loc.first, loc.last) if isinstance(loc, MarkdownSpan) else None

    @property
    def sheet(self) -> str | None:
        loc = self.location
        return loc.sheet if isinstance(loc, SheetCell) else None

    @property
    def row(self) -> int | None:
        loc = self.location
        return loc.row if isinstance(loc, SheetCell) else None

    @property
    def group(self) -> str | None:
        loc = self.location
        return loc.group if isinstance(loc, SheetCell) else None

    def to_json(self) -> dict[str, Any]:
        """The chunk as one object of the outputs (SPEC §2): `RECORD_FIELDS` in order, the
        location flat (`lines`, `sheet`, `row`, `group`), lists for tuples, the pair
        fields as objects."""
        out: dict[str, Any] = {}
        for name in RECORD_FIELDS:
            value = getattr(self, name)
            if name == "section_paths":
                value = [list(p) for p in value]
            elif name in _PAIR_FIELDS:
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out

    def record(self) -> dict[str, Any]:
        """`to_json` for an encoder that takes tuples as arrays (msgspec, json): the same
        JSON, made faster (the write pass makes one per chunk)."""
        out = dict(zip(RECORD_FIELDS, _RECORD_VALUES(self), strict=True))
        out["resolved"] = dict(self.resolved)
        out["acronyms"] = dict(self.acronyms)
        out["properties"] = dict(self.properties)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Chunk:
        """Inverse of `to_json`; unknown keys are ignored so older files still load."""
        kwargs: dict[str, Any] = {k: v for k, v in data.items() if k in _INIT_FIELDS}
        lines = data.get("lines")
        if lines is not None:
            kwargs["location"] = MarkdownSpan(int(lines[0]), int(lines[1]))
        else:
            row = int(data.get("row") or 0)
            kwargs["location"] = SheetCell(data.get("sheet") or "", row, data.get("group"))
        for name in ("section_path", "flags", "tags", "outline_path"):
            if name in kwargs:
                kwargs[name] = tuple(kwargs[name])
        if "section_paths" in kwargs:
            kwargs["section_paths"] = tuple(tuple(p) for p in kwargs["section_paths"])
        for name in _PAIR_FIELDS:  # a JSON object, or (key, value) pairs (a Parquet map)
            if name in kwargs:
                pairs = kwargs[name] or ()
                items = pairs.items() if isinstance(pairs, dict) else pairs
                kwargs[name] = tuple((str(k), str(v)) for k, v in items)
        return cls(**kwargs)


RECORD_FIELDS: tuple[str, ...] = (
    "text",
    "source",
    "source_type",
    "section_path",
    "lines",
    "sheet",
    "row",
    "group",
    "title",
    "created",
    "tags",
    "embed_text",
    "word_count",
    "token_count",
    "quality",
    "omit",
    "flags",
    "template",
    "semantic_type",
    "retrieval_score",
    "id",
    "duplicate_of",
    "section_paths",
    "resolved",
    "acronyms",
    "outline_path",
    "properties",
)
"""A chunk's fields as the outputs name them, in the order of chunks.parquet's columns."""

SCHEMA_VERSION = 1
"""The version of that record (in OUT/manifest.json and chunks.parquet's metadata): it
changes when a field is renamed, removed or changes meaning."""

_RECORD_VALUES = operator.attrgetter(*RECORD_FIELDS)
_SLOT_NAMES = tuple(f.name for f in fields(Chunk) if f.name != "retrieval_score")
_SLOT_VALUES = operator.attrgetter(*_SLOT_NAMES)
# each field's slot writer, as a frozen dataclass's own __init__ writes it
_WRITERS: dict[str, Callable[[Chunk, object], None]] = {
    f.name: getattr(Chunk, f.name).__set__ for f in fields(Chunk)
}
_SLOT_SETTERS = tuple(_WRITERS[name] for name in _SLOT_NAMES)
_SET_SCORE = _WRITERS["retrieval_score"]


def with_score(chunk: Chunk, score: float) -> Chunk:
    """`dataclasses.replace(chunk, retrieval_score=score)`, equal field for field, at a
    third of its cost (the score pass makes one per chunk): a new record filled slot by
    slot before anyone holds it; the record stays frozen."""
    new = object.__new__(Chunk)
    for put, value in zip(_SLOT_SETTERS, _SLOT_VALUES(chunk), strict=True):
        put(new, value)
    _SET_SCORE(new, score)
    return new


_INIT_FIELDS = frozenset(f.name for f in fields(Chunk)) - {"location"}
# (phrase, meaning) and (key, value) pairs: JSON objects
_PAIR_FIELDS = frozenset({"resolved", "acronyms", "properties"})


@dataclass(frozen=True, slots=True, kw_only=True)
class FileError:
    """One file that could not be (fully) processed: the line a person reads in errors.json."""

    source: str
    stage: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "stage": self.stage, "reason": self.reason}

    def message(self) -> str:
        return f"{self.source}: {self.reason}"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FileError:
        return cls(source=data["source"], stage=data["stage"], reason=data["reason"])


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardedRow:
    """A spreadsheet row dropped by a skip rule, with what a reviewer needs to judge it.

    `rule` is `structural`, `mostly_numeric`, `too_few_fields`, `above_header` (a title or
    note row above the header, not part of it), `repeated_header` (a page header repeated
    down a printed report) or `empty_after_cleaning`; `cells` keeps the row as
    (header, value) pairs in column order; `measured` and `threshold` are the figures the
    rule compared (e.g. 0.86 numeric share against 0.8).
    """

    source: str
    sheet: str
    row: int
    rule: str
    cells: tuple[tuple[str, str], ...]
    measured: float | str
    threshold: float | str
    explanation: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "sheet": self.sheet,
            "row": self.row,
            "rule": self.rule,
            "cells": _unique_keys(self.cells),
            "measured": self.measured,
            "threshold": self.threshold,
            "explanation": self.explanation,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DiscardedRow:
        return cls(
            source=data["source"],
            sheet=data["sheet"],
            row=data["row"],
            rule=data["rule"],
            cells=tuple((str(h), str(v)) for h, v in data["cells"].items()),
            measured=data["measured"],
            threshold=data["threshold"],
            explanation=data.get("explanation", ""),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetReport:
    """What happened to one sheet: the figures of the conservation invariant.

    For a sheet that was read: data_rows (non-blank rows other than the header rows) ==
    chunks (kept or omitted) + discarded. `status` is `read`, `truncated`,
    `hidden_skipped`, `empty` or `failed`; `note` says why for anything but `read`. A
    truncated sheet counts its `unread_rows` (non-blank rows past `sheets.max_rows`) in
    data_rows too, so its figures do not balance: it is not conserved, and says so.
    """

    source: str
    sheet: str
    status: str
    header_row: int | None
    data_rows: int
    blank_rows: int
    chunks: int
    discarded: int
    note: str = ""
    unread_rows: int = 0

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SheetReport:
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


@dataclass(frozen=True, slots=True, kw_only=True)
class SkippedLines:
    """Lines of a Markdown file that are not content (a heading, front matter, a page
    number), kept with the reason so the file's account says why no chunk holds them."""

    first: int
    last: int
    reason: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first, "last": self.last, "reason": self.reason, "text": self.text}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SkippedLines:
        return cls(
            first=int(data["first"]),
            last=int(data["last"]),
            reason=str(data["reason"]),
            text=str(data["text"]),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class LineAccount:
    """What happened to every non-blank line of one Markdown file: the conservation
    invariant, `lines == in_chunks + skipped_lines + len(unaccounted)`.

    `in_chunks` counts the non-blank lines inside some chunk's `lines` (kept or omitted);
    `skipped` lists the spans no chunk holds with their reason (`skipped_lines` counts
    their non-blank lines); `unaccounted` is every other non-blank line, by number: text
    lost with no reason. The file is conserved when there is none."""

    source: str
    lines: int
    in_chunks: int
    skipped_lines: int
    skipped: tuple[SkippedLines, ...] = ()
    unaccounted: tuple[int, ...] = ()

    @property
    def conserved(self) -> bool:
        return not self.unaccounted

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "lines": self.lines,
            "in_chunks": self.in_chunks,
            "skipped_lines": self.skipped_lines,
            "skipped": [s.to_json() for s in self.skipped],
            "unaccounted": list(self.unaccounted),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LineAccount:
        return cls(
            source=data["source"],
            lines=int(data["lines"]),
            in_chunks=int(data["in_chunks"]),
            skipped_lines=int(data["skipped_lines"]),
            skipped=tuple(SkippedLines.from_json(s) for s in data["skipped"]),
            unaccounted=tuple(int(n) for n in data["unaccounted"]),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class FileResult:
    """Everything one input file produced; a failed file has only `errors`."""

    source: str
    chunks: tuple[Chunk, ...] = ()
    discarded: tuple[DiscardedRow, ...] = ()
    reports: tuple[SheetReport, ...] = ()
    errors: tuple[FileError, ...] = ()
    accounts: tuple[LineAccount, ...] = ()  # a Markdown file's line account (one)


def _unique_keys(pairs: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Header -> value, with a repeated header made unique ("Total (col 5)"), so no cell
    of the row is lost when it becomes a JSON object."""
    out: dict[str, str] = {}
    for col, (header, value) in enumerate(pairs, start=1):
        key = header if header not in out else f"{header} (col {col})"
        out[key] = value
    return out
