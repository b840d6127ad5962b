"""The write pass: every file of SPEC §2 from the chunks as they stream past (writes only).

Files (all atomic, JSON through `io.jsonio.dumps` with sorted keys, no clock, no absolute
path, so two runs over the same input give byte-identical files): chunks.jsonl.gz and/or
chunks.parquet (`[output]`; `io.parquet`),
stages/{markdown,excel}_chunks.jsonl (every chunk, omitted ones too, with final ids),
qa/{metrics.json, summary.md, sample.jsonl, flagged.json, flagged.csv,
semantic_types.json, discarded_rows.json, discarded_rows.csv, errors.json,
enrichment.json}, report.html, sources/ (every chunk shown in its file: `qa.sources`).
Flagged = every chunk whose quality is not `ok`, plus omitted `ok` chunks (duplicates, a
table of contents), so nothing omitted goes unexplained; each carries a `reason`. What
the qa/ tables and summary.md hold is made in `contents`; this module writes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any, BinaryIO

from notechunk.chunk import Chunk, DiscardedRow, FileError, LineAccount, SheetReport
from notechunk.config import Config
from notechunk.corpus import Corpus
from notechunk.enrich.glossary import Glossary
from notechunk.finish.semantic import FALLBACK, RULES, TYPES
from notechunk.io.jsonio import (
    atomic_open,
    atomic_write_bytes,
    chunk_line,
    dumps,
    gzip_writer,
    write_json,
    write_text,
)
from notechunk.io.parquet import ChunkParquetWriter
from notechunk.qa.contents import (
    FLAGGED_COLUMNS,
    csv_bytes,
    csv_rows,
    discarded_csv,
    discarded_rows_json,
    errors_json,
    flag_reason,
    flagged_line,
    is_flagged,
    summary_markdown,
)
from notechunk.qa.enrichment import dangling_row, enrichment_json
from notechunk.qa.metrics import Metrics, location, snippet
from notechunk.qa.report import render_report
from notechunk.qa.source_pages import Reuse, SourceView
from notechunk.qa.sources import ReadSource
from notechunk.qa.tally import MetricsTally
from notechunk.qa.widgets import MAX_TABLE_ROWS


def sample_picks(surviving: int, size: int, seed: int) -> list[int]:
    """Which surviving chunks (by their rank among survivors) `sample` draws."""
    return sorted(random.Random(seed).sample(range(surviving), min(size, surviving)))


class SemanticTally:
    """qa/semantic_types.json counted one chunk at a time: the rules, counts per type and the
    first examples of each."""

    def __init__(self, examples_per_type: int = 3) -> None:
        self.k = examples_per_type
        self.counts: dict[str, int] = dict.fromkeys(TYPES, 0)
        self.examples: dict[str, list[dict[str, object]]] = {t: [] for t in TYPES}

    def add(self, c: Chunk) -> None:
        t = c.semantic_type
        self.counts[t] = self.counts.get(t, 0) + 1
        bucket = self.examples.setdefault(t, [])
        if len(bucket) < self.k:
            bucket.append({"id": c.id, "source": c.source, "text": snippet(c.text, 240)})

    def result(self) -> dict[str, Any]:
        return {
            "rules": [{"name": r.name, "description": r.description} for r in RULES]
            + [{"name": FALLBACK, "description": "anything else"}],
            "counts": self.counts,
            "examples": self.examples,
        }


def source_view(
    folder: Path,
    extras: Corpus,
    cfg: Config,
    read_source: ReadSource | None,
    where: Mapping[str, str],
    reuse: Reuse | None = None,
) -> SourceView:
    """OUT/sources/ (one page per source file, each text once, the viewer and an index),
    fed the chunks in output order by the pass that writes the rest (`SourceView.add`,
    then `close`); `reuse`: the previous run's texts (`qa.source_pages.previous_texts`)."""
    return SourceView(
        folder, extras, lambda c: flag_reason(c, cfg), is_flagged, read_source, where, reuse
    )


def stream_source_view(
    folder: Path,
    chunks: Iterable[Chunk],
    extras: Corpus,
    cfg: Config,
    read_source: ReadSource | None,
    where: Mapping[str, str],
) -> None:
    """OUT/sources/ from chunks already held (`source_view` fed all at once)."""
    view = source_view(folder, extras, cfg, read_source, where)
    for c in chunks:
        view.add(c)
    view.close()


