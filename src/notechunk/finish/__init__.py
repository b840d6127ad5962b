"""finish_file: one file's pieces into complete chunks, purely (no corpus knowledge needed).

Order: normalise the text -> label it (word count and quality from the normalised text,
so the two always agree) -> semantic type -> context and `embed_text` -> stable id ->
opening references resolved (`enrich.references`, which adds to `embed_text` only).
A piece whose text normalises to nothing carries no content and yields no chunk.

`embed_text` is what a retriever should index (SPEC §1.4): the context, joined by " > "
(the document title, with a Logseq page's aliases, the heading path and the outline path;
for a row the file's title, the sheet and the row's group), a newline, then the text. A
context part equal to the one before it (a title repeated as the first heading, a CSV
whose sheet is its file name) is said once.

With a tokenizer configured, every chunk's `embed_text` is counted in one batch per file
(`token_count`, special tokens included: what the embedder reads) before it is labelled,
so `max_tokens` can label it `too_long_tokens`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import PurePosixPath

from notechunk.chunk import Chunk, Location, MarkdownSpan, Piece, Pieces, SheetCell, SourceType
from notechunk.config import Config
from notechunk.enrich import get_finder
from notechunk.enrich.names import NameFinder
from notechunk.enrich.references import resolve_references
from notechunk.finish.quality import assess, classify, token_flags, trim_context_dead
from notechunk.finish.semantic import semantic_type
from notechunk.tokens import TokenCounter, counter_for

ID_SCHEMA = "notechunk/1"
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]+")
_LIST_ITEM = re.compile(r"(?:[-*•]|\d{1,9}[.)]) ")
_BLANK_LINES = re.compile(r"\n{3,}")
_PANDOC_ATTR = re.compile(r"\{\.(?:underline|mark|smallcaps)\}")
_NAME_SEPARATORS = re.compile(r"[\s_-]+")
_NEEDS_WORK = re.compile(r"[\t\n\r]|  |\{\.")  # in ASCII text: what normalize_text changes


def normalize_text(text: str) -> str:
    """NFC, single spaces (non-breaking ones too), no trailing spaces, no pandoc leftovers."""
    if text.isascii() and not _NEEDS_WORK.search(text):  # a sheet row: nothing to do
        return text.strip()
    text = unicodedata.normalize("NFC", text)
    if "{." in text:
        text = _PANDOC_ATTR.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    spaced = _SPACES.sub(" ", text)  # one pass over the text, not one a line
    lines, bodies = text.split("\n"), spaced.split("\n")
    if "```" in text or "~~~" in text:
        text = "\n".join(_normalize_fenced(lines, bodies))
    else:
        text = "\n".join(
            _normalize_line(line, body.strip()) for line, body in zip(lines, bodies, strict=True)
        )
    if "\n\n\n" in text:
        text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()


_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")


def _normalize_fenced(lines: list[str], bodies: list[str]) -> Iterator[str]:
    """The lines of a text with fenced code: a line inside a fence keeps its indentation
    and inner spacing (Python's or YAML's indentation is meaning), less trailing spaces;
    the fence lines and the rest are normalised as any line. A fence closes at a line of
    only its marker, at least as long (CommonMark); an unclosed one runs to the end."""
    fence = ""
    for line, body in zip(lines, bodies, strict=True):
        if fence:
            if body.strip().startswith(fence) and body.strip() == fence[0] * len(body.strip()):
                fence = ""
                yield body.strip()
            else:
                yield line.rstrip()
            continue
        m = _FENCE.match(line)
        if m is not None and not (m.group(1)[0] == "`" and "`" in line[m.end() :]):
            fence = m.group(1)
        yield _normalize_line(line, body.strip())


def _normalize_line(line: str, body: str) -> str:
    """One line (`body`: with single spaces, stripped); a nested list item keeps its
    indentation (depth)."""
    if line.startswith("  ") and _LIST_ITEM.match(body):
        indent = len(line) - len(line.lstrip(" "))
        return " " * indent + body
    return body


_GENERIC_NAMES = frozenset(
    """readme index _index home notes untitled deck cards flashcards data export sheet
    sheet1 book1""".split()
)
_EXPORT_EXTENSIONS = frozenset(
    """docx doc odt rtf pdf html htm xhtml pptx ppt odp key pages epub txt md markdown
    one onepkg enex xlsx xls csv""".split()
)
_NOTION_ID = re.compile(r"[ _-]*[0-9a-f]{32}$", re.IGNORECASE)


def clean_title(stem: str) -> str:
    """A file stem without what exporters add (SPEC v3): the source's own extension
    ("Torts.docx" -> "Torts", "Notes.pdf.md" already lost ".md") and Notion's 32-hex id
    ("Page 1a2b...9f" -> "Page"), as many times as they were stacked."""
    while True:
        head, dot, ext = stem.rpartition(".")
        if dot and head.strip() and ext.lower() in _EXPORT_EXTENSIONS:
            stem = head
            continue
        cut = _NOTION_ID.sub("", stem)
        if cut != stem and cut.strip():
            stem = cut
            continue
        return stem


def title_from_name(source: str) -> str:
    """A document title from its file name: no folder, no extension, `-` and `_` as spaces
    ("history/bhakti-movement.md" -> "bhakti movement"). A generic name (README, index)
    says nothing, so its folder names the document ("law/torts/README.md" -> "torts")."""
    path = PurePosixPath(source)
    stem = clean_title(path.stem)
    if stem.casefold() in _GENERIC_NAMES and path.parent.name:
        stem = clean_title(path.parent.name)
    cleaned = " ".join(_NAME_SEPARATORS.sub(" ", stem).split())
    return unicodedata.normalize("NFC", cleaned) or stem


def hierarchy_title(source: str, title: str | None) -> str:
    """The title path of a note in a vault that writes its hierarchy in file names:
    "notes/economics.MIT.Microeconomics.md" -> "economics > MIT > Microeconomics"; the
    note's own `title` (front matter), when it has one, names the last part."""
    parts = [title_from_name(part) for part in PurePosixPath(source).stem.split(".")]
    parts = [p for p in parts if p]
    if title:
        parts[-1:] = [title]
    return " > ".join(parts)


