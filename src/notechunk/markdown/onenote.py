"""Page headers: a OneNote page exported to Markdown opens with its title, date and time
lines (`Formatting` / `Monday, June 3, 2024` / `9:20 AM`); Obsidian notes often put a
creation timestamp under the title (`2020-04-20 00:15:12`). These are the document's
`title` and `created`, not content (SPEC §1.1). OneNote also keeps code in a one-cell
table, its lines joined by `<br>` (`code_box`): code, not prose.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from notechunk.markdown.model import Section, Unit

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_DATE = re.compile(rf"(?:{_DAYS}),?\s+({_MONTHS})\s+(\d{{1,2}}),?\s+(\d{{4}})", re.IGNORECASE)
_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\.?)?")
_STAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?")
MAX_TITLE_WORDS = 20
_CODE_LINE = re.compile(
    r"[;{}]\s*(?://.*)?$|^\s*(?:#(?:include|pragma|define|import)\b|//|/\*|\*/|"
    r"(?:public|private|protected):\s*$|(?:def|class|import|return|using|namespace)\b)"
)
_CODE_SIGN = re.compile(r"[;{}]|=>|\(\)")


def code_box(text: str) -> bool:
    """Does a layout box's text (a one-cell table's lines) read as code? Most of its lines
    end with `;`, `{` or `}` or open with `#include`, `//`, `def`, `class`, `return`..."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 2 or _CODE_SIGN.search(text) is None:
        return False
    return 2 * sum(1 for line in lines if _CODE_LINE.search(line)) >= len(lines)


def page_header(
    sections: list[Section],
) -> tuple[list[Section], str | None, str | None, tuple[Unit, ...]]:
    """(sections without the header units, page title, created, the units taken) of a
    document."""
    idx = next((k for k, s in enumerate(sections) if s.units), None)
    if idx is None or idx > 1:
        return sections, None, None, ()
    units = list(sections[idx].units)
    whole = tuple(units)
    title: str | None = None
    date = _date(units[0].text)
    if date is None and len(units) >= 2 and not sections[idx].path and _title_like(units[0]):
        date = _date(units[1].text)
        if date is not None:
            title = units[0].text.strip()
            units = units[1:]
    if date is None:
        return sections, None, None, ()
    taken = 1
    if len(units) > 1 and date[1] is None:
        clock = _time(units[1].text)
        if clock is not None:
            date, taken = (date[0], clock), 2
    created = date[0] + (f"T{date[1]}" if date[1] else "")
    rest = tuple(units[taken:])
    out = list(sections)
    if rest or sections[idx].path:
        out[idx] = replace(sections[idx], units=rest)
    else:
        del out[idx]
    return out, title, created, whole[: len(whole) - len(rest)]


def _title_like(unit: Unit) -> bool:
    text = unit.text.strip()
    return (
        unit.kind == "prose"
        and "\n" not in text
        and 0 < len(text.split()) <= MAX_TITLE_WORDS
        and not text.startswith(("- ", "* "))
    )


def _date(text: str) -> tuple[str, str | None] | None:
    """(ISO date, ISO time or None) of a line that is only a date or a timestamp."""
    text = text.strip()
    if len(text) > 60:
        return None
    m = _DATE.fullmatch(text)
    if m is not None:
        try:
            day = datetime.strptime(f"{m.group(1)} {m.group(2)} {m.group(3)}", "%B %d %Y")
        except ValueError:
            return None
        return day.date().isoformat(), None
    m = _STAMP.fullmatch(text)
    if m is None:
        return None
    try:
        day = datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
    clock = None
    if m.group(4):
        clock = _time(f"{m.group(4)}:{m.group(5)}" + (f":{m.group(6)}" if m.group(6) else ""))
    return day.date().isoformat(), clock


def _time(text: str) -> str | None:
    m = _TIME.fullmatch(text.strip())
    if m is None:
        return None
    hour, minute = int(m.group(1)), int(m.group(2))
    second = int(m.group(3) or 0)
    if m.group(4):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m.group(4).lower() == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    return f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if m.group(3) else "")
