"""Context carried down (SPEC §1.2): a group header row names the rows below it.

A group header is a one-cell text row standing in the table's first column ("Jhelum
River" above its dams, "JK" above the parks of Jammu and Kashmir, "Unit II" above its
topics; `skip.group_label` says which rows qualify). It is still a discarded row (its
explanation says it was carried down) and its text becomes the `group` of every chunk
below it until the next group header.

One such row alone in the middle of a sheet is more often a row with its other cells
missing (a vocabulary word without its meaning) than a header: a candidate is confirmed
by a second candidate in the sheet, or by standing first below the header. An
unconfirmed candidate's group is taken back at the end of the sheet (`settle`).
"""

from __future__ import annotations

from dataclasses import replace

from notechunk.chunk import DiscardedRow, Piece
from notechunk.sheets.skip import Skip, group_label

CARRIED = "; carried down as the group of the rows below"


class GroupTracker:
    """One sheet's current group and what to take back if it stays unconfirmed.

    Mutable on purpose and local to one sheet; it only records list indexes of the
    row pieces and discarded rows it touched.
    """

    __slots__ = ("current", "_seen", "_confirmed", "_chunks", "_discarded")

    def __init__(self) -> None:
        self.current: str | None = None
        self._seen = 0
        self._confirmed = False
        self._chunks: list[int] = []
        self._discarded: int | None = None

    def discard(
        self, cells: tuple[str, ...], skip: Skip, first_col: int, *, first: bool, index: int
    ) -> Skip:
        """Called for each discarded row (its index in the discarded list); returns the
        skip to record, its explanation saying so when the row becomes the group."""
        label = group_label(cells, skip, first_col)
        if label is None:
            return skip
        self._seen += 1
        self._confirmed = self._confirmed or first or self._seen > 1
        if self._seen == 1:
            self._discarded = index
        self.current = label
        return replace(skip, explanation=skip.explanation + CARRIED)

    def chunk(self, index: int) -> str | None:
        """The group of a new row piece at `index` in the piece list."""
        if self.current is not None and not self._confirmed:
            self._chunks.append(index)
        return self.current

    def held_from(self) -> int | None:
        """The index of the first row piece whose group may still be taken back (None:
        none may): pieces before it are final and can leave the sheet."""
        if self._confirmed or not self._chunks:
            return None
        return self._chunks[0]

    def settle(self, pieces: list[Piece], discarded: list[DiscardedRow], base: int = 0) -> None:
        """At the end of the sheet: take back a group that stayed unconfirmed (`pieces`
        holds the row pieces from index `base` on: those before it have left)."""
        held, self._chunks = self._chunks, []  # settled: every piece is final
        if self._confirmed or self._discarded is None:
            return
        for i in held:
            pieces[i - base] = replace(pieces[i - base], group=None)
        row = discarded[self._discarded]
        discarded[self._discarded] = replace(row, explanation=row.explanation.removesuffix(CARRIED))
