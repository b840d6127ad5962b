"""Decoding of text inputs: BOM, then UTF-8, then cp1252 (flagged), NUL bytes refused."""

from __future__ import annotations

import codecs
from pathlib import Path

from notechunk.errors import InputError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_text(data: bytes, source: str) -> tuple[str, str]:
    """(text, encoding used). Raises `InputError` for binary data."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError as exc:
                raise InputError(source, f"invalid {encoding} text at byte {exc.start}") from None
    if b"\x00" in data:
        raise InputError(source, "binary content (NUL bytes), not a text file")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError as exc:
        raise InputError(
            source, f"not UTF-8 and not cp1252 (byte 0x{data[exc.start]:02x} at {exc.start})"
        ) from None


def read_text(path: Path, source: str) -> tuple[str, str]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(source, f"cannot read file ({exc.strerror or exc})") from None
    return decode_text(data, source)
