"""Logseq's file syntax (https://docs.logseq.com), as the block parser should read it.

A Logseq page is an outline: every block a `- ` bullet, nested by tabs, its properties
`key:: value` lines under its first line, the page's own properties the lines above the
first bullet. This unit is one dialect: `RULES` is its list of `(name, rule)` rows, each
rule a plain function over one `LogseqState` (the page's lines, a mask of lines that are
code, what was found), run in order by `apply`. Every rule keeps the line count (a line is
rewritten or blanked, never removed), so line numbers stay the file's. The next app
(Roam, Notion, Joplin) is one more unit of this shape.

What the rules do (SPEC §1.1, Logseq): page properties go to `properties` (`title` names
the page, `alias` joins its context, `tags` its tags); block properties are dropped,
except that a block made only of properties keeps them as text (`- reference:: 4.1`);
org blocks (`#+BEGIN_TIP` ... `#+END_TIP`) keep their body without the markers (a
query's goes); `:LOGBOOK:` and `:PROPERTIES:` drawers go; `{{cloze x}}` keeps `x`,
`{{embed ((uuid))}}` is the block reference, `{{embed [[page]]}}` the page's name, any
other macro goes; `((uuid))` becomes the referenced block's first line when it is in
`refs` (the corpus' block index, `block_ids`), else it is removed and its line recorded
(`unresolved`); `#tags`, `#[[multi word]]` tags and `tags::` go to `tags`. Empty bullets
give no text and keep their children nested; `- ## X` is a heading (`sections`).
A namespace file name (`A___B.md`, `A%2FB.md`) gives the title path `A > B`; a journal
page (`journals/2024_05_06.md`) is titled and dated by its day.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from urllib.parse import unquote

UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
EMPTY = "<!-- -->"  # what an empty bullet holds (read as an HTML block: no text)
_PROPERTY = re.compile(r"^([ \t]*)(- )?([A-Za-z][\w.\-/]*)::(?:[ \t]+(.*?))?[ \t]*$")
_BULLET = re.compile(r"^([ \t]*)[-*+](?:[ \t]|$)")
_ID_LINE = re.compile(rf"^[ \t]*id::[ \t]*({UUID})[ \t]*$", re.MULTILINE)
_REF = re.compile(rf"\(\(({UUID})\)\)")
_DRAWER = re.compile(r"^([ \t]*(?:[-*+][ \t]+)?):(LOGBOOK|PROPERTIES):[ \t]*$")
_DRAWER_END = re.compile(r"^[ \t]*:END:[ \t]*$")
_ORG = re.compile(r"^([ \t]*(?:[-*+][ \t]+)?)#\+(?:BEGIN|END)_\w+\b.*$", re.IGNORECASE)
_MACRO = re.compile(r"\{\{([A-Za-z][\w-]*)(?:[ \t:]+((?:[^{}]|\{[^{}]*\})*?))?[ \t]*\}\}")
_PAGE = re.compile(r"^\[\[(.*)\]\]$")
_HASH_TAG = re.compile(r"(?<![^\s(,;])#(?:\[\[([^\[\]\n]+)\]\]|([\w/-]*[^\W\d][\w/-]*))")
_TAG_VALUE = re.compile(r"\[\[([^\[\]]+)\]\]|#?([^,\[\]]+)")
_OBSIDIAN_ALIAS = re.compile(r"\[\[[^\[\]|\n]+\|[^\[\]\n]+\]\]")
# (a mark, the hint it must be part of): a hint is searched for only where its mark is
_HINTS = tuple(
    (mark, re.compile(hint, re.MULTILINE))
    for mark, hint in (
        ("id::", rf"^[ \t]*(?:- )?id::[ \t]*{UUID}"),
        ("collapsed:: ", r"^[ \t]*(?:- )?collapsed:: "),
        ("card-", r"^[ \t]*(?:- )?card-[\w-]+:: "),
        ("((", rf"\(\({UUID}\)\)"),
        ("{{", r"\{\{(?:embed|cloze|query|renderer) "),
        ("#+", r"^[ \t]*(?:- )?#\+BEGIN_"),
        ("#card", r"#card(?![\w-])"),
        ("#[[", r"#\[\["),
        (":: ", r"^(?:file-path|hl-page|ls-type|hl-color):: "),
        (":LOGBOOK:", r"^[ \t]*(?:- )?:LOGBOOK:[ \t]*$"),
    )
)

# block properties Logseq writes for itself: never text, even alone in a block
_META_KEYS = re.compile(
    r"(?:id|collapsed|heading|background-color|icon|template|template-including-parent"
    r"|filters|public|exclude-from-graph-view|hl-[\w-]+|ls-type|card-[\w-]+"
    r"|logseq\.[\w.-]+|inherit-color-icon-from|template-used|query-[\w-]+|title|alias)",
    re.IGNORECASE,
)


def is_logseq(text: str) -> bool:
    """Logseq's own syntax in the text: a block id or reference, a `collapsed::` or
    `card-*::` property, an embed/cloze/query/renderer macro or an org block; or
    `key:: value` property lines in a page written as Logseq writes one (every line a
    bullet, a block's indented continuation or a page property; no Obsidian alias)."""
    if any(mark in text and hint.search(text) is not None for mark, hint in _HINTS):
        return True
    if ":: " not in text:
        return False
    if _OBSIDIAN_ALIAS.search(text) is not None:
        return False  # `[[target|alias]]` is Obsidian's (Dataview fields look like these)
    lines = [line for line in text.split("\n") if line.strip()]
    props = sum(1 for line in lines if _PROPERTY.match(line))
    bullets = sum(1 for line in lines if _BULLET.match(line))
    outline = sum(1 for line in lines if line[:1] in (" ", "\t") or _BULLET.match(line))
    return props > 0 and bullets > 0 and outline + props >= 0.9 * len(lines)


# a heading or quote block's marks (`- ## Page Rank`, `- > quote`): Logseq shows a
# reference to it as its text, never as "## Page Rank" in mid-sentence
_BLOCK_MARKS = re.compile(r"^[ \t]*(?:#{1,6}(?=[ \t])|>)[ \t]*")


def block_ids(text: str) -> dict[str, str]:
    """{uuid: the first line of the block carrying `id:: uuid`} of one page (the first
    line cleaned of its bullet, heading or quote marks, macros and references: what a
    reference shows)."""
    if "id::" not in text:
        return {}
    lines = text.split("\n")
    out: dict[str, str] = {}
    for k, line in enumerate(lines):
        m = _ID_LINE.match(line)
        if m is None:
            continue
        j = k - 1  # the block's first line: its bullet, the nearest above
        while j >= 0 and not _BULLET.match(lines[j]):
            j -= 1
        if j < 0:
            continue
        first = _BLOCK_MARKS.sub("", _BULLET.sub("", lines[j])).strip()
        first = _MACRO.sub(lambda x: _macro_text(x, {}), first)
        first = _REF.sub("", first).strip()
        if first:
            out[m.group(1).lower()] = first
    return out


def refs_in(text: str) -> set[str]:
    """The block uuids a page refers to (lower case)."""
    return {m.lower() for m in _REF.findall(text)} if "((" in text else set()


@dataclass(slots=True)
class LogseqState:
    """One page as the rules see it: lines (rewritten in place), `code[i]` true for a
    line of fenced code or HTML (never touched), and what the rules found."""

    lines: list[str]
    code: bytearray
    refs: Mapping[str, str]
    properties: list[tuple[str, str]] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    unresolved: list[int] = field(default_factory=list)  # 1-based lines of removed refs
    dropped: list[tuple[str, int, str]] = field(default_factory=list)  # (reason, line, text)

    def drop(self, reason: str, k: int, text: str | None = None) -> None:
        """Line k (0-based) is metadata, not text: blanked, with why (unless `text`
        names only the part of it that went)."""
        self.dropped.append((reason, k + 1, self.lines[k] if text is None else text))
        if text is None:
            self.lines[k] = ""


Rule = Callable[[LogseqState], None]


def page_properties(st: LogseqState) -> None:
    """`key:: value` lines above the first bullet (the page's first block) are the
    page's properties: kept in `properties`, blanked."""
    for k, line in enumerate(st.lines):
        if st.code[k] or not line.strip():
            continue
        m = _PROPERTY.match(line)
        if m is None or m.group(2) or m.group(1):
            return
        key, value = m.group(3).lower(), (m.group(4) or "").strip()
        if key == "tags":
            st.tags.extend(_tag_values(value))
        elif value:
            st.properties.append((key, _plain_value(value)))
        st.drop("page_properties", k)


def org_blocks(st: LogseqState) -> None:
    """`#+BEGIN_X` / `#+END_X` marker lines lose the marker; the body stays, except an
    advanced query's (`#+BEGIN_QUERY`: Datalog, which Logseq runs and never shows, as the
    `{{query}}` macro goes)."""
    query = False
    bullet = ""  # the marker line's bullet, moved onto the body's first line
    for k, line in enumerate(st.lines):
        if st.code[k]:
            continue
        m = _ORG.match(line) if "#+" in line else None
        if m is not None:
            begin = "#+BEGIN_" in line.upper()
            query = begin and "#+BEGIN_QUERY" in line.upper()
            lead = m.group(1)
            bullet = lead if begin and not query and lead.strip() else ""
            st.drop("org_block_marker", k, line)
            st.lines[k] = lead.rstrip() if query and lead.strip() else ""
        elif query:
            st.drop("logseq_query", k)
        elif bullet and line.strip():
            st.lines[k] = bullet + line.lstrip(" \t")
            bullet = ""


def drawers(st: LogseqState) -> None:
    """`:LOGBOOK:` (time tracking) and `:PROPERTIES:` drawers, through `:END:`, are
    metadata: blanked (a drawer that opens a block leaves its bullet, an empty item)."""
    inside = False
    for k, line in enumerate(st.lines):
        if st.code[k]:
            continue
        m = _DRAWER.match(line) if ":" in line else None
        if m is not None:
            inside = True
            st.drop("logseq_drawer", k)
            st.lines[k] = m.group(1).rstrip() if m.group(1).strip() else ""
        elif inside:
            inside = _DRAWER_END.match(line) is None
            st.drop("logseq_drawer", k)


def block_properties(st: LogseqState) -> None:
    """A block's `key:: value` lines are metadata: blanked (`tags::` to `tags`). A block
    made only of properties (`- reference:: 4.1`) keeps those that are not Logseq's own
    (`id`, `collapsed`, `card-*`, ...) as its text (`key: value`, obsidian.inline_fields);
    a block with any other line loses them all."""
    k, n = 0, len(st.lines)
    while k < n:
        end = k + 1  # the block: its first line and the lines up to the next bullet
        while end < n and (st.code[end] or not _BULLET.match(st.lines[end])):
            end += 1
        props = [j for j in range(k, end) if not st.code[j] and _PROPERTY.match(st.lines[j])]
        if props:
            body = [j for j in range(k, end) if st.lines[j].strip(" \t-*+") and j not in props]
            for j in props:
                m = _PROPERTY.match(st.lines[j])
                assert m is not None
                key = m.group(3)
                if key.lower() == "tags":
                    st.tags.extend(_tag_values(m.group(4) or ""))
                elif not body and not _META_KEYS.fullmatch(key) and m.group(4):
                    continue  # the block's content
                st.drop("logseq_property", j)
                st.lines[j] = (m.group(1) + "-") if m.group(2) else ""
        k = end


def macros(st: LogseqState) -> None:
    """`{{cloze x}}` -> x, `{{embed ((u))}}` -> `((u))`, `{{embed [[p]]}}` -> p; any other
    macro (query, renderer, video, ...) goes."""
    for k, line in enumerate(st.lines):
        if not st.code[k] and "{{" in line:
            new = _MACRO.sub(lambda m: _macro_text(m, st.refs), line)
            for m in _MACRO.finditer(line):
                if not _macro_text(m, st.refs):
                    st.drop("logseq_macro", k, m.group(0))
            st.lines[k] = _squeeze(new) if new != line else line


def block_refs(st: LogseqState) -> None:
    """`((uuid))` -> the referenced block's first line, else removed (line recorded)."""
    for k, line in enumerate(st.lines):
        if st.code[k] or "((" not in line:
            continue

        def ref(m: re.Match[str], k: int = k) -> str:
            found = st.refs.get(m.group(1).lower())
            if found is None:
                st.unresolved.append(k + 1)
                return ""
            return found

        new = _REF.sub(ref, line)
        if new != line:
            st.lines[k] = _squeeze(new)


def hash_tags(st: LogseqState) -> None:
    """`#tag` and `#[[multi word]]` go to `tags`, out of the text (`#card` too)."""
    for k, line in enumerate(st.lines):
        if st.code[k] or "#" not in line:
            continue
        found = [m.group(1) or m.group(2) for m in _HASH_TAG.finditer(line)]
        if found:
            new = _HASH_TAG.sub("", line)
            st.tags.extend(found)
            body = _squeeze(new)
            st.lines[k] = body if body.strip(" \t-*+,") else _bullet_only(body)


def empty_bullets(st: LogseqState) -> None:
    """A bullet with no text (`-`, or one whose text went) stays an item, so its children
    keep their depth, but holds an HTML comment: an empty item right under a paragraph
    would be read as a setext underline (`text` / `-`: a heading)."""
    for k, line in enumerate(st.lines):
        if not st.code[k] and line.strip() in ("-", "*", "+"):
            st.drop("empty_bullet", k, line)
            st.lines[k] = line.rstrip() + " " + EMPTY


def _bullet_only(line: str) -> str:
    """What is left of a line whose text was only tags: its bullet (an empty item)."""
    m = _BULLET.match(line)
    return (m.group(1) + "- ") if m else ""


RULES: tuple[tuple[str, Rule], ...] = (
    ("page_properties", page_properties),
    ("org_blocks", org_blocks),
    ("drawers", drawers),
    ("block_properties", block_properties),
    ("macros", macros),
    ("block_refs", block_refs),
    ("hash_tags", hash_tags),
    ("empty_bullets", empty_bullets),
)
"""The dialect, in order: each row one syntax (macros before references, so an embed's
reference is resolved like any other)."""


def apply(st: LogseqState, rules: tuple[tuple[str, Rule], ...] = RULES) -> LogseqState:
    for _, rule in rules:
        rule(st)
    return st


def _squeeze(line: str) -> str:
    """A line with the double spaces a removal left inside it made single."""
    body = line.lstrip(" \t")
    return line[: len(line) - len(body)] + re.sub(r"(?<=\S)[ \t]{2,}(?=\S)", " ", body).rstrip()


def _macro_text(m: re.Match[str], refs: Mapping[str, str]) -> str:
    name, arg = m.group(1).lower(), (m.group(2) or "").strip()
    if name == "cloze":
        return arg
    if name == "embed":
        page = _PAGE.match(arg)
        return page.group(1) if page else arg if _REF.fullmatch(arg) else ""
    return ""


def _tag_values(value: str) -> list[str]:
    return [
        (m.group(1) or m.group(2)).strip()
        for m in _TAG_VALUE.finditer(value)
        if (m.group(1) or m.group(2)).strip()
    ]


def _plain_value(value: str) -> str:
    """A property value as text: `[[page]]` links as their names."""
    return re.sub(r"\[\[([^\[\]]+)\]\]", r"\1", value).strip()


def namespace_title(source: str) -> str | None:
    """The title path of a namespace page's file name (`A___B.md`, `A%2FB.md`: `A > B`;
    `%3A` is `:`), or None when the name has no namespace."""
    stem = PurePosixPath(source).stem
    if "___" not in stem and "%2" not in stem.upper() and "%3" not in stem.upper():
        return None
    parts = [unquote(p) for p in re.split(r"\s*___\s*|%2[Ff]", stem)]
    parts = [" ".join(p.split()) for p in parts if p.strip()]
    return unicodedata.normalize("NFC", " > ".join(parts)) if parts else None


_JOURNAL = re.compile(r"(\d{4})_(\d{2})_(\d{2})")


def journal_date(source: str) -> str | None:
    """A Logseq journal page's date (`journals/2024_05_06.md`: 2024-05-06), else None."""
    path = PurePosixPath(source)
    m = _JOURNAL.fullmatch(path.stem)
    if m is None or path.parent.name != "journals":
        return None
    return "-".join(m.groups())
