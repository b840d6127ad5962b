"""The one configuration object: frozen per-stage parts, validated once when built.

`Config` (settings) holds a part per stage (parts), each number named as SPEC §2 names it;
`load_config`/`config_from_dict` build one from TOML, `resolve_config` finds the file,
`to_toml` dumps it (toml). `check` holds the value checks, `syntax` the template language.
"""

from notechunk.config.parts import (
    DEFAULT_CONTEXT_DEAD_PHRASES,
    ContextDeadConfig,
    DedupeConfig,
    EnrichConfig,
    MarkdownConfig,
    OutputConfig,
    QAConfig,
    QualityBands,
    QualityConfig,
    SheetsConfig,
    SkipConfig,
    Template,
    markdown_bands,
    sheet_bands,
)
from notechunk.config.settings import Config, config_from_dict, load_config
from notechunk.config.toml import CONFIG_FILENAME, resolve_config, to_toml

__all__ = [
    "CONFIG_FILENAME",
    "DEFAULT_CONTEXT_DEAD_PHRASES",
    "Config",
    "ContextDeadConfig",
    "DedupeConfig",
    "EnrichConfig",
    "MarkdownConfig",
    "OutputConfig",
    "QAConfig",
    "QualityBands",
    "QualityConfig",
    "SheetsConfig",
    "SkipConfig",
    "Template",
    "config_from_dict",
    "load_config",
    "markdown_bands",
    "resolve_config",
    "sheet_bands",
    "to_toml",
]
