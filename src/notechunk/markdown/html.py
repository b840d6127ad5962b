"""HTML blocks read with a real HTML parser (selectolax, the Lexbor engine), not regexes.

Notes pasted from web pages or exported by converters are often mostly HTML: `<h2>`
titles, `<p>`/`<div>` paragraphs, `<table>` grids, `&amp;` entities. `html_items` turns
one HTML block into what a reader sees: headings with their level, one prose item per
block element (entities unescaped, `<br>` a line break, list items as `- `), one row item
per table row as `Header: value` pairs (stacked header rows joined per column, cells
never glued together), and nothing from scripts, styles or images. A block element with
its own heading (a data card: `<div>` whose child is an `<h3>`) is a section: its items
are bracketed by a `card` and an `end` item, so the reader closes the card's section
where the element ends and the text after it is back under the heading before it.

Lexbor builds the tree in time that grows with the square of the nesting (500 KB of
unclosed `<div>`s took ~22 s in one native call no time limit can stop) and the walk of
nested tables recurses, so a block nested deeper than `MAX_DEPTH` (`nesting_depth`, a
linear scan of its tags) is not given to the parser: its text is kept, tags removed and
entities unescaped, one prose item per source line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from notechunk.markdown.clean import clean_inline
from notechunk.markdown.rows import row_text

if TYPE_CHECKING:
    from selectolax.lexbor import LexborNode

HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BLOCK = frozenset(
    """address article aside blockquote caption center dd details dialog div dl dt fieldset
    figcaption figure footer form header hgroup hr li main nav ol p pre section summary ul
    tr td th""".split()
)
_SKIP = frozenset(
    """script style template noscript head title svg math iframe object embed canvas video
    audio select button input textarea img colgroup col""".split()
)
_CARD = frozenset("div section article aside details figure fieldset main header footer".split())
_SPACE = re.compile(r"[ \t\r\n\f]+")
_CODE = frozenset({"code", "kbd", "samp", "tt", "var"})
_TICKS = re.compile(r"`+")
_BREAK = "\u2028"  # a <br> while text is gathered (source newlines are only spaces in HTML)


@dataclass(frozen=True, slots=True)
class HtmlItem:
    kind: Literal["heading", "prose", "row", "card", "end"]
    text: str
    level: int = 0


MAX_DEPTH = 100
"""Deepest element nesting (as `nesting_depth` counts it) given to the HTML parser."""
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(/?)>")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# closed implicitly by their next sibling or parent: they never nest by themselves
_IMPLIED = frozenset("p li dt dd option optgroup tr td th thead tbody tfoot rb rt rp".split())
_ANY_TAG = re.compile(r"<[^<>]*>")


def nesting_depth(html: str, stop: int = MAX_DEPTH) -> int:
    """How deep the elements of `html` nest, counted from its tags (an element whose end
    tag is implied does not count), up to `stop` + 1: linear in the text."""
    depth = deepest = 0
    for m in _TAG.finditer(html):
        name = m.group(2).lower()
        if name in _VOID or name in _IMPLIED or m.group(3):
            continue
        if m.group(1):
            depth = max(0, depth - 1)
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > stop:
                break
    return deepest


def flat_items(html: str) -> list[HtmlItem]:
    """The text of an HTML block without its structure: scripts and styles dropped, tags
    removed, entities unescaped, one prose item per source line (linear in the text)."""
    from html import unescape

    text = _ANY_TAG.sub(" ", _without_code(html))
    out = []
    for line in text.split("\n"):
        words = " ".join(unescape(line).split())
        if words:
            out.append(HtmlItem(kind="prose", text=words))
    return out


def _without_code(html: str) -> str:
    """`html` without the content of its script and style elements (one pass: each
    element's end is looked for once, from where it starts)."""
    low = html.lower()
    parts, at = [], 0
    while True:
        starts = [i for i in (low.find("<script", at), low.find("<style", at)) if i >= 0]
        if not starts:
            break
        start = min(starts)
        name = "script" if low.startswith("<script", start) else "style"
        end = low.find(f"</{name}", start)
        parts.append(html[at:start])
        if end < 0:
            at = len(html)
            break
        close = low.find(">", end)
        at = len(html) if close < 0 else close + 1
    parts.append(html[at:])
    return "".join(parts)


def html_items(html: str) -> list[HtmlItem]:
    """What a reader sees of one HTML block, in document order (`flat_items` when it nests
    deeper than `MAX_DEPTH`)."""
    from selectolax.lexbor import LexborHTMLParser

    if nesting_depth(html) > MAX_DEPTH:
        return flat_items(html)
    body = LexborHTMLParser(html).body
    return [] if body is None else _Walker().run(body)


class _Walker:
    """Depth-first over the DOM with an explicit stack (deep nesting is not recursion)."""

    def __init__(self) -> None:
        self.out: list[HtmlItem] = []
        self.buf: list[str] = []
        self.lists: list[list[int]] = []  # per open list: [ordered (0/1), items so far]
        self.prefix = ""
        self.pre = 0
        self.code = 0

    def run(self, root: LexborNode) -> list[HtmlItem]:
        stack: list[tuple[LexborNode, bool, bool]] = [(root, False, False)]
        while stack:
            node, leaving, card = stack.pop()
            tag = node.tag or ""
            if leaving:
                self.leave(tag)
                if card:
                    self.flush()
                    self.out.append(HtmlItem(kind="end", text=""))
                continue
            if tag == "-text":
                text = node.text_content or ""
                if self.pre:
                    self.buf.append(text)
                elif self.code and text.strip():  # inline code: a code span, kept verbatim
                    fence = "`" * (max((len(r) for r in _TICKS.findall(text)), default=0) + 1)
                    self.buf.append(f"{fence} {_SPACE.sub(' ', text)} {fence}")
                else:
                    self.buf.append(_SPACE.sub(" ", text))
                continue
            if tag == "br":
                self.buf.append(_BREAK)
                continue
            if tag in _SKIP or (tag.startswith("-") and tag != "-document"):
                continue
            if tag == "table":
                self.flush()
                self.out.extend(_table(node))
                continue
            if tag in _BLOCK or tag in HEADINGS:
                self.flush()
            self.enter(tag)
            children = list(node.iter(include_text=True))
            card = tag in _CARD and any(child.tag in HEADINGS for child in children)
            if card:
                self.out.append(HtmlItem(kind="card", text=""))
            stack.append((node, True, card))
            stack.extend((child, False, False) for child in reversed(children))
        self.flush()
        return self.out

    def enter(self, tag: str) -> None:
        if tag in ("ul", "ol"):
            self.lists.append([int(tag == "ol"), 0])
        elif tag == "li" and self.lists:
            kind = self.lists[-1]
            kind[1] += 1
            marker = f"{kind[1]}. " if kind[0] else "- "
            self.prefix = "  " * (len(self.lists) - 1) + marker
        elif tag == "pre":
            self.pre += 1
        elif tag in _CODE:
            self.code += 1

    def leave(self, tag: str) -> None:
        level = HEADINGS.get(tag)
        if level is not None:
            self.flush(heading=level)
        elif tag in _BLOCK:
            self.flush()
        if tag in ("ul", "ol") and self.lists:
            self.lists.pop()
        elif tag == "pre":
            self.pre -= 1
        elif tag in _CODE:
            self.code -= 1

    def flush(self, heading: int = 0) -> None:
        raw = "".join(self.buf)
        self.buf = []
        if not raw.strip():
            return
        if self.pre:
            lines = [line.rstrip() for line in raw.replace(_BREAK, "\n").split("\n")]
        else:
            lines = [line.strip() for line in raw.split(_BREAK)]
        text = "\n".join(line for line in lines if line)
        if not self.pre:  # Markdown written inside HTML (`**x**`); preformatted text is verbatim
            text = clean_inline(text, html=False)
        text = text.strip()
        if not text:
            return
        if heading:
            self.out.append(HtmlItem(kind="heading", text=" ".join(text.split()), level=heading))
        else:
            self.out.append(HtmlItem(kind="prose", text=self.prefix + text))
        self.prefix = ""


def _table(table: LexborNode) -> list[HtmlItem]:
    """Rows of one table (its own rows, not those of tables nested in its cells)."""
    rows: list[tuple[bool, list[str]]] = []  # (header row?, cell texts with colspans spread)
    for part in table.iter():
        if part.tag in ("thead", "tbody", "tfoot"):
            trs = [tr for tr in part.iter() if tr.tag == "tr"]
        elif part.tag == "tr":
            trs = [part]
        else:
            continue
        for tr in trs:
            cells = [c for c in tr.iter() if c.tag in ("td", "th")]
            if not cells:
                continue
            texts: list[str] = []
            for cell in cells:
                span = _span(cell.attributes.get("colspan"))
                text = _cell_text(cell)
                # a spanning header names every column under it; a value fills the first
                head_cell = part.tag == "thead" or cell.tag == "th"
                texts.extend([text] * span if head_cell else [text] + [""] * (span - 1))
            head = part.tag == "thead" or all(c.tag == "th" for c in cells)
            rows.append((head, texts))
    headers: list[str] = []
    top = 0
    while top < len(rows) and rows[top][0]:
        headers = _stack_headers(headers, rows[top][1])
        top += 1
    out = []
    for _, values in rows[top:]:
        text = row_text(headers, values)
        if text:
            out.append(HtmlItem(kind="row", text=text))
    return out


def _cell_text(cell: LexborNode) -> str:
    items = _Walker().run(cell)
    return " ".join(" ".join(item.text.split()) for item in items if item.text)


def _span(value: str | None) -> int:
    try:
        return max(1, min(int(value or "1"), 64))
    except ValueError:
        return 1


def _stack_headers(above: list[str], row: list[str]) -> list[str]:
    """Header rows stacked per column ("1st digit" over "Protection from contact")."""
    out = []
    for k in range(max(len(above), len(row))):
        parts = [above[k] if k < len(above) else "", row[k] if k < len(row) else ""]
        parts = [p for p in parts if p]
        out.append(" ".join(dict.fromkeys(parts)))
    return out
