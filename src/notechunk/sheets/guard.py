"""Before any parser sees a file: what the bytes are, and whether the container is safe.

- `sniff(path)` names what the bytes are (zip, ole, html, ...) from the first 2 KB.
- `check_container` refuses a file whose bytes do not fit its extension with one reason
  (an HTML page or a CSV named .xlsx, an encrypted OLE container named .xlsx, ...).
- `check_zip` refuses zip bombs (total uncompressed size, ratio, member count) and parts
  with `<!DOCTYPE` (XML entities), before calamine or openpyxl open the file.
"""

from __future__ import annotations

import codecs
import zipfile
from pathlib import Path

from notechunk.config import SheetsConfig
from notechunk.errors import InputError, UnsupportedInput

_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_DOCTYPE_PREFIX_BYTES = 65536


def sniff(path: Path) -> str:
    """'zip', 'ole', 'empty', 'html', 'xml', 'text' or 'binary' from the first bytes."""
    with path.open("rb") as fh:
        head = fh.read(2048)
    if not head:
        return "empty"
    if head.startswith(_ZIP_MAGIC):
        return "zip"
    if head.startswith(_OLE_MAGIC):
        return "ole"
    text = head.lstrip(b"\xef\xbb\xbf\xff\xfe\x00 \t\r\n").lower().replace(b"\x00", b"")
    if text.startswith((b"<!doctype html", b"<html")) or b"<table" in text or b"<html" in text:
        return "html"
    if text.startswith(b"<?xml") or text.startswith(b"<"):
        return "xml"
    if b"\x00" not in head[:512] or head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "text"
    return "binary"


def check_container(path: Path, rel: str, cfg: SheetsConfig) -> None:
    """Raise `InputError` with one clear reason unless the bytes fit the extension."""
    kind = sniff(path)
    suffix = path.suffix.lower()
    if kind == "empty":
        raise InputError(rel, "empty file (0 bytes)")
    if kind in ("html", "xml", "text", "binary"):
        label = {"html": "HTML", "xml": "XML", "text": "text/CSV", "binary": "unknown binary"}
        raise UnsupportedInput(rel, f"not a workbook (looks like {label[kind]})")
    if kind == "ole" and suffix != ".xls":
        raise UnsupportedInput(
            rel,
            "password-protected or encrypted workbook (OLE container named "
            f"{suffix}; remove the password or save as plain {suffix})",
        )
    if kind == "zip" and suffix == ".xls":
        raise UnsupportedInput(rel, "not a legacy .xls (zip container; rename to .xlsx)")
    if kind == "zip":
        check_zip(path, rel, cfg)


def check_zip(path: Path, rel: str, cfg: SheetsConfig) -> None:
    """Refuse zip bombs and DOCTYPE-bearing parts before any XML parser sees them."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > cfg.max_zip_members:
                raise InputError(
                    rel, f"zip bomb suspected: {len(infos)} members > {cfg.max_zip_members}"
                )
            total = sum(i.file_size for i in infos)
            packed = sum(i.compress_size for i in infos)
            if total > cfg.max_unzipped_bytes:
                raise InputError(
                    rel,
                    f"zip bomb suspected: {total} bytes uncompressed > "
                    f"max_unzipped_bytes {cfg.max_unzipped_bytes}",
                )
            ratio = total / max(packed, 1)
            if ratio > cfg.max_zip_ratio and total > 1_000_000:
                raise InputError(
                    rel,
                    f"zip bomb suspected: compression ratio {ratio:.0f} > "
                    f"max_zip_ratio {cfg.max_zip_ratio:g}",
                )
            for info in infos:
                if not info.filename.lower().endswith((".xml", ".rels", ".vml")):
                    continue
                with zf.open(info) as member:
                    prefix = member.read(_DOCTYPE_PREFIX_BYTES)
                if b"<!doctype" in prefix.lower():
                    raise InputError(
                        rel, f"refused: part {info.filename} declares a <!DOCTYPE> (XML entities)"
                    )
    except zipfile.BadZipFile as exc:
        raise InputError(rel, f"corrupt workbook (bad zip: {exc})") from None
    except (RuntimeError, NotImplementedError) as exc:  # encrypted member, unknown method
        raise InputError(rel, f"unreadable zip member ({exc})") from None
