"""Block tokens from markdown-it-pyrs (markdown-it.rs), shaped like markdown-it-py's.

The fast path of `parse_markdown_sections`: the Rust parser builds the block tree (inline
rules off, so a block's text is its raw inline source with container markers removed,
exactly what markdown-it-py's `inline` token holds) and this module flattens it into the
few token fields `sections` reads: type, map (0-based, end-exclusive line range), level,
tag, info, content. A paragraph or a heading is one token (`paragraph`, `heading`, its
text in `content`) instead of markdown-it-py's open/inline/close triple, and containers
that `sections` does not read leave no token (a third fewer objects made and walked;
`sections._walk` reads both shapes). markdown-it-py stays the reference: `to_tokens`
returns None, and the caller uses markdown-it-py, when the Rust parser is not installed,
when the text nests deeper than it can take safely (its recursion has no limit: tens of
thousands of nested `>` crash the process), when it holds more than `MAX_REFERENCES`
lines that open a link reference definition (the Rust parser takes time quadratic in
them: 200 KB of `[a]:` lines is ~20 s in one native call that no time limit can
interrupt, while markdown-it-py is linear and stops at `markdown.timeout_s`), when the
Rust parser panics, or when the tree holds a node this module does not know.
tests/test_markdown_rsblocks.py checks that both paths give identical sections.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from itertools import accumulate, count, islice
from operator import add
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

_DEEP = re.compile(r"\n[ \t>*+\-0-9.)]{" + str(MAX_PREFIX) + "}")  # in "\n" + text
MAX_REFERENCES = 500
"""Lines that open a link reference definition (`[label]:`) the Rust parser is given; at
500 it takes ~0.05 s, at 5,000 ~5 s (markdown-it-pyrs 0.4, quadratic)."""
_REFERENCE = re.compile(r"^[ \t>]*\[[^\n]*?\]:", re.M)
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
    if _DEEP.search("\n" + text) or too_many_references(text):
        return None
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: markdown-it-py takes them, Rust cannot
        return None
    try:
        root = parser.tree(text)
    except BaseException as exc:  # pyo3's PanicException derives from BaseException
        if type(exc).__name__ != "PanicException":
            raise
        return None
    # byte offset of each newline: the i-th follows i+1 lines and i newlines (all in C)
    newlines = list(map(add, accumulate(map(len, data.split(b"\n")[:-1])), count()))
    try:
        return _flatten(root, data, newlines)
    except _Unsupported:
        return None


def too_many_references(text: str) -> bool:
    """More than `MAX_REFERENCES` lines open a link reference definition (counted up to
    the limit only, in linear time)."""
    if text.count("]:") <= MAX_REFERENCES:
        return False
    found = _REFERENCE.finditer(text)
    return sum(1 for _ in islice(found, MAX_REFERENCES + 1)) > MAX_REFERENCES


def _lines(srcmap: tuple[int, int] | None, newlines: list[int]) -> list[int] | None:
    if srcmap is None:
        return None
    start, end = srcmap
    first = bisect_left(newlines, start)
    last = bisect_left(newlines, max(start, end - 1)) + 1
    return [first, last]


_CONTAINERS = {"blockquote", "bullet_list", "ordered_list"}


def _open_to_the_end(data: bytes, start: int, end: int) -> bool:
    """A fence that no closing fence ends: only blank text follows it to the end."""
    if data[end:].strip():
        return False
    lines = data[start:end].rstrip().split(b"\n")
    opener = lines[0].lstrip()
    mark = opener[:1]
    run = len(opener) - len(opener.lstrip(mark))
    last = lines[-1].strip()
    closed = len(lines) > 1 and len(last) >= run and last == mark * len(last)
    return not closed


def _flatten(root: Any, data: bytes, newlines: list[int]) -> list[BlockToken]:
    """One pass over the tree in document order (`walk`, cheap in Rust), no recursion.

    A container's end offset tells when it closes: the open ones sit on a stack of
    (end, closing token type), popped when a node starts at or past their end. A block's
    text arrives as its next node (a `text` child) and fills the inline token left for it.
    """
    out: list[BlockToken] = []
    stack: list[tuple[int, str]] = []
    pending: BlockToken | None = None  # inline token waiting for its block's text
    parent = ""  # the last block node seen: what a text node belongs to
    for node in root.walk(include_self=False):
        name = node.name
        srcmap = node.srcmap
        if srcmap is None:
            raise _Unsupported(name)
        start, end = srcmap
        while stack and start >= stack[-1][0]:
            closing = stack.pop()[1]
            if closing:
                out.append(BlockToken(closing))
        if name == "text":
            content: str = node.meta.get("content", "")
            if pending is not None:  # a heading's, a paragraph's or a table cell's text
                pending.content = content
                if parent == "paragraph" and pending.map is not None:
                    # one content line per source line (Rust's end offset can overshoot
                    # past tabs)
                    pending.map[1] = pending.map[0] + content.count("\n") + 1
                pending = None
            elif parent == "list_item":  # a tight list item holds its text bare
                first = bisect_left(newlines, start)
                lines = [first, first + content.count("\n") + 1]
                out.append(BlockToken("paragraph", lines, len(stack), content=content))
            else:
                raise _Unsupported(f"text in {parent}")
            parent = "text"
            continue
        if pending is not None:  # the block before had no text node
            pending = None
        parent = name
        level = len(stack)
        if name == "paragraph":
            pending = BlockToken("paragraph", [bisect_left(newlines, start), 0], level)
            out.append(pending)
        elif name == "list_item":
            info, markup = "", "-"
            m = _ORDERED.match(data, start)
            if m is not None:
                info, markup = m.group(1).decode(), m.group(2).decode()
            first = bisect_left(newlines, start)
            out.append(
                BlockToken(
                    type="list_item_open",
                    map=[first, first + 1],
                    level=level,
                    info=info,
                    markup=markup,
                )
            )
            stack.append((end, "list_item_close"))
        elif name in _CONTAINERS:
            stack.append((end, ""))
        elif name in _LEAVES:
            meta = node.meta
            span = _lines(srcmap, newlines)
            if name == "fence" and span and not stack and _open_to_the_end(data, start, end):
                # markdown-it-py's unclosed fence runs to the last line, blank ones too
                span[1] = len(newlines) + (0 if data.endswith(b"\n") else 1)
            out.append(
                BlockToken(
                    type=name,
                    map=span,
                    level=level,
                    info=meta.get("info", "") if name == "fence" else "",
                    content=meta.get("content", ""),
                )
            )
        elif name == "heading" or name == "lheading":
            span = _lines(srcmap, newlines)
            pending = BlockToken("heading", span, level, f"h{node.meta['level']}")
            out.append(pending)
        elif name == "table":
            out.append(BlockToken(type="table_open", map=_lines(srcmap, newlines), level=level))
            stack.append((end, "table_close"))
        elif name == "thead" or name == "tbody":
            out.append(BlockToken(type=f"{name}_open", level=level))
            stack.append((end, f"{name}_close"))
        elif name == "trow":
            out.append(BlockToken(type="tr_open", map=_lines(srcmap, newlines)))
            stack.append((end, "tr_close"))
        elif name == "tcell":
            pending = BlockToken(type="inline")
            out.append(pending)
        elif name == "definition":  # a link reference: markdown-it-py emits no token
            continue
        else:
            raise _Unsupported(name)
    out.extend(BlockToken(closing) for _, closing in reversed(stack) if closing)
    return out
