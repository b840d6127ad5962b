"""The `Segmenter` protocol: how every sentence-splitting backend is called.

A backend returns character spans, not strings, so callers can map a sentence back to
its position (and so to its source line). Invariants every backend keeps (tested for all):
spans are sorted and disjoint; `text[s:e]` has no leading or trailing whitespace and is
not empty; every non-whitespace character of `text` lies in exactly one span.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

Span = tuple[int, int]


@runtime_checkable
class Segmenter(Protocol):
    """A sentence splitter; `name` is what `segmenter = "..."` in the config selects."""

    name: str

    def spans(self, text: str) -> list[Span]:
        """Sentence spans of `text`, keeping the invariants in the module docstring."""
        ...


def split(segmenter: Segmenter, text: str) -> list[str]:
    """The sentences of `text` as strings."""
    return [text[s:e] for s, e in segmenter.spans(text)]


def trim_span(text: str, start: int, end: int) -> Span | None:
    """Shrink `[start, end)` to exclude surrounding whitespace; None when nothing is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def spans_from_cuts(text: str, cuts: list[int]) -> list[Span]:
    """Turn sorted cut offsets (sentence ends) into trimmed, non-empty spans covering `text`."""
    out: list[Span] = []
    start = 0
    for cut in [*cuts, len(text)]:
        if cut <= start:
            continue
        span = trim_span(text, start, cut)
        if span is not None:
            out.append(span)
        start = cut
    return out
