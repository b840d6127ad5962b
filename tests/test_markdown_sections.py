from __future__ import annotations

import json

import pytest

from conftest import corpus
from notechunk.markdown.sections import parse_markdown_sections, split_front_matter

DOC = """---
title: Polity
tags: [rights]
---
Intro line.

# Fundamental Rights
Rights text.

[Right to Equality]{.underline}

- Art. 14
- Art. 15
  - nested

**[Right to Freedom]{.underline}**

```
# not a heading
```

    # indented code, not a heading

Setext Title
------------

| Article | Subject |
|---|---|
| 32 | Remedies |

<u>Underlined</u>

Last words.
"""


def test_sections_paths_levels_lines() -> None:
    parsed = parse_markdown_sections(DOC)
    assert parsed.metadata == {"title": "Polity", "tags": "rights"}
    assert (parsed.title, parsed.tags) == ("Polity", ("rights",))
    got = [(s.path, s.lines) for s in parsed.sections]
    assert got == [
        ((), (5, 5)),
        (("Fundamental Rights",), (7, 8)),
        (("Fundamental Rights", "Right to Equality"), (10, 14)),
        (("Fundamental Rights", "Right to Freedom"), (16, 22)),
        (("Fundamental Rights", "Setext Title"), (24, 29)),
        (("Fundamental Rights", "Setext Title", "Underlined"), (31, 33)),
    ]
    equality = parsed.sections[2]
    assert [u.text for u in equality.units] == ["- Art. 14", "- Art. 15", "  - nested"]
    code = parsed.sections[3].units
    assert [u.kind for u in code] == ["code", "code"]
    assert "# not a heading" in code[0].text
    row = parsed.sections[4].units[0]
    assert (row.kind, row.text, row.first_line) == ("row", "Article: 32; Subject: Remedies", 29)


def test_heading_stack_rule() -> None:
    doc = "# A\n## B\n### C\ntext\n## D\ntext\n# E\ntext\n"
    paths = [s.path for s in parse_markdown_sections(doc).sections if s.units]
    assert paths == [("A", "B", "C"), ("A", "D"), ("E",)]


def test_hash_without_space_is_not_heading_and_ordered_lists_keep_numbers() -> None:
    doc = "#hashtag line\n\n1. The Act was passed.\n2. It came into force.\n"
    parsed = parse_markdown_sections(doc)
    assert parsed.sections[0].path == ()
    texts = [u.text for u in parsed.sections[0].units]
    assert texts == ["hashtag line", "1. The Act was passed.", "2. It came into force."]
    assert parsed.tags == ("hashtag",)  # an Obsidian tag: metadata, its word kept


def test_front_matter_keeps_line_numbers() -> None:
    meta, body = split_front_matter("---\na: 1\n---\ntext\n")
    assert meta == {"a": "1"}
    assert body.split("\n")[3] == "text"
    assert split_front_matter("--- not front matter\n") == ({}, "--- not front matter\n")


@pytest.mark.parametrize("depth", [25, 120, 1500])
def test_deep_nesting_keeps_text(depth: int) -> None:
    quote = ">" * depth + " deep quote text\n"
    lists = "".join("  " * i + f"- item{i}\n" for i in range(depth))
    for doc, marker in ((quote, "deep quote text"), (lists, f"item{depth - 1}")):
        parsed = parse_markdown_sections(doc)
        text = "\n".join(u.text for s in parsed.sections for u in s.units)
        assert marker in text


def test_unclosed_fence_and_headings_only() -> None:
    parsed = parse_markdown_sections("# A\n```\ncode # x\n")
    assert parsed.sections[0].units[0].kind == "code"
    only = parse_markdown_sections("# A\n## B\n")
    assert all(not s.units for s in only.sections)


def test_commonmark_headings_agree_with_spec_examples() -> None:
    """For every CommonMark example, our headings are exactly the spec's <h1>..<h6>."""
    import re

    examples = json.loads(corpus("commonmark", "spec.json").read_text())
    wrong = []
    for ex in examples:
        if ex["markdown"].startswith("---"):
            continue  # front matter for us (Obsidian, pandoc), a rule for CommonMark
        expected = len(re.findall(r"^<h[1-6]>(?!</h)", ex["html"], re.M))
        parsed = parse_markdown_sections(ex["markdown"])
        got = sum(1 for s in parsed.sections if s.path and s.level <= 6)
        top = not re.search(r"<(blockquote|li)>\s*<h", ex["html"])
        if top and got != expected:
            wrong.append(ex["example"])
    assert wrong == []


def test_a_heading_loses_the_image_beside_its_words() -> None:
    """A Word export puts a figure's alt text into the heading it sits in ("Shape
    Description automatically generated"): the heading is its words; an image alone
    stays the heading."""
    doc = (
        '### ![Shape Description automatically generated](media/i1.png){width="1in"}'
        "Optical trapping {#optical}\n\nA laser traps a bead.\n\n"
        "### ![Only a figure](media/i2.png)\n\nThe figure is all the heading says.\n"
    )
    paths = [s.path for s in parse_markdown_sections(doc).sections if s.units]
    assert paths == [("Optical trapping",), ("Only a figure",)]


def test_heading_attribute_lists_stay_out_of_the_section_path() -> None:
    """attr_list's `{: #id .class }` (kramdown's colon) and pandoc's `{#id}` end a
    heading in MkDocs and pandoc notes; the id is no tag and the block no title."""
    doc = (
        "# Metabolism {: #metabolism .wide }\n\nEnergy.\n\n"
        "## Glycolysis {#glycolysis}\n\nTen steps.\n\n"
        "## Krebs cycle {: .lead }\n\nEight steps.\n"
    )
    parsed = parse_markdown_sections(doc)
    paths = [s.path for s in parsed.sections if s.units]
    assert paths == [
        ("Metabolism",),
        ("Metabolism", "Glycolysis"),
        ("Metabolism", "Krebs cycle"),
    ]
    assert parsed.tags == ()
