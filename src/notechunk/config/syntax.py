"""The `[[templates]] text` grammar, parsed strictly so a broken template fails at load.

- `{Column}` is a field; `[ ... ]` an optional segment (dropped whole when a field inside
  it is empty; segments do not nest); `{{`, `}}`, `[[`, `]]` are literal characters.
- Refused, with the column where it goes wrong: a `{` without its `}` (it would swallow
  the text up to the next field and drop a value), a lone `}` or `]`, an unclosed `[`, a
  nested `[`, an empty field `{}`, a text with no field at all (`{{Pass}} literal`: every
  row would get the same text) and a text whose every field is optional with nothing else
  to say (a row with those fields empty would give an empty chunk).

Imports nothing from notechunk: `config.Template` validates its text with it.
"""

from __future__ import annotations

from dataclasses import dataclass


class TemplateSyntaxError(ValueError):
    """A template text that cannot be applied; the message names the problem."""


@dataclass(frozen=True, slots=True)
class Segment:
    optional: bool
    parts: tuple[tuple[str, str], ...]  # ("lit", text) | ("field", name)


def parse_template(text: str) -> tuple[Segment, ...]:
    """Required and optional segments of `text`; `TemplateSyntaxError` when it is broken."""
    segments: list[Segment] = []
    current: list[tuple[str, str]] = []
    optional = False
    opened = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "{}[]" and text.startswith(c * 2, i):
            current.append(("lit", c))
            i += 2
        elif c == "{":
            close, reopen = text.find("}", i + 1), text.find("{", i + 1)
            if close < 0 or 0 <= reopen < close:
                raise TemplateSyntaxError(
                    f"unbalanced '{{' at column {i + 1} (write {{{{ for a literal brace)"
                )
            name = text[i + 1 : close].strip()
            if not name:
                raise TemplateSyntaxError(f"empty field {{}} at column {i + 1}")
            current.append(("field", name))
            i = close + 1
        elif c == "}":
            raise TemplateSyntaxError(
                f"unbalanced '}}' at column {i + 1} (write }}}} for a literal brace)"
            )
        elif c == "[":
            if optional:
                raise TemplateSyntaxError(f"optional segments do not nest ('[' at column {i + 1})")
            segments.append(Segment(False, tuple(current)))
            current, optional, opened = [], True, i
            i += 1
        elif c == "]":
            if not optional:
                raise TemplateSyntaxError(
                    f"unbalanced ']' at column {i + 1} (write ]] for a literal bracket)"
                )
            segments.append(Segment(True, tuple(current)))
            current, optional = [], False
            i += 1
        else:
            j = i + 1
            while j < n and text[j] not in "{}[]":
                j += 1
            current.append(("lit", text[i:j]))
            i = j
    if optional:
        raise TemplateSyntaxError(f"unclosed '[' at column {opened + 1}")
    segments.append(Segment(False, tuple(current)))
    out = tuple(s for s in segments if s.parts)
    _check_fields(out)
    return out


def _check_fields(segments: tuple[Segment, ...]) -> None:
    if not fields_of(segments):
        raise TemplateSyntaxError("no {Column} field: every row would get the same text")
    required = [s for s in segments if not s.optional]
    if any(k == "field" for s in required for k, _ in s.parts):
        return
    literal = "".join(v for s in required for _, v in s.parts)
    if not any(ch.isalnum() for ch in literal):
        raise TemplateSyntaxError(
            "every field is optional: a row with them all empty would give an empty text "
            "(make one field required, outside [...])"
        )


def fields_of(segments: tuple[Segment, ...]) -> list[str]:
    return [v for s in segments for k, v in s.parts if k == "field"]


def template_problem(text: str) -> str | None:
    """Why `text` cannot be a template, or None when it can."""
    try:
        parse_template(text)
    except TemplateSyntaxError as exc:
        return str(exc)
    return None
