"""HTML blocks through a real HTML parser: headings with their level, entities unescaped,
block elements and table cells kept apart, `Header: value` rows, scripts and styles gone.
Shapes from the corpus (LeetCode/GeeksforGeeks pages saved as notes, pandoc's raw HTML
tables in OneNote exports, a web clipping's stacked-header table)."""

from __future__ import annotations

from notechunk.markdown.html import HtmlItem, html_items
from notechunk.markdown.sections import parse_markdown_sections


def test_headings_paragraphs_entities() -> None:
    html = (
        '<h2><a href="https://leetcode.com/problems/x/">118. Pascal&#39;s Triangle</a></h2>'
        "<h3>Easy</h3><hr><div><p>Given an integer <code>numRows</code>, return "
        "<strong>Pascal&#39;s triangle</strong>.</p><p>&nbsp;</p>"
        "<p>1 &lt;= numRows &lt;= 30 &amp; more</p></div>"
    )
    assert html_items(html) == [
        HtmlItem(kind="heading", text="118. Pascal's Triangle", level=2),
        HtmlItem(kind="heading", text="Easy", level=3),
        HtmlItem(kind="prose", text="Given an integer numRows, return Pascal's triangle."),
        HtmlItem(kind="prose", text="1 <= numRows <= 30 & more"),
    ]


def test_scripts_styles_images_dropped_and_br_breaks() -> None:
    html = (
        "<div><script>alert(1)</script><style>p { color: red }</style>"
        '<img alt="" src="x.gif" style="height:240px">'
        "<p>first<br>second<br/>third</p></div>"
    )
    assert html_items(html) == [HtmlItem(kind="prose", text="first\nsecond\nthird")]


def test_table_cells_are_separate_and_rows_have_headers() -> None:
    """issue 11: cells were glued together ("2Health and Nutrition")."""
    html = (
        "<table><colgroup><col style='width: 27%' /></colgroup><thead><tr class='header'>"
        "<th>S.No</th><th>Scheme</th></tr></thead><tbody>"
        "<tr class='odd'><td>2</td><td>Health and Nutrition</td></tr>"
        "<tr class='even'><td>3</td><td><p>Plasma</p>\n<p>Membrane</p></td></tr>"
        "</tbody></table>"
    )
    assert [i.text for i in html_items(html)] == [
        "S.No: 2; Scheme: Health and Nutrition",
        "S.No: 3; Scheme: Plasma Membrane",
    ]


def test_stacked_header_rows_and_colspans() -> None:
    html = (
        "<table><tbody>"
        "<tr><th>&nbsp;</th><th colspan='2'>1st digit</th></tr>"
        "<tr><th>Code</th><th>Contact</th><th>Objects</th></tr>"
        "<tr><td>0</td><td>No protection.</td><td>&nbsp;</td></tr>"
        "</tbody></table>"
    )
    assert [i.text for i in html_items(html)] == ["Code: 0; 1st digit Contact: No protection."]


def test_lists_keep_markers_and_depth() -> None:
    html = "<ul><li>one</li><li>two<ol><li>first</li><li>second</li></ol></li></ul>"
    assert [i.text for i in html_items(html)] == ["- one", "- two", "  1. first", "  2. second"]


def test_pre_keeps_its_lines() -> None:
    html = "<pre><strong>Input:</strong> n = 5\n<strong>Output:</strong> Yes\n</pre>"
    assert [i.text for i in html_items(html)] == ["Input: n = 5\nOutput: Yes"]


def test_deep_nesting_does_not_recurse() -> None:
    html = "<div>" * 5000 + "deep text" + "</div>" * 5000
    assert [i.text for i in html_items(html)] == ["deep text"]


def test_html_headings_are_section_headings() -> None:
    doc = (
        "<h1>Polity</h1>\n\nIntro text.\n\n<h2>Fundamental &amp; Legal Rights</h2>\n\nArticle 14.\n"
    )
    parsed = parse_markdown_sections(doc)
    assert [(s.path, [u.text for u in s.units]) for s in parsed.sections] == [
        (("Polity",), ["Intro text."]),
        (("Polity", "Fundamental & Legal Rights"), ["Article 14."]),
    ]


def test_table_split_by_blank_lines_is_joined() -> None:
    doc = "<table>\n<tr><th>A</th><th>B</th></tr>\n\n<tr><td>1</td><td>2</td></tr>\n</table>\n"
    parsed = parse_markdown_sections(doc)
    units = [u for s in parsed.sections for u in s.units]
    assert [(u.kind, u.text, u.first_line, u.last_line) for u in units] == [
        ("row", "A: 1; B: 2", 1, 5)
    ]


def test_code_and_pre_are_verbatim() -> None:
    """Markdown-looking text inside `<pre>`/`<code>` is data (`[[1]]` is an array, not a
    wikilink); elsewhere in an HTML block, `**x**` written by hand is still cleaned."""
    html = (
        "<pre><strong>Output:</strong> [[1]] and **x**</pre>"
        "<p>Returns <code>[[1],[1,1]]</code> or <code>a*b*c</code>, **bold**.</p>"
    )
    assert [i.text for i in html_items(html)] == [
        "Output: [[1]] and **x**",
        "Returns [[1],[1,1]] or a*b*c, bold.",
    ]
