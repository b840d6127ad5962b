"""The package version: one place, read by the CLI, the cache key and the metadata."""

__version__ = "0.1.0"
