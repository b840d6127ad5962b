"""The Logseq dialect (markdown/logseq.py): each rule on a small page written from
Logseq's documented file syntax (docs.logseq.com: blocks, properties, block references,
macros, org blocks, namespaces), and the whole corpus' Logseq graphs checked for what a
reader of the rendered page never sees."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chunks import chunk_markdown
from conftest import corpus
from notechunk.chunk import Chunk
from notechunk.config import Config
from notechunk.corpus.blockrefs import link_block_refs
from notechunk.discover import discover
from notechunk.markdown.logseq import (
    RULES,
    block_ids,
    is_logseq,
    namespace_title,
    refs_in,
)
from notechunk.markdown.sections import parse_markdown_sections
from notechunk.perfile import process_files

U1 = "64a0c3f2-1b2c-4d5e-8f90-0a1b2c3d4e5f"
U2 = "64a0c3f2-1b2c-4d5e-8f90-ffffffffffff"


def chunks(text: str, seg: object, source: str = "pages/p.md") -> list[Chunk]:
    return chunk_markdown(text, source, Config(), seg)  # type: ignore[arg-type]


def texts(text: str) -> list[str]:
    return [u.text for s in parse_markdown_sections(text).sections for u in s.units]


def test_rules_are_one_table_of_named_rows() -> None:
    names = [name for name, _ in RULES]
    assert names == [
        "page_properties",
        "org_blocks",
        "drawers",
        "block_properties",
        "macros",
        "block_refs",
        "hash_tags",
        "empty_bullets",
    ]
    assert all(callable(rule) for _, rule in RULES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"- a\n  id:: {U1}\n", True),
        (f"- see (({U1}))\n", True),
        ("- a\n  collapsed:: true\n\t- b\n", True),
        ("- {{cloze x}}\n", True),
        ("type:: book\n\n- a\n\t- b\n  more\n", True),
        ("# Title\n\nup:: [[Index]]\n\nA paragraph of prose.\nAnother line.\n", False),
        ("- just\n- a list\n", False),
        ("up:: [[Index]]\n", False),
        ("up:: [[Index|home]]\n\n- a\n- b\n", False),
    ],
    ids=[
        "id",
        "ref",
        "collapsed",
        "cloze",
        "page-props-outline",
        "dataview-field",
        "plain-list",
        "fields-only",
        "obsidian-alias",
    ],
)
def test_recognised_by_its_own_syntax(text: str, expected: bool) -> None:
    assert is_logseq(text) is expected


def test_page_properties_go_to_properties_title_alias_into_context(seg: object) -> None:
    page = (
        "title:: Error correction\nalias:: QEC, codes\ntype:: topic\ntags:: physics, [[quantum]]\n"
        "\n- The bit-flip code protects one qubit.\n"
    )
    (c,) = chunks(page, seg)
    assert c.title == "Error correction"
    assert dict(c.properties) == {
        "title": "Error correction",
        "alias": "QEC, codes",
        "type": "topic",
    }
    assert set(c.tags) >= {"physics", "quantum"}
    assert "::" not in c.text and "type" not in c.text
    assert c.embed_text.startswith("Error correction (QEC, codes)\n")


def test_block_properties_dropped_property_only_block_kept(seg: object) -> None:
    page = (
        f"- Shor's code\n  id:: {U1}\n  collapsed:: true\n  card-last-score:: 5\n"
        "\t- nine qubits\n\t  heading:: 2\n"
        "- reference:: 4.1\n"
        f"- id:: {U2}\n"
        "- tags:: exam, [[week 3]]\n"
    )
    (c,) = chunks(page, seg)
    assert c.text == "- Shor's code\n  - nine qubits\n- reference: 4.1"
    assert {"exam", "week 3"} <= set(c.tags)


def test_block_refs_and_embeds_resolved_in_the_page_else_flagged(seg: object) -> None:
    page = (
        f"- Parity checks find the flipped bit.\n  id:: {U1}\n"
        f"- Recall (({U1})) here.\n"
        f"- {{{{embed (({U1}))}}}}\n"
        f"- Missing (({U2})) ref.\n"
    )
    got = chunks(page, seg)
    text = "\n".join(c.text for c in got)
    assert "Recall Parity checks find the flipped bit. here." in text
    assert text.count("Parity checks find the flipped bit.") == 3
    assert "((" not in text and "{{" not in text
    assert "Missing ref." in text
    flagged = [c for c in got if "unresolved_ref" in c.flags]
    assert flagged and all("Missing" in c.text for c in flagged)


def test_refs_from_other_pages_through_the_corpus_pass(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "a.md").write_text(f"- Hamming distance is 3.\n  id:: {U1}\n")
    (tmp_path / "pages" / "b.md").write_text(f"- Why it corrects one error: (({U1}))\n")
    found = link_block_refs(discover(tmp_path), 1 << 20)
    refs = {f.rel: f.refs for f in found.files}
    assert refs == {"pages/a.md": (), "pages/b.md": ((U1, "Hamming distance is 3."),)}
    got = {r.source: r.chunks for r in process_files(found.files, Config())}
    (b,) = got["pages/b.md"]
    assert b.text == "- Why it corrects one error: Hamming distance is 3."
    assert "unresolved_ref" not in b.flags


def test_block_ids_and_refs_in() -> None:
    page = f"- First line\n  second line\n  id:: {U1.upper()}\n- (({U2})) and (({U1}))\n"
    assert block_ids(page) == {U1: "First line"}
    assert refs_in(page) == {U1, U2}
    marked = (
        f"- # Off-Page\n\t- ## Inlinks and Outlinks\n\t  id:: {U1}\n\t- > Quoted\n\t  id:: {U2}\n"
    )
    assert block_ids(marked) == {U1: "Inlinks and Outlinks", U2: "Quoted"}
    assert block_ids(f"- #tag first\n  id:: {U1}\n") == {U1: "#tag first"}  # a tag, no heading


@pytest.mark.parametrize(
    ("macro", "expected"),
    [
        ("{{cloze Shor}} found it", "- Shor found it"),
        ("Run {{query (todo now)}} daily", "- Run daily"),
        ("{{embed [[Hamming codes]]}}", "- Hamming codes"),
        ("Watch {{video https://example.org/v}} now", "- Watch now"),
        ("Sum {{renderer :calc, 1+1}} done", "- Sum done"),
    ],
    ids=["cloze", "query", "embed-page", "video", "renderer"],
)
def test_macros(macro: str, expected: str) -> None:
    assert texts(f"- {macro}\n  collapsed:: true\n") == [expected]


def test_tags_out_of_the_text(seg: object) -> None:
    page = "- What does a syndrome tell? #card #[[quantum codes]]\n\t- Which qubit flipped.\n"
    (c,) = chunks(page, seg)
    assert "#" not in c.text and "card" not in c.text
    assert {"card", "quantum codes"} <= set(c.tags)
    assert c.text == "- What does a syndrome tell?\n  - Which qubit flipped."


def test_empty_bullets_go_and_keep_children_nested() -> None:
    page = "- Parent\n\t-\n\t\t- child\n-\n- last\n  collapsed:: true\n"
    sections = parse_markdown_sections(page).sections
    assert [s.path for s in sections] == [()]  # an empty child is no setext underline
    units = sections[0].units
    assert [u.text for u in units] == ["- Parent", "    - child", "- last"]
    assert units[1].outline == ("Parent",)


def test_heading_bullet_is_a_heading(seg: object) -> None:
    page = "- ## Condensates\n\t- Bosons share one state.\n\t\tid:: " + U1 + "\n"
    (c,) = chunks(page, seg)
    assert c.section_path == ("Condensates",)
    assert c.text == "- Bosons share one state."


def test_org_blocks_keep_their_body(seg: object) -> None:
    page = (
        "- #+BEGIN_TIP\n  Measure parities, not qubits.\n  #+END_TIP\n"
        "- #+BEGIN_QUERY\n  {:query [:find ?b]}\n  #+END_QUERY\n"
        "- collapsed:: true\n"
    )
    (c,) = chunks(page, seg)
    assert c.text == "- Measure parities, not qubits."


def test_drawers_go(seg: object) -> None:
    page = (
        "- DONE Read chapter 3\n  :LOGBOOK:\n"
        "  CLOCK: [2024-05-01 Wed 10:00]--[2024-05-01 Wed 10:30] =>  00:30:00\n  :END:\n"
        "- :LOGBOOK:\n  CLOCK: [2024-05-02 Thu 09:00]\n  :END:\n"
        "- Next block\n"
    )
    (c,) = chunks(page, seg)
    assert c.text == "- DONE Read chapter 3\n- Next block"


def test_highlight_page_of_properties_only_is_logseq(seg: object) -> None:
    page = "file:: [book.pdf](../assets/book.pdf)\nfile-path:: ../assets/book.pdf\n"
    assert is_logseq(page)
    assert chunks(page, seg, "pages/hls__book.md") == []


def test_what_goes_is_kept_with_its_reason() -> None:
    page = (
        f"- Block\n  id:: {U1}\n  :LOGBOOK:\n  CLOCK: [2024-05-02 Thu 09:00]\n  :END:\n"
        "- Run {{query (todo now)}}\n- #+BEGIN_QUERY\n  {:query [:find ?b]}\n  #+END_QUERY\n"
    )
    skipped = [s for s in parse_markdown_sections(page).skipped if s.reason.startswith("logseq")]
    assert [(s.reason, s.first, s.text.strip()) for s in skipped] == [  # by rule
        ("logseq_query", 8, "{:query [:find ?b]}"),
        ("logseq_drawer", 3, ":LOGBOOK:"),
        ("logseq_drawer", 4, "CLOCK: [2024-05-02 Thu 09:00]"),
        ("logseq_drawer", 5, ":END:"),
        ("logseq_property", 2, f"id:: {U1}"),
        ("logseq_macro", 6, "{{query (todo now)}}"),
    ]


def test_code_is_verbatim() -> None:
    page = "- Example\n  ```\n  id:: not-a-property\n  {{cloze kept}}\n  ```\n  collapsed:: true\n"
    (code,) = [t for t in texts(page) if t.startswith("```")]
    assert "id:: not-a-property" in code and "{{cloze kept}}" in code


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("pages/Book___Kubernetes Patterns.md", "Book > Kubernetes Patterns"),
        ("pages/Book ___ Quarkus.md", "Book > Quarkus"),
        ("pages/course%2FAI%2Fweek 1.md", "course > AI > week 1"),
        ("pages/Chapter%3A one.md", "Chapter: one"),
        ("pages/economics.MIT.Micro.md", None),
        ("pages/plain page.md", None),
    ],
    ids=["triple-underscore", "spaced", "slash-escape", "colon-escape", "dots-not-ours", "plain"],
)
def test_namespace_titles(source: str, expected: str | None) -> None:
    assert namespace_title(source) == expected


def test_namespace_page_title_in_context(seg: object) -> None:
    (c,) = chunks("- Pods run containers.\n", seg, "pages/Book___Kubernetes Patterns.md")
    assert c.title == "Book > Kubernetes Patterns"
    assert c.embed_text.startswith("Book > Kubernetes Patterns\n")


def test_journal_page_titled_and_dated_by_its_day(seg: object) -> None:
    (c,) = chunks("- Read about [[Hamming codes]].\n", seg, "journals/2024_05_06.md")
    assert (c.title, c.created) == ("2024-05-06", "2024-05-06")
    (d,) = chunks("- Not a journal.\n", seg, "pages/2024_05_06.md")
    assert (d.title, d.created) == ("2024 05 06", None)


# --- the corpus: every Logseq graph of ../shared/corpora/notes-outline ------------------

_PROPERTY = re.compile(r"^[ \t]*(?:- )?[A-Za-z][\w.-]*:: ", re.M)
_META = re.compile(r"^[ \t]*(?:- )?(?:id|collapsed|card-[\w-]+): ", re.M)
_UUID_REF = re.compile(r"\(\([0-9a-fA-F-]{36}\)\)")
_MACRO = re.compile(r"\{\{[A-Za-z][\w-]*(?:[ :][^{}\n]*)?\}\}")
_CARD = re.compile(r"#card\b", re.I)
_EMPTY = re.compile(r"^[ \t]*[-*][ \t]*$", re.M)
# verbatim text (code, math) is read as one mark: `{{x}}` in TeX is no macro
_VERBATIM = re.compile(r"^```[^\n]*\n.*?^```[ \t]*$|`[^`\n]+`|\$\$.*?\$\$|\$[^$\n]+\$", re.M | re.S)


@pytest.mark.corpus
def test_logseq_graphs_leave_no_syntax_and_carry_outline_context() -> None:
    root = corpus("notes-outline", "logseq")
    found = link_block_refs(discover(root), 64 << 20)
    results = list(process_files(found.files, Config()))
    kept = [c for r in results for c in r.chunks if not c.omit]
    assert len(kept) > 500
    left = {
        name: [
            f"{c.source}:{c.lines}"
            for c in kept
            if rx.search(_VERBATIM.sub("§", c.text)) and (name != "empty" or "|" not in c.text)
        ]
        for name, rx in (
            ("property", _PROPERTY),
            ("meta", _META),
            ("ref", _UUID_REF),
            ("macro", _MACRO),
            ("card", _CARD),
            ("empty", _EMPTY),
        )
    }
    assert left == dict.fromkeys(left, [])
    nested = [c for c in kept if _starts_nested(c, root)]
    with_context = [c for c in nested if c.outline_path or c.section_path]  # `- ## X` parents
    assert len(nested) > 100
    assert len(with_context) >= 0.8 * len(nested), (len(with_context), len(nested))


def _starts_nested(c: Chunk, root: Path) -> bool:
    """The chunk's first line is a nested bullet in its source (a tab or spaces before
    the `- `): it starts inside an outline, under a parent item."""
    assert c.lines is not None
    line = (root / c.source).read_text("utf-8", "replace").split("\n")[c.lines[0] - 1]
    return re.match(r"[ \t]+[-*] ", line) is not None
