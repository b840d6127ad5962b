"""Outlines as outlines (SPEC §1.1, v3): nested list items at their depth, never code; a
chunk that starts inside an outline carries its first item's parents (`outline_path`,
after the heading path in `embed_text`); a window never ends on a parent item whose
children it leaves to the next one. Plain nested Markdown lists, tab-nested bullets and
pandoc fancy-list outlines alike."""

from __future__ import annotations

import pytest

import notechunk
from chunks import chunk_markdown
from notechunk.config import Config, config_from_dict
from notechunk.markdown.sections import make_parser, parse_markdown_sections
from notechunk.markdown.windows import window_ranges

TABS = (
    "# Codes\n\n"
    "- Three-qubit bit-flip code\n"
    "\t- Decoding\n"
    "\t\t- Measure both parities.\n"
    "\t\t\t- If the first is 1 the 1st or 2nd bit flipped.\n"
)


@pytest.mark.parametrize("reference", [False, True], ids=["rust", "markdown-it-py"])
def test_tab_nested_bullets_are_items_with_their_parents(reference: bool) -> None:
    parsed = parse_markdown_sections(TABS, make_parser() if reference else None)
    units = parsed.sections[0].units
    assert all(u.kind == "prose" for u in units)
    assert [(u.depth, u.outline) for u in units] == [
        (1, ()),
        (2, ("Three-qubit bit-flip code",)),
        (3, ("Three-qubit bit-flip code", "Decoding")),
        (4, ("Three-qubit bit-flip code", "Decoding", "Measure both parities.")),
    ]


@pytest.mark.parametrize("reference", [False, True], ids=["rust", "markdown-it-py"])
def test_tab_indented_bullets_under_a_heading_are_a_list(reference: bool) -> None:
    doc = "### Why use it?\n\t- Runs scripts\n\t\t- no build file\n\t- Fetches deps\n"
    units = parse_markdown_sections(doc, make_parser() if reference else None).sections[0].units
    assert [(u.kind, u.text, u.outline) for u in units] == [
        ("prose", "- Runs scripts", ()),
        ("prose", "  - no build file", ("Runs scripts",)),
        ("prose", "- Fetches deps", ()),
    ]


def test_indented_code_that_is_no_outline_stays_code() -> None:
    doc = "# Diff\n\n    - removed line\n    + added line\n    plain context\n"
    (unit,) = parse_markdown_sections(doc).sections[0].units
    assert unit.kind == "code"


def test_a_later_block_of_an_item_stands_under_the_item() -> None:
    doc = "- Decoding\n\n  A second paragraph of it.\n\n  - child\n"
    units = parse_markdown_sections(doc).sections[0].units
    assert [u.outline for u in units] == [(), ("Decoding",), ("Decoding",)]


def test_parents_cut_to_parent_words() -> None:
    long = "one two three four five six seven eight nine ten eleven twelve thirteen"
    units = parse_markdown_sections(f"- {long}\n  - child\n", parent_words=4).sections[0].units
    assert units[1].outline == ("one two three four…",)


def test_pandoc_fancy_list_outline() -> None:
    doc = (
        "I.  Homicide\n\n"
        "    A.  Murder\n\n"
        "        1.  Malice aforethought\n\n"
        "            a)  Intent to kill is express malice.\n"
    )
    units = parse_markdown_sections(doc).sections[0].units
    assert all(u.kind == "prose" for u in units)
    assert units[-1].outline == ("Homicide", "Murder", "Malice aforethought")
    assert units[-1].text.lstrip().startswith("a) Intent")


def _cfg(**md: int | float) -> Config:
    return config_from_dict({"markdown": md, "enrich": {"merge_sections": False}})


