"""What a finished run published, read as a user of OUT reads it: through OUT's links."""

from __future__ import annotations

from pathlib import Path

from notechunk.io.publish import current_dir

OWN = (".cache", ".runs", ".current", ".search", ".lock", ".notechunk-out", ".staging")


def published(out: Path) -> dict[str, bytes]:
    """Every file of OUT's current run by its path under OUT (`stages/x.jsonl`, whether OUT
    holds it in a generation behind its links or flat), without the cache, lock and
    generations: what two runs or two engines must agree on."""
    run = current_dir(out)
    return {
        p.relative_to(run).as_posix(): p.read_bytes()
        for p in sorted(run.rglob("*"))
        if p.is_file() and not (run == out and p.relative_to(out).parts[0] in OWN)
    }
