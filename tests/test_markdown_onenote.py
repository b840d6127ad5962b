"""Page headers: OneNote's title/date/time lines (the corpus' two export shapes) and a
timestamp under the title become `title` and `created`, not a chunk."""

from __future__ import annotations

from notechunk.markdown.onenote import code_box
from notechunk.markdown.sections import parse_markdown_sections


def test_onenote_title_date_time_lines() -> None:
    doc = "Formatting\n\nMonday, June 3, 2024\n\n9:20 AM\n\n\u00a0\n\nFirst real line.\n"
    parsed = parse_markdown_sections(doc)
    assert (parsed.title, parsed.created) == ("Formatting", "2024-06-03T09:20")
    assert [u.text for s in parsed.sections for u in s.units] == ["First real line."]


def test_onenote_24_hour_clock_and_page_with_header_only() -> None:
    parsed = parse_markdown_sections("In-Class Work\n\nWednesday, January 18, 2023\n\n21:39\n")
    assert (parsed.title, parsed.created, parsed.sections) == (
        "In-Class Work",
        "2023-01-18T21:39",
        (),
    )


def test_timestamp_under_the_title_heading() -> None:
    doc = "# Literary Sources\n\n2020-04-20 00:15:12\n\nText.\n"
    parsed = parse_markdown_sections(doc)
    assert parsed.created == "2020-04-20T00:15:12"
    assert parsed.title is None  # the heading is the path, the file name is the caller's
    assert [(s.path, [u.text for u in s.units]) for s in parsed.sections] == [
        (("Literary Sources",), ["Text."])
    ]


def test_front_matter_title_wins_and_no_date_means_no_header() -> None:
    doc = "---\ntitle: Polity notes\n---\nFormatting\n\nMonday, June 3, 2024\n\nText.\n"
    parsed = parse_markdown_sections(doc)
    assert (parsed.title, parsed.created) == ("Polity notes", "2024-06-03")
    plain = parse_markdown_sections("Psychology\n\n- The science of behaviour.\n")
    assert (plain.title, plain.created) == (None, None)
    assert [u.text for s in plain.sections for u in s.units] == [
        "Psychology",
        "- The science of behaviour.",
    ]


def test_a_date_later_in_the_text_is_content() -> None:
    doc = "Intro line.\n\nSecond line.\n\nMonday, June 3, 2024\n"
    parsed = parse_markdown_sections(doc)
    assert parsed.created is None
    assert len([u for s in parsed.sections for u in s.units]) == 3


def test_a_code_box_is_code_and_a_note_box_is_prose() -> None:
    """OneNote keeps code in a one-cell table, lines joined by `<br>`: a code unit, its
    lines and characters as written (no emphasis or links read into `*(*p)`, `a[3][4]`);
    a box of notes stays prose."""
    code = r"int main()  <br>{  <br>std::cout \<\< *(*p) + a[3][4]; // 3  <br>return 0;  <br>}"
    notes = "First point  <br>Second point, with a comma; and more  <br>Third point"
    doc = f"Intro.\n\n| |\n| --- |\n| {code} |\n\n| |\n| --- |\n| {notes} |\n"
    units = [(u.kind, u.text) for s in parse_markdown_sections(doc).sections for u in s.units]
    assert units[1] == (
        "code",
        "```\nint main()\n{\nstd::cout << *(*p) + a[3][4]; // 3\nreturn 0;\n}\n```",
    )
    assert units[2][0] == "prose" and units[2][1].startswith("First point")


def test_code_box_shape() -> None:
    assert code_box("void f()\n{\nx = 1;\n}")
    assert code_box("#include <stdio.h>\nint x;")
    assert not code_box("one line only;")
    assert not code_box("Shopping\nmilk\neggs; bread")
    assert not code_box("Chapter one\nChapter two\nChapter three")
