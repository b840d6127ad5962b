"""Per-file work: one file's bytes and the config in, its finished chunks out.

`file_parts` is the one dispatch on a file's kind (Markdown or spreadsheet; `process_file`
joins its parts): it cuts the file into pieces with that kind's reader and finishes them
(`finish.finish_file`), so everything a file contributes is complete before any corpus
pass sees it. A bad file is a `FileError` in its result, never an exception. `Tools` are
what a worker loads once for many files (segmenter, block parser, token counter, name
finder); `process_batch` is the unit of parallel work, with the per-file cache around
`file_parts`. `plain_places` is the same dispatch for the eval's peers: a file as the
plain documents they are given.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from notechunk._proc import TimeLimitExceeded, time_limit
from notechunk.chunk import (
    Chunk,
    DiscardedRow,
    FileError,
    FileResult,
    LineAccount,
    Pieces,
    SheetReport,
)
from notechunk.config import Config
from notechunk.discover import TEXT_EXTENSIONS, SourceFile
from notechunk.enrich import get_finder
from notechunk.enrich.names import NameFinder
from notechunk.errors import InputError
from notechunk.finish import finish_file, hierarchy_title
from notechunk.io.cache import Cache, file_key, file_key_of, fits
from notechunk.markdown import markdown_pieces
from notechunk.markdown.account import line_account
from notechunk.markdown.plaintext import plain_as_markdown
from notechunk.markdown.sections import BlockParser, make_block_parser
from notechunk.segment import get_segmenter
from notechunk.segment.base import Segmenter
from notechunk.sheets.plain import plain_rows
from notechunk.sheets.runner import sheet_file_parts
from notechunk.textio import decode_text, open_regular, read_regular, read_text, source_lines
from notechunk.tokens import TokenCounter, counter_for


@dataclass(frozen=True, slots=True)
class Tools:
    """What per-file work loads once and reuses for every file of a batch."""

    segmenter: Segmenter
    parser: BlockParser
    tokens: TokenCounter | None
    finder: NameFinder

    @classmethod
    def load(cls, cfg: Config) -> Tools:
        return cls(
            get_segmenter(cfg.segmenter),
            make_block_parser(),
            counter_for(cfg.tokenizer),
            get_finder(cfg.enrich.references_backend),
        )


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """A file's result, its cache key (None when the file could not be read) and a note
    for a person (a damaged cache entry redone), or None."""

    result: FileResult
    key: str | None
    note: str | None = None
    more: bool = False  # a part of the file's result, more parts follow (`file_outcomes`)


def failed(rel: str, stage: str, reason: str) -> FileResult:
    return FileResult(source=rel, errors=(FileError(source=rel, stage=stage, reason=reason),))


def process_markdown(
    rel: str,
    data: bytes,
    cfg: Config,
    tools: Tools,
    *,
    hierarchy: bool = False,
    refs: tuple[tuple[str, str], ...] = (),
) -> FileResult:
    """One Markdown file's bytes to finished chunks (`hierarchy`: its file name is its
    title path, `finish.hierarchy_title`; `refs`: the Logseq blocks of the corpus it
    refers to, `SourceFile.refs`); a `.txt` note is plain text, never code
    (`markdown.plaintext`)."""
    try:
        decoded = decode_text(data, rel)
    except InputError as exc:
        return failed(rel, "read", exc.reason)
    limit = cfg.markdown.timeout_s
    try:
        with time_limit(limit):
            text = decoded.text
            if PurePosixPath(rel).suffix.lower() in TEXT_EXTENSIONS:  # a .txt note
                text = plain_as_markdown(text)
            pieces = markdown_pieces(
                text, rel, cfg, tools.segmenter, tools.parser, tools.tokens, dict(refs)
            )
        if decoded.flags:
            pieces = replace(pieces, flags=(*pieces.flags, *decoded.flags))
        if hierarchy:
            pieces = replace(pieces, title=hierarchy_title(rel, pieces.title))
        chunks = finish_file(pieces, cfg, tools.tokens, tools.finder)
    except TimeLimitExceeded:
        return failed(
            rel, "chunk", f"timeout: chunking took longer than markdown.timeout_s = {limit:g} s"
        )
    except MemoryError:  # this note alone: the next one gets the memory back
        return failed(rel, "chunk", "out of memory while chunking this note")
    except RecursionError:
        return failed(rel, "chunk", "structure nested too deeply to chunk")
    account = line_account(decoded.text, rel, chunks, pieces.skipped)
    return FileResult(source=rel, chunks=chunks, accounts=(account,))


def markdown_limit(cfg: Config) -> int:
    """The most bytes a Markdown file may have (`markdown.max_file_mb`)."""
    return cfg.markdown.max_file_mb << 20


def read_input(f: SourceFile, cfg: Config, cfg_key: str) -> tuple[bytes | None, str]:
    """A file's bytes (Markdown: at most `markdown.max_file_mb`; a sheet: None, hashed
    block by block) and its cache key. Raises `InputError` for a file that is not a
    regular file (a FIFO swapped in since discovery is refused, never waited on), too
    large or unreadable."""
    if f.hierarchy:  # the same bytes give another title in a vault
        cfg_key = f"{cfg_key}:hierarchy"
    if f.kind == "markdown":
        data = read_regular(f.path, f.rel, markdown_limit(cfg))
        return data, file_key(data, f.rel, refs_key(cfg_key, f.refs))
    with open_regular(f.path, f.rel) as fh:
        try:
            return None, file_key_of(fh, f.rel, cfg_key)
        except OSError as exc:
            raise InputError(f.rel, f"cannot read file ({exc.strerror or exc})") from None


def process_sheet(
    path: Path, rel: str, cfg: Config, tokens: TokenCounter | None = None
) -> FileResult:
    """One spreadsheet file (read in an isolated worker, or streamed for CSV) to chunks."""
    return join_parts(rel, sheet_parts(path, rel, cfg, tokens))


SHEET_PART = 8_192
"""Rows a sheet's result leaves in (`sheet_parts`): a million-row sheet is never held."""


