"""An embedded LanceDB table of a run's chunks (`notechunk index`) and search through it.

No server: the database is a folder (default OUT/lancedb) holding the table `chunks`:
one row per surviving chunk, every field of the chunk as a column (lists stay lists),
`vector` (all-MiniLM-L6-v2, when the `dense` extra is installed; reused from
OUT/.search) and a native full-text index on `embed_text`. Re-indexing after a re-run
merges by `id`: changed and new chunks are written, chunks the run no longer has are
deleted, so the table always equals chunks.jsonl.gz. LanceDB and pyarrow come with the
`index` extra and are imported only here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from notechunk.chunk import Chunk
from notechunk.errors import UsageError
from notechunk.io.jsonio import write_json
from notechunk.io.outdir import check_dir
from notechunk.search import dense
from notechunk.search.engine import Hit, SearchResult
from notechunk.search.runview import chunk_lines, embed_texts, open_run

TABLE = "chunks"
DEFAULT_DB = "lancedb"
META = "notechunk-index.json"
_INSTALL = "`pip install 'notechunk[index]'` (lancedb, pyarrow)"


@dataclass(frozen=True, slots=True)
class IndexReport:
    db: Path
    rows: int
    inserted: int
    updated: int
    deleted: int
    vectors: bool
    notes: tuple[str, ...] = ()


def _lancedb() -> Any:
    os.environ.setdefault("LANCEDB_LOG", "error")  # lance logs "creating dataset" as a warning
    try:
        import lancedb
        import pyarrow  # noqa: F401  (lancedb needs it; fail here with the install line)
    except ImportError:
        raise UsageError(f"LanceDB is not installed: {_INSTALL}") from None
    return lancedb


def _arrow_type(name: str, values: Sequence[Any]) -> Any:
    """The column type of one chunk field: lists of strings or ints, else scalars."""
    import pyarrow as pa

    known: dict[str, Any] = {
        "section_path": pa.list_(pa.string()),
        "section_paths": pa.list_(pa.list_(pa.string())),
        "lines": pa.list_(pa.int32()),
        "tags": pa.list_(pa.string()),
        "flags": pa.list_(pa.string()),
        "row": pa.int32(),
        "word_count": pa.int32(),
        "omit": pa.bool_(),
        "retrieval_score": pa.float64(),
        "resolved": pa.map_(pa.string(), pa.string()),
        "acronyms": pa.map_(pa.string(), pa.string()),
        "outline_path": pa.list_(pa.string()),
        "properties": pa.map_(pa.string(), pa.string()),
    }
    if name in known:
        return known[name]
    sample = next((v for v in values if v is not None), None)
    if isinstance(sample, list):
        return pa.list_(pa.string())
    if isinstance(sample, bool):
        return pa.bool_()
    if isinstance(sample, int):
        return pa.int64()
    if isinstance(sample, float):
        return pa.float64()
    return pa.string()  # strings, and fields that are None in every row


def arrow_table(rows: Sequence[dict[str, Any]], vectors: Any | None) -> Any:
    """The chunks as a pyarrow Table: one column per field, plus `vector` if given."""
    import pyarrow as pa

    names = list(dict.fromkeys(k for r in rows for k in r))
    columns: dict[str, Any] = {}
    for name in names:
        values = [r.get(name) for r in rows]
        kind = _arrow_type(name, values)
        if pa.types.is_list(kind) and pa.types.is_string(kind.value_type):
            values = [None if v is None else [str(x) for x in v] for v in values]
        elif pa.types.is_map(kind):  # a JSON object: its (key, value) pairs
            values = [None if v is None else list(v.items()) for v in values]
        columns[name] = pa.array(values, type=kind)
    if vectors is not None:
        dim = int(vectors.shape[1])
        flat = pa.array(vectors.reshape(-1), type=pa.float32())
        columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, dim)
    return pa.table(columns)


def _open(conn: Any, name: str) -> Any | None:
    try:
        return conn.open_table(name)
    except (ValueError, FileNotFoundError):
        return None


def build_index(
    out: Path, db: Path | None = None, embedder: Callable[[], dense.Embedder] | None = None
) -> IndexReport:
    """Write OUT's chunks into the LanceDB folder `db` (default OUT/lancedb)."""
    lancedb = _lancedb()
    from lancedb.index import FTS

    run = open_run(out)
    if db is None:  # OUT's own folder: a link planted there would send the table elsewhere
        db = out / DEFAULT_DB
        check_dir(db)
    lines = chunk_lines(run)
    rows = [json.loads(line) for line in lines]
    if not rows:
        raise UsageError(f"{out} has no chunks to index")
    notes: list[str] = []
    vectors, tag = None, None
    try:
        model = (embedder or dense.make_embedder)()
        vectors, stored = dense.load_or_embed(run, lambda: embed_texts(lines), model)
        notes.extend([stored.note] if stored.note else [])
        tag = model.cache_tag
    except UsageError as exc:
        notes.append(f"no vectors, full-text search only ({exc})")
    data = arrow_table(rows, vectors)
    conn = lancedb.connect(str(db))
    table = _open(conn, TABLE)
    inserted, updated, deleted = len(rows), 0, 0
    if table is not None and table.schema.equals(data.schema):
        res = (
            table.merge_insert("id")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .when_not_matched_by_source_delete()
            .execute(data)
        )
        inserted, updated = res.num_inserted_rows, res.num_updated_rows
        deleted = res.num_deleted_rows
    else:
        if table is not None:
            notes.append("the table's columns changed: rewritten")
        table = conn.create_table(TABLE, data, mode="overwrite")
    table.create_index("embed_text", config=FTS(), replace=True)
    meta = {"chunks_sha256": run.key, "model": tag}
    write_json(db / META, meta)
    return IndexReport(
        db=db,
        rows=int(table.count_rows()),
        inserted=int(inserted),
        updated=int(updated),
        deleted=int(deleted),
        vectors=vectors is not None,
        notes=tuple(notes),
    )


