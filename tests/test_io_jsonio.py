"""io.jsonio: one JSON form, atomic writes, deterministic gzip, JSONL round trips."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from chunks import make_chunk
from notechunk.chunk import Chunk
from notechunk.io.jsonio import (
    atomic_open,
    chunk_line,
    dumps,
    gzip_bytes,
    iter_chunks_gz,
    jsonl_bytes,
    read_jsonl,
    temp_beside,
    temp_pattern,
    write_json,
    write_jsonl,
)


def md(text: str, i: int = 1) -> Chunk:
    return make_chunk(text=text, source="a.md", source_type="markdown", lines=(i, i), flags=("f",))


def test_dumps_sorted_and_indent() -> None:
    assert dumps({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    assert dumps({"b": 1, "a": [1]}, indent=2) == '{\n  "a": [\n    1\n  ],\n  "b": 1\n}'


def test_write_json_is_atomic_and_readable(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "x.json"
    write_json(path, {"z": 1, "a": 2})
    assert path.read_text() == '{\n  "a": 2,\n  "z": 1\n}\n'
    assert [p.name for p in path.parent.iterdir()] == ["x.json"]  # no temp file left


def test_a_torn_write_leaves_a_temporary_file_the_sweep_pattern_finds(tmp_path: Path) -> None:
    """atomic_open, the cache's entry writer and publish's sweep of stale temporary files
    share one naming rule: a write a crash left half done is found by `temp_pattern`."""
    target = tmp_path / "manifest.json"
    with atomic_open(target) as fh:
        fh.write(b"{}")
        left = sorted(tmp_path.glob(temp_pattern(target.name)))
        assert left == [temp_beside(target)]
    assert target.read_bytes() == b"{}"
    assert not list(tmp_path.glob(temp_pattern(target.name)))
    assert not list(tmp_path.glob(temp_pattern("other.json")))


def test_gzip_is_deterministic(tmp_path: Path) -> None:
    raw = jsonl_bytes(c.to_json() for c in [md("kept", 1)])
    a, b = gzip_bytes(raw), gzip_bytes(raw)
    assert a == b
    assert a[4:8] == b"\0\0\0\0" and not a[3] & 0x08  # no mtime, no file name
    (tmp_path / "c.gz").write_bytes(a)
    assert [c.text for c in iter_chunks_gz(tmp_path / "c.gz")] == ["kept"]
    assert [json.loads(x)["text"] for x in gzip.decompress(a).decode().splitlines()] == ["kept"]


def test_jsonl_round_trip(tmp_path: Path) -> None:
    chunks = [md("x y", 1), make_chunk(text="r", source="s.csv", source_type="spreadsheet", row=2)]
    write_jsonl(tmp_path / "s.jsonl", chunks)
    assert read_jsonl(tmp_path / "s.jsonl") == chunks


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e-5, 1e16, 1.5e300, 2.5e-7, 0.0001, 123456789.0])
    | st.text()
    | st.sampled_from(["3d0be682", "12e4", "1e5", "x1e5", "0.00001", "a 2e-3 b"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(_JSON, st.sampled_from([None, 2]))
@settings(max_examples=300, deadline=None)
def test_dumps_is_the_bytes_of_json_dumps(obj: object, indent: int | None) -> None:
    separators = (",", ":") if indent is None else (",", ": ")
    want = json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=separators, indent=indent)
    assert dumps(obj, indent=indent) == want


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(
    text=_TEXT,
    title=_TEXT,
    path=st.lists(_TEXT, max_size=3),
    flags=st.lists(_TEXT, max_size=3),
    score=st.none() | st.floats(0, 1).map(lambda s: round(s, 4)),
    pairs=st.lists(st.tuples(_TEXT, _TEXT), max_size=2),
    sheet=st.booleans(),
)
@settings(max_examples=200, deadline=None)
def test_chunk_line_is_the_bytes_of_json_dumps(
    text: str,
    title: str,
    path: list[str],
    flags: list[str],
    score: float | None,
    pairs: list[tuple[str, str]],
    sheet: bool,
) -> None:
    """The write pass's fast encoding equals json.dumps of the chunk's JSON form."""
    place = {"source_type": "spreadsheet", "sheet": title, "row": 3} if sheet else {}
    chunk = make_chunk(
        text=text,
        title=title,
        section_path=tuple(path),
        flags=tuple(flags),
        retrieval_score=score,
        resolved=tuple(pairs),
        acronyms=tuple(reversed(pairs)),
        **place,  # type: ignore[arg-type]
    )
    want = json.dumps(chunk.to_json(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert chunk_line(chunk) == (want + "\n").encode("utf-8")
