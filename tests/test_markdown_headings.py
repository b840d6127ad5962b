"""Headings real exports use instead of `#` (SPEC §1.1 v2): bold or marked lines, pandoc's
underline spans, HTML `<h1>`..`<h6>`; and long headings."""

from __future__ import annotations

import pytest

from notechunk.markdown.headings import bold_heading, pandoc_heading
from notechunk.markdown.sections import parse_markdown_sections


@pytest.mark.parametrize(
    ("content", "title"),
    [
        ("**Indus Valley Civilization**", "Indus Valley Civilization"),
        ("__Harappan Towns__", "Harappan Towns"),
        ("**[Fundamental Rights]{.mark}**", "Fundamental Rights"),
        ("[Directive Principles]{.mark}", "Directive Principles"),
        ("***GS PAPER --I HISTORY***", "GS PAPER --I HISTORY"),
        ("<strong>Planning</strong>", "Planning"),
        ("**Introduction:**", None),  # ends in a colon: a lead-in, not a heading
        ("**Note.**", None),
        ("**A** and **B**", None),  # not only bold
        ("**Bold** then text", None),
        ("**" + " ".join(["word"] * 13) + "**", None),  # over 12 words
        ("**Two\nlines**", None),
        ("**Fig 4.1 Income Statement Projection Comparison**", None),  # a caption (issue 22)
        ("**Table 3: Results**", None),
        ("**Figures of speech**", "Figures of speech"),
    ],
)
def test_bold_heading(content: str, title: str | None) -> None:
    assert bold_heading(content) == title


def test_pandoc_heading() -> None:
    assert pandoc_heading("**[Right to Equality]{.underline}**") == "Right to Equality"
    assert pandoc_heading("<u>Underlined</u>") == "Underlined"
    assert pandoc_heading("[a]{.underline} and more") is None


def paths(doc: str, **kw: bool | int) -> list[tuple[tuple[str, ...], int, list[str]]]:
    parsed = parse_markdown_sections(doc, **kw)  # type: ignore[arg-type]
    return [(s.path, s.level, [u.text for u in s.units]) for s in parsed.sections]


def test_bold_lines_are_headings_one_level_below_the_current_hash_level() -> None:
    doc = (
        "# History\n\n**Ancient**\n\nIndus text.\n\n**Medieval**\n\nDelhi text.\n\n"
        "## Modern\n\n**Revolt**\n\n1857 text.\n"
    )
    assert paths(doc) == [
        (("History",), 1, []),
        (("History", "Ancient"), 2, ["Indus text."]),
        (("History", "Medieval"), 2, ["Delhi text."]),
        (("History", "Modern"), 2, []),
        (("History", "Modern", "Revolt"), 3, ["1857 text."]),
    ]


def test_bold_line_needs_content_after_it() -> None:
    doc = "**Run-in**\n\n# Next\n\ntext\n\n**Last line**\n"
    assert paths(doc) == [((), 0, ["Run-in"]), (("Next",), 1, ["text", "Last line"])]


def test_bold_headings_off_restores_the_seed() -> None:
    doc = "**Ancient**\n\nIndus text.\n"
    assert paths(doc, bold_headings=False) == [((), 0, ["Ancient", "Indus text."])]
    assert paths(doc) == [(("Ancient",), 1, ["Indus text."])]


def test_bold_inside_a_list_is_not_a_heading() -> None:
    assert paths("- **Item**\n\n  text\n") == [((), 0, ["- Item", "text"])]


def test_long_heading_is_cut_in_the_path_and_kept_in_the_text() -> None:
    long = " ".join(f"w{i}" for i in range(20))
    doc = f"## {long}\n\nBody.\n"
    ((path, _, texts),) = paths(doc)
    assert path == (" ".join(f"w{i}" for i in range(15)) + "…",)
    assert texts == [long, "Body."]
    assert paths(doc, heading_max_words=25)[0][0] == (long,)


def test_config_keys_reach_the_runner() -> None:
    from chunks import chunk_markdown
    from conftest import PeriodSegmenter
    from notechunk.config import config_from_dict

    doc = "**Ancient**\n\nThe Indus cities had planned streets and drains.\n"
    seg = PeriodSegmenter()
    on = chunk_markdown(doc, "a.md", config_from_dict({}), seg)
    off = chunk_markdown(doc, "a.md", config_from_dict({"markdown": {"bold_headings": False}}), seg)
    assert [c.section_path for c in on] == [("Ancient",)]
    assert [c.section_path for c in off] == [()] and off[0].text.startswith("Ancient\n")
    long = "# " + " ".join(["word"] * 20) + "\n\ntext\n"
    cut = chunk_markdown(
        long, "a.md", config_from_dict({"markdown": {"heading_max_words": 5}}), seg
    )
    assert cut[0].section_path == ("word word word word word…",)
