"""What the qa/ files hold, made in memory: the flagged and discarded-row tables (JSON
rows and CSV bytes, every cell neutralised against formula injection), the errors list,
the one-line reason a chunk is flagged, and summary.md.

Pure functions of chunks, rows and metrics; `artifacts` writes what they return. Apart
from `artifacts` so that the write pass reads as the files it writes, and the tables'
columns and reasons can be read (and tested) without it.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath
from typing import Any

from notechunk.chunk import Chunk, DiscardedRow, FileError
from notechunk.config import Config
from notechunk.qa.enrichment import enrichment_markdown
from notechunk.qa.metrics import Metrics

_DANGEROUS_START = ("=", "+", "-", "@", "\t", "\r", "\0")

FLAGGED_COLUMNS: tuple[str, ...] = (
    "id", "source", "source_type", "location", "section_path", "sheet", "row", "lines",
    "quality", "omit", "reason", "flags", "duplicate_of", "word_count", "template",
    "semantic_type", "retrieval_score", "text",
)  # fmt: skip
DISCARDED_COLUMNS: tuple[str, ...] = (
    "source", "sheet", "row", "rule", "measured", "threshold", "explanation", "cells",
)  # fmt: skip


def neutralise_cell(value: object) -> str:
    """A CSV cell a spreadsheet will not run as a formula: `'` before = + - @ tab CR NUL."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_DANGEROUS_START) else text


