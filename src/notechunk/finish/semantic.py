"""semantic_type of a chunk's text, from rules kept as data (finishing sets it on every chunk).

The first rule that matches names the type (top to bottom); `narrative` is the fallback.

- `code`: the text holds a fenced code block (a line starting with ``` or ~~~).
- `fact_row`: the chunk comes from a spreadsheet (one row, one fact).
- `question`: the first line ends with `?` or starts with `Q.`, `Q:`, `Q1.` or `Question`.
- `list`: at least 2 lines are list items (`-`, `*`, `•`, `1.`, `1)`) and they are at
  least half of the non-blank lines.
- `definition`: the first sentence says what its subject is (`X is a/an/the`, `refers
  to`, `is defined as`, `means`, `denotes`, `is called`, `is known as`, `is termed`), with
  1 to 8 words before the verb.
- `comparison`: a contrast marker (whereas, unlike, in contrast, compared to/with,
  versus/vs, differs from, difference between, or `more/less/higher/... than`).
- `event`: a date (a year 1000-2099 with optional AD/BC, a day and month, an ordinal
  century) in the first sentence, or at least one date per 60 words.
- `narrative`: anything else.

`RULES` below is the same table as data; a test checks the two agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from notechunk.chunk import SourceType

_FENCE = re.compile(r"^\s{0,3}(```|~~~)", re.MULTILINE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)])\s+\S")
_QUESTION_START = re.compile(r"^\W*(?:Q\s*[.:]|Q\d+[.:]|Question\b)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n+")
_DEFINITION = re.compile(
    r"\b(?:(?:is|are|was|were)\s+(?:a|an|the|defined\s+as|known\s+as|called|termed)"
    r"|refers?\s+to|means|denotes)\b",
    re.IGNORECASE,
)
_COMPARISON = re.compile(
    r"\b(?:whereas|unlike|in\s+contrast|compared\s+(?:to|with)|versus|vs\.?|differs?\s+from"
    r"|difference\s+between|distinguished\s+from)\b"
    r"|\b(?:more|less|greater|fewer|larger|smaller|higher|lower|better|worse|older|newer)\b"
    r"[^.;:]{0,40}?\bthan\b",
    re.IGNORECASE,
)
_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_DATE = re.compile(
    r"\b(?:1[0-9]{3}|20[0-9]{2})\b(?:\s*(?:AD|BC|BCE|CE)\b)?"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTHS}\b"
    rf"|\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)\s+century\b",
)
# every comparison marker holds one of these (ASCII text only: IGNORECASE also folds "ſ")
_COMPARISON_WORDS = tuple(
    "than whereas unlike contrast compared versus vs differ distinguished".split()
)
_DIGIT = re.compile(r"\d")  # every date holds one
_DEFINITION_MAX_WORDS_BEFORE = 8
_WORDS_PER_DATE = 60


def first_sentence(text: str) -> str:
    """The text up to the first sentence end or line break (leading list marker kept)."""
    stripped = text.strip()
    return _SENTENCE_END.split(stripped, maxsplit=1)[0] if stripped else ""


def _is_code(text: str, source_type: SourceType) -> bool:
    return ("```" in text or "~~~" in text) and _FENCE.search(text) is not None


def _is_fact_row(text: str, source_type: SourceType) -> bool:
    return source_type == "spreadsheet"


def _is_question(text: str, source_type: SourceType) -> bool:
    first_line = text.strip().split("\n", 1)[0].strip()
    return first_line.endswith("?") or _QUESTION_START.match(first_line) is not None


def _is_list(text: str, source_type: SourceType) -> bool:
    lines = [line for line in text.split("\n") if line.strip()]
    items = sum(1 for line in lines if _LIST_ITEM.match(line))
    return items >= 2 and 2 * items >= len(lines)


def _is_definition(text: str, source_type: SourceType) -> bool:
    sentence = first_sentence(text)
    m = _DEFINITION.search(sentence)
    return m is not None and 1 <= len(sentence[: m.start()].split()) <= (
        _DEFINITION_MAX_WORDS_BEFORE
    )


def _is_comparison(text: str, source_type: SourceType) -> bool:
    if text.isascii():
        low = text.lower()
        if not any(w in low for w in _COMPARISON_WORDS):
            return False
    return _COMPARISON.search(text) is not None


def _is_event(text: str, source_type: SourceType) -> bool:
    if _DIGIT.search(text) is None:
        return False
    if _DATE.search(first_sentence(text)):
        return True
    dates = len(_DATE.findall(text))
    return dates > 0 and dates * _WORDS_PER_DATE >= len(text.split())


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    name: str
    description: str
    test: Callable[[str, SourceType], bool]


RULES: tuple[Rule, ...] = (
    Rule(name="code", description="holds a fenced code block", test=_is_code),
    Rule(name="fact_row", description="a spreadsheet row", test=_is_fact_row),
    Rule(name="question", description="first line is a question", test=_is_question),
    Rule(name="list", description="mostly list items (at least 2)", test=_is_list),
    Rule(
        name="definition",
        description="first sentence says what its subject is",
        test=_is_definition,
    ),
    Rule(name="comparison", description="a contrast or comparison marker", test=_is_comparison),
    Rule(name="event", description="dated: a date leads or dates are dense", test=_is_event),
)
FALLBACK = "narrative"
TYPES: tuple[str, ...] = (*(r.name for r in RULES), FALLBACK)


def semantic_type(text: str, source_type: SourceType) -> str:
    """The name of the first rule in `RULES` that matches, else `narrative`."""
    for rule in RULES:
        if rule.test(text, source_type):
            return rule.name
    return FALLBACK
