"""QA lists cut to a person's size: each list file within `qa.max_file_bytes`.

A list that fits is written whole, in its usual order, so a small corpus's files are what
they always were. One that does not holds its most severe rows first, as many as fit, and
ends with a row that says how many are not listed and where they all are: the full list,
one JSON object a line, gzip-compressed next to it (`flagged.jsonl.gz`, ...), written only
when the list was cut. Nothing is lost: the counts are in metrics.json and summary.md.

`Capped` chooses while the rows stream past (a bounded heap of encoded rows: memory is the
budget, never the corpus); `cap_rows` does the same for a list already in memory.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from notechunk.io.jsonio import dumps

Row = dict[str, Any]
_TRAILER_ROOM = 1_024  # bytes kept free for the closing row that counts the rest


def json_item(row: object) -> bytes:
    """One item of a JSON list as `write_json` indents it (without its separator)."""
    return dumps(row, indent=2).replace("\n", "\n  ").encode("utf-8")


def json_list(items: Sequence[bytes]) -> bytes:
    """The bytes of `write_json` on the list whose items are `items` (`json_item`s)."""
    if not items:
        return b"[]\n"
    return b"[\n  " + b",\n  ".join(items) + b"\n]\n"


def full_name(name: str) -> str:
    """The compressed full list beside a capped file: flagged.json -> flagged.jsonl.gz."""
    return name.rsplit(".", 1)[0] + ".jsonl.gz"


def trailer(name: str, listed: int, more: int) -> Row:
    """The last object of a capped JSON list: how many rows are not in it and where."""
    return {
        "not_listed": more,
        "listed": listed,
        "full_list": f"qa/{full_name(name)}",
        "note": f"{listed} most severe rows listed; {more} more in qa/{full_name(name)}",
    }


def trailer_cell(name: str, more: int) -> str:
    """The one cell of a capped CSV's last row."""
    return f"# {more} more rows not listed (least severe); all in qa/{full_name(name)}"


def split_trailer(rows: list[Row]) -> tuple[list[Row], int]:
    """A loaded list's rows and how many were not listed (0 for a whole list)."""
    if rows and "not_listed" in rows[-1] and "id" not in rows[-1]:
        more = rows[-1]["not_listed"]
        return rows[:-1], more if isinstance(more, int) else 0
    return rows, 0


@dataclass(frozen=True, slots=True)
class Cut:
    """What a capped file holds: its rows' JSON items and CSV lines, most severe first
    when cut, and how many rows were left out (0: the whole list, in its order)."""

    items: list[bytes]
    lines: list[bytes]
    more: int


class Capped:
    """The rows of a list as they stream past, kept while their JSON fits the budget: past
    it, the least severe (and, among equals, the latest) is dropped. `add` takes the
    row's severity (higher: shown first), its JSON item and its CSV line."""

    def __init__(self, budget: int) -> None:
        self.budget = max(budget - _TRAILER_ROOM, 0)
        self.heap: list[tuple[int, int, bytes, bytes]] = []
        self.size = 0
        self.seq = 0
        self.more = 0

    def add(self, severity: int, item: bytes, line: bytes) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (severity, -self.seq, item, line))
        self.size += len(item) + 4
        while self.size > self.budget and self.heap:
            _, _, gone, _ = heapq.heappop(self.heap)
            self.size -= len(gone) + 4
            self.more += 1

    def result(self) -> Cut:
        if self.more:  # most severe first, then in the order they came
            kept = sorted(self.heap, key=lambda e: (-e[0], -e[1]))
        else:
            kept = sorted(self.heap, key=lambda e: -e[1])
        return Cut([e[2] for e in kept], [e[3] for e in kept], self.more)


def cap_rows(rows: Sequence[Row], severity: Sequence[int], budget: int) -> tuple[list[Row], int]:
    """`rows` whole when their JSON fits `budget`; else the most severe first (stable) as
    many as fit, and how many were left out."""
    sizes = [len(json_item(r)) + 4 for r in rows]
    room = max(budget - _TRAILER_ROOM, 0)
    if sum(sizes) <= room:
        return list(rows), 0
    order = sorted(range(len(rows)), key=lambda i: -severity[i])
    kept: list[Row] = []
    used = 0
    for i in order:
        if used + sizes[i] > room:
            break
        kept.append(rows[i])
        used += sizes[i]
    return kept, len(rows) - len(kept)
