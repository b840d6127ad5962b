"""Block tokens of a Markdown text: markdown-it-pyrs (Rust) when it takes the text, else
markdown-it-py, the reference. Both give the same sections (tests/test_markdown_rsblocks.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from notechunk.markdown.model import Unit
from notechunk.markdown.rsblocks import rust_parser, to_tokens

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


class Token(Protocol):
    """What the section walker reads of a block token (markdown-it-py's or rsblocks';
    the latter's paragraph or heading is one `paragraph`/`heading` token with its text)."""

    @property
    def type(self) -> str: ...
    @property
    def map(self) -> list[int] | None: ...
    @property
    def level(self) -> int: ...
    @property
    def tag(self) -> str: ...
    @property
    def info(self) -> str: ...
    @property
    def markup(self) -> str: ...
    @property
    def content(self) -> str: ...


@dataclass(slots=True)
class UnitsToken:
    """Units recognised before the parser (a pandoc table, an admonition title), put in
    the token stream where their lines are."""

    map: list[int]
    units: tuple[Unit, ...]
    type: str = "nc_units"
    level: int = 0
    tag: str = ""
    info: str = ""
    markup: str = ""
    content: str = field(default="")


@dataclass(slots=True)
class MovedToken:
    """A token of a text parsed apart (an admonition's body), its lines made the file's."""

    type: str
    map: list[int] | None
    level: int
    tag: str
    info: str
    markup: str
    content: str


def moved(tokens: Sequence[Token], offset: int) -> list[Token]:
    return [
        MovedToken(
            type=t.type,
            map=None if t.map is None else [t.map[0] + offset, t.map[1] + offset],
            level=t.level,
            tag=t.tag,
            info=t.info,
            markup=t.markup,
            content=t.content,
        )
        for t in tokens
    ]


def make_parser() -> MarkdownIt:
    """The reference parser: markdown-it-py, CommonMark + tables, block level only (inline
    text is cleaned by `clean`), with a nesting limit high enough that real notes never
    reach it."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"maxNesting": 1000}).enable("table")
    md.disable(["inline", "text_join"])
    return md


class BlockParser:
    """Block tokens of a document: markdown-it-pyrs (Rust, several times faster) when it
    is installed and takes the text, else markdown-it-py. `rust=False` forces the
    reference."""

    def __init__(self, *, rust: bool = True) -> None:
        self._rust: Any | None = rust_parser() if rust else None
        self._py: MarkdownIt | None = None

    @property
    def uses_rust(self) -> bool:
        return self._rust is not None

    def tokens(self, text: str) -> Sequence[Token]:
        if self._rust is not None:
            fast = to_tokens(self._rust, text)
            if fast is not None:
                return fast
        if self._py is None:
            self._py = make_parser()
        return py_tokens(self._py, text)


def make_block_parser() -> BlockParser:
    """The parser `parse_markdown_sections` uses by default (build one per process)."""
    return BlockParser()


def py_tokens(md: MarkdownIt, text: str) -> Sequence[Token]:
    try:
        return md.parse(text)
    except RecursionError:
        return []


def tokens_of(parser: BlockParser | MarkdownIt, text: str) -> Sequence[Token]:
    return parser.tokens(text) if isinstance(parser, BlockParser) else py_tokens(parser, text)
