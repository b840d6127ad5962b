"""Text clean-up inside a section (SPEC §1.1), as plain string functions. Removes inline
pandoc spans (`[word]{.underline}`, `{.mark}`), attribute blocks (`{#id .class}`,
`{width="2in" height="1in"}`, attr_list's `{: #id .class }` and `{ align=left }` after
images, links and headings, Logseq's `{:height 300, :width 400}` after an image), emphasis
and highlight markers, HTML comments and tags, escape backslashes; entities are
unescaped; links keep their text, wikilinks their alias (`[[target#section|alias]]`) or
target; MkDocs-Material icon shortcodes (`:material-clock:`, `:fontawesome-solid-
download:`, `:octicons-x-16:`) go; embeds and images disappear, except an alt text or
an image embed's caption that says something (not "Untitled 1", "IMG_1234" or Word's
"Description automatically generated"; an Obsidian size `|300` is none). Inline code
spans keep their content verbatim (`<br>` in "Use the `<br>` tag" stays), and so does
TeX math (`$x_{k+1}$`, `$$\\sum_i a_i$$`, as pandoc, Obsidian, Logseq and MkDocs'
arithmatex write it: its `_`, `*` and `\\` are not Markdown). Line breaks are kept so a
sentence maps back to its source line.

Every pattern here runs in linear time: each one's repeated part cannot match the
character that starts it (or the delimiter that ends it), so a failed attempt stops at
the next place another attempt could start, and no input makes attempts rescan the same
text (`**a ` or `[` repeated 200 KB deep cleans in a fraction of a second; see
tests/test_markdown_clean.py and bench/bench_clean.py).
"""

from __future__ import annotations

import re
from html import unescape

HTML_TAGS = frozenset(
    """a abbr acronym address area article aside audio b base bdi bdo big blockquote body br
    button canvas caption center cite code col colgroup data datalist dd del details dfn
    dialog dir div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5
    h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map
    mark menu meta meter nav nobr noscript object ol optgroup option output p param picture
    pre progress q rp rt ruby s samp script search section select small source span strike
    strong style sub summary sup svg table tbody td template textarea tfoot th thead time
    title tr track tt u ul var video wbr""".split()
)
"""HTML element names: `<iostream>` or `List<String>` in a note are text, not tags."""

