"""Early row skipping (SPEC §1.2): rules as plain data, checked before templating.

Precedence when several apply: structural > mostly_numeric > too_few_fields. Each rule
returns the measured figure and the threshold it was compared with, so the discarded-rows
report can show why a row went.

- structural: every non-empty cell is a number or a structural label ("Chapter 1",
  "Unit II", "Part A", "Total", "S.No."), and at least one is a label.
- mostly_numeric: at least `mostly_numeric_share` of the non-empty cells are numbers,
  percentages, currency amounts or dates.
- too_few_fields: fewer than `min_fields` non-empty cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from notechunk.config import SheetsConfig

_NUMERIC = re.compile(
    r"""^\(?[-+−]?\s*(?:[₹$€£¥]|rs\.?|inr|usd|eur)?\s*[-+−]?
        (?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?\s*
        (?:%|[₹$€£¥]|crores?|lakhs?|cr|mn|bn|k|m)?\)?$""",
    re.I | re.X,
)
_DATE = re.compile(
    r"^(?:\d{4}-\d{2}(?:-\d{2})?(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}"
    r"|\d{4}-\d{2,4}|\d{1,2}:\d{2}(?::\d{2})?)$"
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


def is_structural(value: str) -> bool:
    v = value.strip()
    return bool(v) and v[0].lower() in _STRUCTURAL_STARTS and bool(_STRUCTURAL.match(v))


_CURRENCY_STARTS = frozenset({"rs", "in", "us", "eu"})
_STRUCTURAL_STARTS = frozenset("cupsmltbvgn")


@dataclass(frozen=True, slots=True, kw_only=True)
class Skip:
    rule: str
    measured: float | str
    threshold: float | str
    explanation: str


def skip_reason(cells: tuple[str, ...], cfg: SheetsConfig) -> Skip | None:
    """The first skip rule that applies to a non-blank row, or None to keep it."""
    filled = [c for c in cells if c]
    n = len(filled)
    if n == 0:
        return None
    labels = sum(1 for c in filled if is_structural(c))
    numbers = sum(1 for c in filled if is_numeric(c))
    if labels and labels + numbers == n:
        return Skip(
            rule="structural",
            measured=round(labels / n, 3),
            threshold="every non-numeric cell a structural label",
            explanation=f"{labels} of {n} cells are structural labels, the rest numbers",
        )
    share = numbers / n
    if share >= cfg.mostly_numeric_share:
        return Skip(
            rule="mostly_numeric",
            measured=round(share, 3),
            threshold=cfg.mostly_numeric_share,
            explanation=f"{numbers} of {n} non-empty cells are numbers, percentages or dates",
        )
    if n < cfg.min_fields:
        return Skip(
            rule="too_few_fields",
            measured=n,
            threshold=cfg.min_fields,
            explanation=f"{n} non-empty cell(s), fewer than {cfg.min_fields}",
        )
    return None
