"""Block tokens from markdown-it-pyrs (markdown-it.rs), shaped like markdown-it-py's.

The fast path of `parse_markdown_sections`: the Rust parser builds the block tree (inline
rules off, so a block's text is its raw inline source with container markers removed,
exactly what markdown-it-py's `inline` token holds) and this module flattens it into the
few token fields `sections` reads: type, map (0-based, end-exclusive line range), level,
tag, info, content. markdown-it-py stays the reference: `to_tokens` returns None, and the
caller uses markdown-it-py, when the Rust parser is not installed, when the text nests
deeper than it can take safely (its recursion has no limit: tens of thousands of nested
`>` crash the process), or when the tree holds a node this module does not know.
tests/test_markdown_rsblocks.py checks that both paths give identical sections.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Any

RUST_PLUGINS = [
    "blockquote",
    "code",
    "fence",
    "heading",
    "hr",
    "lheading",
    "list",
    "paragraph",
    "reference",
    "html_block",
    "table",
]
MAX_PREFIX = 200
"""A line whose container prefix (spaces, tabs, `>`, list markers) is this long may nest
deeper than the Rust parser's stack allows; such a text goes to markdown-it-py."""

_DEEP = re.compile(r"^[ \t>*+\-0-9.)]{" + str(MAX_PREFIX) + "}", re.M)
_ORDERED = re.compile(rb"[ \t]*(\d{1,9})([.)])")
_LEAVES = {"fence", "code_block", "html_block", "hr"}


@dataclass(slots=True)
class BlockToken:
    """The subset of markdown_it.token.Token that `sections` reads."""

    type: str
    map: list[int] | None = None
    level: int = 0
    tag: str = ""
    info: str = ""
    markup: str = ""
    content: str = ""


class _Unsupported(Exception):
    """A node this module does not flatten: the caller falls back to markdown-it-py."""


def rust_parser() -> Any | None:
    """A markdown-it-pyrs parser with the block rules `sections` needs, or None when the
    package is not installed."""
    try:
        from markdown_it_pyrs import MarkdownIt
    except ImportError:
        return None
    md: Any = MarkdownIt("zero")
    return md.enable_many(RUST_PLUGINS)


def to_tokens(parser: Any, text: str) -> list[BlockToken] | None:
    """markdown-it-py-shaped block tokens of `text`, or None to use markdown-it-py."""
    if _DEEP.search(text):
        return None
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: markdown-it-py takes them, Rust cannot
        return None
    root = parser.tree(text)
    newlines = [m.start() for m in re.finditer(b"\n", data)]
    out: list[BlockToken] = []
    try:
        _flatten(root.children, 0, data, newlines, out)
    except _Unsupported:
        return None
    return out


def _lines(srcmap: tuple[int, int] | None, newlines: list[int]) -> list[int] | None:
    if srcmap is None:
        return None
    start, end = srcmap
    first = bisect_left(newlines, start)
    last = bisect_left(newlines, max(start, end - 1)) + 1
    return [first, last]


def _flatten(
    nodes: Any, level: int, data: bytes, newlines: list[int], out: list[BlockToken]
) -> None:
    for node in nodes:
        name = node.name
        if name == "paragraph" or name == "text":  # a tight list item holds its text bare
            content = _text(node)
            start = node.srcmap[0]  # one content line per source line: Rust's end offset
            first = bisect_left(newlines, start)  # can overshoot after tabs
            lines = [first, first + content.count("\n") + 1]
            out.append(BlockToken(type="paragraph_open", map=lines, level=level))
            out.append(BlockToken(type="inline", map=lines, content=content))
            out.append(BlockToken(type="paragraph_close", level=level))
        elif name == "list_item":
            info, markup = "", "-"
            m = _ORDERED.match(data, node.srcmap[0])
            if m is not None:
                info, markup = m.group(1).decode(), m.group(2).decode()
            out.append(BlockToken(type="list_item_open", level=level, info=info, markup=markup))
            _flatten(node.children, level + 1, data, newlines, out)
            out.append(BlockToken(type="list_item_close", level=level))
        elif name == "blockquote" or name == "bullet_list" or name == "ordered_list":
            _flatten(node.children, level + 1, data, newlines, out)
        elif name in _LEAVES:
            meta = node.meta
            out.append(
                BlockToken(
                    type=name,
                    map=_lines(node.srcmap, newlines),
                    level=level,
                    info=meta.get("info", "") if name == "fence" else "",
                    content=meta.get("content", ""),
                )
            )
        elif name == "heading" or name == "lheading":
            span = _lines(node.srcmap, newlines)
            tag = f"h{node.meta['level']}"
            out.append(BlockToken(type="heading_open", map=span, level=level, tag=tag))
            out.append(BlockToken(type="inline", map=span, content=_text(node)))
            out.append(BlockToken(type="heading_close", level=level, tag=tag))
        elif name == "table":
            _table(node, level, newlines, out)
        elif name == "definition":  # a link reference: markdown-it-py emits no token
            continue
        else:
            raise _Unsupported(name)


def _text(node: Any) -> str:
    """A block's inline source: its single text child (no inline rules run)."""
    if node.name == "text":
        content: str = node.meta.get("content", "")
        return content
    children = node.children
    if not children:
        return ""
    if len(children) != 1 or children[0].name != "text":
        raise _Unsupported(node.name)
    content = children[0].meta.get("content", "")
    return content


def _table(node: Any, level: int, newlines: list[int], out: list[BlockToken]) -> None:
    out.append(BlockToken(type="table_open", map=_lines(node.srcmap, newlines), level=level))
    for part in node.children:
        if part.name not in ("thead", "tbody"):
            raise _Unsupported(part.name)
        out.append(BlockToken(type=f"{part.name}_open", level=level + 1))
        for row in part.children:
            out.append(BlockToken(type="tr_open", map=_lines(row.srcmap, newlines)))
            for cell in row.children:
                out.append(BlockToken(type="inline", content=_text(cell)))
            out.append(BlockToken(type="tr_close"))
        out.append(BlockToken(type=f"{part.name}_close", level=level + 1))
    out.append(BlockToken(type="table_close", level=level))
