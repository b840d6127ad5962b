"""chunks.parquet: the shipped chunks as typed columns, for tools that read chunks at scale.

One column per field of a chunk record (`chunk.RECORD_FIELDS`, the keys of a
chunks.jsonl.gz line; the schema's metadata names `chunk.SCHEMA_VERSION`): strings,
integers, booleans and doubles as themselves, tuples as lists (`section_paths` a list of
lists, `lines` a list of two integers, the pair fields `resolved`, `acronyms` and
`properties` maps of strings); a field that may be None is nullable, the others
are not. Chunks are gathered into row groups of `ROW_GROUP` as they stream past, so
memory holds one group, not the file. No clock, no path, fixed compression: the same
chunks give the same bytes (with the same pyarrow). pyarrow is the `parquet` extra,
imported here only; `require_pyarrow` says so in one line where it is missing.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any, BinaryIO

from notechunk.chunk import SCHEMA_VERSION, Chunk
from notechunk.errors import MissingExtra

if TYPE_CHECKING:
    import pyarrow as pa

ROW_GROUP = 10_000
"""Chunks per row group: ~10-30 MB of columns held at a time, and groups big enough
for a reader's column statistics to pay."""

# column -> (arrow type name, nullable); every field of a chunk record (`RECORD_FIELDS`)
COLUMNS: dict[str, tuple[str, bool]] = {
    "text": ("string", False),
    "source": ("string", False),
    "source_type": ("string", False),
    "section_path": ("list<string>", False),
    "lines": ("list<int64>", True),
    "sheet": ("string", True),
    "row": ("int64", True),
    "group": ("string", True),
    "title": ("string", False),
    "created": ("string", True),
    "tags": ("list<string>", False),
    "embed_text": ("string", False),
    "word_count": ("int64", False),
    "token_count": ("int64", True),
    "quality": ("string", False),
    "omit": ("bool", False),
    "flags": ("list<string>", False),
    "template": ("string", True),
    "semantic_type": ("string", False),
    "retrieval_score": ("double", True),
    "id": ("string", False),
    "duplicate_of": ("string", True),
    "section_paths": ("list<list<string>>", False),
    "resolved": ("map<string,string>", False),
    "acronyms": ("map<string,string>", False),
    "outline_path": ("list<string>", False),
    "properties": ("map<string,string>", False),
}


def has_pyarrow() -> bool:
    return importlib.util.find_spec("pyarrow") is not None


def require_pyarrow(feature: str) -> None:
    """Raise `MissingExtra` (naming `pip install 'notechunk[parquet]'`) without pyarrow."""
    if not has_pyarrow():
        raise MissingExtra(feature, "pyarrow", "parquet")


def schema() -> pa.Schema:
    """The arrow schema of chunks.parquet (see the module docstring)."""
    import pyarrow as pa

    def arrow_type(name: str) -> pa.DataType:
        if name == "map<string,string>":
            return pa.map_(pa.string(), pa.string())
        if name.startswith("list<"):
            return pa.list_(arrow_type(name[5:-1]))
        return {"string": pa.string(), "int64": pa.int64(), "bool": pa.bool_()}.get(
            name, pa.float64()
        )

    return pa.schema(
        [pa.field(n, arrow_type(t), nullable=null) for n, (t, null) in COLUMNS.items()],
        metadata={"notechunk.schema": str(SCHEMA_VERSION)},
    )


def _value(name: str, value: Any) -> Any:
    if name == "section_paths":
        return [list(p) for p in value]
    return list(value) if isinstance(value, tuple) else value


class ChunkParquetWriter:
    """Chunks appended one at a time to an open binary file, a row group every
    `row_group` chunks; `close` writes the rest and the footer (the file stays open)."""

    def __init__(self, fh: BinaryIO, row_group: int = ROW_GROUP) -> None:
        import pyarrow.parquet as pq

        self._schema = schema()
        self._writer = pq.ParquetWriter(fh, self._schema, compression="zstd")
        self._row_group = row_group
        self._columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
        self._rows = 0

    def add(self, chunk: Chunk) -> None:
        for name, column in self._columns.items():
            column.append(_value(name, getattr(chunk, name)))
        self._rows += 1
        if self._rows >= self._row_group:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self._rows:
            table = pa.Table.from_pydict(self._columns, schema=self._schema)
            self._writer.write_table(table, row_group_size=self._row_group)
        self._columns = {name: [] for name in COLUMNS}
        self._rows = 0

    def close(self) -> None:
        self._flush()
        self._writer.close()
