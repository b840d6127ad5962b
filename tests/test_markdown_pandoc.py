"""pandoc fancy lists (MANUAL.txt, "Extension: fancy_lists" and "startnum") and
page-number lines: lists with nested items at their depth, never indented code."""

from __future__ import annotations

import pytest

from notechunk.markdown.pandoc import is_page_number, rewrite_fancy_lists
from notechunk.markdown.sections import parse_markdown_sections


def texts(doc: str) -> list[tuple[str, str]]:
    parsed = parse_markdown_sections(doc)
    return [(u.kind, u.text) for s in parsed.sections for u in s.units]


def test_outline_with_items_indented_four_spaces_is_a_list_not_code() -> None:
    """issue 11: `I.` items with their sub-items four spaces in became indented code."""
    doc = (
        "I.  **Private Equity Companies:**\n\n"
        "    a.  Silver Lake supplied the funding.\n\n"
        "    b.  Banks lent the rest.\n\n"
        "        i.  Bond issuance raised more.\n\n"
        "II. **Debt Management:**\n\n"
        "    a.  Leverage.\n"
    )
    assert texts(doc) == [
        ("prose", "I. Private Equity Companies:"),
        ("prose", "  a. Silver Lake supplied the funding."),
        ("prose", "  b. Banks lent the rest."),
        ("prose", "    i. Bond issuance raised more."),
        ("prose", "II. Debt Management:"),
        ("prose", "  a. Leverage."),
    ]


def test_startnum_example_with_roman_sublist() -> None:
    doc = (
        " 9)  Ninth\n10)  Tenth\n11)  Eleventh\n"
        "       i. subone\n      ii. subtwo\n     iii. subthree\n"
    )
    assert [t for _, t in texts(doc)] == [
        "9) Ninth",
        "10) Tenth",
        "11) Eleventh",
        "  i. subone",
        "  ii. subtwo",
        "  iii. subthree",
    ]


def test_marker_kinds_and_hash_numbering() -> None:
    doc = (
        "(2) Two\n(5) Three\n1.  Four\n*   Five\n\n#. one\n#. two\n\n"
        "a) alpha\nb) beta\n\n(iv) four\n"
    )
    assert [t for _, t in texts(doc)] == [
        "(2) Two",
        "(5) Three",
        "1. Four",
        "- Five",
        "- one",
        "- two",
        "a) alpha",
        "b) beta",
        "(iv) four",
    ]


def test_initials_are_not_list_markers() -> None:
    """pandoc: a capital letter with a period needs two spaces to be a list marker."""
    doc = 'B. Russell won a Nobel Prize (but not for "On Denoting").\n\nA.  Real item\n'
    assert texts(doc) == [
        ("prose", 'B. Russell won a Nobel Prize (but not for "On Denoting").'),
        ("prose", "A. Real item"),
    ]


def test_markers_inside_a_paragraph_stay_text_and_code_is_untouched() -> None:
    doc = "The options are\na) one and\nb) two.\n\n```\na) not a list\n```\n"
    assert texts(doc) == [
        ("prose", "The options are\na) one and\nb) two."),
        ("code", "```\na) not a list\n```"),
    ]


def test_rewrite_keeps_width_and_reports_markers() -> None:
    lines = ["II. Two", "", "    (iv) four", "", "#. x"]
    markers = rewrite_fancy_lists(lines, bytearray(len(lines)))
    assert lines == ["01. Two", "", "    001) four", "", "1. x"]
    assert markers == {0: "II.", 2: "(iv)", 4: "#."}


def test_fast_and_reference_parsers_agree_on_outlines() -> None:
    from notechunk.markdown.sections import BlockParser, make_parser

    doc = "I.  Top\n\n    a.  Sub\n\n        i.  Deep\n\nII. Next\n"
    fast = parse_markdown_sections(doc, BlockParser())
    assert fast == parse_markdown_sections(doc, make_parser())


@pytest.mark.parametrize(
    ("text", "page"),
    [
        ("Page 12", True),
        ("Page 3 of 10", True),
        ("12 | P a g e", True),
        ("P a g e | 12", True),
        ("- 12 -", True),
        ("— 4 —", True),
        ("2021", False),  # a year under a question is content
        ("Page 12 shows the map of the Indus sites.", False),
    ],
)
def test_page_number_lines(text: str, page: bool) -> None:
    assert is_page_number(text) is page


def test_page_number_paragraph_is_skipped_with_its_reason() -> None:
    parsed = parse_markdown_sections("Text before.\n\nPage 3 of 10\n\nText after.\n")
    assert [u.text for u in parsed.sections[0].units] == ["Text before.", "Text after."]
    (skip,) = parsed.skipped
    assert (skip.reason, skip.first, skip.text) == ("page_number", 3, "Page 3 of 10")


GLYPHS = """\
Bauxite is found in:
\u25cf Lohardaga region, Jharkhand
\u25aa Odisha, the Eastern Ghats
  \u25e6 Koraput district
\u25a0 Chhattisgarh
\u2013 Madhya Pradesh
\u2022 Gujarat

-   \u25aa Khetri copper belt
-   \u25aa Malanjkhand mines
"""


def test_glyph_bullets_become_list_items() -> None:
    """Word's bullets (● ▪ ◦ ■ – •) at a line's start, alone or after a list marker, are list
    items: one unit each, the glyph gone (issue 22)."""
    parsed = parse_markdown_sections(GLYPHS)
    texts = [u.text for s in parsed.sections for u in s.units]
    assert texts == [
        "Bauxite is found in:",
        "- Lohardaga region, Jharkhand",
        "- Odisha, the Eastern Ghats",
        "  - Koraput district",
        "- Chhattisgarh",
        "- Madhya Pradesh",
        "- Gujarat",
        "- Khetri copper belt",
        "- Malanjkhand mines",
    ]


def test_a_glyph_inside_a_line_or_code_is_text() -> None:
    doc = "Rates \u2022 fall \u2013 rise\n\n```\n\u2022 kept in code\n```\n"
    texts = [u.text for s in parse_markdown_sections(doc).sections for u in s.units]
    assert texts == ["Rates \u2022 fall \u2013 rise", "```\n\u2022 kept in code\n```"]


def test_page_number_lines_never_reach_text_and_are_skipped() -> None:
    """A page-number line inside a paragraph or a list is skipped with its reason, wherever
    it stands; a bare number is content (a year)."""
    doc = "A paragraph that runs on\n- 12 -\nafter the break.\n\n- item one\n- Page 4\n- 2021\n"
    parsed = parse_markdown_sections(doc)
    texts = [u.text for s in parsed.sections for u in s.units]
    assert texts == ["A paragraph that runs on", "after the break.", "- item one", "- 2021"]
    assert [(s.reason, s.first, s.text) for s in parsed.skipped] == [
        ("page_number", 2, "- 12 -"),
        ("page_number", 6, "- Page 4"),
    ]


def test_inline_glyph_bullets_split_by_the_segmenter_read_as_list_items() -> None:
    """A '•' run inside one paragraph (an image's OCR alt text, a pasted list) is split
    into lines by the default segmenter; each line is a list item, '- ', not a glyph."""
    from chunks import chunk_markdown
    from notechunk.config import Config
    from notechunk.segment import get_segmenter

    cfg = Config()
    doc = "# Sites\n\nSites: \u2022 Harappa on the Ravi \u2022 Mohenjo-daro on the Indus\n"
    (c,) = chunk_markdown(doc, "s.md", cfg, get_segmenter(cfg.segmenter))
    assert c.text == "Sites:\n- Harappa on the Ravi\n- Mohenjo-daro on the Indus"