_BR = re.compile(r"<br\s*/?>|</br>", re.IGNORECASE)
_HARD_BREAK = re.compile(r"\\\n")
_TICKS = re.compile(r"`+")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_PROTECT = 0xF0000  # escaped ASCII punctuation lives in a private-use plane meanwhile
_PROTECTED = re.compile("[\U000f0021-\U000f007e]")
_CODE_BASE = 0x100000  # code span k is the private-use character U+100000 + k meanwhile
_CODE = re.compile("[\U00100000-\U0010fffd]")
_EMBED = re.compile(r"!\[\[[^\[\]]*\]\]")
_TARGET = r"\((?:[^()\n]|\([^()\n]*\))*\)"  # (url "title"), one level of parentheses
_TRAILING_ATTRS = r"(?:\{[^{}]*\})?"  # pandoc's {width=...} right after an image or link
_IMAGE = re.compile(r"!\[([^\[\]]*)\]" + _TARGET + _TRAILING_ATTRS)
# the alt and the target swapped, `!()[https://cdn.example/x.png]` or `(notes)[https://x]`:
# an author's slip a renderer shows as written; only a URL, a path or an image file name
# in the brackets reads so (`(a)[1]` is text)
_SWAPPED_TARGET = (
    r"\[((?:[a-z][a-z0-9+.-]*://|www\.|\.{0,2}/)[^\[\]\s]*"
    r"|[^\[\]\s]*\.(?:png|jpe?g|gif|svg|webp|bmp|tiff?|avif))\]"
)
# pandoc's `smart` extension writes an en dash as `--` and an em dash as `---` ("C.
# 93--99", "word---word"): between two words or numbers, or alone between spaces, they
# read back as the dashes; `--flag`, `-->`, `<--` and `i--` stay as written
_DASHES = re.compile(r"(?<=[^\W_])---?(?=[^\W_])|(?<=\S) ---? (?=[^\s>-])")
_SWAPPED_IMAGE = re.compile(r"!\(([^()\n]*)\)" + _SWAPPED_TARGET, re.IGNORECASE)
_SWAPPED_LINK = re.compile(r"(?<!!)\(([^()\n]+)\)" + _SWAPPED_TARGET, re.IGNORECASE)
_WIKILINK = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
_PANDOC_SPAN = re.compile(r"\[([^\[\]]*)\]\{[^{}]*\}")
# an id or class starts with a letter, `_` or `-` (`{#fig:1}`, `{.md-button}`, `{#_Toc12}`),
# so Python's format spec `{:.2f}` is no attribute list
_ATTR_ITEM = r"""(?:[#.](?=[^\W\d]|-)[^\s{}"'=]+|[\w:-]+=(?:"[^"{}]*"|'[^'{}]*'|[^\s"'{}]+)|-)"""
_ATTR_NAMED = re.compile(
    r"(?:^|[\s{])(?:[#.][^\s{}]|"
    r"(?:width|height|style|align|lang|dir|custom-style|loading|target|data-[\w-]+)=)"
)
# `{:` opens a kramdown / Python-Markdown attr_list block (`{: #id .class }`)
_ATTRS = re.compile(r"\{:?[ \t\n]*" + _ATTR_ITEM + r"(?:\s+" + _ATTR_ITEM + r")*[ \t\n]*\}")
_LINK = re.compile(r"\[([^\[\]]*)\]" + _TARGET + _TRAILING_ATTRS)
_REF_LINK = re.compile(r"\[([^\[\]]+)\]\[[^\[\]]*\]")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]*)>", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)(?:\s[^<>]*)?/?>")
_STRONG_STAR = re.compile(r"\*\*(?=[^\s*])((?:[^*]|\*(?!\*))+?)(?<=[^\s*])\*\*")
_STRONG_UNDER = re.compile(r"(?<![\w_])__(?=[^\s_])((?:[^_]|_(?!_))+?)(?<=[^\s_])__(?![\w_])")
_STRONG_LOOSE = re.compile(r"\*\*((?:[^*]|\*(?!\*))+?)\*\*")  # `**Name **`: authors' slips
_STRAY_STRONG = re.compile(r"\*\*+")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![\w*])")
_EM_UNDER = re.compile(r"(?<![\w_])_(?=[^\s_])([^_]+?)(?<=[^\s_])_(?![\w_])")
_HIGHLIGHT = re.compile(r"==(?=[^\s=])((?:[^=]|=(?!=))+?)(?<=[^\s=])==")
_HIGHLIGHT_LOOSE = re.compile(r"(?<![^\s(])==([^=\n]+?)==(?!\w)")  # `==40 to 55 ==%`
_STRIKE = re.compile(r"~~(?=[^\s~])((?:[^~]|~(?!~))+?)(?<=[^\s~])~~")
# pandoc's superscript and subscript: `2^10^`, `H~2~O`, `P~a\ cat~` (no space inside but an
# escaped one, which pandoc reads as a non-breaking space). After a word anything goes, as
# before; elsewhere (a line start, "(^a^)", "92%^8^", "(МРФ)^1^", "E~0~^2^") only a
# footnote-like mark, so bare math such as "(a+b)^2=a^2" is left alone. `^[` (an inline
# note), `[^1]` (a footnote reference) and the leftovers of `^^x^^` or `~~x~~` are no
# scripts. Linear: the repeated part never matches the delimiter that starts an attempt.
_SUP = re.compile(
    r"(?<=\w)\^(?P<w>(?:[^\s~^\\]|\\.)+)\^"
    r"|(?<![\w\[^])\^(?P<m>(?:[\w.,*?'’†‡-]|\\ )+)\^(?!\^)"
)
_SUB = re.compile(
    r"(?<=\w)~(?P<w>(?:[^\s~^\\]|\\.)+)~"
    r"|(?<![\w~])~(?P<m>(?:[\w.,*?'’†‡-]|\\ )+)~(?!~)"
)
_FILE_NAME = re.compile(r"\.(?:png|jpe?g|gif|svg|webp|bmp|wmf|emf|tiff?)$", re.IGNORECASE)
_ICON = re.compile(r"[ \t]?:(?:material|fontawesome|octicons|simple)-[a-z0-9]+(?:-[a-z0-9]+)*:")
"""MkDocs-Material icon shortcodes (`:material-clock-edit-outline:`): pictures, not words."""
_CROSSREF = re.compile(
    r"[ \t]?\([\^¿](?:fig|tbl|eq|sec|lst):[\w.:-]*\?\^?\)|[\^¿](?:fig|tbl|eq|sec|lst):[\w.:-]*\?\^?"
)
"""pandoc-crossref's mark for a reference it could not resolve (`¿fig:label?`, bold, which
a Word round trip turns into `^fig:label?^`): it names no figure a reader can see, so it
goes, with the parentheses it filled."""
_GENERIC_ALT = frozenset({"alt text", "exported image"})
_NUMBERS = r"[\s\d_.,:;()#+-]*"
_PLACEHOLDER_ALT = re.compile(
    r"(?:whatsapp[ _-]?)?(?:untitled|pasted[ _-]?image|screen[ _-]?shot|image|img|pic|picture"
    r"|photo|figure|fig|graphic|clipboard|capture|file|drawing|dsc[nf]?|pxl)(?![^\W\d_])"
    + _NUMBERS
    + r"(?:(?:at|from|[ap]m)(?![^\W\d_])"
    + _NUMBERS
    + r")*|"
    + _NUMBERS,
    re.IGNORECASE,
)
"""What apps name a pasted or inserted image, stamped or numbered ("Untitled 1", "Pasted
image 20230101123456", "Screenshot 2023-01-01 at 10.00.00", "IMG_1234"), or a bare number
or date: the empty alt matches too."""
_HASH_ALT = re.compile(r"[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}|[0-9a-f]{12,}", re.IGNORECASE)
_WORD_CAPTION = re.compile(
    r"\bdescription\s+automatically\s+generated(?:\s+with\s+(?:low|medium|high)\s+confidence)?"
    r"\.?\Z",
    re.IGNORECASE,
)
"""Word's generated alt text ends so; before it, either tags ("A picture containing text",
"Diagram, shape") or, in newer versions, a caption ("A diagram of a cell")."""
_WORD_SENTENCE = re.compile(r"(?:an?|the)\s(?!\s*picture\s+containing\b)", re.IGNORECASE)
_ALT_SIZE = re.compile(r"\s*\d{1,4}(?:\s*x\s*\d{1,4})?\s*")
"""Obsidian's image size after the alt: `![alt|300](x.png)`, `![alt|300x200](x.png)`
(and `300 x 200`, as authors also write it)."""


