"""Markdown structure on real notes: per corpus folder, what the Markdown runner finds and
what markup it leaves behind (issue 11's figures).

For each folder of ../shared/corpora/notes-md and notes-messy: files, chunks kept, share
of kept chunks with markup leftovers (tests/markdown_measure.py), without a heading path
(noPath), without a path or a title from the document (noP+T: front matter, OneNote
header), without those or a file/folder name (noPTN), headings found, chunks omitted as a
table of contents, the longest heading, kept chunks over 300 words, non-blank lines in
no chunk and skipped with no reason (unacc, issue 22's line account), seconds. Default
config and segmenter, one process. Writes bench/results/corpus_markdown.json.

    python bench/corpus_markdown.py [--corpus notes-md --corpus notes-messy] [--show-leftovers N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from benchlib import ROOT, corpora_dir, write_result

sys.path.insert(0, str(ROOT / "tests"))

from markdown_measure import document_name, leftover  # noqa: E402
from notechunk.config import Config  # noqa: E402
from notechunk.finish import finish_file  # noqa: E402
from notechunk.markdown import markdown_pieces  # noqa: E402
from notechunk.markdown.account import line_account  # noqa: E402
from notechunk.markdown.sections import make_block_parser, parse_markdown_sections  # noqa: E402
from notechunk.segment import get_segmenter  # noqa: E402


def measure(folder: Path, show: int) -> dict[str, Any]:
    cfg = Config()
    seg = get_segmenter(cfg.segmenter)
    parser = make_block_parser()
    row: dict[str, Any] = dict.fromkeys(
        (
            "files",
            "chunks",
            "kept",
            "leftovers",
            "pathless",
            "pathless_untitled",
            "pathless_unnamed",
            "headings",
            "toc_omitted",
            "over_300",
            "max_heading_words",
            "unaccounted",
        ),
        0,
    )
    examples: list[str] = []
    start = time.perf_counter()
    for path in sorted(p for p in folder.rglob("*.md") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        text = path.read_bytes().decode("utf-8", errors="replace")
        parsed = parse_markdown_sections(text, parser)
        title = getattr(parsed, "title", None)
        row["files"] += 1
        prev: tuple[str, ...] = ()
        for s in parsed.sections:  # a table of contents split off its section is no heading
            if s.path and s.path != prev:
                row["headings"] += 1
                row["max_heading_words"] = max(row["max_heading_words"], len(s.path[-1].split()))
            prev = s.path
        pieces = markdown_pieces(text, rel, cfg, seg, parser)
        chunks = finish_file(pieces, cfg)
        row["unaccounted"] += len(line_account(text, rel, chunks, pieces.skipped).unaccounted)
        for c in chunks:
            row["chunks"] += 1
            if "toc" in c.flags:
                row["toc_omitted"] += 1
            if c.omit:
                continue
            row["kept"] += 1
            if (hit := leftover(c.text)) is not None:
                row["leftovers"] += 1
                if len(examples) < show:
                    examples.append(f"{rel}:{c.lines}: {hit!r} in {c.text[:160]!r}")
            if not c.section_path:
                row["pathless"] += 1
                if not title:
                    row["pathless_untitled"] += 1
                    if document_name(path) is None:
                        row["pathless_unnamed"] += 1
            if c.word_count > 300:
                row["over_300"] += 1
    row["seconds"] = round(time.perf_counter() - start, 1)
    for line in examples:
        print("   ", line)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", action="append", default=None)
    ap.add_argument("--show-leftovers", type=int, default=0)
    args = ap.parse_args()
    results: dict[str, Any] = {}
    head = f"{'folder':42} {'files':>5} {'kept':>6} {'left%':>6} {'noPath':>6} {'noP+T':>6}"
    head += f" {'noPTN':>6}"
    print(head + f" {'heads':>6} {'toc':>4} {'>300':>4} {'maxH':>4} {'unacc':>5} {'s':>5}")
    for name in args.corpus or ["notes-md", "notes-messy", "notes-outline"]:
        root = corpora_dir() / name
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            r = measure(folder, args.show_leftovers)
            key = f"{name}/{folder.name}"
            results[key] = r
            kept = max(1, r["kept"])
            print(
                f"{key:42} {r['files']:5} {r['kept']:6} {100 * r['leftovers'] / kept:6.1f}"
                f" {100 * r['pathless'] / kept:6.1f} {100 * r['pathless_untitled'] / kept:6.1f}"
                f" {100 * r['pathless_unnamed'] / kept:6.1f}"
                f" {r['headings']:6} {r['toc_omitted']:4} {r['over_300']:4}"
                f" {r['max_heading_words']:4} {r['unaccounted']:5} {r['seconds']:5}"
            )
    write_result("corpus_markdown", results)


if __name__ == "__main__":
    main()
