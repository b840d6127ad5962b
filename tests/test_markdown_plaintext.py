"""Plain-text notes: paragraphs and lists, never indented code; line numbers kept."""

from __future__ import annotations

import pytest

from notechunk.markdown.plaintext import plain_as_markdown
from notechunk.markdown.sections import parse_markdown_sections

CASES = {
    "indented-paragraph": (
        "Title line\n\n    An indented paragraph.\n",
        "Title line\n\nAn indented paragraph.\n",
    ),
    "tab-nested-items": (
        "1. one\n\t- sub\n\t\t- subsub\n\t- sub2\n2. two\n",
        "1. one\n   - sub\n     - subsub\n   - sub2\n2. two\n",
    ),
    "lone-indented-list": (
        "Notes\n\n        - far in\n        - also\n",
        "Notes\n\n- far in\n- also\n",
    ),
    "margin-paragraph-ends-the-list": ("- a\n    - b\nText\n    - c\n", "- a\n  - b\nText\n- c\n"),
    "untouched-without-indentation": ("a\n- b\n", "a\n- b\n"),
}


@pytest.mark.parametrize(("text", "expected"), CASES.values(), ids=CASES.keys())
def test_plain_as_markdown(text: str, expected: str) -> None:
    out = plain_as_markdown(text)
    assert out == expected and out.count("\n") == text.count("\n")


def test_a_text_note_has_no_code_units() -> None:
    text = "Osmosis\n\n    Water moves across a membrane.\n\n\tIt goes to the saltier side.\n"
    parsed = parse_markdown_sections(plain_as_markdown(text))
    units = [(u.kind, u.text, u.first_line) for s in parsed.sections for u in s.units]
    assert units == [
        ("prose", "Osmosis", 1),
        ("prose", "Water moves across a membrane.", 3),
        ("prose", "It goes to the saltier side.", 5),
    ]
    assert [u.kind for s in parse_markdown_sections(text).sections for u in s.units][1] == "code"