def clean_inline(text: str, *, html: bool = True) -> str:
    """Plain text of one block's inline Markdown, line breaks kept.

    `html=False` is for text that already came out of an HTML parser: tags and entities
    were handled there, so `<`/`&` in it are literal characters."""
    if not text:
        return text
    # each rule runs only when its literal marker is present: same result, far fewer scans
    spans: list[str] = []
    if "`" in text and _CODE.search(text) is None:  # code is verbatim: hide it first
        text, spans = _hide_code_spans(text)
    if "$" in text and (spans or _CODE.search(text) is None):  # math too, after code
        text = _hide_math(text, spans)
    if html and "<!--" in text:
        text = _drop_comments(text)
    if html and "<" in text:
        text = _BR.sub("\n", text)
    escaped = False
    if "\\" in text:
        text = _HARD_BREAK.sub("\n", text)
        escaped = "\\" in text
    if escaped:  # protect escaped punctuation from the emphasis and link rules
        text = _ESCAPE.sub(lambda m: chr(_PROTECT + ord(m.group(1))), text)
    if "[" in text:
        text = _brackets(text)
        if ")[" in text:
            text = _swapped(text)
    if ":" in text and "-" in text:
        text = _ICON.sub("", text)
    if "{" in text:
        text = _ATTRS.sub(_drop_attributes, text)
    if "<" in text:
        text = _AUTOLINK.sub(r"\1", text)
        if html:
            text = _HTML_TAG.sub(_drop_tag, text)
    if "*" in text or "_" in text:
        text = _emphasis(text)
    if ":" in text and ("^" in text or "¿" in text):
        text = _CROSSREF.sub("", text)
    if "==" in text:
        text = _HIGHLIGHT.sub(r"\1", text)
        if "==" in text:
            text = _HIGHLIGHT_LOOSE.sub(_loose_pair, text)
    if "~" in text or "^" in text:
        if "~~" in text:
            text = _STRIKE.sub(r"\1", text)
        if "~" in text:  # subscripts first: "E~0~^2^" is then "E0^2^", a word's superscript
            text = _SUB.sub(_script, text)
        if "^" in text:
            text = _SUP.sub(_script, text)
    if "--" in text:
        text = _DASHES.sub(_dash, text)
    if html and "&" in text:
        text = unescape(text)
    if escaped:
        text = _PROTECTED.sub(lambda m: chr(ord(m.group(0)) - _PROTECT), text)
    if spans:
        text = _CODE.sub(lambda m: spans[ord(m.group(0)) - _CODE_BASE], text)
    return text.replace("\u00a0", " ")