def context_parts(
    title: str, section_path: Iterable[str], sheet: str | None, group: str | None
) -> tuple[str, ...]:
    """The context a chunk stands in, outermost first, each part said once: a note's
    title and heading path; a row's file title, sheet, sheet title (its `section_path`,
    SPEC v3) and group."""
    raw = [title, *section_path] if sheet is None else [title, sheet, *section_path, group or ""]
    parts: list[str] = []
    for part in raw:
        part = " ".join(part.split())
        if part and (not parts or parts[-1].casefold() != part.casefold()):
            parts.append(part)
    return tuple(parts)


def embed_text(context: tuple[str, ...], text: str) -> str:
    return " > ".join(context) + "\n" + text if context else text


def chunk_id(
    prefix: hashlib._Hash,
    source_type: SourceType,
    lines: tuple[int, int] | None,
    sheet: str | None,
    row: int | None,
    text: str,
) -> str:
    """Stable id: hash of schema, NFC source path (`prefix`, from `id_prefix`), location
    and text (16 hex digits)."""
    location = f"lines:{lines}" if source_type == "markdown" else f"sheet:{sheet}:row:{row}"
    h = prefix.copy()
    for part in (location, text):
        h.update(part.encode("utf-8", "surrogateescape"))
        h.update(b"\x00")
    return h.hexdigest()[:16]


def id_prefix(source: str) -> hashlib._Hash:
    """The id hash fed its schema and source: made once per file, copied by its chunks."""
    h = hashlib.sha256()
    for part in (ID_SCHEMA, unicodedata.normalize("NFC", source)):
        h.update(part.encode("utf-8", "surrogateescape"))
        h.update(b"\x00")
    return h


