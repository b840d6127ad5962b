"""Hits for people (rich, in a terminal) and for scripts (`--json`).

Chunk text and file names are untrusted: before they reach a terminal, control
characters (an ESC that would start an escape sequence, a carriage return that would
overwrite a line, bidirectional overrides that reorder what is shown) are spelled as
visible escapes, and rich prints them as plain text, never as markup.
"""

from __future__ import annotations

import json
import re
import textwrap
from typing import TYPE_CHECKING, Any

from notechunk.chunk import Chunk
from notechunk.search.engine import Hit, SearchResult

if TYPE_CHECKING:
    from rich.console import Console

# C0 and C1 controls (tab and newline are handled by the caller), bidi embeddings,
# overrides and isolates, and the Unicode line and paragraph separators
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """`text` safe for a terminal; `one_line` also spells newlines and tabs as `\\n` `\\t`."""
    text = _CONTROL.sub(_escape, text)
    if one_line:
        text = text.replace("\t", "\\t").replace("\n", "\\n")
    return text


def where(c: Chunk) -> str:
    """`source:first-last` for Markdown, `source [sheet] row N` for a sheet row."""
    if c.source_type == "spreadsheet":
        return f"{c.source} [{c.sheet}] row {c.row}"
    if c.lines is not None:
        first, last = c.lines
        return f"{c.source}:{first}" if first == last else f"{c.source}:{first}-{last}"
    return c.source


def context(c: Chunk) -> str:
    """The heading and outline path (or sheet and group) a reader needs to place the
    chunk."""
    if c.source_type == "spreadsheet":
        return " › ".join(p for p in (c.title, c.sheet or "", c.group or "") if p)
    return " › ".join((*c.section_path, *c.outline_path)) or c.title


def hit_json(hit: Hit) -> dict[str, Any]:
    return {"rank": hit.rank, "score": round(hit.score, 6), **hit.chunk.to_json()}


def render_json(result: SearchResult) -> str:
    data = {
        "query": result.query,
        "retriever": result.retriever,
        "hits": [hit_json(h) for h in result.hits],
    }
    return json.dumps(data, ensure_ascii=False, indent=2)


def print_hits(result: SearchResult, console: Console) -> None:
    """Each hit: rank, place and score on one line, its context, then its text."""
    from rich.text import Text

    if not result.hits:
        console.print(Text(f"No chunk matches {printable(result.query, one_line=True)!r}."))
        return
    for hit in result.hits:
        c = hit.chunk
        head = Text()
        head.append(f"{hit.rank:>2}. ", style="bold")
        head.append(printable(where(c), one_line=True), style="bold cyan")
        head.append(f"  {result.retriever} {hit.score:.4g}", style="dim")
        if c.quality != "ok":
            head.append(f"  [{c.quality}]", style="yellow")
        console.print(head)
        ctx = printable(context(c), one_line=True)
        if ctx:
            console.print(Text(_indent(ctx, console.width), style="italic"))
        console.print(Text(_indent(printable(c.text), console.width) + "\n"))


def _indent(text: str, width: int, by: int = 4) -> str:
    """`text` wrapped to `width` and indented by `by` spaces, its own line breaks kept
    (rich's Padding would pad every line with trailing spaces to the full width)."""
    room = max(20, width - by)
    lines = [w for line in text.split("\n") for w in (textwrap.wrap(line, room) or [""])]
    return "\n".join(" " * by + line for line in lines)
