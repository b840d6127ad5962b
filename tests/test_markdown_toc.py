"""Tables of contents: flagged `toc` and omitted, never merged with content."""

from __future__ import annotations

from chunks import chunk_markdown
from conftest import PeriodSegmenter
from notechunk.config import Config
from notechunk.markdown.sections import parse_markdown_sections
from notechunk.markdown.toc import toc_entry, toc_runs


def test_entries() -> None:
    assert toc_entry("[The Revolt of 1857](#the-revolt-of-1857)")
    assert toc_entry("[Предисловие [2](#предисловие)](#предисловие)")
    assert toc_entry("Introduction ........ 3")
    assert not toc_entry("[Site](https://example.org) text [x](#y)")
    assert not toc_entry("A sentence that ends with 3")


def test_runs() -> None:
    assert toc_runs([0, 1, 1, 0, 1, 1, 1, 0], under_toc_heading=False) == [(4, 7)]
    assert toc_runs([1, 1], under_toc_heading=True) == [(0, 2)]
    assert toc_runs([0, 2, 0], under_toc_heading=False) == [(1, 2)]


CONTENTS = (
    "## India's Struggle for Independence\n\n### Contents\n\n"
    "1. [The Revolt of 1857](#the-revolt-of-1857)\n2. [Civil Rebellions](#civil-rebellions)\n\n"
    "### The Revolt of 1857\n\n- It began at Meerut on 10 May 1857.\n"
)


def test_contents_section_is_its_own_toc_section() -> None:
    parsed = parse_markdown_sections(CONTENTS)
    assert [(s.path[-1], s.toc) for s in parsed.sections] == [
        ("India's Struggle for Independence", False),
        ("Contents", True),
        ("The Revolt of 1857", False),
    ]


def test_toc_chunk_is_flagged_omitted_and_not_merged() -> None:
    chunks = chunk_markdown(CONTENTS, "c.md", Config(), PeriodSegmenter())
    toc = [c for c in chunks if "toc" in c.flags]
    assert len(toc) == 1 and toc[0].omit and toc[0].text.startswith("1. The Revolt of 1857")
    kept = [c for c in chunks if not c.omit]
    assert [c.text for c in kept] == ["- It began at Meerut on 10 May 1857."]


def test_obsidian_toc_block_and_link_run_in_a_section() -> None:
    doc = (
        "# Sources\n\nIntro text.\n\n```toc\nstyle: number\n```\n\n"
        "[Preface [2](#preface)](#preface)\n\n[Structure [2](#structure)](#structure)\n\n"
        "[Abbreviations [3](#abbr)](#abbr)\n\nMain text.\n"
    )
    parsed = parse_markdown_sections(doc)
    assert [(s.toc, [u.text for u in s.units]) for s in parsed.sections] == [
        (False, ["Intro text."]),
        (True, ["```toc\nstyle: number\n```", "Preface 2", "Structure 2", "Abbreviations 3"]),
        (False, ["Main text."]),
    ]