def finish_file(
    doc: Pieces,
    cfg: Config,
    tokens: TokenCounter | None = None,
    finder: NameFinder | None = None,
) -> tuple[Chunk, ...]:
    """Complete chunks of one file, in piece order. Ids are unique within the file: the
    same text at the same place twice (overlapping windows) gets a `-1`, `-2` suffix.

    `tokens` is the counter of `cfg.tokenizer`, loaded once by the caller for many files;
    when it is None and a tokenizer is configured, it is loaded here. With
    `enrich.references`, opening references are resolved last by `finder` (built from the
    config when not given), and a chunk whose `embed_text` grew is counted again.
    """
    title = doc.title if doc.title is not None else title_from_name(doc.source)
    drafts = [
        (piece, *trim_context_dead(text, cfg.context_dead))
        for piece in doc.pieces
        if (text := normalize_text(piece.text))
    ]
    named = _with_aliases(title, doc.properties)
    contexts: dict[tuple[tuple[str, ...], str | None, str | None], tuple[str, ...]] = {}

    def context(p: Piece) -> tuple[str, ...]:  # a sheet's rows share a few contexts
        key = ((*p.section_path, *p.outline_path), p.sheet, p.group)
        got = contexts.get(key)
        if got is None:
            got = contexts[key] = context_parts(named, *key)
        return got

    embeds = [embed_text(context(p), text) for p, text, _ in drafts]
    counts: list[int | None] = [None] * len(drafts)
    if tokens is None and cfg.tokenizer:
        tokens = counter_for(cfg.tokenizer)
    if tokens is not None and embeds:
        counts = [n + tokens.overhead for n in tokens.count(embeds)]
    prefix = id_prefix(doc.source)
    seen: dict[str, int] = {}
    out: list[Chunk] = []
    for (piece, text, trimmed), embedded, n_tokens in zip(drafts, embeds, counts, strict=True):
        chunk = _finish_piece(doc, piece, text, title, embedded, n_tokens, cfg, prefix, trimmed)
        n = seen.get(chunk.id)
        seen[chunk.id] = 0 if n is None else n + 1
        if n is not None:
            chunk = replace(chunk, id=f"{chunk.id}-{n + 1}")
        out.append(chunk)
    if not cfg.enrich.references:
        return tuple(out)
    resolved = resolve_references(out, finder or get_finder(cfg.enrich.references_backend))
    if tokens is None:
        return resolved
    return tuple(recount(new, old, tokens, cfg) for new, old in zip(resolved, out, strict=True))


def _with_aliases(title: str, properties: tuple[tuple[str, str], ...]) -> str:
    """The title as the context says it: with the page's `alias::` names, if any."""
    aliases = [a.strip() for k, v in properties if k == "alias" for a in v.split(",")]
    aliases = [a for a in dict.fromkeys(aliases) if a and a.casefold() != title.casefold()]
    return f"{title} ({', '.join(aliases)})" if aliases else title


def recount(new: Chunk, old: Chunk, tokens: TokenCounter, cfg: Config) -> Chunk:
    """`new` (`old` with an enriched `embed_text`) with its tokens counted again, and its
    `too_long_tokens` label and flag decided on what the embedder now reads."""
    if new.embed_text == old.embed_text:
        return new
    (n,) = tokens.count([new.embed_text])
    n += tokens.overhead
    # only the token count changed, so the word band did not: a row that was not `short`
    # (a full row) is not made `short` here
    full = old.quality != "short"
    quality, _, _ = classify(new.text, new.word_count, new.source_type, cfg, n, full)
    flags = tuple(f for f in new.flags if not f.startswith("too_long_tokens:"))
    return replace(new, token_count=n, quality=quality, flags=(*flags, *token_flags(n, cfg)))


def location_of(piece: Piece) -> Location:
    """A piece's place as its chunk records it: a line range, or a sheet row."""
    if piece.lines is not None:
        return MarkdownSpan(*piece.lines)
    if piece.sheet is None or piece.row is None:
        raise ValueError("a piece has either lines or a sheet and a row")
    return SheetCell(piece.sheet, piece.row, piece.group)


def _finish_piece(
    doc: Pieces,
    piece: Piece,
    text: str,
    title: str,
    embedded: str,
    token_count: int | None,
    cfg: Config,
    prefix: hashlib._Hash,
    trimmed: tuple[str, ...] = (),
) -> Chunk:
    words, quality, omit, extra = assess(text, doc.source_type, cfg, token_count, piece.full)
    cut = tuple(f"context_dead_trimmed:{phrase}" for phrase in trimmed)
    flags = (*piece.flags, *doc.flags, *cut, *extra)
    if piece.omit_reason is not None:
        omit = True
        flags = (*flags, piece.omit_reason)
    return Chunk(
        text=text,
        source=doc.source,
        source_type=doc.source_type,
        section_path=piece.section_path,
        section_paths=piece.section_paths,
        outline_path=piece.outline_path,
        properties=doc.properties,
        location=location_of(piece),
        title=title,
        created=doc.created,
        tags=doc.tags,
        embed_text=embedded,
        word_count=words,
        token_count=token_count,
        quality=quality,
        omit=omit,
        flags=flags,
        template=piece.template,
        semantic_type=semantic_type(text, doc.source_type),
        id=chunk_id(prefix, doc.source_type, piece.lines, piece.sheet, piece.row, text),
    )