def _dash(m: re.Match[str]) -> str:
    return m.group(0).replace("---", "\u2014").replace("--", "\u2013")


def _script(m: re.Match[str]) -> str:
    """A superscript's or subscript's text; an escaped space in it is a space. A mark
    away from a word holds a letter or digit ("^1^", "(^a^)"), not only "^___^" art."""
    inner = m.group("w")
    if inner is None:
        inner = m.group("m")
        if not any(c.isalnum() for c in inner):
            return m.group(0)
    return inner.replace("\\ ", " ") if "\\" in inner else inner


def _drop_comments(text: str) -> str:
    """`<!-- ... -->` removed; an unclosed `<!--` is text (as CommonMark renders it).
    str.find, not a pattern: linear however many openers there are."""
    out: list[str] = []
    pos = 0
    while (start := text.find("<!--", pos)) >= 0:
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out.append(text[pos:start])
        pos = end + 3
    out.append(text[pos:])
    return "".join(out)


def _brackets(text: str) -> str:
    if "![[" in text:
        text = _EMBED.sub(_embed, text)
    if "![" in text:
        text = _IMAGE.sub(_image_alt, text)
    if "[[" in text:
        text = _WIKILINK.sub(_wikilink, text)
    if "]{" in text:
        text = _PANDOC_SPAN.sub(r"\1", text)
    if "](" in text:
        text = _LINK.sub(r"\1", text)
        if "](" in text:  # a link inside a link's text: `[[2](#a)](#a)` in a pandoc TOC
            text = _LINK.sub(r"\1", text)
    if "][" in text:
        text = _REF_LINK.sub(r"\1", text)
    return text


def _emphasis(text: str) -> str:
    if "**" in text:
        text = _STRONG_STAR.sub(r"\1", text)
    if "__" in text:
        text = _STRONG_UNDER.sub(r"\1", text)
    if "*" in text:
        text = _EM_STAR.sub(r"\1", text)
    if "_" in text:
        text = _EM_UNDER.sub(r"\1", text)
    if "**" in text:  # nested like ***x***, then pairs with a space inside (`** x**`)
        text = _STRONG_STAR.sub(r"\1", text)
        if "**" in text:
            text = _STRONG_LOOSE.sub(_loose_pair, text)
        if "**" in text:
            text = _STRAY_STRONG.sub(_stray, text)
    return text


def _stray(m: re.Match[str]) -> str:
    """A `**` left without its partner (a Word export's bold cut across lines:
    "accounting.** **", "FY20**."): debris, removed; between spaced operands (`5 ** 2`)
    it is an operator, kept."""
    s, a, b = m.string, m.start(), m.end()
    spaced = a >= 2 and s[a - 1] == " " and s[b : b + 1] == " "
    if spaced and s[a - 2].isalnum() and s[b + 1 : b + 2].isalnum():
        return m.group(0)
    return ""


def _loose_pair(m: re.Match[str]) -> str:
    """`**Name **` or `** Name**` (a space on one side): the author's bold, markers go.
    Spaces on both sides (`5 ** 2 ** 3`) or no letter inside: not emphasis, kept."""
    inner = m.group(1)
    if (inner[:1].isspace() and inner[-1:].isspace()) or not any(c.isalpha() for c in inner):
        return m.group(0)
    return inner.strip(" ")


