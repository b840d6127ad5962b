"""The one decoder of text inputs (Markdown, CSV, eval questions): BOM, UTF-8, cp1252.

Order: a byte-order mark decides (UTF-8, UTF-16, UTF-32); else strict UTF-8; else cp1252,
which is a fallback a person should know about, so every chunk of such a file carries the
one flag `FALLBACK_FLAG`. Bytes that are not text are refused with what they look like:
a known binary format by its magic number (`binary_kind`: PNG, gzip, zip, PDF, ...), or
NUL bytes.

Input files are opened with `open_regular`: never blocking (a FIFO swapped in after
discovery is refused at once, not waited on), only regular files, and at most `max_bytes`
(a note larger than memory is refused before it is read).
"""

from __future__ import annotations

import codecs
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

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


_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"BZh", "bzip2-compressed data"),
    (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"PK\x03\x04", "a zip archive (a workbook or document?)"),
    (b"PK\x05\x06", "a zip archive (a workbook or document?)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an OLE container (a legacy .xls or .doc?)"),
    (b"%PDF-", "a PDF document"),
    (b"\x7fELF", "an executable"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x00\x00\x01\x00", "an icon"),
    (b"RIFF", "a RIFF media file"),
    (b"OggS", "an Ogg media file"),
    (b"ID3", "an MP3 file"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
)


_CONTROL = frozenset(range(0x20)) - {0x09, 0x0A, 0x0C, 0x0D} | {0x7F}


def binary_kind(head: bytes) -> str | None:
    """What a file's first bytes (give a KB or so) say it is when they start with the magic
    number of a known binary format and are not text (a control byte or bytes that are not
    UTF-8 follow), so a note that happens to begin with "RIFF" or "BZh" stays a note."""
    for magic, name in _MAGIC:
        if head.startswith(magic) and _not_text(head):
            return name
    return None


def _not_text(head: bytes) -> bool:
    if any(b in _CONTROL for b in head):
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(head) - 3  # a character cut at the end of `head` is text
    return False


def decode_text(data: bytes, source: str) -> Decoded:
    """The text of a whole file. Raises `InputError` (one line) for binary or undecodable data."""
    encoding = detect_encoding(data)
    bommed = _has_bom(data)
    magic = None if bommed else binary_kind(data[:1024])
    if magic is not None:
        raise InputError(source, f"binary content ({magic}), not a text file")
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


READ_LIMIT = 1 << 30
"""Bytes `read_text` reads at most when no limit is given (1 GiB)."""


def open_regular(path: Path, source: str, max_bytes: int | None = None) -> BinaryIO:
    """`path` opened for reading when it is a regular file of at most `max_bytes`; else one
    `InputError`: not a regular file (a FIFO, a device: refused, never waited on), too
    large, or unreadable. Links are followed (discovery decided which ones may be)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputError(source, f"cannot read file ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(source, "not a regular file (a FIFO, socket or device)")
        if max_bytes is not None and st.st_size > max_bytes:
            raise InputError(
                source, f"too large ({_mb(st.st_size)} > the limit of {_mb(max_bytes)})"
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _mb(n: int) -> str:
    return f"{n / (1 << 20):.1f} MB" if n < 1 << 30 else f"{n / (1 << 30):.1f} GB"


def read_regular(path: Path, source: str, max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file of at most `max_bytes` (`open_regular`); a file that
    grows past the limit while read is refused too."""
    with open_regular(path, source, max_bytes) as fh:
        try:
            data = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
        except OSError as exc:
            raise InputError(source, f"cannot read file ({exc.strerror or exc})") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise InputError(source, f"too large (more than the limit of {_mb(max_bytes)})")
    return data


def read_text(path: Path, source: str, max_bytes: int | None = READ_LIMIT) -> Decoded:
    """`decode_text` of a regular file's bytes; an unreadable file is an `InputError`."""
    return decode_text(read_regular(path, source, max_bytes), source)


def source_lines(text: str) -> list[str]:
    """The file's lines as the Markdown runner numbers them (`\\n`, `\\r\\n`, `\\r` end a
    line; no other separator does), without the empty string after a final newline."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines
