"""Early row skipping (SPEC §1.2): rules as plain data, checked before templating.

Precedence when several apply: structural > mostly_numeric > too_few_fields. Each rule
returns the measured figure and the threshold it was compared with, so the discarded-rows
report can show why a row went.

- structural: every non-empty cell is a number or a structural label ("Chapter 1",
  "Unit II", "Part A", "Total", "S.No."), and at least one is a label.
- mostly_numeric: at least `mostly_numeric_share` of the non-empty cells are numbers,
  percentages, currency amounts or dates, and (`skip.mostly_numeric = "label"`) no cell
  is a text label or the sheet has no header: a state with its GDP by year is a fact once
  its headers name the years. `"ratio"` decides on the share alone.
- too_few_fields: fewer than `min_fields` non-empty cells.

A text label is a cell with a letter in it that is neither a number nor a placeholder
("NA", "n/a", "nil", "-"): "Kerala", ".Under 5 years", "WW100511SC".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from notechunk.config import Config

_NUMERIC = re.compile(
    r"""^\(?[-+−]?\s*(?:[₹$€£¥]|rs\.?|inr|usd|eur)?\s*[-+−]?
        (?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?\s*
        (?:%|[₹$€£¥]|crores?|lakhs?|cr|mn|bn|k|m)?\)?$""",
    re.I | re.X,
)
_DATE = re.compile(
    r"^(?:\d{4}-\d{2}(?:-\d{2})?(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}"
    r"|\d{4}-\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?)$"
)
_PLACEHOLDERS = frozenset(
    {"na", "n/a", "n.a.", "n.a", "nil", "none", "null", "nan", "tbd", "tba", "x", "xx"}
    | {"-", "--", "—", "–", ".", "..", "...", "?", "*"}
)
_STRUCTURAL = re.compile(
    r"""^(?:(?:chapter|unit|part|section|module|lesson|topic|book|volume|vol\.?|ch\.?)
           \s*[-:.#]?\s*(?:\d+|[ivxlcdm]+|[a-z])[.:)]?
        |(?:grand\s+|sub-?\s*)?total[s:]?
        |s\.?\s?no\.?|sr\.?\s?no\.?|sl\.?\s?no\.?|serial\s+no\.?|no\.)$""",
    re.I | re.X,
)


def is_numeric(value: str) -> bool:
    """A number, percentage, currency amount or date, as a display string."""
    v = value.strip()
    if not v or (v[0].isalpha() and v[:2].lower() not in _CURRENCY_STARTS):
        return False
    return bool(_NUMERIC.match(v) or _DATE.match(v))


STRUCTURAL, NUMERIC = 1, 2  # bits of a cell's kind
MEMO_CHARS = 100  # cells up to this long have their kind remembered (`CellKinds`)
MEMO_SIZE = 1 << 14  # at most so many cells a sheet


def cell_kind(value: str) -> int:
    """The `STRUCTURAL` and `NUMERIC` bits of one cell."""
    return STRUCTURAL * is_structural(value) | NUMERIC * is_numeric(value)


class CellKinds:
    """`cell_kind` of a row's cells, short ones remembered for one sheet (a column repeats
    its values): per-sheet state handed to `skip_reason`, at most `MEMO_SIZE` cells."""

    def __init__(self) -> None:
        self._memo: dict[str, int] = {}

    def __call__(self, cells: list[str]) -> list[int]:
        if max(map(len, cells), default=0) > MEMO_CHARS:
            return list(map(cell_kind, cells))
        memo = self._memo
        out = list(map(memo.get, cells))
        if None not in out:
            return out  # type: ignore[return-value]  # every cell was remembered
        for i, v in enumerate(out):
            if v is None:
                kind = out[i] = cell_kind(cells[i])
                if len(memo) < MEMO_SIZE:
                    memo[cells[i]] = kind
        return out  # type: ignore[return-value]  # every None was filled above


def cell_kinds(cells: list[str]) -> list[int]:
    """`cell_kind` of each cell, nothing remembered."""
    return list(map(cell_kind, cells))


def is_placeholder(value: str) -> bool:
    """A cell that stands for "no value": NA, n/a, nil, -, ..."""
    return value.strip().lower() in _PLACEHOLDERS


def is_label(value: str) -> bool:
    """A cell that names something: has a letter, is not a number or a placeholder."""
    v = value.strip()
    return any(ch.isalpha() for ch in v) and not is_placeholder(v) and not is_numeric(v)


def is_section(value: str) -> bool:
    """A structural label that opens a part of the table ("Unit II"), not a total or a
    serial-number heading."""
    return is_structural(value) and not _NOT_SECTION.match(value.strip())


def is_structural(value: str) -> bool:
    v = value.strip()
    return bool(v) and v[0].lower() in _STRUCTURAL_STARTS and bool(_STRUCTURAL.match(v))


_NOT_SECTION = re.compile(
    r"(?:grand\s+|sub-?\s*)?total|s\.?\s?no|sr\.?\s?no|sl\.?\s?no|serial|no\.", re.I
)
_SENTENCE_ENDS = (".", "?", "!", "。", "．", "？", "！")
_CURRENCY_STARTS = frozenset({"rs", "in", "us", "eu"})
_STRUCTURAL_STARTS = frozenset("cupsmltbvgn")


@dataclass(frozen=True, slots=True, kw_only=True)
class Skip:
    rule: str
    measured: float | str
    threshold: float | str
    explanation: str


def skip_reason(
    cells: tuple[str, ...],
    cfg: Config,
    *,
    has_header: bool = True,
    kinds_of: Callable[[list[str]], list[int]] = cell_kinds,
) -> Skip | None:
    """The first skip rule that applies to a non-blank row, or None to keep it
    (`kinds_of`: the cells' kinds, a sheet's `CellKinds` to remember them)."""
    sheets = cfg.sheets
    filled = list(filter(None, cells))
    n = len(filled)
    if n == 0:
        return None
    kinds = kinds_of(filled)
    both = kinds.count(STRUCTURAL | NUMERIC)
    labels = kinds.count(STRUCTURAL) + both
    numbers = kinds.count(NUMERIC) + both
    if labels and labels + numbers == n:
        return Skip(
            rule="structural",
            measured=round(labels / n, 3),
            threshold="every non-numeric cell a structural label",
            explanation=f"{labels} of {n} cells are structural labels, the rest numbers",
        )
    share = numbers / n
    if share >= sheets.mostly_numeric_share:
        why = f"{numbers} of {n} non-empty cells are numbers, percentages or dates"
        if cfg.skip.mostly_numeric == "ratio":
            labelled = False
        elif not has_header:
            labelled, why = False, why + " and the sheet has no header row to name them"
        else:
            labelled, why = any(is_label(c) for c in filled), why + " and none is a text label"
        if not labelled:
            return Skip(
                rule="mostly_numeric",
                measured=round(share, 3),
                threshold=sheets.mostly_numeric_share,
                explanation=why,
            )
    if n < sheets.min_fields:
        return Skip(
            rule="too_few_fields",
            measured=n,
            threshold=sheets.min_fields,
            explanation=f"{n} non-empty cell(s), fewer than {sheets.min_fields}",
        )
    return None


def group_label(cells: tuple[str, ...], skip: Skip, first_col: int) -> str | None:
    """The text of a discarded one-cell row that heads the rows below it, or None.

    A group header ("Jhelum River", "JK", "Unit II") is one short text cell in the table's
    first named column: at most 10 words and 80 characters, not ending as a sentence does
    (in any script), not a number, total or serial.
    """
    if skip.rule not in ("too_few_fields", "structural"):
        return None
    filled = [(i, c) for i, c in enumerate(cells) if c]
    if len(filled) != 1:
        return None
    col, text = filled[0]
    words = text.split()
    if col > first_col or not is_label(text) or len(words) > 10 or len(text) > 80:
        return None
    if text.endswith(_SENTENCE_ENDS) or (skip.rule == "structural" and not is_section(text)):
        return None
    return " ".join(words)
