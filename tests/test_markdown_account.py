"""The Markdown line account (issue 22): every non-blank line of a file is in some chunk's
`lines`, or skipped with its reason, or counted as unaccounted; over every shared corpus
(notes-md, notes-messy, notes-outline, commonmark's spec and its 652 examples) no line is
unaccounted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import corpus
from notechunk.chunk import Chunk, LineAccount, MarkdownSpan, SkippedLines
from notechunk.config import Config
from notechunk.markdown import markdown_pieces
from notechunk.markdown.account import line_account
from notechunk.perfile import Tools, process_markdown


def _chunk(first: int, last: int) -> Chunk:
    return Chunk(
        id="x",
        text="t",
        source="a.md",
        source_type="markdown",
        location=MarkdownSpan(first, last),
        section_path=(),
        title="a",
        embed_text="t",
        word_count=1,
        quality="ok",
        omit=False,
        flags=(),
        semantic_type="prose",
    )


def test_every_non_blank_line_is_counted_once() -> None:
    text = "# Title\n\nkept one\nkept two\n\nlost line\n\n---\n"
    skipped = [
        SkippedLines(first=1, last=1, reason="heading", text="# Title"),
        SkippedLines(first=8, last=8, reason="rule", text="---"),
    ]
    a = line_account(text, "a.md", [_chunk(3, 4)], skipped)
    assert (a.lines, a.in_chunks, a.skipped_lines, a.unaccounted) == (5, 2, 2, (6,))
    assert a.lines == a.in_chunks + a.skipped_lines + len(a.unaccounted)
    assert not a.conserved


def test_a_skip_inside_a_chunk_counts_as_in_the_chunk_and_is_not_listed() -> None:
    text = "a\nb\nc\n"
    skip = SkippedLines(first=2, last=2, reason="image", text="b")
    a = line_account(text, "a.md", [_chunk(1, 3)], [skip])
    assert (a.in_chunks, a.skipped_lines, a.skipped, a.conserved) == (3, 0, (), True)


def test_the_account_round_trips_through_json() -> None:
    skip = SkippedLines(first=1, last=2, reason="front_matter", text="---\n---")
    a = LineAccount(
        source="a.md", lines=3, in_chunks=1, skipped_lines=1, skipped=(skip,), unaccounted=(3,)
    )
    assert LineAccount.from_json(json.loads(json.dumps(a.to_json()))) == a


@pytest.fixture(scope="module")
def tools() -> tuple[Config, Tools]:
    cfg = Config()
    return cfg, Tools.load(cfg)


def _account(rel: str, data: bytes, tools: tuple[Config, Tools]) -> LineAccount:
    cfg, t = tools
    result = process_markdown(rel, data, cfg, t)
    assert not result.errors, result.errors
    (account,) = result.accounts
    return account


def test_lost_text_is_unaccounted(tools: tuple[Config, Tools]) -> None:
    """The account can fail: without its chunks, a file's text lines are unaccounted and
    only its heading is skipped."""
    text = "# A\n\nFirst paragraph here.\n\nSecond paragraph here.\n"
    cfg, t = tools
    pieces = markdown_pieces(text, "a.md", cfg, t.segmenter, t.parser)
    assert [s.reason for s in pieces.skipped] == ["heading"]
    lost = line_account(text, "a.md", (), pieces.skipped)
    assert (lost.unaccounted, lost.skipped_lines, lost.conserved) == ((3, 5), 1, False)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("---\ntitle: T\n---\nbody text\n", "front_matter"),
        ("# Heading\n\nbody text\n", "heading"),
        ("body text\n\n![](img.png)\n", "image"),
        ("body text\n\n!()[https://cdn.example.cc/1.png]\n", "image"),
        ("body text\n\n<!-- a note to self -->\n", "comment"),
        ("body text\n\n* * *\n", "rule"),
        ("body [x] text\n\n[x]: https://example.org\n", "link_definition"),
        ("body text\n\n%%hidden%%\n", "comment"),
        ("| a | b |\n| - | - |\n| 1 | 2 |\n", "table_header"),
    ],
)
def test_each_kind_of_skipped_line_has_its_reason(
    text: str, reason: str, tools: tuple[Config, Tools]
) -> None:
    a = _account("a.md", text.encode(), tools)
    assert a.conserved, a
    assert reason in {s.reason for s in a.skipped}


def _notes(root: Path) -> Iterator[Path]:
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):  # not SOURCES.md
        yield from sorted(p for p in folder.rglob("*.md") if p.is_file())


def _unaccounted(root: Path, tools: tuple[Config, Tools]) -> list[str]:
    out = []
    for path in _notes(root):
        rel = path.relative_to(root).as_posix()
        a = _account(rel, path.read_bytes(), tools)
        if a.unaccounted:
            out.append(f"{rel}: {len(a.unaccounted)} lines, first {a.unaccounted[:5]}")
    return out


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("name", ["notes-md", "notes-messy", "notes-outline"])
def test_no_line_of_a_shared_corpus_is_unaccounted(name: str, tools: tuple[Config, Tools]) -> None:
    lost = _unaccounted(corpus(name), tools)
    assert not lost, "\n".join(lost[:20])


@pytest.mark.corpus
def test_no_line_of_the_commonmark_spec_or_its_examples_is_unaccounted(
    tools: tuple[Config, Tools],
) -> None:
    root = corpus("commonmark")
    lost = []
    for ex in json.loads((root / "spec.json").read_text(encoding="utf-8")):
        a = _account(f"example-{ex['example']}.md", ex["markdown"].encode(), tools)
        if a.unaccounted:
            lost.append(f"example {ex['example']} ({ex['section']}): lines {a.unaccounted}")
    spec = _account("spec.md", (root / "spec-0.31.2.txt").read_bytes(), tools)
    if spec.unaccounted:
        lost.append(f"spec-0.31.2.txt: lines {spec.unaccounted[:20]}")
    assert not lost, "\n".join(lost[:20])
