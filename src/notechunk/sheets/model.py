"""What every sheet reader yields: a sheet's rows as display strings, streamed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetRow:
    """One row: its real 1-based number, its cells as display strings, per-cell notes, and
    the (first, last) column indexes of horizontally merged ranges that start in it."""

    number: int
    cells: tuple[str, ...]
    flags: tuple[str, ...] = ()
    merged: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class RawSheet:
    """A sheet's rows, streamed. `columns` names the columns when the format itself does
    (a card deck: `front`, `back`): then no header row is looked for, every row is data.
    `min_fields`: the fewest fields a row of this format needs when the format says so (an
    Anki export: 1, a cloze card is one field), else `sheets.min_fields` decides."""

    name: str
    visible: bool
    rows: Iterator[SheetRow]
    columns: tuple[str, ...] | None = None
    min_fields: int | None = None
