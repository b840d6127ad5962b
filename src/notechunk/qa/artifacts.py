"""The write pass: every file of SPEC §2 from the chunks as they stream past (writes only).

Files (all atomic, JSON through `io.jsonio.dumps` with sorted keys, no clock, no absolute
path, so two runs over the same input give byte-identical files): chunks.jsonl.gz and/or
chunks.parquet (`[output]`; `io.parquet`),
stages/{markdown,excel}_chunks.jsonl (every chunk, omitted ones too, with final ids;
.jsonl.gz with `[output] stages = "gzip"`), qa/{metrics.json, summary.md, sample.jsonl,
flagged.json, flagged.csv, semantic_types.json, discarded_rows.json, discarded_rows.csv,
errors.json, enrichment.json, skipped_lines.json}, report.html, sources/ (every chunk shown
in its file: `qa.sources`). A qa/ list past `qa.max_file_bytes` is cut (`qa.capped`): its
most severe rows, a count of the rest, and the full list beside it as .jsonl.gz.
Flagged = every chunk whose quality is not `ok`, plus omitted `ok` chunks (duplicates, a
table of contents), so nothing omitted goes unexplained; each carries a `reason`. What
the qa/ tables and summary.md hold is made in `contents`; this module writes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any, BinaryIO, cast

import numpy as np
from numpy.typing import NDArray

from notechunk.chunk import Chunk, DiscardedRow, FileError, LineAccount, SheetReport
from notechunk.config import Config
from notechunk.corpus import Corpus
from notechunk.corpus.scores import scored
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
from notechunk.qa.capped import (
    Capped,
    cap_rows,
    full_name,
    json_item,
    json_list,
    trailer,
    trailer_cell,
)
from notechunk.qa.contents import (
    FLAGGED_COLUMNS,
    STAGE_NAMES,
    account_severity,
    csv_bytes,
    csv_rows,
    discarded_csv,
    discarded_rows_json,
    discarded_severity,
    errors_json,
    flag_reason,
    flag_severity,
    flagged_line,
    is_flagged,
    stage_file,
    summary_markdown,
)
from notechunk.qa.enrichment import dangling_row, enrichment_json
from notechunk.qa.metrics import Metrics, location, snippet
from notechunk.qa.report import render_report
from notechunk.qa.source_pages import Reuse, SourceView
from notechunk.qa.sources import ReadSource, file_reader
from notechunk.qa.tally import MetricsTally
from notechunk.qa.widgets import MAX_TABLE_ROWS

FLAGGED_FULL = full_name("flagged.json")


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


@dataclass(frozen=True, slots=True, kw_only=True)
class ViewJob:
    """The source view as one picklable job over the chunk stream: an engine's idle worker
    runs it (reading the spill itself) while this process writes the rest, or the pass
    that writes them feeds it here (`opened`). `original`: each chunk's original (-1 for
    none), so the job knows the source of every chunk a duplicate points to; `paths`:
    (relative, absolute) per file."""

    folder: Path
    chunks: Callable[[], Iterator[Chunk]]
    scores: NDArray[np.float64]
    original: NDArray[np.int64]
    extras: Corpus
    cfg: Config
    paths: tuple[tuple[str, Path], ...]
    reuse: Reuse | None = None

    def __call__(self) -> None:
        feed, close = self.opened()
        for c in scored(self.chunks(), self.scores):
            feed(c)
        close()

    def opened(self) -> tuple[Callable[[Chunk], None], Callable[[], None]]:
        """The view open for the chunks of the stream, fed one by one from its first, and
        what finishes it: how the pass that writes the rest feeds it when no worker is
        idle."""
        needed = set(self.original[self.original >= 0].tolist())
        where: dict[str, str] = {}  # an original comes before its duplicates
        read = file_reader(dict(self.paths))
        view = source_view(self.folder, self.extras, self.cfg, read, where, self.reuse)
        ordinal = count()

        def feed(c: Chunk) -> None:
            if next(ordinal) in needed:
                where[c.id] = c.source
            view.add(c)

        return feed, view.close


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
        md, sh = (_stage_writer(stack, folder, name, cfg.output.stages) for name in STAGE_NAMES)
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
        capped = Capped(cfg.qa.max_file_bytes)
        full = stack.enter_context(gzip_writer(stack.enter_context(atomic_open(qa / FLAGGED_FULL))))
        for c in chunks:
            line = chunk_line(c)
            (md if c.source_type == "markdown" else sh).write(line)
            tally.add(c)
            if is_flagged(c):
                row = {**c.to_json(), "location": location(c), "reason": flag_reason(c, cfg)}
                capped.add(flag_severity(c), json_item(row), csv_rows([flagged_line(row)]))
                full.write((dumps(row) + "\n").encode("utf-8"))
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
        if parquet is not None:
            parquet.close()
    cut: list[tuple[str, int, int]] = []
    kept_flagged = capped.result()
    if kept_flagged.more:
        n_listed = len(kept_flagged.items)
        cut.append(("flagged.json", n_listed, kept_flagged.more))
        head = [json.loads(item) for item in kept_flagged.items[:MAX_TABLE_ROWS]]
        last = json_item(trailer("flagged.json", n_listed, kept_flagged.more))
        more_line = csv_rows([[trailer_cell("flagged.json", kept_flagged.more)]])
        atomic_write_bytes(qa / "flagged.json", json_list([*kept_flagged.items, last]))
        flagged_csv = [csv_bytes(FLAGGED_COLUMNS, ()), *kept_flagged.lines, more_line]
    else:
        (qa / FLAGGED_FULL).unlink()  # the whole list is flagged.json itself
        atomic_write_bytes(qa / "flagged.json", json_list(kept_flagged.items))
        flagged_csv = [csv_bytes(FLAGGED_COLUMNS, ()), *kept_flagged.lines]
    atomic_write_bytes(qa / "flagged.csv", b"".join(flagged_csv))
    del kept_flagged, capped
    metrics = tally.result(discarded, reports, errors, glossary, accounts)
    semantic = sem.result()
    enrichment = enrichment_json(glossary, dangling)
    budget = cfg.qa.max_file_bytes
    drows, more = _write_list(
        qa, "discarded_rows.json", discarded_rows_json(discarded), discarded_severity, budget
    )
    if more:
        cut.append(("discarded_rows.json", len(drows), more))
    more_csv = [[trailer_cell("discarded_rows.json", more)]] if more else []
    csv_body = discarded_csv(drows) + csv_rows(more_csv)
    atomic_write_bytes(qa / "discarded_rows.csv", csv_body)
    accounts_json, more = _write_list(
        qa, "skipped_lines.json", skipped_lines_json(accounts), account_severity, budget
    )
    if more:
        cut.append(("skipped_lines.json", len(accounts_json), more))
    errs = errors_json(errors)
    write_json(qa / "metrics.json", metrics.to_json())
    summary = summary_markdown(metrics, semantic, enrichment, skipped, cut)
    write_text(qa / "summary.md", summary)
    write_json(qa / "enrichment.json", enrichment)
    write_json(qa / "semantic_types.json", semantic)
    write_json(qa / "errors.json", errs)
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


def _stage_writer(stack: ExitStack, folder: Path, name: str, form: str) -> BinaryIO:
    """A stage file's writer: plain JSON lines, or the same lines gzip-compressed."""
    fh = stack.enter_context(atomic_open(folder / "stages" / stage_file(name, form)))
    return cast(BinaryIO, stack.enter_context(gzip_writer(fh))) if form == "gzip" else fh


def _write_list(
    qa: Path,
    name: str,
    rows: list[dict[str, Any]],
    severity: Callable[[dict[str, Any]], int],
    budget: int,
) -> tuple[list[dict[str, Any]], int]:
    """A QA list file within `budget` (`capped.cap_rows`); when cut, its trailer row and
    the full list beside it. The rows it holds and how many it leaves out."""
    kept, more = cap_rows(rows, [severity(r) for r in rows], budget)
    if not more:
        write_json(qa / name, kept)
        return kept, 0
    items = [json_item(r) for r in kept]
    atomic_write_bytes(qa / name, json_list([*items, json_item(trailer(name, len(kept), more))]))
    with atomic_open(qa / full_name(name)) as raw, gzip_writer(raw) as gz:
        for r in rows:
            gz.write((dumps(r) + "\n").encode("utf-8"))
    return kept, more
