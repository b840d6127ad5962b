"""Headings that are not `#` headings (SPEC §1.1): what real exports use instead.

OneNote/pandoc: a paragraph that is only `[Title]{.underline}` (optionally in `**`/`*`)
or `<u>Title</u>` opens a section one level below every `#` level. Word via pandoc: a
paragraph that is only bold or marked text (`**Title**`, `__Title__`, `**[Title]{.mark}**`,
`[Title]{.mark}`) of at most 12 words, not ending in `.`, `:` or `;`, is a heading one
level below the current `#` level when content follows it (`markdown.bold_headings`).
A bold figure or table caption ("**Fig 4.1 Income Statement Projection**") is text.
"""

from __future__ import annotations

import re

from notechunk.markdown.clean import clean_inline

PANDOC_HEADING_LEVEL = 7
BOLD_MAX_WORDS = 12

_PANDOC_HEADING = re.compile(
    r"(\*\*|\*|__)?[ \t]*(?:\[([^\[\]\n]+)\]\{\.underline\}|<u>([^<\n]+)</u>)[ \t]*\1?"
)
_BOLD = re.compile(r"(\*\*\*|\*\*|__|<b>|<strong>)([^\n]+?)(\*\*\*|\*\*|__|</b>|</strong>)")
_MARKED = re.compile(r"\[([^\[\]\n]+)\]\{\.mark\}")
_CLOSE = {"***": "***", "**": "**", "__": "__", "<b>": "</b>", "<strong>": "</strong>"}
_CAPTION = re.compile(r"(?:fig(?:ure)?|table|chart|exhibit)\.?\s*\d+(?:[.:-]\d+)*\b", re.IGNORECASE)


def pandoc_heading(content: str) -> str | None:
    """The title of a OneNote/pandoc underline-heading paragraph, else None."""
    if "underline" not in content and "<u>" not in content:
        return None
    m = _PANDOC_HEADING.fullmatch(content.strip())
    if m is None:
        return None
    title = clean_inline(m.group(2) or m.group(3) or "").strip()
    return title or None


def bold_heading(content: str) -> str | None:
    """The title of a paragraph that is only bold or marked text (`**Title**`, `__T__`,
    `**[Title]{.mark}**`, `[Title]{.mark}`): at most 12 words, not ending in . : ;"""
    content = content.strip()
    if "\n" in content or len(content) > 300:
        return None
    m = _BOLD.fullmatch(content)
    if m is not None:
        if _CLOSE[m.group(1)] != m.group(3) or m.group(1) in m.group(2):
            return None
    elif _MARKED.fullmatch(content) is None:
        return None
    title = clean_inline(content).strip()
    words = title.split()
    if not words or len(words) > BOLD_MAX_WORDS or title.endswith((".", ":", ";")):
        return None
    if _CAPTION.match(title):
        return None
    return title
