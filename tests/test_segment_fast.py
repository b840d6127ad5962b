"""The "fast" backend: plain breaks, a tiny abbreviation set, and its documented misses."""

from __future__ import annotations

import pytest

from notechunk.segment import get_segmenter, split

CASES = {
    "simple": ("Hello World. My name is Jonas.", ["Hello World.", "My name is Jonas."]),
    "question-exclaim": ("Is it? Yes! Fine.", ["Is it?", "Yes!", "Fine."]),
    "title": ("Dr. Rao spoke. Mr. Sen left.", ["Dr. Rao spoke.", "Mr. Sen left."]),
    "number-abbreviation": ("Gate No. 5 is shut.", ["Gate No. 5 is shut."]),
    "eg": ("Landforms, e.g. Rivers, matter.", ["Landforms, e.g. Rivers, matter."]),
    "lowercase-next": ("It costs 3.14 units. and more", ["It costs 3.14 units. and more"]),
    "closing-quote": ('He said "Go." Then left.', ['He said "Go."', "Then left."]),
    "blank-line": ("One\n\nTwo", ["One", "Two"]),
    "bullets": ("Points:\n- one\n- two", ["Points:", "- one", "- two"]),
    "cjk-full-stops": (
        "光速很快。为什么？「因为。」好",
        ["光速很快。", "为什么？", "「因为。」", "好"],
    ),
}


@pytest.mark.parametrize(("text", "expected"), CASES.values(), ids=CASES.keys())
def test_fast_cases(text: str, expected: list[str]) -> None:
    assert split(get_segmenter("fast"), text) == expected


def test_fast_is_less_accurate_on_initials() -> None:
    """Documented: "fast" breaks after any initial or acronym before a capital."""
    assert split(get_segmenter("fast"), "Dr. B.R. Ambedkar wrote it.") == [
        "Dr. B.R.",
        "Ambedkar wrote it.",
    ]
