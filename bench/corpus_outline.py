"""Outline notes on real notes (issue 21's figures): what Logseq syntax is left in chunk
text, and how many outline chunks carry context beyond the page title.

Reads a finished run (OUT/chunks.jsonl.gz of `notechunk run SRC --out OUT`, SRC being
../shared/corpora/notes-outline) and prints, for the kept chunks of Logseq files (under a
`logseq/` folder of the corpus): chunks, chunks with a property line, a raw `((uuid))`,
a `{{macro}}`, `#card`, an empty bullet (code and math read as one mark: they are
verbatim), chunks that end on a parent item whose children another chunk has, chunks
that start with a code fence; chunks that start at a nested bullet and how many
of them have a heading or outline path; and the share of all of them with context beyond
the page title (a heading path or an outline path).

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
# a Logseq macro `{{name args}}`; `{{ x }}` in a Vue template or `{{\\delta}}` in TeX is not
MACRO = re.compile(r"\{\{[A-Za-z][\w-]*(?:[ :][^{}\n]*)?\}\}")
VERBATIM = re.compile(r"^```[^\n]*\n.*?^```[ \t]*$|`[^`\n]+`|\$\$.*?\$\$|\$[^$\n]+\$", re.M | re.S)
CARD = re.compile(r"#card\b", re.I)
EMPTY_BULLET = re.compile(r"^[ \t]*[-*][ \t]*$", re.M)


META = re.compile(r"(?:id|collapsed|card-[\w-]+|hl-[\w-]+|background-color|logseq\.[\w.-]+)")


def property_left(chunk: dict[str, Any], src: Path) -> bool:
    """A Logseq property left in the chunk's text (code and math aside): any `key:: value`;
    or, from a property line of the chunk's source lines, Logseq's own (`id`, `collapsed`,
    `card-*`, ...) or a block's property under its first line, as `key: value`. (A block
    made only of properties is content: `- reference:: 4.1` is kept as text.)"""
    text = VERBATIM.sub("§", chunk["text"])
    if re.search(r"^[ \t]*(?:- )?[A-Za-z][\w.-]*:: ", text, re.M):
        return True
    lines = (src / chunk["source"]).read_text("utf-8", "replace").split("\n")
    first, last = chunk["lines"]
    for line in lines[first - 1 : last]:
        m = PROPERTY.match(line)
        if m is None or not m.group(2):
            continue
        key = m.group(1)
        if META.fullmatch(key) or not line.lstrip().startswith("- "):
            if re.search(re.escape(key) + ": " + re.escape(m.group(2)[:20]), text):
                return True
    return False


_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)]|\(?[A-Za-z]{1,5}[.)]|\([0-9ivx]+\))[ \t]+\S")


def _depth(line: str) -> int:
    line = line.replace("\t", "    ")
    return len(line) - len(line.lstrip())


def ends_on_parent(chunk: dict[str, Any], src: Path) -> bool:
    """The chunk's last source line is a list item whose first child (the next non-blank
    line, a deeper item) is left to another chunk."""
    lines = (src / chunk["source"]).read_text("utf-8", "replace").split("\n")
    last = lines[chunk["lines"][1] - 1]
    if not _ITEM.match(last):
        return False
    j = chunk["lines"][1]
    while j < len(lines) and not lines[j].strip():
        j += 1
    return j < len(lines) and _ITEM.match(lines[j]) is not None and _depth(lines[j]) > _depth(last)


def _starts_nested(chunk: dict[str, Any], src: Path) -> bool:
    """The chunk's first source line is a nested bullet: it starts under a parent item."""
    line = (src / chunk["source"]).read_text("utf-8", "replace").split("\n")[chunk["lines"][0] - 1]
    return re.match(r"[ \t]+[-*] ", line) is not None


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
        out[name] = sum(1 for c in logseq if rx.search(VERBATIM.sub("§", c["text"])))
    out["ends_on_parent"] = sum(1 for c in logseq if ends_on_parent(c, src))
    out["starts_with_fence"] = sum(1 for c in logseq if c["text"].startswith("```"))
    nested = [c for c in logseq if _starts_nested(c, src)]
    out["nested_chunks"] = len(nested)
    out["nested_with_context"] = sum(
        1 for c in nested if c["section_path"] or c.get("outline_path")
    )
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
