"""The Python API: what `notechunk run` does, and the same chunks in memory.

`run` is the CLI's run (OUT written, a `RunResult` back); `chunk_file` and
`chunk_markdown_text` give one file's or one string's chunks without writing anything;
`load` reads an OUT folder back. In-memory results are what `run` would ship for that
input: omitted chunks (context-dead, spreadsheet fragments, tables of contents) and
duplicates are left out unless `include_omitted=True`; `retrieval_score` is None (it is a
corpus pass, measured by `run`). Every failure is a `NotechunkError` (never SystemExit).

`config` is a `Config`, a path to a TOML file, or None: the defaults (for `run`,
`SRC/notechunk.toml` when present, as the CLI does).

>>> from notechunk import chunk_markdown_text
>>> note = "# Writs\\n\\n## Habeas Corpus\\n\\nHabeas corpus protects against unlawful detention."
>>> [c.embed_text for c in chunk_markdown_text(note, source="polity/writs.md")]
['writs > Habeas Corpus\\nHabeas corpus protects against unlawful detention.']
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from notechunk.chunk import Chunk, FileError
from notechunk.config import Config, load_config, resolve_config
from notechunk.errors import InputError, MissingExtra, UsageError

if TYPE_CHECKING:
    from notechunk.engines import Progress
    from notechunk.job import RunResult

ConfigLike = Config | str | os.PathLike[str] | None
CHUNKS_JSONL = "chunks.jsonl.gz"
CHUNKS_PARQUET = "chunks.parquet"


def run(
    src: str | os.PathLike[str],
    out: str | os.PathLike[str],
    config: ConfigLike = None,
    *,
    workers: int = 1,
    segmenter: str | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    engine: str | None = None,
    ray_address: str | None = None,
) -> RunResult:
    """Chunk the notes under `src` into the folder `out`, as `notechunk run` does.

    Files that fail are listed in `result.errors` (and OUT/qa/errors.json); the rest is
    written. `segmenter` overrides the config's; `use_cache=False` is `--no-cache`;
    `engine="ray"` runs on Ray (`--engine ray`; the cluster at `ray_address`, else
    RAY_ADDRESS, else a local instance of `workers` CPUs).

    >>> import tempfile, notechunk
    >>> from notechunk.data import SAMPLE_DIR
    >>> with tempfile.TemporaryDirectory() as out:
    ...     result = notechunk.run(SAMPLE_DIR, out)
    >>> result.exit_code, result.files, result.metrics.surviving > 0
    (0, 21, True)
    """
    from notechunk.discover import kind_of
    from notechunk.job import run as run_job
    from notechunk.segment import get_segmenter
    from notechunk.tokens import counter_for

    src_path, out_path = _path(src, "src"), _path(out, "out")
    if not isinstance(workers, int) or isinstance(workers, bool):
        raise UsageError(f"workers must be a whole number, got {type(workers).__name__}")
    for name, value in (("segmenter", segmenter), ("engine", engine), ("ray_address", ray_address)):
        if value is not None and not isinstance(value, str):
            raise UsageError(f"{name} must be a string, got {type(value).__name__}")
    if not src_path.exists():
        raise UsageError(f"{src_path}: no such file or folder")
    if not src_path.is_dir() and kind_of(src_path) is None:
        raise UsageError(f"{src_path}: not a folder, a Markdown or a spreadsheet file")
    if workers < 1:
        raise UsageError("workers must be at least 1")
    cfg = _config(config, src_path).with_segmenter(segmenter)
    if engine is not None:
        cfg = cfg.with_overrides(engine=engine)
    get_segmenter(cfg.segmenter)  # a bad backend or tokenizer fails before any work
    counter_for(cfg.tokenizer)
    return run_job(
        src_path,
        out_path,
        cfg,
        workers=workers,
        progress=progress,
        use_cache=use_cache,
        ray_address=ray_address,
    )


def chunk_file(
    path: str | os.PathLike[str], config: ConfigLike = None, *, include_omitted: bool = False
) -> list[Chunk]:
    """The chunks of one Markdown or spreadsheet file, in file order; `source` is its name.

    A file that cannot be read (or a sheet of it) raises `InputError` with the reason.

    >>> from notechunk import chunk_file
    >>> from notechunk.data import SAMPLE_DIR
    >>> rows = chunk_file(SAMPLE_DIR / "sheets" / "passes.xlsx")
    >>> rows[0].source, rows[0].sheet, rows[0].row
    ('passes.xlsx', 'Passes', 3)
    """
    from notechunk.corpus.glossary import expand_in_memory
    from notechunk.discover import SourceFile, kind_of, source_name
    from notechunk.perfile import process_files

    file = _path(path, "path")
    name = source_name(file.name)
    kind = kind_of(file)
    if kind is None:
        kinds = "not a Markdown, text or spreadsheet file (.md, .txt, .xlsx, .csv, ...)"
        raise InputError(name, kinds)
    if not file.is_file():
        raise InputError(source_name(str(file)), "no such file")
    cfg = _config(config, None)
    one = SourceFile(path=file, rel=name, kind=kind, hierarchy=False)  # a file, no vault
    (result,) = expand_in_memory([next(process_files([one], cfg))], cfg)
    _raise_errors(result.errors)
    return _shipped(result.chunks, cfg, include_omitted)


def chunk_markdown_text(
    text: str,
    *,
    source: str = "<text>",
    config: ConfigLike = None,
    include_omitted: bool = False,
) -> list[Chunk]:
    """The chunks of a Markdown string, as if it were the file `source`.

    The document's title (the start of every `embed_text`) is its front matter's `title`,
    else the name of `source`; the default `"<text>"` names no title.

    >>> from notechunk import Config, chunk_markdown_text
    >>> cfg = Config().with_overrides(markdown={"window_max_words": 6})
    >>> [c.text for c in chunk_markdown_text("One two three. Four five six. Seven.", config=cfg)]
    ['One two three. Four five six.', 'Four five six. Seven.']
    """
    from notechunk.finish import finish_file
    from notechunk.markdown import markdown_pieces
    from notechunk.perfile import Tools

    if not isinstance(text, str):
        raise UsageError(f"text must be a string, got {type(text).__name__}")
    if not isinstance(source, str):
        raise UsageError(f"source must be a string, got {type(source).__name__}")
    if "\x00" in text:  # as `run` refuses a file with NUL bytes
        raise InputError(source, "binary content (NUL characters), not a text")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            source, f"not valid Unicode text (a lone surrogate at {exc.start})"
        ) from None
    cfg = _config(config, None)
    tools = Tools.load(cfg)
    pieces = markdown_pieces(text, source, cfg, tools.segmenter, tools.parser, tools.tokens)
    if pieces.title is None and source.startswith("<") and source.endswith(">"):
        pieces = replace(pieces, title="")
    chunks = finish_file(pieces, cfg, tools.tokens, tools.finder)
    return _shipped(chunks, cfg, include_omitted)


def load(out: str | os.PathLike[str]) -> Iterator[Chunk]:
    """The chunks a run shipped, in output order: OUT's `chunks.parquet` when present (and
    pyarrow is installed), else its `chunks.jsonl.gz`. `out` may also name either file.

    An OUT folder is read only when it is one complete run: the file read must match its
    size and sha256 in OUT's manifest, so the chunks of an earlier run (a stale file, a
    publish cut short) are refused in one line rather than served.

    >>> import tempfile, notechunk
    >>> from notechunk.data import SAMPLE_DIR
    >>> with tempfile.TemporaryDirectory() as out:
    ...     _ = notechunk.run(SAMPLE_DIR / "polity", out)
    ...     sorted({c.source for c in notechunk.load(out)})[:2]
    ['directive-principles.md', 'fundamental-rights.md']
    """
    from notechunk.io.jsonio import iter_chunks_gz
    from notechunk.io.publish import current_dir, file_sha256, read_manifest

    path = _path(out, "out")
    has_arrow = importlib.util.find_spec("pyarrow") is not None
    if path.is_file():
        if path.suffix != ".parquet":
            return _guarded(iter_chunks_gz(path), path)
        if not has_arrow:
            raise MissingExtra(f"reading {path}", "pyarrow", "parquet")
        return _guarded(_read_parquet(path), path)
    if not path.is_dir():
        raise InputError(str(path), "no such output folder")
    run = current_dir(path)
    manifest = read_manifest(path)
    _check_schema(path, manifest.schema)
    parquet, jsonl = run / CHUNKS_PARQUET, run / CHUNKS_JSONL
    if parquet.is_file() and has_arrow:
        chosen, chunks = parquet, _read_parquet
    elif jsonl.is_file():
        chosen, chunks = jsonl, iter_chunks_gz
    elif parquet.is_file():
        raise MissingExtra(f"reading {parquet}", "pyarrow", "parquet")
    else:
        raise InputError(
            str(path), f"not a notechunk output (no {CHUNKS_JSONL} or {CHUNKS_PARQUET})"
        )
    recorded = manifest.files.get(chosen.name)
    try:
        same = recorded is not None and recorded == (chosen.stat().st_size, file_sha256(chosen))
    except OSError as exc:
        raise InputError(str(path), f"cannot read {chosen.name} ({exc.strerror or exc})") from None
    if not same:
        why = (
            "no manifest.json"
            if not manifest.files
            else f"{chosen.name} is not the file its manifest.json records"
        )
        raise InputError(str(path), f"not one complete notechunk run ({why}): run notechunk again")
    return _guarded(chunks(chosen), path)


def _guarded(chunks: Iterator[Chunk], path: Path) -> Iterator[Chunk]:
    """`chunks`, with a damaged file (torn gzip, a line that is not a chunk) raised as one
    `InputError` naming it, never the reader's own exception."""
    import zlib

    import msgspec

    try:
        yield from chunks
    except (OSError, EOFError, zlib.error, ValueError, KeyError, TypeError) as exc:
        raise InputError(str(path), f"damaged chunks file ({_short(exc)})") from None
    except msgspec.MsgspecError as exc:
        raise InputError(str(path), f"damaged chunks file ({_short(exc)})") from None


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:120]
    return text or type(exc).__name__


