"""One sheet's rows, after its header, into row pieces and discarded rows (SPEC §1.2).

`SheetRows` is fed the rows above the header (each non-blank one a discarded
`above_header` row) and then the body; it keeps the figures of the conservation invariant
(`Tally`), the group context (`groups.GroupTracker`) and the column names (widened when a
row is wider than the header). Each body row is, in this order: a `repeated_header` (it
repeats a row of the header zone, as a printed report does on every page), a skip rule's
discarded row (`skip.skip_reason`), or a piece (template, else `Header: value` fallback;
a row whose every cell is cleaned away, as a mnemonic or a tag, is discarded
`empty_after_cleaning`, so no row becomes an empty chunk).
Rows past `sheets.max_rows` are only counted (`unread`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from notechunk.chunk import DiscardedRow, Piece
from notechunk.config import Config, Template
from notechunk.sheets.groups import GroupTracker
from notechunk.sheets.header import Header, labels, widen
from notechunk.sheets.model import SheetRow
from notechunk.sheets.skip import CellKinds, Skip, skip_reason
from notechunk.sheets.templates import BoundTemplate, apply, bind, fallback_text


@dataclass(slots=True)
class Tally:
    """One sheet's running figures (mutable, local to one `SheetRows`)."""

    data: int = 0
    blank: int = 0
    chunks: int = 0
    discarded: int = 0
    unread: int = 0
    first_unread: int = 0


def row_key(cells: tuple[str, ...]) -> tuple[str, ...]:
    """A row's cells compared as a person would: spacing normalised, trailing blanks cut."""
    out = [" ".join(c.split()) for c in cells]
    while out and not out[-1]:
        out.pop()
    return tuple(out)


class SheetRows:
    """Turns one sheet's rows into chunks and discarded rows, keeping the group context."""

    def __init__(
        self,
        sheet: str,
        rel: str,
        cfg: Config,
        header: Header,
        template: Template | None,
        zone: dict[tuple[str, ...], int],
        discarded: list[DiscardedRow],
        tally: Tally,
        title: str | None = None,
    ) -> None:
        self.sheet, self.rel, self.cfg, self.header = sheet, rel, cfg, header
        self.context = (title,) if title else ()  # the sheet's title: every row's context
        self.zone, self.discarded, self.t = zone, discarded, tally
        self.pieces: list[Piece] = []  # the row pieces not yet taken (`take`)
        self.taken = 0  # row pieces taken before them
        self.names, self.made_up = header.names, header.made_up
        self.labels = labels(self.names, self.made_up)
        self.template = template
        self.bound: BoundTemplate | None = (
            bind(template, list(self.names)) if template is not None else None
        )
        self.groups = GroupTracker()
        self.zone_firsts = {key[0] for key in zone}  # a cheap test before row_key
        self.below = 0  # non-blank rows read below the header
        self.kinds = CellKinds()  # this sheet's cell kinds, remembered

    def _fit(self, row: SheetRow) -> None:
        """Name the columns of a row wider than the header ("Column 7", ...)."""
        if len(row.cells) > len(self.names):
            self.names, self.made_up = widen(self.names, self.made_up, len(row.cells))
            self.labels = labels(self.names, self.made_up)
            if self.template is not None:
                self.bound = bind(self.template, list(self.names))

    def above_header(self, row: SheetRow) -> None:
        if not any(row.cells):
            self.t.blank += 1
            return
        self.t.data += 1
        self._fit(row)
        where = f"row {self.header.row}" if self.header.row is not None else "the table"
        self._discard(
            row,
            Skip(
                rule="above_header",
                measured=row.number,
                threshold=f"header at {where}",
                explanation=f"above the header ({where}) and not part of it: a title or note",
            ),
        )

    def body(self, rows: Iterator[SheetRow], every: int = 0) -> Iterator[list[Piece]]:
        """Read the rows below the header; every `every` row pieces (0: never), yield
        those that are final (`take`), so a long sheet leaves in blocks."""
        limit = self.cfg.sheets.max_rows
        below = 0
        for row in rows:
            if every and len(self.pieces) >= every and (ready := self.take()):
                yield ready
            if not any(row.cells):
                self.t.blank += 1
                continue
            if below >= limit:
                self.t.unread += 1
                self.t.first_unread = self.t.first_unread or row.number
                continue
            below += 1
            self.below = below
            self.t.data += 1
            self._row(row)

    def settle(self) -> None:
        self.groups.settle(self.pieces, self.discarded, self.taken)

    def take(self) -> list[Piece]:
        """The row pieces made since the last take whose group is final (all of them
        after `settle`), removed from the sheet."""
        held = self.groups.held_from()
        n = len(self.pieces) if held is None else held - self.taken
        out = self.pieces[:n]
        del self.pieces[:n]
        self.taken += n
        return out

    def _row(self, row: SheetRow) -> None:
        self._fit(row)
        repeats: int | None = None
        if " ".join(row.cells[0].split()) in self.zone_firsts:  # cells: never empty here
            repeats = self.zone.get(row_key(row.cells))
        if repeats is not None:
            skip: Skip | None = Skip(
                rule="repeated_header",
                measured=repeats,
                threshold="the rows down to the header",
                explanation=f"repeats row {repeats} (a page header repeated down a printed report)",
            )
        else:
            has_header = self.header.row is not None
            skip = skip_reason(row.cells, self.cfg, has_header=has_header, kinds_of=self.kinds)
        if skip is not None:
            first = self.below == 1
            at = len(self.discarded)
            skip = self.groups.discard(
                row.cells, skip, self.header.first_col, first=first, index=at
            )
            self._discard(row, skip)
            return
        flags = list(row.flags)
        text: str | None = None
        used: str | None = None
        if self.bound is not None:
            text, fallback_flag = apply(self.bound, row.cells)
            if text is None and fallback_flag:
                flags.append(fallback_flag)
            else:
                used = self.bound.name
        if text is None:
            text = fallback_text(self.labels, row.cells)
        if not text.strip():
            empty = Skip(
                rule="empty_after_cleaning",
                measured=0,
                threshold="some text left after mnemonic and tag removal",
                explanation="every cell is a mnemonic or a tag (clean_mnemonic_patterns, "
                "remove_generic_tags): no text is left",
            )
            self._discard(row, empty)
            return
        self.pieces.append(
            Piece(
                text=text,
                section_path=self.context,
                sheet=self.sheet,
                row=row.number,
                group=self.groups.chunk(self.taken + len(self.pieces)),
                flags=tuple(flags),
                template=used,
                full=len(row.cells) >= len(self.names) and all(row.cells),
            )
        )
        self.t.chunks += 1

    def _discard(self, row: SheetRow, skip: Skip) -> None:
        cut = [f for f in row.flags if f.startswith("cell_cut:")]
        explanation = skip.explanation + (f" ({', '.join(cut)})" if cut else "")
        self.discarded.append(
            DiscardedRow(
                source=self.rel,
                sheet=self.sheet,
                row=row.number,
                rule=skip.rule,
                cells=tuple((n, c) for n, c in zip(self.names, row.cells, strict=False) if c),
                measured=skip.measured,
                threshold=skip.threshold,
                explanation=explanation,
            )
        )
        self.t.discarded += 1
