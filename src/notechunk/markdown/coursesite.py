"""Course-site markup a reader never sees as such (SPEC §1.1, v3): the admonitions of
MkDocs-Material, Docusaurus and MyST, whose title is a label and whose body is Markdown.

- MkDocs (Python-Markdown `admonition`, pymdownx `details`): `!!! type "Title"`,
  `??? type` (collapsed), `???+ type` (open); the body is the lines after the marker
  indented 4 more columns than it (blank lines inside). The marker line is blanked, its
  title (or its type, when no title is quoted; nothing for `""`) becomes a label unit,
  and the body is dedented by one level, so it is read as Markdown, never as indented
  code. A nested admonition is unwrapped in its turn.
- Docusaurus (`:::tip Title` or `:::tip[Title]` ... `:::`) and MyST colon fences
  (`:::{note} Title` ... `:::`): the fence lines are blanked (MyST option lines such as
  `:class: dropdown` too), the title or type is a label, the body stays as it is.
- MyST directives in backtick fences (```` ```{note} Title ````): when the directive is an
  admonition, the fence is dropped like an Obsidian Admonition-plugin block
  (`obsidian.Admonition`); other directives (`{code-cell}`, `{math}`) stay code.

Each syntax is one row of `RULES`: a cheap hint on the text and a rule over its lines
(`list[str]` rewritten in place, line count unchanged, lines marked in `skip` untouched;
a marker on a line of indented code is an example of the syntax, not the syntax, unless
an enclosing admonition's dedent moved it there), returning the label units it found.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from notechunk.markdown.clean import clean_inline
from notechunk.markdown.model import Unit
from notechunk.markdown.obsidian import Admonition, fence_body

_MKDOCS = re.compile(r"^([ ]*)(?:!!!|\?\?\?\+?)[ \t]+([\w-]+)((?:[ \t]+[\w-]+)*)[ \t]*(.*)$")
_QUOTED = re.compile(r'^"(.*)"[ \t]*$')
_COLON_OPEN = re.compile(r"^[ ]{0,3}(:{3,})[ \t]*(\{)?([A-Za-z][\w-]*)(?(2)\})(.*)$")
_COLON_CLOSE = re.compile(r"^[ ]{0,3}(:{3,})[ \t]*$")
_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
_MYST = re.compile(r"^\{([\w-]+)\}[ \t]*(.*)$")

MYST_ADMONITIONS = frozenset(
    """admonition attention caution danger error hint important note seealso tip warning
    todo dropdown versionadded versionchanged deprecated""".split()
)
"""MyST directives whose body is Markdown to read; any other stays a code block."""

Rule = Callable[[list[str], bytearray, bytearray], list[Unit]]


def _label(kind: str, title: str | None, line: int) -> list[Unit]:
    """The label unit of an admonition on 0-based `line`: its title, else its type."""
    text = kind[:1].upper() + kind[1:] if title is None else clean_inline(title).strip()
    if not text:
        return []
    return [Unit(kind="prose", text=text, first_line=line + 1, last_line=line + 1)]


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


def mkdocs_admonitions(lines: list[str], skip: bytearray, code: bytearray) -> list[Unit]:
    """Unwrap `!!!`/`???` admonitions: blank the marker, dedent the body one level."""
    labels: list[Unit] = []
    moved = bytearray(len(lines))  # lines an enclosing admonition dedented
    for k in range(len(lines)):
        if skip[k] or ("!!!" not in lines[k] and "???" not in lines[k]):
            continue
        if code[k] and not moved[k]:
            continue
        m = _MKDOCS.match(lines[k].expandtabs(4))
        if m is None:
            continue
        rest = m.group(4)
        quoted = _QUOTED.match(rest)
        if rest and quoted is None:
            continue  # `!!! note then prose`: not the syntax
        depth = len(m.group(1))
        labels += _label(m.group(2), quoted.group(1) if quoted else None, k)
        lines[k] = ""
        j = k + 1
        while j < len(lines) and not skip[j]:
            line = lines[j].expandtabs(4) if "\t" in lines[j][: depth + 4] else lines[j]
            if not line.strip():
                j += 1
                continue
            if _indent(line) < depth + 4:
                break
            lines[j] = line[:depth] + line[depth + 4 :]
            moved[j] = 1
            j += 1
    return labels


def colon_fences(lines: list[str], skip: bytearray, code: bytearray) -> list[Unit]:
    """Blank Docusaurus `:::type Title` / MyST `:::{type}` fences and their options."""
    labels: list[Unit] = []
    open_fences: list[int] = []  # colons of each open fence, innermost last
    k = 0
    while k < len(lines):
        if skip[k] or ":::" not in lines[k] or code[k] and lines[k].startswith("    "):
            k += 1
            continue
        close = _COLON_CLOSE.match(lines[k])
        if close is not None and open_fences:
            colons = len(close.group(1))
            if colons in open_fences:
                del open_fences[open_fences.index(colons) :]
                lines[k] = ""
            k += 1
            continue
        m = _COLON_OPEN.match(lines[k])
        if m is None:
            k += 1
            continue
        rest = m.group(4).strip()
        bracket = rest.startswith("[") and rest.endswith("]")
        title = rest[1:-1] if bracket else rest or None
        labels += _label(m.group(3), title, k)
        open_fences.append(len(m.group(1)))
        lines[k] = ""
        k += 1
        while k < len(lines) and not skip[k] and _OPTION.match(lines[k]):
            lines[k] = ""
            k += 1
    return labels


RULES: tuple[tuple[str, Callable[[str], bool], Rule], ...] = (
    ("mkdocs", lambda text: "!!!" in text or "???" in text, mkdocs_admonitions),
    ("colon_fence", lambda text: ":::" in text, colon_fences),
)
"""The line rules of this unit, in order: (name, hint on the whole text, rule)."""


def course_labels(text: str, lines: list[str], skip: bytearray, code: bytearray) -> list[Unit]:
    """Every row of `RULES` whose hint holds, run over `lines` in order; their labels
    (`code`: the lines of indented code blocks in the first parse)."""
    labels: list[Unit] = []
    for _name, hint, rule in RULES:
        if hint(text):
            labels += rule(lines, skip, code)
    return labels


def myst_directive(lines: list[str], first: int, end: int, info: str) -> Admonition | None:
    """The ```` ```{note} Title ```` fence on lines [first, end) when it is an admonition
    directive (`MYST_ADMONITIONS`), else None; its option lines are blanked with it."""
    m = _MYST.match(info)
    if m is None or m.group(1) not in MYST_ADMONITIONS:
        return None
    kind, title = m.group(1), m.group(2).strip()
    label = title or ("" if kind == "admonition" else kind[:1].upper() + kind[1:])
    blank = [first]
    k = first + 1
    while k < end and _OPTION.match(lines[k]):
        blank.append(k)
        k += 1
    body = fence_body(lines, blank, k, end)
    return Admonition(title=clean_inline(label).strip(), blank=tuple(blank), body=body)
