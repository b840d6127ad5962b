"""Obsidian syntax a reader never sees as such (https://help.obsidian.md): `%%comments%%`,
callouts (`> [!note]- Title`), `#tags`, block ids (` ^a1b2c3`), Dataview inline fields
(`up:: [[x]]`), and the Admonition plugin's fenced blocks (```` ```ad-note ````, whose body
is Markdown).

Wikilinks, embeds and `==highlights==` are inline and live in `clean`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COMMENT = re.compile(r"%%(?:[^%]|%(?!%))*%%")
_CALLOUT = re.compile(r"\[!([A-Za-z][\w-]*)\]([+-]?)[ \t]*")
_TAG = re.compile(r"(?<![^\s(,;])#([\w/-]+)")
_DIRECTIVE = re.compile(
    r"#(?:include|define|if|ifdef|ifndef|endif|else|elif|pragma|undef|import)\b"
)
_TAG_LABEL = re.compile(r"^(?:tags?|labels?)\s*::?\s*", re.IGNORECASE)
_FIELD = re.compile(r"^([^\s:#>`|](?:[^:\n`|]{0,60}[^\s:`|])?)::[ \t]", re.MULTILINE)
_BLOCK_ID = re.compile(r"[ \t]+\^[A-Za-z0-9-]*[A-Za-z][A-Za-z0-9-]*[ \t]*$", re.MULTILINE)
_AD_PARAM = re.compile(r"[ \t]*(title|collapse|icon|color)[ \t]*:[ \t]*(.*)$")


def blank_comments(text: str) -> str:
    """`%%comments%%` removed, their line breaks kept so line numbers stay."""
    if "%%" not in text:
        return text
    return _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def callout(content: str) -> tuple[str, str] | None:
    """(title, body) of a paragraph that opens a callout (`[!type]` first), else None.

    The title is what follows the marker (none when the author gave none: the type alone
    is a label, not content)."""
    if not content.startswith("[!"):
        return None
    m = _CALLOUT.match(content)
    if m is None:
        return None
    title, _, body = content[m.end() :].partition("\n")
    return title.strip(), body


def take_tags(text: str) -> tuple[str, list[str]]:
    """(text, tags): `#tags` found in the text. A line made only of tags (or `tags::`
    and tags) is dropped; a tag inside a sentence keeps its word without the `#`.

    Digits-only (`#1`) is not a tag; C preprocessor lines (`#include`) are code."""
    if "#" not in text:
        return text, []
    tags: list[str] = []
    out = []
    for line in text.split("\n"):
        found = [] if "#" not in line else [t for t in _TAG.findall(line) if _is_tag(t)]
        if not found or _DIRECTIVE.match(line.lstrip()):
            out.append(line)
            continue
        tags.extend(found)
        rest = _TAG.sub(lambda m: "" if _is_tag(m.group(1)) else m.group(0), line)
        rest = _TAG_LABEL.sub("", rest.strip(" \t-*•"))
        if rest.strip(" \t,;-*•"):
            out.append(_TAG.sub(lambda m: m.group(1) if _is_tag(m.group(1)) else m.group(0), line))
    return "\n".join(out), tags


def drop_block_ids(text: str) -> str:
    """Block ids (`text ^81fbda` at a line's end) are anchors Obsidian never shows."""
    return _BLOCK_ID.sub("", text) if "^" in text else text


def _is_tag(name: str) -> bool:
    return not name.replace("/", "").replace("-", "").isdigit()


def inline_fields(text: str) -> str:
    """Dataview inline fields as a reader sees them: `up:: x` -> `up: x`."""
    return _FIELD.sub(r"\1: ", text) if "::" in text else text


@dataclass(frozen=True, slots=True)
class Admonition:
    """An Admonition-plugin block: lines to blank (fences, parameters), its title, and
    its Markdown body as a [start, end) line range."""

    title: str
    blank: tuple[int, ...]
    body: tuple[int, int]


def admonition(lines: list[str], first: int, end: int, info: str) -> Admonition | None:
    """The ```` ```ad-type ```` fence on lines [first, end) (0-based), else None."""
    if not info.startswith("ad-"):
        return None
    blank = [first]
    title = ""
    k = first + 1
    while k < end:
        m = _AD_PARAM.match(lines[k])
        if m is None:
            break
        if m.group(1) == "title":
            title = m.group(2).strip()
        blank.append(k)
        k += 1
    body = fence_body(lines, blank, k, end)  # first: it may blank the closing fence
    return Admonition(title=title, blank=tuple(blank), body=body)


def fence_body(lines: list[str], blank: list[int], start: int, end: int) -> tuple[int, int]:
    """The body (`start`, end) of a fenced admonition whose option lines end at `start`;
    its closing fence, when it has one, joins the `blank` lines."""
    last = end - 1
    if last >= start and lines[last].strip().startswith(("```", "~~~")):
        blank.append(last)
        end = last
    return (start, max(start, end))
