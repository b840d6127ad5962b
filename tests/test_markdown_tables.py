"""pandoc's simple and multiline tables, from the examples of pandoc's MANUAL.txt
("Tables"), and the corpora's shapes: rows as `Header: value`, never a setext heading."""

from __future__ import annotations

from notechunk.markdown.sections import parse_markdown_sections
from notechunk.markdown.tables import find_tables

SIMPLE = """\
  Right     Left     Center     Default
-------     ------ ----------   -------
     12     12        12            12
    123     123       123          123
      1     1          1             1

Table:  Demonstration of simple table syntax.
"""

SIMPLE_HEADERLESS = """\
-------     ------ ----------   -------
     12     12        12             12
    123     123       123           123
      1     1          1              1
-------     ------ ----------   -------
"""

MULTILINE = """\
-------------------------------------------------------------
 Centered   Default           Right Left
  Header    Aligned         Aligned Aligned
----------- ------- --------------- -------------------------
   First    row                12.0 Example of a row that
                                    spans multiple lines.

  Second    row                 5.0 Here's another one. Note
                                    the blank line between
                                    rows.
-------------------------------------------------------------

Table: Here's the caption. It, too, may span
multiple lines.
"""

MULTILINE_HEADERLESS = """\
----------- ------- --------------- -------------------------
   First    row                12.0 Example of a row that
                                    spans multiple lines.

  Second    row                 5.0 Here's another one. Note
                                    the blank line between
                                    rows.
----------- ------- --------------- -------------------------

: Here's a multiline table without a header.
"""


def rows(doc: str) -> list[tuple[str, int, int]]:
    parsed = parse_markdown_sections(doc)
    return [
        (u.text, u.first_line, u.last_line)
        for s in parsed.sections
        for u in s.units
        if u.kind == "row"
    ]


def test_simple_table() -> None:
    assert rows(SIMPLE) == [
        ("Right: 12; Left: 12; Center: 12; Default: 12", 3, 3),
        ("Right: 123; Left: 123; Center: 123; Default: 123", 4, 4),
        ("Right: 1; Left: 1; Center: 1; Default: 1", 5, 5),
    ]


def test_simple_table_without_header() -> None:
    assert [r[0] for r in rows(SIMPLE_HEADERLESS)] == [
        "12; 12; 12; 12",
        "123; 123; 123; 123",
        "1; 1; 1; 1",
    ]


def test_multiline_table_rows_span_lines() -> None:
    assert rows(MULTILINE) == [
        (
            "Centered Header: First; Default Aligned: row; Right Aligned: 12.0; "
            "Left Aligned: Example of a row that spans multiple lines.",
            5,
            6,
        ),
        (
            "Centered Header: Second; Default Aligned: row; Right Aligned: 5.0; "
            "Left Aligned: Here's another one. Note the blank line between rows.",
            8,
            10,
        ),
    ]


def test_multiline_table_without_header() -> None:
    got = [r[0] for r in rows(MULTILINE_HEADERLESS)]
    assert got == [
        "First; row; 12.0; Example of a row that spans multiple lines.",
        "Second; row; 5.0; Here's another one. Note the blank line between rows.",
    ]


def test_dash_rule_under_a_row_is_never_a_setext_heading() -> None:
    """issue 11: the last row of a multiline table sits right above the closing rule
    (the corpus' "Bad supply chain management" row); CommonMark reads that as `h2`."""
    doc = (
        "Weakness:\n\n"
        "  ----------------------------------------------------------\n"
        "  HELLA                          CONTINENTAL AG\n"
        "  ------------------------------ ---------------------------\n"
        "  Low profitability due to high  Weak demand in tires causes\n"
        "  infrastructure cost            slow growth rate\n\n"
        "  Bad supply chain management\n"
        "  ----------------------------------------------------------\n\n"
        "After the table.\n"
    )
    parsed = parse_markdown_sections(doc)
    assert all(not s.path for s in parsed.sections)
    assert [u.text for u in parsed.sections[0].units] == [
        "Weakness:",
        "HELLA: Low profitability due to high infrastructure cost; "
        "CONTINENTAL AG: Weak demand in tires causes slow growth rate",
        "HELLA: Bad supply chain management",
        "After the table.",
    ]


def test_setext_heading_and_thematic_breaks_stay_what_they_are() -> None:
    doc = "Title\n-----\n\ntext\n\n---\n\nmore text\n\n- - -\n\nend\n"
    parsed = parse_markdown_sections(doc)
    assert [s.path for s in parsed.sections] == [("Title",)]
    assert [u.text for u in parsed.sections[0].units] == ["text", "more text", "end"]


def test_wide_characters_are_two_columns() -> None:
    """pandoc aligns by display width: a CJK header is twice as wide as its characters."""
    doc = "名前          説明\n------------  ------------\n東京          首都\n\n"
    assert [r[0] for r in rows(doc)] == ["名前: 東京; 説明: 首都"]


def test_tables_in_code_fences_are_code() -> None:
    lines = ["```", "a    b", "---  ---", "1    2", "```"]
    assert find_tables(lines, bytearray(b"\x01" * len(lines))) == []
    doc = "\n".join(lines) + "\n"
    parsed = parse_markdown_sections(doc)
    assert [u.kind for u in parsed.sections[0].units] == ["code"]


def test_unclosed_headerless_table_is_not_a_table() -> None:
    doc = "\n-------     ------\n12     12\n\ntext\n"
    assert rows(doc) == []


def test_one_cell_box_is_a_row_not_a_setext_heading() -> None:
    """A formula boxed in Word: pandoc writes a one-column table, full-width rules around."""
    rule = "  " + "-" * 60
    doc = f"It is computed as\n\n{rule}\n  **(1 - Tax Rate) x Cost of Debt.**\n{rule}\n\nNext.\n"
    parsed = parse_markdown_sections(doc)
    assert [s.path for s in parsed.sections] == [()]
    assert [(u.kind, u.text) for u in parsed.sections[0].units] == [
        ("prose", "It is computed as"),
        ("row", "(1 - Tax Rate) x Cost of Debt."),
        ("prose", "Next."),
    ]
    short = "\n---\nTitle\n---\n\ntext\n"  # a rule, then a setext heading
    assert [s.path for s in parse_markdown_sections(short).sections] == [("Title",)]
