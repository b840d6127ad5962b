"""line_account: a Markdown file's conservation account, line by line.

Every non-blank line of the file is inside some chunk's `lines` (kept or omitted), or in
a span the reader skipped with its reason (a heading, front matter, a page number), or it
is unaccounted: text lost with no reason, which the account lists by line number so the
reports can say "Conserved: NO, 130 lines unaccounted for". The chunks are the finished
ones, so a piece lost anywhere between the reader and the finish shows here too.
"""

from __future__ import annotations

from collections.abc import Iterable

from notechunk.chunk import Chunk, LineAccount, SkippedLines


def split_lines(text: str) -> list[str]:
    """The file's lines as the reader numbers them (1-based: line n is `lines[n - 1]`)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def line_account(
    text: str, source: str, chunks: Iterable[Chunk], skipped: Iterable[SkippedLines]
) -> LineAccount:
    """The account of one Markdown file's `text` against its finished `chunks` and the
    spans its reader `skipped`; a skipped span inside a chunk counts as in the chunk."""
    lines = split_lines(text)
    n = len(lines)
    state = bytearray(n + 2)  # 0: not held, 1: in a chunk, 2: skipped
    for c in chunks:
        span = c.lines
        if span is not None:
            lo, hi = max(span[0], 1), min(span[1], n)
            state[lo : hi + 1] = b"\x01" * max(hi - lo + 1, 0)
    kept: list[SkippedLines] = []
    for s in sorted(skipped, key=lambda s: (s.first, s.last, s.reason)):
        lo, hi = max(s.first, 1), min(s.last, n)
        outside = False
        for k in range(lo, hi + 1):
            if state[k] != 1:
                state[k] = 2
                outside = outside or bool(lines[k - 1].strip())
        if outside:
            kept.append(s)
    nonblank = [k for k in range(1, n + 1) if lines[k - 1].strip()]
    return LineAccount(
        source=source,
        lines=len(nonblank),
        in_chunks=sum(1 for k in nonblank if state[k] == 1),
        skipped_lines=sum(1 for k in nonblank if state[k] == 2),
        skipped=tuple(kept),
        unaccounted=tuple(k for k in nonblank if state[k] == 0),
    )
