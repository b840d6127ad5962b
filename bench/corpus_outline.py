"""Outline notes on real notes (issue 21's figures): what Logseq syntax is left in chunk
text, and how many outline chunks carry context beyond the page title.

Reads a finished run (OUT/chunks.jsonl.gz of `notechunk run SRC --out OUT`, SRC being
../shared/corpora/notes-outline) and prints, for the kept chunks of Logseq files (under a
`logseq/` folder of the corpus): chunks, chunks with a property line, a raw `((uuid))`,
a `{{macro}}`, `#card`, an empty bullet, a code fence at the start; and the share of
chunks with context beyond the page title (a heading path or an outline path).

    python bench/corpus_outline.py OUT SRC
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

PROPERTY = re.compile(r"^[ \t]*(?:- )?([A-Za-z][\w.-]*)::[ \t]*(.*?)[ \t]*$", re.M)
UUID_REF = re.compile(r"\(\([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\)\)")
MACRO = re.compile(r"\{\{[^{}\n]*\}\}")
CARD = re.compile(r"#card\b", re.I)
EMPTY_BULLET = re.compile(r"^[ \t]*[-*][ \t]*$", re.M)


def property_left(chunk: dict[str, Any], src: Path) -> bool:
    """A source property line of the chunk's lines is in its text (`key:: v` or `key: v`)."""
    lines = (src / chunk["source"]).read_text("utf-8", "replace").split("\n")
    first, last = chunk["lines"]
    for line in lines[first - 1 : last]:
        m = PROPERTY.match(line)
        if (
            m
            and m.group(2)
            and re.search(
                re.escape(m.group(1)) + "::? " + re.escape(m.group(2)[:20]), chunk["text"]
            )
        ):
            return True
    return False


def figures(chunks: list[dict[str, Any]], src: Path) -> dict[str, Any]:
    logseq = [c for c in chunks if "logseq/" in c["source"] and not c["omit"]]
    out: dict[str, Any] = {"logseq_chunks": len(logseq)}
    out["property_lines"] = sum(1 for c in logseq if property_left(c, src))
    for name, rx in (
        ("uuid_refs", UUID_REF),
        ("macros", MACRO),
        ("card_tags", CARD),
        ("empty_bullets", EMPTY_BULLET),
    ):
        out[name] = sum(1 for c in logseq if rx.search(c["text"]))
    out["starts_with_fence"] = sum(1 for c in logseq if c["text"].startswith("```"))
    context = sum(1 for c in logseq if c["section_path"] or c.get("outline_path"))
    out["with_context"] = context
    out["context_share"] = round(context / len(logseq), 3) if logseq else None
    return out


def main(argv: list[str]) -> int:
    path = Path(argv[0]) / "chunks.jsonl.gz"
    src = Path(argv[1])
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        chunks = [json.loads(line) for line in fh]
    print(json.dumps(figures(chunks, src), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
