"""run(): discover -> read -> split -> label -> stage files -> merge & QA, as a short list of passes.

Per-file work is a pure function of (file bytes, config), so it can run in worker
processes; results are put back in discovery order, so `--workers N` changes nothing in
the outputs. Progress goes through a callback; the pipeline itself prints nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from notechunk.chunk import Chunk, DiscardedRow, FileError, SheetReport
from notechunk.config import Config
from notechunk.discover import SourceFile, discover
from notechunk.errors import InputError
from notechunk.markdown import chunk_markdown
from notechunk.markdown.sections import make_parser
from notechunk.merge import write_jsonl
from notechunk.read import read_text
from notechunk.segment import get_segmenter

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): called as files finish."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FileResult:
    source: str
    chunks: tuple[Chunk, ...] = ()
    discarded: tuple[DiscardedRow, ...] = ()
    reports: tuple[SheetReport, ...] = ()
    errors: tuple[FileError, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class RunResult:
    files: int
    markdown_chunks: int
    sheet_chunks: int
    errors: tuple[FileError, ...]
    metrics: dict[str, Any] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return 1 if self.errors else 0


def process_markdown(file: SourceFile, cfg: Config, segmenter: Any, parser: Any) -> FileResult:
    """One Markdown file to chunks; a bad file is a FileError, never an exception."""
    try:
        text, encoding = read_text(file.path, file.rel)
    except InputError as exc:
        return FileResult(source=file.rel, errors=(FileError(source=file.rel, stage="read",
                                                             reason=exc.reason),))
    chunks = chunk_markdown(text, file.rel, cfg, segmenter, parser)
    if encoding == "cp1252":
        chunks = [_flag(c, "decoded_cp1252") for c in chunks]
    return FileResult(source=file.rel, chunks=tuple(chunks))


def _flag(chunk: Chunk, flag: str) -> Chunk:
    return replace(chunk, flags=(*chunk.flags, flag))


def process_sheet(file: SourceFile, cfg: Config) -> FileResult:
    from notechunk.sheets import process_sheet_file

    res = process_sheet_file(file.path, file.rel, cfg)
    return FileResult(
        source=file.rel,
        chunks=tuple(res.chunks),
        discarded=tuple(res.discarded),
        reports=tuple(res.reports),
        errors=tuple(res.errors),
    )


def process_batch(files: Sequence[SourceFile], cfg: Config) -> list[FileResult]:
    """Process files in order with one segmenter and parser (the unit of parallel work)."""
    segmenter = get_segmenter(cfg.segmenter)
    parser = make_parser()
    out: list[FileResult] = []
    for f in files:
        if f.kind == "markdown":
            out.append(process_markdown(f, cfg, segmenter, parser))
        else:
            out.append(process_sheet(f, cfg))
    return out


def _batches(files: Sequence[SourceFile], workers: int) -> list[list[SourceFile]]:
    """Contiguous batches of roughly equal bytes, several per worker for balance."""
    if not files:
        return []
    n = max(1, min(len(files), workers * 4))
    sizes = [_size(f) for f in files]
    target = max(1, sum(sizes) // n)
    out: list[list[SourceFile]] = [[]]
    acc = 0
    for f, size in zip(files, sizes, strict=True):
        if acc >= target and out[-1]:
            out.append([])
            acc = 0
        out[-1].append(f)
        acc += size
    return out


def _size(f: SourceFile) -> int:
    try:
        return f.path.stat().st_size
    except OSError:
        return 0


def process_files(
    files: Sequence[SourceFile], cfg: Config, workers: int = 1, progress: Progress | None = None
) -> list[FileResult]:
    """Per-file results in the order of `files`, whatever the number of workers."""
    total = len(files)
    results: list[FileResult] = []
    batches = _batches(files, workers)
    if workers <= 1 or len(batches) <= 1:
        for batch in batches:
            results.extend(process_batch(batch, cfg))
            if progress:
                progress("chunk", len(results), total)
        return results
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for batch_result in pool.map(process_batch, batches, [cfg] * len(batches)):
            results.extend(batch_result)
            if progress:
                progress("chunk", len(results), total)
    return results


def run(
    src: Path,
    out: Path,
    cfg: Config,
    workers: int = 1,
    progress: Progress | None = None,
) -> RunResult:
    """The whole job: SRC in, OUT written (SPEC §2). Returns counts and the file errors."""
    found = discover(src)
    results = process_files(found.files, cfg, workers, progress)
    markdown = [c for r in results for c in r.chunks if c.source_type == "markdown"]
    sheets = [c for r in results for c in r.chunks if c.source_type == "spreadsheet"]
    errors = [*found.errors, *(e for r in results for e in r.errors)]
    errors.sort(key=lambda e: (e.source, e.stage))
    stages = out / "stages"
    write_jsonl(stages / "markdown_chunks.jsonl", markdown)
    write_jsonl(stages / "excel_chunks.jsonl", sheets)
    if progress:
        progress("qa", 0, 1)
    metrics = finalize_outputs(
        out,
        [*markdown, *sheets],
        [d for r in results for d in r.discarded],
        [s for r in results for s in r.reports],
        errors,
        cfg,
    )
    if progress:
        progress("qa", 1, 1)
    return RunResult(
        files=len(found.files),
        markdown_chunks=len(markdown),
        sheet_chunks=len(sheets),
        errors=tuple(errors),
        metrics=metrics,
    )


def finalize_outputs(
    out: Path,
    chunks: Sequence[Chunk],
    discarded: Sequence[DiscardedRow],
    reports: Sequence[SheetReport],
    errors: Sequence[FileError],
    cfg: Config,
) -> dict[str, Any]:
    from notechunk.merge import atomic_write_bytes, dumps, merge_and_normalize, write_chunks_gz

    merged = merge_and_normalize(chunks)
    write_chunks_gz(out / "chunks.jsonl.gz", merged)
    atomic_write_bytes(
        out / "qa" / "errors.json", (dumps([e.to_json() for e in errors]) + "\n").encode()
    )
    return {"total": len(merged), "omitted": sum(c.omit for c in merged)}
