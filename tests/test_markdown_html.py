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


CARDS = """\
# Monetary policy

The RBI uses several instruments to steer money in the economy.

<div class="card">
<h3>Repo rate</h3>
<p>The rate at which the RBI lends short-term money to banks.</p>
<ul><li>Set by the Monetary Policy Committee</li><li>6.5 per cent since 2023</li></ul>
</div>
<div class="card">
<h3>Cash reserve ratio</h3>
<p>The share of deposits a bank must keep with the RBI as cash.</p>
<ul><li>Paid no interest</li></ul>
</div>

After the cards, this paragraph is about monetary policy as a whole again.
"""


def test_a_block_with_its_own_heading_is_a_card_between_card_and_end_items() -> None:
    items = html_items("<div><h3>Repo</h3><p>A rate.</p></div><p>After.</p>")
    assert [(i.kind, i.text) for i in items] == [
        ("card", ""),
        ("heading", "Repo"),
        ("prose", "A rate."),
        ("end", ""),
        ("prose", "After."),
    ]
    nested = html_items("<div class='grid'><div><h4>A</h4><p>x</p></div></div>")
    assert [i.kind for i in nested] == ["card", "heading", "prose", "end"]  # the grid is not


def test_html_data_cards_are_sections_kept_whole_and_end_where_the_block_ends() -> None:
    """Issue 22: a `<div>` box with its title and facts is one section (its title the
    heading, its facts the text), and the text after it is back under the heading before."""
    from chunks import chunk_markdown
    from conftest import PeriodSegmenter
    from notechunk.config import Config

    parsed = parse_markdown_sections(CARDS)
    paths = [(s.path, [u.text for u in s.units]) for s in parsed.sections]
    assert paths == [
        (("Monetary policy",), ["The RBI uses several instruments to steer money in the economy."]),
        (
            ("Monetary policy", "Repo rate"),
            [
                "The rate at which the RBI lends short-term money to banks.",
                "- Set by the Monetary Policy Committee",
                "- 6.5 per cent since 2023",
            ],
        ),
        (
            ("Monetary policy", "Cash reserve ratio"),
            ["The share of deposits a bank must keep with the RBI as cash.", "- Paid no interest"],
        ),
        (
            ("Monetary policy",),
            ["After the cards, this paragraph is about monetary policy as a whole again."],
        ),
    ]
    chunks = chunk_markdown(CARDS, "m.md", Config(), PeriodSegmenter())
    repo = next(c for c in chunks if "lends short-term" in c.text)
    assert "Repo rate" in repo.embed_text and "6.5 per cent" in repo.text  # the card whole
    crr = next(c for c in chunks if "share of deposits" in c.text)
    assert "Cash reserve ratio" in crr.embed_text and "Paid no interest" in crr.text
    after = next(c for c in chunks if "After the cards" in c.text)  # (the short card before
    assert after.section_path == ("Monetary policy",)  # it may merge forward, titled inline)
