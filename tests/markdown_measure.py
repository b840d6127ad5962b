"""What the Markdown corpus figures count, shared by the corpus test
(tests/test_markdown_corpus.py) and the measuring script (bench/corpus_markdown.py).

A markup leftover is syntax a reader of the rendered note never sees.

Fenced code is verbatim (`**` is Python's power, `<vector>` a C++ include), so it is
left out of the check.
"""

from __future__ import annotations

import re
from pathlib import Path

# HTML elements a note uses for layout: `<iostream>` or `<App />` in a note is text
_TAGS = sorted(
    """a b big blockquote br center code div em font h1 h2 h3 h4 h5 h6 hr i img li mark ol p
    pre small span strong sub sup table tbody td th thead tr u ul""".split(),
    key=len,
    reverse=True,
)
LEFTOVER = re.compile(
    r"\{[#.][\w-]"  # pandoc attributes {.underline} {#id .H2}
    r"|\{(?:width|height)="  # image attributes
    r"|&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});"  # entities
    r"|</?(?:" + "|".join(_TAGS) + r")(?:\s[^<>\n]{0,500})?/?>"  # HTML tags
    r"|\*\*|\[\[|\]\]"  # bold markers, wikilinks
    r"|==[^\s=]"  # highlights
    r"|^[ \t]*\|.*\|[ \t]*$"  # pipe-table rows
    r"|^[ \t]*\+[-=:]{3,}\+"  # grid-table rules
    r"|^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|",  # pipe-table delimiter rows
    re.M | re.I,
)
_FENCED = re.compile(r"^```[^\n]*\n.*?^```[ \t]*$", re.M | re.S)


def leftover(text: str) -> str | None:
    """The first leftover in `text` outside fenced code, or None."""
    m = LEFTOVER.search(_FENCED.sub("", text))
    return m.group(0) if m else None


GENERIC_NAME = re.compile(r"(?:readme|index|home|notes?|untitled(?: \d+)*|\d+)", re.IGNORECASE)


def document_name(path: Path) -> str | None:
    """The title a file's name gives: its stem, or for a README/index its folder's name
    (what the runner's file-name fallback should use; the parse itself gives front matter
    and OneNote titles)."""
    for name in (path.stem, path.parent.name):
        if name.strip() and not GENERIC_NAME.fullmatch(name.strip()):
            return name
    return None