def sheet_parts(
    path: Path, rel: str, cfg: Config, tokens: TokenCounter | None = None, every: int = 0
) -> Iterator[FileResult]:
    """A spreadsheet's result in parts: chunks of about `every` rows (0: a sheet at a
    time) finished as they are read, the discarded rows, reports and errors last."""
    # each part finished alone: a row's id hashes its sheet and row, unique in the file,
    # so no id of one part can meet one of another (finish_file's suffixes are for windows)
    for part in sheet_file_parts(path, rel, cfg, every):
        pieces = Pieces(source=rel, source_type="spreadsheet", pieces=tuple(part.pieces))
        yield FileResult(
            source=rel,
            chunks=finish_file(pieces, cfg, tokens) if part.pieces else (),
            discarded=tuple(part.discarded),
            reports=tuple(part.reports),
            errors=tuple(part.errors),
        )


def join_parts(rel: str, parts: Iterable[FileResult]) -> FileResult:
    """One file's result from its parts, in order."""
    chunks: list[Chunk] = []
    discarded: list[DiscardedRow] = []
    reports: list[SheetReport] = []
    errors: list[FileError] = []
    accounts: list[LineAccount] = []
    for r in parts:
        chunks += r.chunks
        discarded += r.discarded
        reports += r.reports
        errors += r.errors
        accounts += r.accounts
    return FileResult(
        source=rel,
        chunks=tuple(chunks),
        discarded=tuple(discarded),
        reports=tuple(reports),
        errors=tuple(errors),
        accounts=tuple(accounts),
    )


def process_file(f: SourceFile, data: bytes | None, cfg: Config, tools: Tools) -> FileResult:
    """One file to its result, by its kind. `data` is the file's bytes for a Markdown file
    (None: read here); a spreadsheet's reader opens the file itself, in a stream."""
    return join_parts(f.rel, file_parts(f, data, cfg, tools))


