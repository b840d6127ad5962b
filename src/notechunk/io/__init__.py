"""Writing and reading files: JSON/JSONL/gzip (`jsonio`), the per-file cache (`cache`),
and how a run's outputs reach OUT (`publish`: lock, staging, manifest)."""