def _check_schema(out: Path, schema: int) -> None:
    """An OUT written by a newer notechunk (a chunk record this version does not know) is
    refused in one line rather than read wrong."""
    from notechunk.chunk import SCHEMA_VERSION

    if schema > SCHEMA_VERSION:
        raise InputError(
            str(out),
            f"written by a newer notechunk (chunk schema {schema}; this one reads "
            f"{SCHEMA_VERSION}): upgrade notechunk",
        )


def is_output(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is an OUT folder (it holds chunks.jsonl.gz or chunks.parquet)."""
    p = _path(path, "path")
    return p.is_dir() and ((p / CHUNKS_JSONL).is_file() or (p / CHUNKS_PARQUET).is_file())


def chunks_from(path: str | os.PathLike[str], config: ConfigLike = None) -> Iterator[Chunk]:
    """An OUT folder's chunks (`load`), or the chunks of the notes at `path`, made in memory
    file by file (what the LangChain loader and the LlamaIndex reader yield)."""
    if is_output(path):
        return load(path)
    return iter_chunks(path, config)


def iter_chunks(src: str | os.PathLike[str], config: ConfigLike = None) -> Iterator[Chunk]:
    """The chunks `run` would ship for `src` (a folder or one file), made in memory and
    yielded file by file: Markdown files first, then spreadsheets, as in chunks.jsonl.gz,
    without a retrieval score. With `enrich.acronyms` (the default) every file is chunked
    before the first is yielded: the glossary needs the whole corpus. Nothing is written.
    A file that fails raises `InputError` when its turn comes (a run would record it in
    qa/errors.json and go on)."""
    from notechunk.corpus.blockrefs import link_block_refs
    from notechunk.corpus.dedupe import dedupe_key, key_hash
    from notechunk.corpus.glossary import expand_in_memory
    from notechunk.discover import discover
    from notechunk.perfile import markdown_limit, process_files

    root = _path(src, "src")
    if not root.exists():
        raise UsageError(f"{root}: no such file or folder")
    cfg = _config(config, root)
    found = link_block_refs(discover(root), markdown_limit(cfg))

    def generate() -> Iterator[Chunk]:
        _raise_errors(found.errors)
        ordered = sorted(found.files, key=lambda f: f.kind != "markdown")
        seen: set[tuple[int, int]] = set()
        results = process_files(ordered, cfg)
        if cfg.enrich.acronyms:
            results = iter(expand_in_memory(list(results), cfg))
        for result in results:
            _raise_errors(result.errors)
            for chunk in result.chunks:
                key = key_hash(dedupe_key(chunk, cfg.dedupe))
                if not chunk.omit and key not in seen:
                    seen.add(key)
                    yield chunk

    return generate()


def _config(config: ConfigLike, src: Path | None) -> Config:
    if isinstance(config, Config):
        return config
    if config is None:
        return resolve_config(src, None)[0] if src is not None else Config()
    return load_config(_path(config, "config"))


def _path(value: object, what: str) -> Path:
    """An argument that names a file or folder, as a Path; anything else a `UsageError`."""
    if not isinstance(value, (str, os.PathLike)):
        raise UsageError(f"{what} must be a path (str or os.PathLike), got {type(value).__name__}")
    path = Path(value)
    if "\x00" in str(path):
        raise UsageError(f"{what}: a path cannot hold a NUL character")
    return path


def _shipped(chunks: Iterable[Chunk], cfg: Config, include_omitted: bool) -> list[Chunk]:
    from notechunk.corpus.dedupe import dedupe

    marked = dedupe(list(chunks), cfg.dedupe)
    return marked if include_omitted else [c for c in marked if not c.omit]


def _raise_errors(errors: Iterable[FileError]) -> None:
    listed = list(errors)
    if listed:
        first, rest = listed[0], listed[1:]
        also = f" (also: {'; '.join(e.message() for e in rest)})" if rest else ""
        raise InputError(first.source, first.reason + also)


def _read_parquet(path: Path) -> Iterator[Chunk]:
    import pyarrow.parquet as pq

    for batch in pq.ParquetFile(path).iter_batches(batch_size=1024):
        for row in batch.to_pylist():
            yield Chunk.from_json(row)
