"""The Markdown runner on real notes (issue 11): ../shared/corpora/notes-md (all five
folders) and notes-messy (pandoc, OneNote, HTML-styled and Obsidian exports).

Holds, over each corpus, with the default config: markup a reader never sees
(tests/markdown_measure.py) in at most 1% of kept chunks; at most 2% of kept chunks
without a heading path or title context (the document's title: front matter, OneNote
page title, else its file name, or its folder's for a README); no heading over
15 words; no kept chunk over 300 words; every omitted chunk says why. The per-folder
figures are printed by bench/corpus_markdown.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from chunks import chunk_markdown
from conftest import corpus
from markdown_measure import document_name, leftover
from notechunk.config import Config
from notechunk.markdown.sections import make_block_parser, parse_markdown_sections
from notechunk.segment import get_segmenter

pytestmark = pytest.mark.corpus

OMIT_REASONS = ("toc", "context_dead")


@dataclass
class Tally:
    kept: int = 0
    leftovers: list[str] = field(default_factory=list)
    pathless: int = 0
    no_context: list[str] = field(default_factory=list)
    long_headings: list[str] = field(default_factory=list)
    over_300: list[str] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)


def measure(root: Path) -> Tally:
    cfg = Config()
    seg = get_segmenter(cfg.segmenter)
    parser = make_block_parser()
    t = Tally()
    notes = (p for folder in sorted(root.iterdir()) if folder.is_dir() for p in folder.rglob("*"))
    for path in sorted(p for p in notes if p.suffix == ".md" and p.is_file()):  # not SOURCES.md
        rel = path.relative_to(root).as_posix()
        text = path.read_bytes().decode("utf-8", errors="replace")
        parsed = parse_markdown_sections(text, parser)
        named = document_name(path) is not None
        for s in parsed.sections:
            if s.path and len(s.path[-1].split()) > 15:
                t.long_headings.append(f"{rel}: {s.path[-1]}")
        for c in chunk_markdown(text, rel, cfg, seg, parser):
            if c.omit:
                if not any(f.startswith(OMIT_REASONS) for f in c.flags):
                    t.unexplained.append(f"{rel}:{c.lines}")
                continue
            t.kept += 1
            where = f"{rel}:{c.lines}"
            if (hit := leftover(c.text)) is not None:
                t.leftovers.append(f"{where} {hit!r}")
            if not c.section_path:
                t.pathless += 1
                if not parsed.title and not named:
                    t.no_context.append(where)
            if c.word_count > 300:
                t.over_300.append(where)
    return t


@pytest.mark.parametrize("name", ["notes-md", "notes-messy"])
def test_markdown_structure_on_real_notes(name: str) -> None:
    t = measure(corpus(name))
    assert t.kept > 1000
    print(
        f"{name}: {t.kept} kept, leftovers {len(t.leftovers) / t.kept:.2%}, "
        f"no path {t.pathless / t.kept:.2%}, no path nor title {len(t.no_context) / t.kept:.2%}"
    )
    assert len(t.leftovers) <= 0.01 * t.kept, t.leftovers[:20]
    assert len(t.no_context) <= 0.02 * t.kept, t.no_context[:20]
    assert t.long_headings == []
    assert t.over_300 == []
    assert t.unexplained == []
