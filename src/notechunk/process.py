"""Per-file work: a file's bytes and the config in, its finished chunks out.

`process_file` dispatches on the file's kind (Markdown or spreadsheet), cuts it into
pieces with that runner, and finishes them (`finish.finish_file`), so everything a file
contributes is complete before any corpus pass sees it. A bad file is a `FileError` in
its result, never an exception. `process_batch` is the unit of parallel work: one
segmenter and parser for many files, and the per-file cache around `process_file`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from notechunk.chunk import FileError, FileResult, Pieces
from notechunk.config import Config
from notechunk.discover import SourceFile
from notechunk.enrich import get_finder
from notechunk.enrich.names import NameFinder
from notechunk.errors import InputError
from notechunk.finish import finish_file
from notechunk.io.cache import Cache, file_key
from notechunk.limits import TimeLimitExceeded, time_limit
from notechunk.markdown import markdown_pieces
from notechunk.markdown.sections import BlockParser, make_block_parser
from notechunk.segment import get_segmenter
from notechunk.segment.base import Segmenter
from notechunk.sheets import process_sheet_file
from notechunk.textio import decode_text
from notechunk.tokens import TokenCounter, counter_for


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """A file's result and its cache key (None when the file could not be read)."""

    result: FileResult
    key: str | None


def failed(rel: str, stage: str, reason: str) -> FileResult:
    return FileResult(source=rel, errors=(FileError(source=rel, stage=stage, reason=reason),))


def process_markdown(
    rel: str,
    data: bytes,
    cfg: Config,
    segmenter: Segmenter,
    parser: BlockParser,
    tokens: TokenCounter | None = None,
    finder: NameFinder | None = None,
) -> FileResult:
    """One Markdown file's bytes to finished chunks."""
    try:
        decoded = decode_text(data, rel)
    except InputError as exc:
        return failed(rel, "read", exc.reason)
    limit = cfg.markdown.timeout_s
    try:
        with time_limit(limit):
            pieces = markdown_pieces(decoded.text, rel, cfg, segmenter, parser, tokens)
    except TimeLimitExceeded:
        return failed(
            rel, "chunk", f"timeout: chunking took longer than markdown.timeout_s = {limit:g} s"
        )
    if decoded.flags:
        pieces = replace(pieces, flags=(*pieces.flags, *decoded.flags))
    return FileResult(source=rel, chunks=finish_file(pieces, cfg, tokens, finder))


def process_sheet(
    path: Path, rel: str, cfg: Config, tokens: TokenCounter | None = None
) -> FileResult:
    """One spreadsheet file (read in an isolated worker, or streamed for CSV) to chunks."""
    res = process_sheet_file(path, rel, cfg)
    pieces = Pieces(source=rel, source_type="spreadsheet", pieces=tuple(res.pieces))
    return FileResult(
        source=rel,
        chunks=finish_file(pieces, cfg, tokens),
        discarded=tuple(res.discarded),
        reports=tuple(res.reports),
        errors=tuple(res.errors),
    )


def process_batch(
    files: list[SourceFile], cfg: Config, cache_root: Path | None, cfg_key: str
) -> list[FileOutcome]:
    """Process files in order; results without errors are cached under `cache_root`."""
    segmenter = get_segmenter(cfg.segmenter)
    parser = make_block_parser()
    tokens = counter_for(cfg.tokenizer)
    finder = get_finder(cfg.enrich.references_backend)
    cache = Cache(cache_root) if cache_root is not None else None
    out: list[FileOutcome] = []
    for f in files:
        try:
            data = f.path.read_bytes()
        except OSError as exc:
            reason = f"cannot read file ({exc.strerror or exc})"
            out.append(FileOutcome(failed(f.rel, "read", reason), None))
            continue
        key = file_key(data, f.rel, cfg_key)
        hit = cache.get(key) if cache is not None else None
        if hit is not None:
            out.append(FileOutcome(hit, key))
            continue
        if f.kind == "markdown":
            result = process_markdown(f.rel, data, cfg, segmenter, parser, tokens, finder)
        else:
            del data  # the sheet reader streams the file itself
            result = process_sheet(f.path, f.rel, cfg, tokens)
        if cache is not None and not result.errors:
            cache.put(key, result)
        out.append(FileOutcome(result, key))
    return out