def csv_bytes(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    """UTF-8 (with BOM, for Excel) CSV, every cell neutralised, CRLF row ends."""
    return "\ufeff".encode() + csv_rows([header]) + csv_rows(rows)


def csv_rows(rows: Iterable[Sequence[object]]) -> bytes:
    """CSV lines (no BOM) of `rows`, every cell neutralised."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    for row in rows:
        writer.writerow([neutralise_cell(v) for v in row])
    return buf.getvalue().encode("utf-8")


def flag_reason(c: Chunk, cfg: Config) -> str:
    """Why a chunk is flagged, in one line (thresholds from `cfg`)."""
    bands = cfg.quality.markdown if c.source_type == "markdown" else cfg.quality.spreadsheet
    fate = "omitted" if c.omit else "kept"
    if c.duplicate_of is not None:
        return f"duplicate of {c.duplicate_of}: omitted"
    if "toc" in c.flags:
        return "toc: a table of contents, not content: omitted"
    if c.quality == "context_dead":
        phrase = next((f.split(":", 1)[1] for f in c.flags if f.startswith("context_dead:")), "")
        said = f" {phrase!r}" if phrase else " a context-dead phrase"
        return f"context_dead: starts with{said}: {fate}"
    if c.quality == "too_long":
        return f"too_long: {c.word_count} words > {bands.max_words}: {fate}"
    if c.quality == "too_long_tokens":
        return f"too_long_tokens: {c.token_count} tokens > {cfg.max_tokens}: {fate}"
    if c.quality == "fragment":
        return f"fragment: {c.word_count} words < {bands.fragment_words}: {fate}"
    if c.quality == "short":
        return f"short: {c.word_count} words < {bands.short_words}: {fate}"
    return f"omitted by its runner ({', '.join(c.flags) or 'no flag'})" if c.omit else "ok"


STAGE_NAMES = ("markdown_chunks.jsonl", "excel_chunks.jsonl")


def stage_file(name: str, form: str) -> str:
    """A stage file's name under stages/ as `[output] stages` writes it."""
    return f"{name}.gz" if form == "gzip" else name


def is_flagged(c: Chunk) -> bool:
    return c.quality != "ok" or c.omit


# Which flagged chunks a person sees first when a list is cut (`qa.capped`): a chunk an
# embedder truncates loses words; an omitted `ok` chunk (a duplicate, a table of contents)
# loses nothing.
SEVERITY: dict[str, int] = {
    "too_long_tokens": 5,
    "too_long": 4,
    "context_dead": 3,
    "fragment": 2,
    "short": 1,
    "ok": 0,
}


def flag_severity(c: Chunk) -> int:
    return SEVERITY[c.quality]


def discarded_severity(row: dict[str, Any]) -> int:
    """A discarded row holding more filled cells drops more: it comes first."""
    return sum(1 for v in row["cells"].values() if str(v).strip())


def account_severity(row: dict[str, Any]) -> int:
    """A file with lines in no chunk and no reason comes first, then the most skipped."""
    return len(row["unaccounted"]) * 1_000_000 + int(row["skipped_lines"])


def _cell(value: object) -> object:
    if isinstance(value, list):
        return " > ".join(str(v) for v in value) if value else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value


def flagged_line(r: dict[str, Any]) -> list[object]:
    out: list[object] = []
    for col in FLAGGED_COLUMNS:
        v = r.get(col)
        if col == "flags":
            out.append(";".join(v or []))
        elif col == "lines":
            out.append(f"{v[0]}-{v[1]}" if v else "")
        else:
            out.append(_cell(v))
    return out


def discarded_rows_json(discarded: Sequence[DiscardedRow]) -> list[dict[str, Any]]:
    """Sorted by (source, sheet, row); `columns` keeps the header order the dict loses."""
    ordered = sorted(discarded, key=lambda d: (d.source, d.sheet, d.row, d.rule))
    return [{**d.to_json(), "columns": [h for h, _ in d.cells]} for d in ordered]


def discarded_csv(rows: Sequence[dict[str, Any]]) -> bytes:
    def line(r: dict[str, Any]) -> list[object]:
        cells = "; ".join(f"{h}: {r['cells'].get(h, '')}" for h in r["columns"])
        return [_cell(r[c]) for c in DISCARDED_COLUMNS[:-1]] + [cells]

    return csv_bytes(DISCARDED_COLUMNS, (line(r) for r in rows))


def errors_json(errors: Sequence[FileError]) -> list[dict[str, str]]:
    return [e.to_json() for e in sorted(errors, key=lambda e: (e.source, e.stage, e.reason))]


MAX_SKIPPED_LISTED = 50


def skipped_markdown(skipped: Sequence[str]) -> list[str]:
    """The summary's lines on files discovery passed over: the count by extension
    ("12 files skipped: 7 .pdf, 5 .png") and their names (the first `MAX_SKIPPED_LISTED`)."""
    if not skipped:
        return []
    by_ext = Counter(PurePosixPath(rel).suffix.lower() or "(no extension)" for rel in skipped)
    counts = ", ".join(
        f"{n} {ext}" for ext, n in sorted(by_ext.items(), key=lambda x: (-x[1], x[0]))
    )
    s = "" if len(skipped) == 1 else "s"
    lines = ["## Files skipped", "", f"{len(skipped)} file{s} skipped: {counts}.", ""]
    lines += [f"- {rel}" for rel in skipped[:MAX_SKIPPED_LISTED]]
    if len(skipped) > MAX_SKIPPED_LISTED:
        lines.append(f"- ... and {len(skipped) - MAX_SKIPPED_LISTED} more")
    return [*lines, ""]


def cut_markdown(cut: Sequence[tuple[str, int, int]]) -> list[str]:
    """summary.md's note on the QA lists cut to `qa.max_file_bytes` (none: nothing)."""
    if not cut:
        return []
    lines = ["## Lists cut to size", ""]
    for name, listed, more in cut:
        full = name.rsplit(".", 1)[0] + ".jsonl.gz"
        lines.append(
            f"- {name} (and its .csv) lists the {listed} most severe rows; {more} more are"
            f" not listed there. The full list, all {listed + more}, is in {full}."
        )
    return [*lines, ""]


def summary_markdown(
    metrics: Metrics,
    semantic: dict[str, Any],
    enrichment: dict[str, Any] | None = None,
    skipped: Sequence[str] = (),
    cut: Sequence[tuple[str, int, int]] = (),
) -> str:
    """qa/summary.md: the figures a person checks first, the files not read, the lists cut
    to size (`cut`: file, rows listed, rows not listed) and the lowest-scoring chunks."""
    m = metrics
    lines = [
        "# notechunk QA summary",
        "",
        "| figure | value |",
        "| --- | --- |",
        f"| chunks (all) | {m.total} |",
        f"| surviving (in chunks.jsonl.gz) | {m.surviving} |",
        f"| omitted | {m.omitted} |",
        f"| exact duplicates | {m.duplicates} |",
        f"| flagged | {m.flagged} |",
        f"| average words (surviving) | {m.avg_words_surviving} |",
        f"| mean retrieval score (surviving) | {m.retrieval_score_mean} |",
        f"| discarded sheet rows | {m.discarded_rows} |",
        f"| files with errors | {m.errors} |",
        f"| files skipped (not notes or sheets) | {len(skipped)} |",
        "",
        *skipped_markdown(skipped),
        *cut_markdown(cut),
        "## Quality labels",
        "",
        "| label | all | surviving |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {q} | {n} | {m.quality_surviving[q]} |" for q, n in m.quality.items()]
    lines += ["", "## Source types", "", "| type | total | surviving | omitted |"]
    lines += ["| --- | --- | --- | --- |"]
    lines += [
        f"| {t} | {v.total} | {v.surviving} | {v.omitted} |" for t, v in m.source_type.items()
    ]
    sh = m.sheets
    lines += [
        "",
        "## Sheet conservation",
        "",
        f"{sh.sheets} sheet(s); read: {sh.data_rows} data rows = {sh.chunks} chunks"
        f" + {sh.discarded} discarded ({sh.blank_rows} blank rows counted)."
        f" Conserved: {'yes' if sh.conserved else 'NO'}.",
    ]
    for b in sh.not_conserved:
        unread = f" ({b.unread_rows} not read)" if b.unread_rows else ""
        lines.append(
            f"- {b.source} [{b.sheet}]: {b.data_rows} rows != {b.chunks} + {b.discarded}{unread}"
        )
    ml = m.markdown_lines
    lines += [
        "",
        "## Markdown conservation",
        "",
        f"{ml.files} Markdown file(s): {ml.lines} non-blank lines = {ml.in_chunks} in chunks"
        f" + {ml.skipped} skipped with a reason (qa/skipped_lines.json)"
        f" + {ml.unaccounted} unaccounted. Conserved: {'yes' if ml.conserved else 'NO'}.",
    ]
    lines += [
        f"- {g.source}: Conserved: NO, {g.unaccounted} lines unaccounted for"
        for g in ml.not_conserved
    ]
    lines += ["", "## Semantic types (surviving)", "", "| type | count |", "| --- | --- |"]
    lines += [f"| {t} | {n} |" for t, n in semantic["counts"].items()]
    if enrichment is not None:
        lines += ["", *enrichment_markdown(m, enrichment)]
    lines += ["", f"## Lowest retrieval scores ({len(m.lowest_retrieval_scores)})", ""]
    for row in m.lowest_retrieval_scores:
        text = row.text.replace("|", "\\|")
        lines.append(f"- {row.retrieval_score:.4f} `{row.id}` {row.location}: {text}")
    lines += [
        "",
        "Files: metrics.json, flagged.json/.csv, discarded_rows.json/.csv, errors.json,"
        " semantic_types.json, enrichment.json, skipped_lines.json, sample.jsonl; ../report.html.",
        "",
    ]
    return "\n".join(lines)
