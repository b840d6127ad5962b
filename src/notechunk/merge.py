"""merge_and_normalize: stage chunks in, normalized, de-duplicated, id'd chunks out.

Same input, byte-identical output: ids are content hashes, order is the stage order
(sorted by source, then position), JSON keys are fixed, the gzip header has no time or name.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from notechunk.chunk import Chunk, count_words

ID_SCHEMA = "notechunk/1"
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200b\u202f\u205f\u3000]+")
_LIST_ITEM = re.compile(r"(?:[-*•]|\d{1,9}[.)]) ")
_BLANK_LINES = re.compile(r"\n{3,}")
_PANDOC_ATTR = re.compile(r"\{\.(?:underline|mark|smallcaps)\}")


def normalize_text(text: str) -> str:
    """NFC, single spaces (non-breaking ones too), no trailing spaces, no pandoc leftovers."""
    text = unicodedata.normalize("NFC", text)
    if "{." in text:
        text = _PANDOC_ATTR.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    text = "\n".join(_normalize_line(line) for line in lines)
    if "\n\n\n" in text:
        text = _BLANK_LINES.sub("\n\n", text)
    return text.strip()


def _normalize_line(line: str) -> str:
    """One line with single spaces; a nested list item keeps its indentation (depth)."""
    body = _SPACES.sub(" ", line).strip()
    if line.startswith("  ") and _LIST_ITEM.match(body):
        indent = len(line) - len(line.lstrip(" "))
        return " " * indent + body
    return body


def chunk_id(chunk: Chunk) -> str:
    """Stable id: hash of schema, NFC source path, location and text (16 hex digits)."""
    if chunk.source_type == "markdown":
        location = f"lines:{chunk.lines}"
    else:
        location = f"sheet:{chunk.sheet}:row:{chunk.row}"
    h = hashlib.sha256()
    for part in (ID_SCHEMA, unicodedata.normalize("NFC", chunk.source), location, chunk.text):
        h.update(part.encode("utf-8", "surrogateescape"))
        h.update(b"\x00")
    return h.hexdigest()[:16]


def merge_and_normalize(chunks: Iterable[Chunk]) -> list[Chunk]:
    """Normalize text, assign ids, mark exact duplicates (`duplicate_of`, omitted).

    The first occurrence of a text wins; later copies keep their place in the list with
    `duplicate_of` set to the first one's id and `omit=True`, so nothing vanishes unexplained.
    """
    out: list[Chunk] = []
    first_by_text: dict[str, str] = {}
    seen_ids: dict[str, int] = {}
    for chunk in chunks:
        text = normalize_text(chunk.text)
        c = replace(chunk, text=text, word_count=count_words(text))
        cid = chunk_id(c)
        if cid in seen_ids:  # same source, place and text twice (overlapping windows)
            seen_ids[cid] += 1
            cid = f"{cid}-{seen_ids[cid]}"
        else:
            seen_ids[cid] = 0
        c = replace(c, id=cid)
        if not c.omit:
            original = first_by_text.get(text)
            if original is not None:
                c = replace(c, duplicate_of=original, omit=True, flags=(*c.flags, "duplicate"))
            else:
                first_by_text[text] = cid
        out.append(c)
    return out


def dumps(obj: object, *, indent: int | None = None) -> str:
    """The one JSON form of every output: sorted keys, fixed separators, UTF-8 text.

    `indent` gives the readable form of the QA files (still sorted, still byte-stable).
    """
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=separators, indent=indent)


def atomic_write_bytes(path: Path, data: bytes, durable: bool = True) -> None:
    """Write to a temporary file beside `path`, fsync (when `durable`), move it into place.

    Cache entries skip the fsync: a torn entry fails to parse and is simply redone.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as fh:
        fh.write(data)
        if durable:
            fh.flush()
            os.fsync(fh.fileno())
    os.replace(tmp, path)


def write_json(path: Path, obj: object) -> None:
    """A readable JSON file (indent 2, sorted keys, trailing newline), written atomically."""
    atomic_write_bytes(path, (dumps(obj, indent=2) + "\n").encode("utf-8"))


def write_text(path: Path, text: str) -> None:
    """A UTF-8 text file with `\n` line ends, written atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


def jsonl_bytes(rows: Iterable[dict[str, object]]) -> bytes:
    return "".join(dumps(r) + "\n" for r in rows).encode("utf-8")


def write_jsonl(path: Path, chunks: Sequence[Chunk]) -> None:
    atomic_write_bytes(path, jsonl_bytes(c.to_json() for c in chunks))


def write_chunks_gz(path: Path, chunks: Sequence[Chunk]) -> None:
    """The final output: surviving chunks only, gzip with mtime 0 and no file name."""
    raw = jsonl_bytes(c.to_json() for c in chunks if not c.omit)
    atomic_write_bytes(path, gzip.compress(raw, compresslevel=6, mtime=0))


def read_jsonl(path: Path) -> list[Chunk]:
    with open(path, encoding="utf-8") as fh:
        return [Chunk.from_json(json.loads(line)) for line in fh if line.strip()]