def search_db(
    db: Path,
    query: str,
    *,
    k: int = 5,
    retriever: str = "hybrid",
    out: Path | None = None,
    embedder: Callable[[], dense.Embedder] | None = None,
) -> SearchResult:
    """The top `k` rows of the LanceDB table for `query`: `bm25` runs LanceDB's full-text
    search, `dense` its vector search, `hybrid` both fused by LanceDB's RRF reranker."""
    lancedb = _lancedb()
    if k < 1:
        raise UsageError("-k must be at least 1")
    if not query.strip():
        raise UsageError("the question is empty")
    if not (db / META).is_file():
        raise UsageError(f"{db}: no notechunk index here; run `notechunk index OUT --db {db}`")
    meta = json.loads((db / META).read_text(encoding="utf-8"))
    table = _open(lancedb.connect(str(db)), TABLE)
    if table is None:
        raise UsageError(f"{db}: no `{TABLE}` table; run `notechunk index OUT --db {db}`")
    notes: list[str] = []
    if out is not None and open_run(out).key != meta.get("chunks_sha256"):
        notes.append(f"{db} was indexed from another run than {out}: re-run `notechunk index`")
    has_vectors = "vector" in table.schema.names
    if retriever in ("dense", "hybrid") and not has_vectors:
        if retriever == "dense":
            raise UsageError(f"{db} has no vectors: install notechunk[dense] and re-index")
        notes.append("no vectors in this index: full-text search only")
        retriever = "bm25"
    if retriever == "bm25":
        rows = table.search(query, query_type="fts").limit(k).to_list()
        scored = [(r, float(r["_score"])) for r in rows]
    else:
        model = (embedder or dense.make_embedder)()
        if meta.get("model") != model.cache_tag:
            raise UsageError(f"{db} holds {meta.get('model')} vectors, not {model.cache_tag}")
        qvec = model.encode([query])[0]
        if retriever == "dense":
            q = table.search(qvec, query_type="vector").distance_type("cosine")
            scored = [(r, 1.0 - float(r["_distance"])) for r in q.limit(k).to_list()]
        else:
            q = table.search(query_type="hybrid").vector(qvec).text(query)
            scored = [(r, float(r["_relevance_score"])) for r in q.limit(k).to_list()]
    hits = tuple(
        Hit(rank=n, score=s, chunk=Chunk.from_json(r)) for n, (r, s) in enumerate(scored, 1)
    )
    return SearchResult(
        query=query, retriever=f"lancedb-{retriever}", hits=hits, built={}, notes=tuple(notes)
    )
