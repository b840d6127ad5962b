"""Shared fixtures: a tiny regex segmenter (so Markdown tests do not depend on a backend)
and the location of ../shared/corpora, which tests skip without."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from notechunk.segment.base import Span, spans_from_cuts

# ../shared beside the clone (CI), or beside a folder of git worktrees (development)
SHARED = next(
    (p / "shared" for p in Path(__file__).resolve().parents[1:] if (p / "shared").is_dir()),
    Path(__file__).resolve().parents[2] / "shared",
)
CORPORA = SHARED / "corpora"


class PeriodSegmenter:
    """Splits after . ! ? followed by whitespace, and at newlines: predictable for tests."""

    name = "period"

    def spans(self, text: str) -> list[Span]:
        cuts = [m.end() for m in re.finditer(r"[.!?](?=\s)|\n", text)]
        return spans_from_cuts(text, cuts)


@pytest.fixture
def seg() -> PeriodSegmenter:
    return PeriodSegmenter()


def corpus(*parts: str) -> Path:
    """A path under ../shared/corpora, or skip the test when it is absent."""
    path = CORPORA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present (../shared is not part of a fresh clone)")
    return path
