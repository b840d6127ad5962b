"""notechunk: study notes (Markdown, spreadsheets) into retrieval-ready chunks, with QA.

The public API is `__all__`: `run` (the CLI's run), `chunk_file` and `chunk_markdown_text`
(chunks in memory), `load` (read an OUT folder back), `Config`, `Chunk`, `RunResult` and
the error tree (`NotechunkError` and below). Importing the package stays light: `run` and
friends load the job when first used. Adapters for LangChain and LlamaIndex live in
`notechunk.integrations` (each an extra).
"""

from __future__ import annotations

import typing

from notechunk._version import __version__
from notechunk.chunk import Chunk, FileError
from notechunk.config import Config
from notechunk.errors import (
    ConfigError,
    InputError,
    MissingExtra,
    NotechunkError,
    OutputError,
    UnsupportedInput,
    UsageError,
)

if typing.TYPE_CHECKING:
    from notechunk.api import chunk_file, chunk_markdown_text, load, run
    from notechunk.job import RunResult

__all__ = [
    "Chunk",
    "Config",
    "ConfigError",
    "FileError",
    "InputError",
    "MissingExtra",
    "NotechunkError",
    "OutputError",
    "RunResult",
    "UnsupportedInput",
    "UsageError",
    "__version__",
    "chunk_file",
    "chunk_markdown_text",
    "load",
    "run",
]


_LAZY = {
    "run": "notechunk.api",
    "chunk_file": "notechunk.api",
    "chunk_markdown_text": "notechunk.api",
    "load": "notechunk.api",
    "RunResult": "notechunk.job",
}


def __getattr__(name: str) -> object:
    """The API functions, imported on first use (the CLI's `--help` needs none of them)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'notechunk' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