def file_parts(
    f: SourceFile, data: bytes | None, cfg: Config, tools: Tools, every: int = 0
) -> Iterator[FileResult]:
    """`process_file` in parts: a sheet's rows in blocks of about `every` (`sheet_parts`;
    0: a sheet at a time), a Markdown file whole."""
    if f.kind == "spreadsheet":
        yield from sheet_parts(f.path, f.rel, cfg, tools.tokens, every)
        return
    if data is None:
        try:
            data = read_regular(f.path, f.rel, markdown_limit(cfg))
        except InputError as exc:
            yield failed(f.rel, "read", exc.reason)
            return
    yield process_markdown(f.rel, data, cfg, tools, hierarchy=f.hierarchy, refs=f.refs)


def refs_key(cfg_key: str, refs: tuple[tuple[str, str], ...]) -> str:
    """The key part a file's block references add: the text of each block it shows."""
    if not refs:
        return cfg_key
    h = hashlib.sha256(cfg_key.encode())
    for uuid, text in refs:
        h.update(f"{uuid}\x00{text}\x00".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class Plain:
    """A file, or one row of a sheet, as plain text (what a peer chunker is given), with a
    note on how it was read (a decoding fallback) or None."""

    source: str
    text: str
    note: str | None = None


def plain_places(f: SourceFile, cfg: Config) -> Iterator[Plain]:
    """The file as plain documents, by its kind: a Markdown file whole (decoded as `run`
    decodes it), a sheet row by row as `header: value` lines. Raises `InputError` or
    `OSError` when the file cannot be read (after the rows read before)."""
    if f.kind == "spreadsheet":
        for source, text in plain_rows(f.path, f.rel, cfg):
            yield Plain(source, text)
        return
    decoded = read_text(f.path, f.rel)
    yield Plain(f.rel, decoded.text, "decoded as cp1252 (not UTF-8)" if decoded.fell_back else None)


def process_files(files: Iterable[SourceFile], cfg: Config) -> Iterator[FileResult]:
    """Each file's result in order, in this process, without a cache (the API's path)."""
    tools = Tools.load(cfg)
    for f in files:
        yield process_file(f, None, cfg, tools)


def process_batch(
    files: list[SourceFile], cfg: Config, cache_root: Path | None, cfg_key: str
) -> list[FileOutcome]:
    """Process files in order, each result whole; results without errors are cached
    under `cache_root` (`file_outcomes`)."""
    out: list[FileOutcome] = []
    parts: list[FileResult] = []
    for o in file_outcomes(files, cfg, cache_root, cfg_key):
        parts.append(o.result)
        if not o.more:
            whole = parts[0] if len(parts) == 1 else join_parts(o.result.source, parts)
            out.append(FileOutcome(whole, o.key, o.note))
            parts = []
    return out


def file_outcomes(
    files: Iterable[SourceFile],
    cfg: Config,
    cache_root: Path | None,
    cfg_key: str,
    every: int = 0,
) -> Iterator[FileOutcome]:
    """Each file's outcome in order, a sheet's in parts of about `every` rows (0: whole)
    marked `more` but the last, so the caller can let each part go; a result without
    errors is cached under `cache_root` as its parts pass (`Cache.writer`)."""
    tools = Tools.load(cfg)
    cache = Cache(cache_root) if cache_root is not None else None
    for f in files:
        try:
            data, key = read_input(f, cfg, cfg_key)
        except InputError as exc:
            yield FileOutcome(failed(f.rel, "read", exc.reason), None)
            continue
        note = None
        if cache is not None:
            hit, why = cache.load(key)
            if hit is not None:
                why = fits(hit, f.rel, _line_count(data))
                if why is None:
                    yield FileOutcome(hit, key)
                    continue
            if why is not None:
                note = f"{cache.path(key)}: cache entry of {f.rel} not used ({why}); redone"
        with ExitStack() as stack:
            entry = stack.enter_context(cache.writer(key, f.rel)) if cache is not None else None
            parts = file_parts(f, data, cfg, tools, every)
            del data
            part = next(parts)
            for later in parts:
                if entry is not None:
                    entry.add(part)
                yield FileOutcome(part, key, more=True)
                part = later
            if entry is not None:
                entry.add(part)
            yield FileOutcome(part, key, note)


def _line_count(data: bytes | None) -> int | None:
    """Lines of a Markdown file as its chunks count them (None: a sheet, or not text)."""
    if data is None:
        return None
    try:
        text = decode_text(data, "").text
    except InputError:
        return None
    return len(source_lines(text))
