"""The notechunk error tree. The CLI turns each into one line on stderr and an exit code.

NotechunkError
├── ConfigError        unusable config or arguments (exit 2)
├── UsageError         bad command-line use (exit 2)
├── InputError         one input file cannot be read (recorded, the run goes on)
│   └── UnsupportedInput  the file is not what its extension says
├── OutputError        the outputs cannot be written (disk full, read-only); the
                       previous run's outputs are kept (exit 1)
└── MissingExtra       an optional integration's package is not installed (also an ImportError)
"""

from __future__ import annotations


class NotechunkError(Exception):
    """Base of every error notechunk raises on purpose."""


class ConfigError(NotechunkError):
    """The configuration (TOML or flags) cannot be used."""


class UsageError(NotechunkError):
    """The command line cannot be used (missing folder, bad option value)."""


class InputError(NotechunkError):
    """One input file cannot be processed; `reason` is the one-line explanation."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class UnsupportedInput(InputError):
    """The file's content does not match its extension (an HTML page named .xlsx, say)."""


class OutputError(NotechunkError):
    """Writing the outputs failed (disk full, a read-only or foreign mount); OUT still holds
    the previous complete run."""


class MissingExtra(NotechunkError, ImportError):
    """An optional part needs a package that is not installed; the message names the
    `pip install 'notechunk[extra]'` that brings it."""

    def __init__(self, feature: str, package: str, extra: str) -> None:
        super().__init__(
            f"{feature} needs {package}, which is not installed: pip install 'notechunk[{extra}]'"
        )
        self.extra = extra
