"""Template registry and the fallback text of a row (SPEC §1.2).

Template syntax (`[[templates]] text`):
- `{Column}` is replaced by the row's cell; names match ignoring case, spaces and
  punctuation (`{Altitude (m)}` finds a column "altitude_m"); failing that, a column whose
  name without a bracketed unit matches ("Altitude (m)" answers `{Altitude}`).
- `[ ... ]` is an optional segment: it is dropped whole when any field inside it is empty,
  so `The {Pass} pass[, connecting {Connects}][, at {Altitude}].` never leaves
  "connecting , at" behind. Segments do not nest.
- `{{`, `}}`, `[[`, `]]` are literal braces and brackets.
The grammar is checked when the config loads (`syntax.parse_template`). A field outside
any segment is required: when it is empty, or a column is missing, the row falls back to
the generic text and carries the flag `template_fallback:<name>:missing column <X>` or
`...:empty field <X>`; a row that fills no field at all (every optional segment dropped)
falls back too (`...:no field filled`), so a template never makes an empty chunk.

Fallback: each cell goes through `clean_mnemonic_patterns` and `remove_generic_tags`; the
remaining cells become `Header: value` pairs joined with ". ", so a number never floats
without its column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import lru_cache

from notechunk.config import Template
from notechunk.config.syntax import Segment, fields_of, parse_template

_TAG_CHARS = frozenset("#[(*★☆⭐✪✱")
_HASHTAG = re.compile(r"(?<![\w&])#[A-Za-z][\w-]*")
_BRACKET_TAG = re.compile(
    r"[\[(]\s*(?:pyq|imp|important|v\.?\s?imp|very\s+important|prelims|mains|revise|revision|"
    r"todo|tbd|repeat|must\s+read)\b[^\])]{0,40}[\])]",
    re.I,
)
_STARS = re.compile(r"[★☆⭐✪✱]+|\*{2,}")
_MNEMONIC_CELL = re.compile(
    r"^\s*(?:mnemonics?|trick|memory\s+(?:aid|trick)|remember\s+as)\s*[:\-–—=]", re.I
)


def normalize_name(name: str) -> str:
    """Column-name key: lower case, no spaces or punctuation."""
    return re.sub(r"[\W_]+", "", name.lower())


def remove_generic_tags(value: str) -> str:
    """Drop hashtags (#imp), bracket tags ([PYQ 2019], (Imp)) and star runs (★, ***)."""
    if not _TAG_CHARS.intersection(value):
        return value if "  " not in value and "\n" not in value else " ".join(value.split())
    value = _HASHTAG.sub("", value)
    value = _BRACKET_TAG.sub("", value)
    value = _STARS.sub("", value)
    return " ".join(value.split())


def clean_mnemonic_patterns(value: str) -> str:
    """A cell that is only a memory aid ("Mnemonic: ...", "Trick: ...") becomes empty.

    Mnemonics help the aspirant who wrote them and mislead retrieval (their words are not
    the facts'); a fact written next to a mnemonic in another cell is kept.
    """
    return "" if _MNEMONIC_CELL.match(value) else value


def clean_cell(value: str) -> str:
    return remove_generic_tags(clean_mnemonic_patterns(value))


def _value(cell: str) -> str:
    return clean_cell(cell).rstrip(" .;,")


MEMO_CHARS = 100  # cells up to this long have their value remembered, 16,384 at most
_value_memo = lru_cache(maxsize=1 << 14)(_value)  # a column repeats its values


def fallback_text(names: list[str] | tuple[str, ...], cells: tuple[str, ...]) -> str:
    """`Header: value` pairs of the non-empty cleaned cells joined with ". " (after a
    pair that ends in "?" or "!", a space); a column without a label (`header.labels`) gives
    its bare value, and a row none of whose values has a label joins them with " — "
    (a headerless vocabulary list: "adashmoq — блуждать."). Short cells' values are
    remembered, in a C-level map: a sheet's columns repeat their values ("Ladakh",
    "summer") down its rows."""
    short = max(map(len, cells), default=0) <= MEMO_CHARS
    values = map(_value_memo if short else _value, cells)
    filled = [(name, v) for name, v in zip(names, values, strict=False) if v]
    if filled and not any(name for name, _ in filled):
        joined = " — ".join(v for _, v in filled)
        return joined if joined.endswith(("?", "!")) else joined + "."
    pairs = [f"{name}: {v}" if name else v for name, v in filled]
    joined = ". ".join(pairs)
    if "?" not in joined and "!" not in joined:  # every separator ". ": one join
        return joined + "." if joined else ""
    out = ""
    for pair in pairs:
        if out:
            out += " " if out.endswith(("?", "!")) else ". "
        out += pair
    return out + "." if out and not out.endswith(("?", "!")) else out


# ---------------------------------------------------------------------------- templates

_UNIT = re.compile(r"\([^)]*\)|\[[^\]]*\]")


def select_template(templates: tuple[Template, ...], rel: str, sheet: str) -> Template | None:
    """The first template whose `match` globs the relative path and `sheet` the sheet name."""
    path = rel.replace("\\", "/").lower()
    for t in templates:
        if fnmatchcase(path, t.match.lower()) and fnmatchcase(sheet.lower(), t.sheet.lower()):
            return t
    return None


@dataclass(frozen=True, slots=True)
class BoundTemplate:
    """A template bound to one sheet's columns; `missing` names absent columns."""

    name: str
    segments: tuple[Segment, ...]
    columns: dict[str, int]
    missing: tuple[str, ...]


def bind(template: Template, names: list[str]) -> BoundTemplate:
    """Fields to column indexes: a field written exactly as a column's name (spacing aside)
    takes that column, even when another column has the same name up to punctuation
    ("Alt m" and "Alt-m"); then names match ignoring case, spaces and punctuation; then
    without a bracketed unit ("Altitude (m)" answers {Altitude})."""
    segments = parse_template(template.text)
    exact: dict[str, int] = {}
    index: dict[str, int] = {}
    for i, n in enumerate(names):
        exact.setdefault(" ".join(n.split()), i)
        index.setdefault(normalize_name(n), i)
    for i, n in enumerate(names):  # second chance: "Altitude (m)" answers {Altitude}
        index.setdefault(normalize_name(_UNIT.sub("", n)), i)
    columns: dict[str, int] = {}
    missing: list[str] = []
    for f in fields_of(segments):
        key = normalize_name(f)
        at = exact.get(" ".join(f.split()), index.get(key))
        if at is not None:
            columns[f] = at
        elif f not in missing:
            missing.append(f)
    return BoundTemplate(template.name, segments, columns, tuple(missing))


def apply(bound: BoundTemplate, cells: tuple[str, ...]) -> tuple[str | None, str | None]:
    """(text, None) or (None, fallback flag) for one row."""
    if bound.missing:
        return None, f"template_fallback:{bound.name}:missing column {bound.missing[0]}"
    out: list[str] = []
    filled = 0
    for seg in bound.segments:
        pieces: list[str] = []
        empty: str | None = None
        for kind, value in seg.parts:
            if kind == "lit":
                pieces.append(value)
                continue
            i = bound.columns[value]
            cell = clean_cell(cells[i]) if i < len(cells) else ""
            if not cell:
                empty = value
                break
            pieces.append(cell)
        if empty is not None:
            if seg.optional:
                continue
            return None, f"template_fallback:{bound.name}:empty field {empty}"
        filled += sum(1 for kind, _ in seg.parts if kind == "field")
        out.append("".join(pieces))
    text = " ".join("".join(out).split())
    if not filled or not text:
        return None, f"template_fallback:{bound.name}:no field filled"
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"([,;])\1+", r"\1", text)
    return text, None
