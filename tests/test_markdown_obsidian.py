"""Obsidian syntax (help.obsidian.md): comments, callouts, tags, inline fields, and the
Admonition plugin's fences, each as a reader sees it; shapes from the corpus' vaults."""

from __future__ import annotations

import pytest

from notechunk.markdown.obsidian import (
    blank_comments,
    callout,
    drop_block_ids,
    inline_fields,
    take_tags,
)
from notechunk.markdown.sections import parse_markdown_sections


def units(doc: str) -> list[tuple[tuple[str, ...], str]]:
    return [(s.path, u.text) for s in parse_markdown_sections(doc).sections for u in s.units]


def test_comments_inline_and_across_blocks_keep_line_numbers() -> None:
    text = "a %%inline%% b\n%%\nblock\n\nstill hidden\n%%\nc"
    out = blank_comments(text)
    assert out == "a  b\n\n\n\n\n\nc"
    assert out.count("\n") == text.count("\n")
    assert units("# T\n\nkeep %%not this%% text\n\n%%\n# Hidden heading\n%%\n\nafter\n") == [
        (("T",), "keep  text"),
        (("T",), "after"),
    ]


def test_comment_in_code_stays() -> None:
    doc = "```sql\nSELECT '%%' LIKE '%%';\n```\n"
    assert units(doc) == [((), "```sql\nSELECT '%%' LIKE '%%';\n```")]


def test_callouts_keep_title_and_body() -> None:
    assert callout("[!note]- *République*, II, Platon\nLe texte.") == (
        "*République*, II, Platon",
        "Le texte.",
    )
    assert callout("[!tip] \nOnly a body") == ("", "Only a body")
    assert callout("[link](x) text") is None
    doc = "> [!important] Key point\n> The body line.\n>\n> Second paragraph.\n\n> > [!info] Deep\n"
    assert units(doc) == [
        ((), "Key point"),
        ((), "The body line."),
        ((), "Second paragraph."),
        ((), "Deep"),
    ]


@pytest.mark.parametrize(
    ("text", "clean", "tags"),
    [
        ("#extras #sql", "", ["extras", "sql"]),
        ("tags:: #extras", "", ["extras"]),
        ("An #important point", "An important point", ["important"]),
        ("Item #1 and C# and url.com/#frag", "Item #1 and C# and url.com/#frag", []),
        ("#include <stdio.h>", "#include <stdio.h>", []),
        ("- #status/draft", "", ["status/draft"]),
    ],
)
def test_tags(text: str, clean: str, tags: list[str]) -> None:
    assert take_tags(text) == (clean, tags)


def test_tags_reach_the_document_with_front_matter_tags() -> None:
    doc = '---\ntags:\n  - clippings\n  - "#web"\n---\n# Note\n\nText #med/cardio here.\n\n#exam\n'
    parsed = parse_markdown_sections(doc)
    assert parsed.tags == ("clippings", "web", "med/cardio", "exam")
    assert [u.text for s in parsed.sections for u in s.units] == ["Text med/cardio here."]


def test_block_ids() -> None:
    assert drop_block_ids("Rules violate Art 19 ^81fbda\nnext ^id-2 line") == (
        "Rules violate Art 19\nnext ^id-2 line"
    )
    assert units("- IT Rules: 3 tier structure ^81fbda\n") == [((), "- IT Rules: 3 tier structure")]


def test_inline_fields() -> None:
    assert inline_fields("up:: [[pkm_meta]]\nrel:: x") == "up: [[pkm_meta]]\nrel: x"
    assert inline_fields("a :: b and std::vector") == "a :: b and std::vector"
    assert units("up:: [[pkm_meta|PKM]]\n") == [((), "up: PKM")]


def test_admonition_fence_body_is_markdown() -> None:
    doc = (
        "# Q1\n\n```ad-Answer\ntitle: Model answer\ncollapse: open\n\n"
        "- Point with **bold**\n- Second [[Link|point]]\n\n## Not a code heading\n\ntext\n```\n"
    )
    assert units(doc) == [
        (("Q1",), "Model answer"),
        (("Q1",), "- Point with bold"),
        (("Q1",), "- Second point"),
        (("Q1", "Not a code heading"), "text"),
    ]


def test_embeds_and_wikilinks() -> None:
    assert units(
        "![[Pasted image 2023.png]]\nSee [[Hematology|blood counts]] and [[Anemia#Iron]].\n"
    ) == [((), "See blood counts and Anemia.")]
