"""pandoc's fancy-list outlines, recognised before the CommonMark parser.

pandoc (MANUAL.txt, "Extension: fancy_lists") numbers list items with letters and roman
numerals as well as digits: `I.`, `A.`, `a)`, `(i)`, `(1)`, `#.`. CommonMark knows only
`1.` and `1)`, so an outline `I.  **Heading**` with its items indented four spaces below
reads as a paragraph followed by indented code (one real file: 22 "code" chunks of up to
1,428 words). `rewrite_fancy_lists` replaces each such marker with a CommonMark marker of
the same width (`II.` -> `01.`, `(iv)` -> `001)`), so every item keeps its content column
and nests where pandoc nests it; the original markers are returned by line, for the text.

pandoc's own guards apply: a capital letter with a period needs two spaces after it
("B. Russell won a Nobel Prize" is a sentence), and a list needs a blank line before it
unless it continues a list.

Word's own bullets come through an export as glyphs (`●`, `▪`, `◦`, `■`, `–`, `•`) at the
start of a line, alone or after a list marker: `rewrite_glyph_bullets` makes them list
items (the glyph becomes `-`, or a space after a marker). Page-number lines ("Page 3 of
10", "- 12 -") are never text: `page_number_lines` finds them, wherever they stand.
"""

from __future__ import annotations

import re

_ROMAN_LOWER = r"x{0,3}(?:ix|iv|v?i{0,3})"
_ROMAN_UPPER = r"X{0,3}(?:IX|IV|V?I{0,3})"
_ENUM = rf"(?:{_ROMAN_LOWER}|{_ROMAN_UPPER}|[a-zA-Z]|#)"
_FANCY = re.compile(
    rf"([ \t]*)(\((?:{_ENUM}|[0-9]{{1,8}})\)|{_ENUM}[.)])([ \t]+)(?=\S)",
)
_NATIVE = re.compile(r"[ \t]*(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|$)")
_PAGE_NUMBER = re.compile(
    r"(?:page|p\s*a\s*g\s*e|pg\.?)\s*[|:]?\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?"
    r"|\d{1,4}\s*\|\s*(?:page|p\s*a\s*g\s*e)"
    r"|[-\u2013\u2014]\s*\d{1,4}\s*[-\u2013\u2014]",
    re.IGNORECASE,
)


GLYPH_BULLETS = "\u25cf\u25aa\u25e6\u25a0\u2013\u2022"  # ● ▪ ◦ ■ – •
# the hints are searched in "\n" + text: a pattern that starts with a line break lets the
# regex engine jump from one to the next ("^" with re.MULTILINE tries every position)
GLYPH_HINT = re.compile(rf"\n[ \t]*(?:[-+*][ \t]+)?[{GLYPH_BULLETS}][ \t]")
_GLYPH = re.compile(rf"([ \t]*)([-+*][ \t]+)?([{GLYPH_BULLETS}])[ \t]+(?=\S)")
PAGE_HINT = re.compile(
    r"\n[ \t]*(?:[-+*][ \t]+)?(?:page|p\s*a\s*g\s*e|pg|\d{1,4}\s*\||[-\u2013\u2014]\s*\d)",
    re.IGNORECASE,
)


def rewrite_glyph_bullets(lines: list[str], skip: bytearray) -> None:
    """Glyph bullets at a line's start as list items, in place: `● text` -> `- text`,
    `-   ● text` -> `-   text` (`skip[i]`: code, HTML: untouched)."""
    for i, line in enumerate(lines):
        if skip[i]:
            continue
        m = _GLYPH.match(line)
        if m is None:
            continue
        if m.group(2):  # the glyph after a marker is dropped, so its text is the item's
            lines[i] = line[: m.start(3)] + line[m.end() :]
        else:
            lines[i] = line[: m.start(3)] + "-" + line[m.end(3) :]


def page_number_lines(lines: list[str], skip: bytearray) -> list[int]:
    """The 0-based lines that are only a page number (a list marker before it allowed)."""
    out = []
    for i, line in enumerate(lines):
        if skip[i] or len(line) > 60:
            continue
        text = _NATIVE_BULLET.sub("", line, count=1)
        if is_page_number(line) or (text.strip() != "" and is_page_number(text)):
            out.append(i)
    return out


_NATIVE_BULLET = re.compile(r"^[ \t]*[-+*][ \t]+")


def rewrite_fancy_lists(lines: list[str], skip: bytearray) -> dict[int, str]:
    """Rewrite fancy list markers in `lines` in place; return {0-based line: marker}.

    `skip[i]` marks lines that are code, HTML or front matter: never touched."""
    markers: dict[int, str] = {}
    in_list = False
    prev_blank = True
    for i, line in enumerate(lines):
        if skip[i]:
            prev_blank = False
            continue
        if not line.strip():
            prev_blank = True
            continue
        m = _FANCY.match(line) if (prev_blank or in_list) else None
        if m is not None and m.group(2) and _allowed(m.group(2), m.group(3)):
            marker = m.group(2)
            digits = "1".rjust(len(marker) - 1, "0")
            lines[i] = (
                m.group(1) + digits + (")" if marker.endswith(")") else ".") + line[m.end(2) :]
            )
            markers[i] = marker
            in_list = True
        elif _NATIVE.match(line):
            in_list = True  # a sublist may follow any list item directly
        elif prev_blank and not line[:1].isspace():
            in_list = False  # a paragraph at the margin after a blank line ends the list
        prev_blank = False
    return markers


def _allowed(marker: str, space: str) -> bool:
    if marker in ("()", ".", ")") or len(marker) > 10:
        return False
    body = marker.strip("().")
    if len(body) == 1 and body.isupper() and marker.endswith(".") and space == " ":
        return False  # "B. Russell": an initial, not a list item (pandoc's rule)
    return True


def marker_text(marker: str) -> str:
    """The marker as the chunk text shows it (`#.` numbers itself: a plain bullet)."""
    return "-" if "#" in marker else marker


def is_page_number(text: str) -> bool:
    """A paragraph that is only a page number ("Page 3 of 10", "12 | P a g e", "- 12 -").

    A bare number is kept: in notes it is as likely a year under a question as a page."""
    return len(text) <= 40 and _PAGE_NUMBER.fullmatch(text.strip()) is not None
