"""Text clean-up inside a section (SPEC §1.1), as plain string functions.

Removes inline pandoc spans (`[word]{.underline}`, `{.mark}`, `{.smallcaps}`), emphasis
markers, highlights, HTML comments and tags, escape backslashes; links keep their text;
wikilinks keep their label; embeds and images disappear. Line breaks are kept so a
sentence can be mapped back to its source line.
"""

from __future__ import annotations

import re

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_EMBED = re.compile(r"!\[\[[^\]\n]*\]\]")
_IMAGE = re.compile(r"!\[([^\]\n]*)\]\([^)\n]*\)")
_WIKILINK = re.compile(r"\[\[([^\]|\n]*)(?:\|([^\]\n]*))?\]\]")
_LINK = re.compile(r"\[([^\]\n]*)\]\((?:[^()\n]|\([^)\n]*\))*\)")
_REF_LINK = re.compile(r"\[([^\]\n]+)\]\[[^\]\n]*\]")
_PANDOC_SPAN = re.compile(r"\[([^\]\n]*)\]\{[^}\n]*\}")
_PANDOC_ATTR = re.compile(r"\{\.(?:underline|mark|smallcaps)[^}\n]*\}")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>\n]*)?/?>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.DOTALL)
_EM_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])", re.DOTALL)
_EM_UNDER = re.compile(r"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])", re.DOTALL)
_HIGHLIGHT = re.compile(r"==(?=\S)(.+?)(?<=\S)==")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_SUBSUP = re.compile(r"(?<=\w)[~^]([^\s~^]+)[~^]")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_HARD_BREAK = re.compile(r"\\\n")
_PROTECT = 0xF0000  # escaped ASCII punctuation lives in a private-use plane meanwhile
_PROTECTED = re.compile("[\U000f0021-\U000f007e]")
_ENTITIES = {"&nbsp;": " ", "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'"}
_ENTITY = re.compile("|".join(map(re.escape, _ENTITIES)))


def clean_inline(text: str) -> str:
    """Plain text of one block's inline Markdown, line breaks kept."""
    if not text:
        return text
    # each rule runs only when its literal marker is present: same result, far fewer scans
    if "<!--" in text:
        text = _HTML_COMMENT.sub("", text)
    escaped = False
    if "\\" in text:
        text = _HARD_BREAK.sub("\n", text)
        escaped = "\\" in text
    if escaped:  # protect escaped punctuation from the emphasis and link rules
        text = _ESCAPE.sub(lambda m: chr(_PROTECT + ord(m.group(1))), text)
    if "[" in text:
        if "![[" in text:
            text = _EMBED.sub("", text)
        if "![" in text:
            text = _IMAGE.sub(r"\1", text)
        if "[[" in text:
            text = _WIKILINK.sub(lambda m: m.group(2) or m.group(1), text)
        if "]{" in text:
            text = _PANDOC_SPAN.sub(r"\1", text)
    if "{." in text:
        text = _PANDOC_ATTR.sub("", text)
    if "](" in text:
        text = _LINK.sub(r"\1", text)
    if "][" in text:
        text = _REF_LINK.sub(r"\1", text)
    if "`" in text:
        text = _CODE_SPAN.sub(lambda m: m.group(2).strip(), text)
    if "<" in text:
        text = _HTML_TAG.sub("", text)
    if "*" in text or "_" in text:
        if "**" in text or "__" in text:
            text = _STRONG.sub(r"\2", text)
        if "*" in text:
            text = _EM_STAR.sub(r"\1", text)
        if "_" in text:
            text = _EM_UNDER.sub(r"\1", text)
        if "**" in text or "__" in text:
            text = _STRONG.sub(r"\2", text)  # nested like ***x***
    if "==" in text:
        text = _HIGHLIGHT.sub(r"\1", text)
    if "~" in text or "^" in text:
        if "~~" in text:
            text = _STRIKE.sub(r"\1", text)
        text = _SUBSUP.sub(r"\1", text)
    if escaped:
        text = _PROTECTED.sub(lambda m: chr(ord(m.group(0)) - _PROTECT), text)
    if "&" in text:
        text = _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], text)
    return text.replace("\u00a0", " ")


def clean_html_block(text: str) -> str:
    """An HTML block's readable text: comments and tags removed."""
    return _HTML_TAG.sub("", _HTML_COMMENT.sub("", text))
