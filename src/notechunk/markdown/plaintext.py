"""Plain-text notes (`.txt`, SPEC §1.1 v3) as the Markdown reader should see them.

A text file is paragraphs and lists, never code: an indented line is an indented line
(a first-line indent, a wrapped sub-point), not an indented code block as CommonMark
would read it. So every line keeps its words and loses its indentation, except list items
(`-`, `*`, `+`, `1.`, `1)`), whose indentation says their depth: an item indented more
than the one above it is re-indented to that item's content column, so it stays nested
under it; as indented as an earlier one, it is that one's sibling.
Line numbers never change.
"""

from __future__ import annotations

import re

_ITEM = re.compile(r"^([-*+]|\d{1,9}[.)])(?:[ \t]|$)")


def plain_as_markdown(text: str) -> str:
    """`text` with the indentation that would make code gone (see the module docstring)."""
    if "\n " not in text and "\n\t" not in text and not text.startswith((" ", "\t")):
        return text
    out: list[str] = []
    levels: list[tuple[int, int]] = []  # open list levels: (original width, content column)
    for line in text.split("\n"):
        body = line.lstrip(" \t")
        item = _ITEM.match(body)
        width = len(line[: len(line) - len(body)].expandtabs(4))
        if item is None:
            if body and not width:
                levels.clear()  # a paragraph at the margin ends the lists above it
            out.append(body)
            continue
        while levels and levels[-1][0] >= width:
            levels.pop()
        indent = levels[-1][1] if levels else 0  # a child starts at its parent's content
        levels.append((width, indent + len(item.group(1)) + 1))
        out.append(" " * indent + body)
    return "\n".join(out)
