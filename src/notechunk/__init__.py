"""notechunk: study notes (Markdown, spreadsheets) into retrieval-ready chunks, with QA."""

from notechunk.chunk import Chunk, FileError, count_words
from notechunk.config import Config, load_config
from notechunk.errors import ConfigError, InputError, NotechunkError, UsageError

__all__ = [
    "Chunk",
    "Config",
    "ConfigError",
    "FileError",
    "InputError",
    "NotechunkError",
    "UsageError",
    "count_words",
    "load_config",
]

__version__ = "0.1.0"
