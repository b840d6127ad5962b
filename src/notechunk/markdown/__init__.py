"""The Markdown runner: sections (CommonMark), clean-up, sentence windows, bullet merge."""

from notechunk.markdown.runner import (
    MarkdownLayout,
    layout_markdown,
    markdown_pieces,
)
from notechunk.markdown.sections import ParsedMarkdown, Section, Unit, parse_markdown_sections

__all__ = [
    "MarkdownLayout",
    "ParsedMarkdown",
    "Section",
    "Unit",
    "layout_markdown",
    "markdown_pieces",
    "parse_markdown_sections",
]