def _hide_code_spans(text: str) -> tuple[str, list[str]]:
    """Each code span replaced by one private-use character; returns the contents.

    A run of n backticks opens a span that the next run of exactly n backticks closes
    (CommonMark); an opener without a closer is literal text. Linear: one pass over the
    runs, with each run's next run of the same length found in advance."""
    out: list[str] = []
    spans: list[str] = []
    if "``" not in text:  # single backticks only (nearly always): pair them in order
        parts = text.split("`")
        if len(parts) % 2 == 0:  # an odd backtick out: the last one is literal
            parts[-2:] = [parts[-2] + "`" + parts[-1]]
        if len(parts) // 2 > 0xFFFD:
            return text, []
        spans = [p.replace("\n", " ").strip() for p in parts[1::2]]
        out.append(parts[0])
        for k, rest in enumerate(parts[2::2]):
            out.append(chr(_CODE_BASE + k))
            out.append(rest)
        return "".join(out), spans
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(text)]
    nxt: list[int] = [-1] * len(runs)
    last: dict[int, int] = {}
    for k in range(len(runs) - 1, -1, -1):
        size = runs[k][1] - runs[k][0]
        nxt[k] = last.get(size, -1)
        last[size] = k
    pos = k = 0
    while k < len(runs):
        close = nxt[k]
        if close < 0 or len(spans) >= 0xFFFD:
            k += 1
            continue
        start, body = runs[k][0], runs[k][1]
        out.append(text[pos:start])
        out.append(chr(_CODE_BASE + len(spans)))
        spans.append(text[body : runs[close][0]].replace("\n", " ").strip())
        pos = runs[close][1]
        k = close + 1
    out.append(text[pos:])
    return "".join(out), spans


_INLINE_MATH = re.compile(r"(?<![\\$])\$(?=[^\s$])((?:[^$\\]|\\.)+?)(?<=[^\s\\])\$(?![\d$])", re.S)
"""Pandoc's `$...$` (tex_math_dollars): the opening `$` has a non-space character on its
right, the closing one a non-space on its left and no digit after it, so "$20,000 and
$30,000" is no math. Linear: the content cannot hold the `$` that starts an attempt."""


_EMPTY_MATH = re.compile(r"(?<!\S)\$[ \t\n]+\$(?!\S)")
"""An empty equation (`$ $`, pandoc's rendering of a blank Word equation, often over two
lines), standing between spaces: no math and nothing to read."""


def _hide_math(text: str, spans: list[str]) -> str:
    """Each TeX math span (`$$...$$` first, then `$...$`) replaced by one private-use
    character after the code spans' (`spans` grows), kept verbatim with its dollars;
    an empty one (`$$ $$`, `$ $`) is dropped. Display math is paired by `str.find` (an
    unclosed `$$` is text), linear like the rest."""

    def hide(math: str) -> str:
        if len(spans) >= 0xFFFD:
            return math
        spans.append(math)
        return chr(_CODE_BASE + len(spans) - 1)

    if "$$" in text:
        out: list[str] = []
        pos = 0
        while (start := text.find("$$", pos)) >= 0:
            end = text.find("$$", start + 2)
            if end < 0:
                break
            if end == start + 2:  # `$$$$`: nothing between, text
                out.append(text[pos : end + 2])
            elif text[start + 2 : end].isspace():  # empty display math says nothing
                out.append(text[pos:start])
            else:
                out.append(text[pos:start])
                out.append(hide(text[start : end + 2]))
            pos = end + 2
        out.append(text[pos:])
        text = "".join(out)
    if "$" in text:
        text = _INLINE_MATH.sub(lambda m: hide(m.group(0)), text)
        if "$" in text:
            text = _EMPTY_MATH.sub("", text)
    return text


def inline_code(text: str) -> str:
    """Code written as inline Markdown (OneNote's code box: a table cell, lines joined by
    `<br>`): line breaks from `<br>`, backslash escapes and entities undone, and nothing
    else touched (`*p`, `arr[3][4]` and `a_b_c` are code, not emphasis or links)."""
    return unescape(_ESCAPE.sub(r"\1", _BR.sub("\n", text)))


def drop_images(text: str) -> str:
    """`text` without its Markdown images, alt text and pandoc attributes included (and
    an image written with its alt and target swapped, `!()[x.png]`)."""
    if "![" in text:
        text = _IMAGE.sub("", text)
    return _SWAPPED_IMAGE.sub("", text) if "!(" in text else text


def has_image(text: str) -> bool:
    """Whether a block's source holds an image (Markdown, HTML or one written swapped)."""
    return (
        "![" in text
        or "<img" in text.lower()
        or ("!(" in text and _SWAPPED_IMAGE.search(text) is not None)
    )


