"""The fast path (markdown-it-pyrs) gives exactly the sections of the reference path
(markdown-it-py): on every CommonMark spec example, on the notes corpus, on edge cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import corpus
from notechunk.markdown.rsblocks import MAX_PREFIX, rust_parser, to_tokens
from notechunk.markdown.sections import BlockParser, make_parser, parse_markdown_sections

pytest.importorskip("markdown_it_pyrs")

FAST = BlockParser()
REFERENCE = make_parser()

CASES = {
    "lists": "1. one\n2) two\n\n- a\n  - b\n    continued\n\n* loose\n\n* items\n",
    "quote": "> # Quoted heading\n> - item\n>   more\n> lazy\n",
    "table": "| a | b |\n|---|---|\n| 1 |\n| 2 | 3 | 4 |\n",
    "fences": "```py title\ncode\n```\n\n~~~\nopen to the end\n",
    "pandoc": "**[Title]{.underline}**\n\ntext\n\n<u>Other</u>\n\nmore\n",
    "front": "---\ntitle: x\n---\n# A\n\ntext\n",
    "unicode": "# Tïtle ✓\n\nnaïve café — “quotes”\n\n## 日本語\n\n本文。\n",
    "crlf": "# A\r\nline\r\n\r\n- b\r\n",
    "empty_items": "- \n-\n- x\n",
    "html": "<div>\nhi\n</div>\n\n<!-- c -->\ntext\n",
    "fancy": "I.  Top\n\n    a.  Sub\n\n        i.  Deep\n\nII. Next\n\n(1) one\n(2) two\n",
    "pandoc_tables": (
        "  A     B\n-----  -----\n  1     2\n\n+---+---+\n| x | y |\n+===+===+\n| 1 | 2 |\n"
        "+---+---+\n\n- item\n\n  -------  -------\n  a        b\n  -------  -------\n"
    ),
    "html_headings": (
        "<h2>Title &amp; more</h2>\n\n<table><tr><th>a</th></tr>\n\n<tr><td>1</td></tr></table>\n"
    ),
    "obsidian": "> [!note] Title\n> body #tag\n\n%%\nhidden\n%%\n```ad-note\ntitle: T\n- x\n```\n",
    "bold": "# A\n\n**Bold heading**\n\ntext\n\n```toc\n```\n",
}


def _same(text: str) -> None:
    assert parse_markdown_sections(text, FAST) == parse_markdown_sections(text, REFERENCE)


@pytest.mark.parametrize("name", sorted(CASES))
def test_edge_cases_identical(name: str) -> None:
    _same(CASES[name])


def test_fast_path_is_taken_and_deep_text_falls_back() -> None:
    rs = rust_parser()
    assert rs is not None and FAST.uses_rust
    assert to_tokens(rs, "# A\n\ntext\n") is not None
    assert to_tokens(rs, ">" * MAX_PREFIX + " deep\n") is None
    assert to_tokens(rs, "lone \udc80 surrogate") is None


def test_commonmark_spec_examples_identical() -> None:
    examples = json.loads(corpus("commonmark", "spec.json").read_text())
    wrong = [
        ex["example"]
        for ex in examples
        if parse_markdown_sections(ex["markdown"], FAST)
        != parse_markdown_sections(ex["markdown"], REFERENCE)
    ]
    assert wrong == []


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["notes-md", "notes-messy", "notes-outline"])
def test_notes_corpus_identical(name: str) -> None:
    root = corpus(name)
    files = sorted(p for p in Path(root).rglob("*.md") if p.is_file())
    assert files
    wrong = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if parse_markdown_sections(text, FAST) != parse_markdown_sections(text, REFERENCE):
            wrong.append(path.relative_to(root).as_posix())
    assert wrong == []
