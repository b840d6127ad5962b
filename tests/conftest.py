"""Shared fixtures: a tiny regex segmenter (so Markdown tests do not depend on a backend)
and the location of ../shared/corpora, which tests skip without."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from notechunk.segment.base import Span, spans_from_cuts

sys.path.insert(0, str(Path(__file__).parent))  # tests/qa_fixtures.py and helpers

SHARED = Path(__file__).resolve().parents[2] / "shared"
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
