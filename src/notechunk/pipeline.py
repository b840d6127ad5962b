"""run(): discover -> read -> split -> label -> stage files -> merge & QA, in short passes.

Per-file work is a pure function of (file bytes, config), so it can run in worker
processes; results are put back in discovery order, so `--workers N` changes nothing in
the outputs. Progress goes through a callback; the pipeline itself prints nothing.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import os
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

from notechunk.cache import CACHE_DIR, Cache, config_key, decode_result, encode_result, file_key
from notechunk.chunk import Chunk, FileError, FileResult
from notechunk.config import Config
from notechunk.discover import SourceFile, discover
from notechunk.errors import InputError, UsageError
from notechunk.markdown import chunk_markdown
from notechunk.markdown.sections import make_block_parser
from notechunk.merge import atomic_write_bytes, dumps, write_jsonl
from notechunk.qa.artifacts import finalize
from notechunk.read import decode_text
from notechunk.segment import get_segmenter

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): called as files finish."""


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


def process_markdown(
    file: SourceFile, data: bytes, cfg: Config, segmenter: Any, parser: Any
) -> FileResult:
    """One Markdown file to chunks; a bad file is a FileError, never an exception."""
    try:
        text, encoding = decode_text(data, file.rel)
    except InputError as exc:
        return _failed(file, "read", exc.reason)
    chunks = chunk_markdown(text, file.rel, cfg, segmenter, parser)
    if encoding == "cp1252":
        chunks = [replace(c, flags=(*c.flags, "decoded_cp1252")) for c in chunks]
    return FileResult(source=file.rel, chunks=tuple(chunks))


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


def _failed(file: SourceFile, stage: str, reason: str) -> FileResult:
    return FileResult(
        source=file.rel, errors=(FileError(source=file.rel, stage=stage, reason=reason),)
    )


def process_batch(
    files: Sequence[SourceFile], cfg: Config, cache_root: Path | None = None
) -> list[tuple[FileResult, str | None]]:
    """Process files in order with one segmenter and parser (the unit of parallel work).

    Returns (result, cache key) per file (the key is None when the file could not be
    read). Results without errors are cached.
    """
    segmenter = get_segmenter(cfg.segmenter)
    parser = make_block_parser()
    cache = Cache(cache_root) if cache_root is not None else None
    ckey = config_key(cfg)
    out: list[tuple[FileResult, str | None]] = []
    for f in files:
        try:
            data = f.path.read_bytes()
        except OSError as exc:
            out.append((_failed(f, "read", f"cannot read file ({exc.strerror or exc})"), None))
            continue
        key = file_key(data, f.rel, ckey)
        hit = cache.get(key) if cache else None
        if hit is not None:
            try:
                out.append((decode_result(hit), key))
                continue
            except (KeyError, TypeError, ValueError, AttributeError):
                pass  # a damaged or foreign entry is a miss: redo the file
        if f.kind == "markdown":
            result = process_markdown(f, data, cfg, segmenter, parser)
        else:
            del data  # the sheet reader streams the file itself
            result = process_sheet(f, cfg)
        if cache is not None and not result.errors:
            cache.put(key, encode_result(result))
        out.append((result, key))
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
    files: Sequence[SourceFile],
    cfg: Config,
    workers: int = 1,
    progress: Progress | None = None,
    cache_root: Path | None = None,
) -> list[tuple[FileResult, str | None]]:
    """Per-file (result, cache key) in the order of `files`, whatever the number of workers."""
    total = len(files)
    results: list[tuple[FileResult, str | None]] = []
    batches = _batches(files, workers)
    if workers <= 1 or len(batches) <= 1:
        for batch in batches:
            results.extend(process_batch(batch, cfg, cache_root))
            if progress:
                progress("chunk", len(results), total)
        return results
    with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
        n = len(batches)
        for part in pool.map(process_batch, batches, [cfg] * n, [cache_root] * n):
            results.extend(part)
            if progress:
                progress("chunk", len(results), total)
    return results


def _pool_context() -> BaseContext:
    """Fresh worker processes, never a plain fork of this one: a forked worker inherits
    the parent's multiprocessing state (a forkserver the sheet reader started in an
    earlier run of the same process makes its next isolated read fail with
    ChildProcessError), and whatever locks other threads held."""
    return mp.get_context("forkserver" if sys.platform.startswith("linux") else "spawn")


OUTPUT_FILES = ("chunks.jsonl.gz", "stages", "qa", "report.html")
MANIFEST = "manifest.json"
STAGING = ".staging"
LOCK = ".lock"


def run(
    src: Path,
    out: Path,
    cfg: Config,
    workers: int = 1,
    progress: Progress | None = None,
    use_cache: bool = True,
) -> RunResult:
    """The whole job: SRC in, OUT written (SPEC §2). Returns counts and the file errors.

    Outputs are built in OUT/.staging and moved into place one complete file at a time;
    `manifest.json` (each output's size and sha256) is removed just before the moves and
    written after them, so OUT holds one complete, consistent run exactly when the
    manifest is there, and a run killed midway never leaves a half-written file. When
    neither the inputs nor the config changed and the manifest's files are in place,
    nothing is redone.
    """
    with _exclusive(out):
        return _run_locked(src, out, cfg, workers, progress, use_cache)


