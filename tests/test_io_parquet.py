"""io.parquet: chunks.parquet has a typed column per Chunk field, round-trips exactly through
`notechunk.load`, is written in row groups, and either chunk format can be turned off."""

from __future__ import annotations

import types
import typing
from dataclasses import fields
from pathlib import Path

import pytest

import notechunk
from chunks import make_chunk
from notechunk.chunk import RECORD_FIELDS, SCHEMA_VERSION, Chunk
from notechunk.cli import main
from notechunk.config import Config
from notechunk.data import SAMPLE_DIR
from notechunk.errors import ConfigError
from notechunk.io import parquet
from notechunk.io.jsonio import iter_chunks_gz
from notechunk.io.publish import read_manifest
from notechunk.job import run

pq = pytest.importorskip("pyarrow.parquet", reason="chunks.parquet needs the parquet extra")
PARQUET = Config().with_overrides(output={"parquet": True})


def test_a_column_per_chunk_field_nullable_exactly_where_optional() -> None:
    schema = parquet.schema()
    assert schema.names == list(RECORD_FIELDS)
    hints = typing.get_type_hints(Chunk)
    for name in ("lines", "sheet", "row", "group"):  # the location, flat: one of the two
        assert schema.field(name).nullable, name
    for f in fields(Chunk):
        if f.name == "location":
            continue
        optional = isinstance(hints[f.name], types.UnionType) and type(None) in typing.get_args(
            hints[f.name]
        )
        assert schema.field(f.name).nullable == optional, f.name
    assert str(schema.field("section_paths").type) == "list<item: list<item: string>>"
    assert str(schema.field("retrieval_score").type) == "double"
    assert schema.metadata == {b"notechunk.schema": str(SCHEMA_VERSION).encode()}


def varied() -> list[Chunk]:
    """Chunks with every optional field both set and unset."""
    return [
        make_chunk(text="Zoji La links Srinagar and Leh.", source="a.md", source_type="markdown",
              section_path=("Passes", "Ladakh"), lines=(3, 4), title="a", tags=("geo",),
              embed_text="a > Passes\nZoji La", word_count=6, token_count=9, flags=("x", "y"),
              semantic_type="fact", retrieval_score=0.8333, id="id1",
              section_paths=(("Passes",), ("Passes", "Ladakh"))),
        make_chunk(text="Nathu La: Sikkim.", source="p.csv", source_type="spreadsheet", sheet="p",
              row=7, group="East", title="p", created="2024-01-02", embed_text="p\nNathu",
              word_count=3, quality="short", omit=True, template="t", retrieval_score=0.0,
              id="id2", duplicate_of="id1"),
        make_chunk(text="", source="e.md", source_type="markdown"),
    ]  # fmt: skip


def test_writer_round_trips_every_field_in_row_groups(tmp_path: Path) -> None:
    path = tmp_path / "chunks.parquet"
    chunks = varied() * 4
    with open(path, "wb") as fh:
        writer = parquet.ChunkParquetWriter(fh, row_group=5)
        for c in chunks:
            writer.add(c)
        writer.close()
    assert pq.ParquetFile(path).metadata.num_row_groups == 3
    assert list(notechunk.load(path)) == chunks


def test_run_writes_parquet_beside_jsonl_same_chunks_same_bytes(tmp_path: Path) -> None:
    run(SAMPLE_DIR, tmp_path / "a", PARQUET)
    run(SAMPLE_DIR, tmp_path / "b", PARQUET, use_cache=False)
    a = tmp_path / "a" / "chunks.parquet"
    assert a.read_bytes() == (tmp_path / "b" / "chunks.parquet").read_bytes()
    assert "chunks.parquet" in read_manifest(tmp_path / "a").files
    assert list(notechunk.load(tmp_path / "a")) == list(
        iter_chunks_gz(tmp_path / "a" / "chunks.jsonl.gz")
    )


def test_parquet_only_run_skips_jsonl_and_an_unchanged_rerun_rewrites_nothing(
    tmp_path: Path,
) -> None:
    cfg = Config().with_overrides(output={"parquet": True, "jsonl": False})
    out = tmp_path / "out"
    first = run(SAMPLE_DIR, out, cfg)
    assert not (out / "chunks.jsonl.gz").exists()
    stamp = (out / "chunks.parquet").stat().st_mtime_ns
    again = run(SAMPLE_DIR, out, cfg)
    assert (out / "chunks.parquet").stat().st_mtime_ns == stamp
    assert again.metrics == first.metrics
    assert len(list(notechunk.load(out))) == first.metrics.surviving


def test_turning_parquet_on_is_not_an_unchanged_run(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(SAMPLE_DIR, out, Config())
    assert not (out / "chunks.parquet").exists()
    run(SAMPLE_DIR, out, PARQUET)
    assert (out / "chunks.parquet").is_file()


def test_both_formats_off_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="jsonl and parquet cannot both be false"):
        Config().with_overrides(output={"jsonl": False})


def test_parquet_without_pyarrow_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(parquet, "has_pyarrow", lambda: False)
    toml = tmp_path / "c.toml"
    toml.write_text("[output]\nparquet = true\n")
    assert main(["run", str(SAMPLE_DIR), "--out", str(tmp_path / "o"), "--config", str(toml)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "notechunk: [output] parquet = true needs pyarrow, which is not installed: "
        "pip install 'notechunk[parquet]'"
    )
    assert not (tmp_path / "o").exists()