def _swapped(text: str) -> str:
    """An image or link written with its alt and target swapped: its alt or text, as a
    well-formed one gives (`_image_alt`: an alt that says nothing goes)."""
    if "!(" in text:
        text = _SWAPPED_IMAGE.sub(_image_alt, text)
    return _SWAPPED_LINK.sub(r"\1", text)


def _image_alt(m: re.Match[str]) -> str:
    """The alt, spaced from a word it would touch: a Word export glues the image to the
    text after it (`![Krebs cycle](k.png)The cycle`), or to a next image that may go."""
    alt = _alt_text(m.group(1))
    if not alt:
        return alt
    s, a, b = m.string, m.start(), m.end()
    before = " " if a and s[a - 1].isalnum() else ""
    after = " " if s[b : b + 1].isalnum() or s.startswith("![", b) else ""
    return before + alt + after


def _alt_text(alt: str) -> str:
    """What an image's alt says, "" if nothing ("Map of the Indus sites" stays), less an
    Obsidian size (`|300`) and Word's "Description automatically generated"."""
    if "|" in alt:  # split, not a pattern anchored at the end: linear however many bars
        parts = alt.split("|")
        while len(parts) > 1 and _ALT_SIZE.fullmatch(parts[-1]):
            parts.pop()
        alt = "|".join(parts)
    alt = alt.strip()
    if "generated" in alt and (w := _WORD_CAPTION.search(alt)) is not None:
        alt = alt[: w.start()].strip()
        if not _WORD_SENTENCE.match(alt):  # tags, not a caption: nothing to search for
            return ""
    if (f := _FILE_NAME.search(alt)) is not None and " " in (stem := alt[: f.start()].strip()):
        alt = stem  # a file its author named in words: "Bihar Museum, Patna.jpg"
    return "" if _says_nothing(alt) else alt


def _says_nothing(alt: str) -> bool:
    """A placeholder ("Untitled 1", "image 3", "IMG_1234", "Exported image"), a number,
    a hash or UUID, a file name ("image12.png") or a label squashed into one lower-case
    word ("flatteningofliquidsurface"): nothing a retriever can match a question to."""
    low = alt.lower()
    if low in _GENERIC_ALT or low.startswith("pasted") or _FILE_NAME.search(alt):
        return True
    if _PLACEHOLDER_ALT.fullmatch(alt) or (_HASH_ALT.fullmatch(alt) and _has_digit(alt)):
        return True
    return len(alt) > 20 and alt.isalpha() and alt.islower()


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _embed(m: re.Match[str]) -> str:
    """`![[x.png|A caption]]` keeps the caption as an image keeps its alt (`|300`, a size,
    is none); any other embed (`![[x.png]]`, a note's `![[Note#Part|alias]]`) goes."""
    target, *rest = m.group(0)[3:-2].split("|")
    if _FILE_NAME.search(target.strip()) is None:
        return ""
    return _alt_text("|".join(part for part in rest if not _ALT_SIZE.fullmatch(part)))


def _wikilink(m: re.Match[str]) -> str:
    """`[[target#section|alias]]` -> alias; `[[target#section]]` -> target;
    `[[#section]]` (a link within the page) -> section; a link to an image file named by
    its app (`[[Untitled 3.png]]`) -> nothing."""
    if m.group(2) is not None and m.group(2).strip():
        return m.group(2).strip()
    target = m.group(1)
    page, _, section = target.partition("#")
    name = (page or section.lstrip("^")).strip()
    if (f := _FILE_NAME.search(name)) is not None and _says_nothing(name[: f.start()]):
        return ""  # a link to a pasted image, `[[Pasted image 20221219135316.png]]`
    return name


def _drop_attributes(m: re.Match[str]) -> str:
    """An attribute block goes when it is attached to something (right after `]`, `)` or
    a code span), opens with attr_list's `{:` or names an id, a class or a layout key:
    `{i=1}` in LaTeX stays."""
    start, block = m.start(), m.group(0)
    before = m.string[start - 1] if start else " "
    if before in ")]" or ord(before) >= _CODE_BASE or block[1] == ":":
        return ""
    return "" if _ATTR_NAMED.search(block) else block


def _drop_tag(m: re.Match[str]) -> str:
    return "" if m.group(1).lower() in HTML_TAGS else m.group(0)