def test_chunk_starting_inside_an_outline_carries_its_parents(seg: object) -> None:
    items = "".join(f"\t\t- Step {k} of the decoding is done here.\n" for k in range(8))
    doc = "# Codes\n\n- Bit-flip code\n\t- Decoding\n" + items
    cfg = _cfg(window_max_words=20, overlap=0, bullet_merge_under_words=0)
    got = chunk_markdown(doc, "q.md", cfg, seg)  # type: ignore[arg-type]
    assert len(got) > 2
    later = got[-1]
    assert later.outline_path == ("Bit-flip code", "Decoding")
    assert later.embed_text.startswith("q > Codes > Bit-flip code > Decoding\n- Step")
    assert got[0].outline_path == ()  # it starts at the outline's root
    assert later.to_json()["outline_path"] == ["Bit-flip code", "Decoding"]


def test_a_window_starting_at_a_nested_item_keeps_relative_depths(seg: object) -> None:
    doc = "- Root item\n  - Parent item\n    - child one\n    - child two\n"
    cfg = _cfg(window_sentences=3, overlap=0.67, bullet_merge_under_words=0)
    got = chunk_markdown(doc, "d.md", cfg, seg)  # type: ignore[arg-type]
    assert got[-1].text == "- Parent item\n  - child one\n  - child two"
    assert got[-1].outline_path == ("Root item",)


def test_window_never_ends_on_a_lead_in(seg: object) -> None:
    doc = (
        "- First point is made here in words.\n"
        "- Second point is made here in words.\n"
        "- Use of force to prevent escape:\n"
        "  - the officer may use force.\n"
        "  - only when needed.\n"
    )
    cfg = _cfg(window_max_words=22, overlap=0, bullet_merge_under_words=0)
    got = chunk_markdown(doc, "law.md", cfg, seg)  # type: ignore[arg-type]
    assert not any(c.text.endswith("escape:") for c in got)
    lead = next(c for c in got if "escape:" in c.text)
    assert "the officer may use force." in lead.text


@pytest.mark.parametrize(
    ("leads", "expected"),
    [
        ([False, False, True, False, False], [(0, 2), (2, 5)]),
        ([False, True, True, False, False], [(0, 1), (1, 4), (4, 5)]),
        ([True, True, True, False, False], [(0, 3), (3, 5)]),
        (None, [(0, 3), (3, 5)]),
    ],
    ids=["one-lead", "chained-leads", "all-leads-keep-the-window", "no-outline"],
)
def test_window_ranges_step_back_before_leads(
    leads: list[bool] | None, expected: list[tuple[int, int]]
) -> None:
    md = _cfg(window_sentences=3, overlap=0, window_max_words=0).markdown
    assert window_ranges([5] * 5, md, None, leads) == expected


def test_a_heading_bullet_with_no_children_is_an_item_not_a_heading() -> None:
    """`- ### X` heads the items nested under it; alone in its item it heads nothing, so
    it is the item's text (as a heading its words would be in no chunk)."""
    doc = (
        "- ## Health Probe\n"
        "\t- Process health checks are done by the kubelet.\n"
        "\t- ### Readiness Probe\n"
        "\t- ### Liveness Probe\n"
    )
    [chunk] = notechunk.chunk_markdown_text(doc)
    assert chunk.section_path == ("Health Probe",)
    assert "- Readiness Probe" in chunk.text and "- Liveness Probe" in chunk.text
    assert "#" not in chunk.text


def test_a_window_that_starts_inside_a_long_item_names_the_item() -> None:
    """A long item cut between windows: the later window's outline path ends with the
    item's opening words, which say what its sentences are about."""
    sentences = " ".join(f"Fact number {k} about the component holds here." for k in range(40))
    doc = f"# Vue\n\n- Components\n\t- In the object we put two things. {sentences}\n"
    chunks = notechunk.chunk_markdown_text(doc)
    assert len(chunks) > 1
    assert chunks[0].outline_path == ()
    for later in chunks[1:]:
        assert later.outline_path == (
            "Components",
            "In the object we put two things. Fact number 0 about the…",
        )
        assert "Components > In the object we put two things." in later.embed_text