@contextmanager
def _exclusive(out: Path) -> Iterator[None]:
    """Hold OUT/.lock for the run: a second run on the same OUT would delete this one's
    staging folder and race its publish, so it is refused instead (exit 2)."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / LOCK, "a+b") as fh:
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise UsageError(f"{out}: another notechunk run is writing there") from None
        yield


def _run_locked(
    src: Path,
    out: Path,
    cfg: Config,
    workers: int,
    progress: Progress | None,
    use_cache: bool,
) -> RunResult:
    found = discover(src, exclude=[out / d for d in ("stages", "qa", STAGING, CACHE_DIR)])
    cache_root = out / CACHE_DIR if use_cache else None
    results = process_files(found.files, cfg, workers, progress, cache_root)
    file_results = [r for r, _ in results]
    markdown = [c for r in file_results for c in r.chunks if c.source_type == "markdown"]
    sheets = [c for r in file_results for c in r.chunks if c.source_type == "spreadsheet"]
    errors = [*found.errors, *(e for r in file_results for e in r.errors)]
    errors.sort(key=lambda e: (e.source, e.stage))
    run_key = _run_key(cfg, results, errors)
    _remove_leftovers(out)
    previous = _read_manifest(out)
    unchanged = run_key is not None and previous.get("run_key") == run_key
    if use_cache and unchanged and _outputs_present(out, previous):
        metrics = previous.get("metrics", {})
    else:
        metrics = _write_outputs(
            out, cfg, markdown, sheets, file_results, errors, run_key, progress
        )
    return RunResult(
        files=len(found.files),
        markdown_chunks=len(markdown),
        sheet_chunks=len(sheets),
        errors=tuple(errors),
        metrics=metrics,
    )


def _write_outputs(
    out: Path,
    cfg: Config,
    markdown: list[Chunk],
    sheets: list[Chunk],
    file_results: list[FileResult],
    errors: list[FileError],
    run_key: str | None,
    progress: Progress | None,
) -> dict[str, Any]:
    staging = out / STAGING
    write_jsonl(staging / "stages" / "markdown_chunks.jsonl", markdown)
    write_jsonl(staging / "stages" / "excel_chunks.jsonl", sheets)
    if progress:
        progress("qa", 0, 1)
    metrics = finalize(
        staging,
        [*markdown, *sheets],
        [d for r in file_results for d in r.discarded],
        [s for r in file_results for s in r.reports],
        errors,
        cfg,
    )
    files = _publish(staging, out)
    manifest = {"files": files, "metrics": metrics, "run_key": run_key}
    atomic_write_bytes(out / MANIFEST, (dumps(manifest) + "\n").encode())
    _fsync_dir(out)
    if progress:
        progress("qa", 1, 1)
    return metrics


def _remove_leftovers(out: Path) -> None:
    """What a killed run leaves: its staging folder and a half-written manifest."""
    if (out / STAGING).exists():
        shutil.rmtree(out / STAGING)
    for stale in out.glob(f".{MANIFEST}.tmp*"):
        stale.unlink(missing_ok=True)


def _publish(staging: Path, out: Path) -> dict[str, dict[str, Any]]:
    """Move every staged file into OUT (each move atomic), then drop the staging folder.

    The old manifest goes first, only now that every new file is complete: until the new
    one is written OUT may mix complete files of two runs, and the missing manifest says
    so. Returns the new manifest's file list (POSIX path -> bytes and sha256).
    """
    staged = sorted(p for p in staging.rglob("*") if p.is_file())
    files = {p.relative_to(staging).as_posix(): _describe(p) for p in staged}
    (out / MANIFEST).unlink(missing_ok=True)
    _fsync_dir(out)
    for path in staged:
        target = out / path.relative_to(staging)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
    for folder in sorted({out, *((out / rel).parent for rel in files)}):
        _fsync_dir(folder)
    shutil.rmtree(staging, ignore_errors=True)
    return files


def _describe(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _fsync_dir(folder: Path) -> None:
    """Make renames into `folder` durable (skipped where a folder cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _run_key(
    cfg: Config, results: list[tuple[FileResult, str | None]], errors: list[FileError]
) -> str | None:
    """Identity of a run's inputs (file contents, names, config), None if a file was unread."""
    if any(key is None for _, key in results):
        return None
    h = hashlib.sha256(config_key(cfg).encode())
    for result, key in results:
        h.update(f"{result.source}\x00{key}\x00".encode("utf-8", "surrogateescape"))
    h.update(dumps([e.to_json() for e in errors]).encode())
    return h.hexdigest()


def _read_manifest(out: Path) -> dict[str, Any]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _outputs_present(out: Path, manifest: dict[str, Any]) -> bool:
    """Every file the manifest lists is in OUT with its recorded size."""
    files = manifest.get("files")
    if not isinstance(files, dict) or "chunks.jsonl.gz" not in files:
        return False
    for rel, info in files.items():
        try:
            if (out / rel).stat().st_size != info["bytes"]:
                return False
        except (OSError, KeyError, TypeError):
            return False
    return True
