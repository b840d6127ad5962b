"""merge: normalization, stable ids, duplicates and the deterministic writers."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from notechunk.chunk import Chunk
from notechunk.merge import (
    dumps,
    merge_and_normalize,
    normalize_text,
    read_jsonl,
    write_chunks_gz,
    write_json,
    write_jsonl,
)


def md(text: str, i: int = 1, **kw: object) -> Chunk:
    return Chunk(text=text, source="a.md", source_type="markdown", lines=(i, i), **kw)  # type: ignore[arg-type]


def test_normalize_text() -> None:
    assert normalize_text("Cafe\u0301  x\u00a0y [w]{.underline}\r\n\n\n\nz ") == "Café x y [w]\n\nz"


def test_ids_stable_and_duplicates_marked() -> None:
    a = merge_and_normalize([md("one text", 1), md("one  text", 2), md("two", 3)])
    b = merge_and_normalize([md("one text", 1), md("one  text", 2), md("two", 3)])
    assert [c.id for c in a] == [c.id for c in b]
    assert len({c.id for c in a}) == 3
    assert a[1].duplicate_of == a[0].id and a[1].omit and "duplicate" in a[1].flags
    assert a[0].word_count == 2


def test_omitted_chunk_is_not_an_original() -> None:
    out = merge_and_normalize([md("same", 1, omit=True), md("same", 2)])
    assert out[1].duplicate_of is None and not out[1].omit


def test_dumps_sorted_and_indent() -> None:
    assert dumps({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    assert dumps({"b": 1, "a": [1]}, indent=2) == '{\n  "a": [\n    1\n  ],\n  "b": 1\n}'


def test_write_json_is_atomic_and_readable(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "x.json"
    write_json(path, {"z": 1, "a": 2})
    assert path.read_text() == '{\n  "a": 2,\n  "z": 1\n}\n'
    assert [p.name for p in path.parent.iterdir()] == ["x.json"]  # no temp file left


def test_write_chunks_gz_deterministic(tmp_path: Path) -> None:
    chunks = merge_and_normalize([md("kept", 1), md("gone", 2, omit=True)])
    write_chunks_gz(tmp_path / "a.gz", chunks)
    write_chunks_gz(tmp_path / "b.gz", chunks)
    raw = (tmp_path / "a.gz").read_bytes()
    assert raw == (tmp_path / "b.gz").read_bytes()
    assert raw[4:8] == b"\0\0\0\0" and not raw[3] & 0x08
    lines = gzip.decompress(raw).decode().splitlines()
    assert [json.loads(x)["text"] for x in lines] == ["kept"]


def test_jsonl_round_trip(tmp_path: Path) -> None:
    chunks = merge_and_normalize([md("x y", 1, section_path=("A", "B"), flags=("f",))])
    write_jsonl(tmp_path / "s.jsonl", chunks)
    assert read_jsonl(tmp_path / "s.jsonl") == chunks


def test_normalize_keeps_nested_list_depth() -> None:
    from notechunk.merge import normalize_text

    text = "- a\n  - b  c\n    1. d\n   plain  text \n\u00a0x"
    assert normalize_text(text) == "- a\n  - b c\n    1. d\nplain text\nx"
