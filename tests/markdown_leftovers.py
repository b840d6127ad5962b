"""What counts as a markup leftover in a Markdown chunk: syntax a reader of the rendered
note never sees. Shared by the corpus test (tests/test_markdown_corpus.py) and the
measuring script (bench/corpus_markdown.py) so both count the same thing.

Fenced code is verbatim (`**` is Python's power, `<vector>` a C++ include), so it is
left out of the check.
"""

from __future__ import annotations

import re

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