def write_stream(
    folder: Path,
    chunks: Iterable[Chunk],
    *,
    surviving: int,
    discarded: Sequence[DiscardedRow],
    reports: Sequence[SheetReport],
    errors: Sequence[FileError],
    cfg: Config,
    glossary: Glossary | None = None,
    skipped: Sequence[str] = (),
    accounts: Sequence[LineAccount] = (),
) -> Metrics:
    """Write every output file of a run into `folder` (the staging folder of OUT) as the
    finished chunks stream past, in output order (`surviving`: how many are not omitted,
    to draw the sample); the metrics are counted on the way and returned. `skipped` are
    the files discovery passed over (no kind the run reads), counted in summary.md."""
    picks = iter(sample_picks(surviving, cfg.qa.sample_size, cfg.qa.seed))
    pick = next(picks, -1)
    tally = MetricsTally(cfg.qa.lowest_scores_listed)
    sem = SemanticTally()
    head: list[dict[str, Any]] = []
    dangling: list[dict[str, Any]] = []
    n_flagged = kept = 0
    qa = folder / "qa"
    with ExitStack() as stack:
        md = stack.enter_context(atomic_open(folder / "stages" / "markdown_chunks.jsonl"))
        sh = stack.enter_context(atomic_open(folder / "stages" / "excel_chunks.jsonl"))
        gz = (
            stack.enter_context(
                gzip_writer(stack.enter_context(atomic_open(folder / "chunks.jsonl.gz")))
            )
            if cfg.output.jsonl
            else None
        )
        parquet = (
            ChunkParquetWriter(stack.enter_context(atomic_open(folder / "chunks.parquet")))
            if cfg.output.parquet
            else None
        )
        sample_fh = stack.enter_context(atomic_open(qa / "sample.jsonl"))
        fjson = stack.enter_context(atomic_open(qa / "flagged.json"))
        fcsv = stack.enter_context(atomic_open(qa / "flagged.csv"))
        fcsv.write(csv_bytes(FLAGGED_COLUMNS, ()))
        items = _Items(fjson)
        for c in chunks:
            line = chunk_line(c)
            (md if c.source_type == "markdown" else sh).write(line)
            tally.add(c)
            if is_flagged(c):
                row = {**c.to_json(), "location": location(c), "reason": flag_reason(c, cfg)}
                items.add(row)
                fcsv.write(csv_rows([flagged_line(row)]))
                if len(head) < MAX_TABLE_ROWS:
                    head.append(row)
                n_flagged += 1
            if not c.omit:
                if gz is not None:
                    gz.write(line)
                if parquet is not None:
                    parquet.add(c)
                sem.add(c)
                if c.flags and (entry := dangling_row(c)) is not None:
                    dangling.append(entry)
                if kept == pick:
                    sample_fh.write(line)
                    pick = next(picks, -1)
                kept += 1
        items.close()
        if parquet is not None:
            parquet.close()
    metrics = tally.result(discarded, reports, errors, glossary, accounts)
    semantic = sem.result()
    enrichment = enrichment_json(glossary, dangling)
    drows = discarded_rows_json(discarded)
    errs = errors_json(errors)
    write_json(qa / "metrics.json", metrics.to_json())
    write_text(qa / "summary.md", summary_markdown(metrics, semantic, enrichment, skipped))
    write_json(qa / "enrichment.json", enrichment)
    write_json(qa / "semantic_types.json", semantic)
    write_json(qa / "discarded_rows.json", drows)
    atomic_write_bytes(qa / "discarded_rows.csv", discarded_csv(drows))
    write_json(qa / "errors.json", errs)
    accounts_json = skipped_lines_json(accounts)
    write_json(qa / "skipped_lines.json", accounts_json)
    where = {r["id"]: r["source"] for r in head} | {c.id: c.source for *_, c in tally.lowest}
    html = render_report(
        metrics,
        head,
        drows,
        errs,
        semantic,
        sources=where,
        flagged_total=n_flagged,
        enrichment=enrichment,
        accounts=accounts_json,
    )
    write_text(folder / "report.html", html)
    return metrics


def skipped_lines_json(accounts: Sequence[LineAccount]) -> list[dict[str, Any]]:
    """qa/skipped_lines.json: per Markdown file, its account (conserved or not, the line
    counts), the spans in no chunk with their reason, and the unaccounted line numbers."""
    return [{**a.to_json(), "conserved": a.conserved} for a in accounts]


class _Items:
    """flagged.json written one row at a time (the bytes of `write_json` on the list)."""

    def __init__(self, fh: BinaryIO) -> None:
        self.fh = fh
        self.first = True

    def add(self, row: object) -> None:
        body = dumps(row, indent=2).replace("\n", "\n  ")
        self.fh.write((("[\n  " if self.first else ",\n  ") + body).encode("utf-8"))
        self.first = False

    def close(self) -> None:
        self.fh.write(b"[]\n" if self.first else b"\n]\n")
