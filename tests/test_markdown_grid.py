"""pandoc grid tables, from pandoc's MANUAL.txt ("Extension: grid_tables") and the shape
of the corpus' Word exports (cells holding `> ` quoted lines, a table nested in a cell)."""

from __future__ import annotations

from notechunk.markdown.grid import grid_rows
from notechunk.markdown.sections import parse_markdown_sections

FRUIT = """\
: Sample grid table.

+---------------+---------------+--------------------+
| Fruit         | Price         | Advantages         |
+===============+===============+====================+
| Bananas       | $1.34         | - built-in wrapper |
|               |               | - bright color     |
+---------------+---------------+--------------------+
| Oranges       | $2.10         | - cures scurvy     |
|               |               | - tasty            |
+---------------+---------------+--------------------+
"""

SPANS = """\
+---------------------+----------+
| Property            | Earth    |
+=============+=======+==========+
|             | min   | -89.2 °C |
| Temperature +-------+----------+
| 1961-1990   | mean  | 14 °C    |
|             +-------+----------+
|             | max   | 56.7 °C  |
+-------------+-------+----------+
"""

STACKED_HEADER = """\
+---------------------+-----------------------+
| Location            | Temperature 1961-1990 |
|                     | in degree Celsius     |
|                     +-------+-------+-------+
|                     | min   | mean  | max   |
+=====================+=======+=======+=======+
| Antarctica          | -89.2 | N/A   | 19.8  |
+---------------------+-------+-------+-------+
"""

HEADERLESS = """\
+--------------:+:--------------+:------------------:+
| Right         | Left          | Centered           |
+---------------+---------------+--------------------+
"""


def rows(doc: str) -> list[tuple[str, int, int]]:
    parsed = parse_markdown_sections(doc)
    return [
        (u.text, u.first_line, u.last_line)
        for s in parsed.sections
        for u in s.units
        if u.kind == "row"
    ]


def test_grid_table_rows_with_headers() -> None:
    assert rows(FRUIT) == [
        ("Fruit: Bananas; Price: $1.34; Advantages: - built-in wrapper - bright color", 6, 7),
        ("Fruit: Oranges; Price: $2.10; Advantages: - cures scurvy - tasty", 9, 10),
    ]


def test_row_and_column_spans() -> None:
    """A cell spanning rows ("Temperature 1961-1990" beside min, mean, max) is said in
    each of the rows it spans, so every value keeps its own label (issue 22)."""
    assert rows(SPANS) == [
        ("Property: Temperature 1961-1990; Property: min; Earth: -89.2 °C", 4, 8),
        ("Property: Temperature 1961-1990; Property: mean; Earth: 14 °C", 4, 8),
        ("Property: Temperature 1961-1990; Property: max; Earth: 56.7 °C", 4, 8),
    ]


def test_stacked_header_names_every_spanned_column() -> None:
    assert [r[0] for r in rows(STACKED_HEADER)] == [
        "Location: Antarctica; Temperature 1961-1990 in degree Celsius min: -89.2; "
        "Temperature 1961-1990 in degree Celsius mean: N/A; "
        "Temperature 1961-1990 in degree Celsius max: 19.8"
    ]


def test_headerless_grid_with_alignment_colons() -> None:
    assert [r[0] for r in rows(HEADERLESS)] == ["Right; Left; Centered"]


def test_quoted_cells_and_bold_are_text() -> None:
    block = [
        "+-------------+--------------------------+",
        "| > **Ка      | > **Описание**           |",
        "| > тегория** |                          |",
        "+=============+==========================+",
        "| > **TX**    | > недостаточно данных    |",
        "|             | > для оценки             |",
        "+-------------+--------------------------+",
    ]
    head, body = grid_rows(block)
    assert head == ["Ка тегория", "Описание"]
    assert body == [(4, 5, ["TX", "недостаточно данных для оценки"])]


def test_nested_grid_table_in_a_cell_becomes_its_rows() -> None:
    block = [
        "+------+-------------------+",
        "| Name | Detail            |",
        "+======+===================+",
        "| A    | +-----+-----+     |",
        "|      | | k   | v   |     |",
        "|      | +=====+=====+     |",
        "|      | | x   | 1   |     |",
        "|      | +-----+-----+     |",
        "+------+-------------------+",
    ]
    head, body = grid_rows(block)
    assert head == ["Name", "Detail"]
    assert body[0][2] == ["A", "k: x; v: 1"]


def test_a_figure_nested_with_its_caption_reads_as_text() -> None:
    """pandoc draws a Word figure as a one-cell grid table holding the picture's own
    table and then its caption: the inner table's borders are no text, the caption is."""
    cells = ["[]{#fig-1 .anchor}![](media/image40.png)", "", "\\(a\\) A mucinous tumour"]
    w = max(map(len, cells))
    inner = [
        "+:" + "-" * (w - 2) + ":+",
        *(f"| {c.ljust(w - 2)} |" for c in cells),
        "+" + "-" * w + "+",
        "",
        "Figure 10.1: **A** - MRI, T2: a bright",
        "tumour.",
    ]
    width = max(map(len, inner))
    rule = "+" + "-" * (width + 2) + "+"
    block = [rule, *(f"| {line.ljust(width)} |" for line in inner), rule]
    _, body = grid_rows(block)
    assert body == [(1, 8, ["(a) A mucinous tumour Figure 10.1: A - MRI, T2: a bright tumour."])]


PROS_CONS = """\
# Remedies

+---------------+---------------------------------------+
| PROS          | CONS                                  |
+===============+=======================================+
| Cheap to      | Slow to build, and the cell text runs |
| bring         | over two lines                        |
|               |                                       |
|               | - and a list in a second paragraph    |
+---------------+---------------------------------------+
| Both columns: one cell spans this whole row           |
+---------------+---------------------------------------+
| Quick         | Costly appeals                        |
+===============+=======================================+
| Footer: pros  | Footer: cons                          |
+===============+=======================================+
"""


def test_a_grid_table_from_pandocs_syntax_is_read_whole_into_rows() -> None:
    """Issue 22: multi-line cells, blocks in a cell, a cell spanning every column and a
    footer (pandoc MANUAL, grid_tables) are text rows; no cell word is lost, no line of
    the table is unaccounted, and a spanning row is not filed under the first column."""
    from notechunk.config import Config
    from notechunk.markdown.account import line_account
    from notechunk.perfile import Tools, process_markdown

    assert [r[0] for r in rows(PROS_CONS)] == [
        "PROS: Cheap to bring; CONS: Slow to build, and the cell text runs over two lines "
        "- and a list in a second paragraph",
        "Both columns: one cell spans this whole row",
        "PROS: Quick; CONS: Costly appeals",
        "PROS: Footer: pros; CONS: Footer: cons",
    ]
    cfg = Config()
    tools = Tools.load(cfg)
    for doc in (PROS_CONS, FRUIT, SPANS, STACKED_HEADER, HEADERLESS):
        result = process_markdown("t.md", doc.encode(), cfg, tools)
        (account,) = result.accounts
        assert account.conserved, doc
        assert line_account(doc, "t.md", (), ()).unaccounted  # without chunks it fails
        text = " ".join(c.text for c in result.chunks)
        cells = [ln for ln in doc.split("\n") if ln.startswith("|")]
        for word in " ".join(cells).replace("|", " ").replace("+", " ").split():
            if word.strip("-=:"):
                assert word in text, (word, doc)
