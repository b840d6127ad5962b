"""The one decoder of text inputs (Markdown, CSV, eval questions): BOM, UTF-8, cp1252.

Order: a byte-order mark decides (UTF-8, UTF-16, UTF-32); else strict UTF-8; else cp1252,
which is a fallback a person should know about, so every chunk of such a file carries the
one flag `FALLBACK_FLAG`. NUL bytes mean binary data and are refused.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

from notechunk.errors import InputError

FALLBACK_FLAG = "encoding_fallback:cp1252"

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str
    encoding: str

    @property
    def fell_back(self) -> bool:
        return self.encoding == "cp1252"

    @property
    def flags(self) -> tuple[str, ...]:
        return (FALLBACK_FLAG,) if self.fell_back else ()


def detect_encoding(head: bytes) -> str:
    """The codec for a file from its first bytes (a BOM, else UTF-8 unless the bytes say
    otherwise, else cp1252). A multi-byte character cut at the end of `head` is UTF-8."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:
            return "cp1252"
    return "utf-8"


def decode_text(data: bytes, source: str) -> Decoded:
    """The text of a whole file. Raises `InputError` (one line) for binary or undecodable data."""
    encoding = detect_encoding(data)
    bommed = _has_bom(data)
    if not bommed and b"\x00" in data:
        raise InputError(source, "binary content (NUL bytes), not a text file")
    if not bommed:
        try:
            return Decoded(data.decode("utf-8"), "utf-8")
        except UnicodeDecodeError:
            encoding = "cp1252"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding == "cp1252":
            raise InputError(
                source, f"not UTF-8 and not cp1252 (byte 0x{data[exc.start]:02x} at {exc.start})"
            ) from None
        raise InputError(source, f"invalid {encoding} text at byte {exc.start}") from None
    if "\x00" in text:  # a BOM in front of binary data
        raise InputError(source, "binary content (NUL characters), not a text file")
    return Decoded(text, encoding)


def _has_bom(data: bytes) -> bool:
    return any(data.startswith(bom) for bom, _ in _BOMS)


def read_text(path: Path, source: str) -> Decoded:
    """`decode_text` of a file's bytes; an unreadable file is an `InputError`."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(source, f"cannot read file ({exc.strerror or exc})") from None
    return decode_text(data, source)
