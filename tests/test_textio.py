from __future__ import annotations

import codecs

import pytest

from notechunk.errors import InputError
from notechunk.textio import FALLBACK_FLAG, decode_text, detect_encoding

TEXT = "Ambedkar — “Art. 32” café"


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (TEXT.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "utf-8-sig"),
        (TEXT.encode("utf-16"), "utf-16"),
        (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), "utf-16"),
        (TEXT.encode("cp1252"), "cp1252"),
    ],
    ids=["utf8", "utf8-bom", "utf16le-bom", "utf16be-bom", "cp1252"],
)
def test_decoding_order(data: bytes, encoding: str) -> None:
    got = decode_text(data, "f.md")
    assert (got.text, got.encoding) == (TEXT, encoding)
    assert got.flags == ((FALLBACK_FLAG,) if encoding == "cp1252" else ())


def test_detect_encoding_from_a_head_cut_inside_a_character() -> None:
    head = ("é" * 10).encode("utf-8")[:-1]
    assert detect_encoding(head) == "utf-8"
    assert detect_encoding(b"caf\xe9 au lait") == "cp1252"
    assert detect_encoding(codecs.BOM_UTF8 + b"x") == "utf-8-sig"


def test_nul_bytes_and_undecodable_are_input_errors() -> None:
    with pytest.raises(InputError, match="NUL"):
        decode_text(b"abc\x00def", "f.md")
    with pytest.raises(InputError, match="not UTF-8"):
        decode_text(b"\x81\x8d\x8f", "f.md")
