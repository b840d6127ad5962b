"""integrations.llamaindex: linked TextNodes whose metadata stays out of the embedding,
and a reader (alone, and as a SimpleDirectoryReader file extractor)."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import pytest

import notechunk
from notechunk.data import SAMPLE_DIR
from notechunk.errors import MissingExtra

pytest.importorskip("llama_index.core")
from llama_index.core import SimpleDirectoryReader  # noqa: E402
from llama_index.core.readers.base import BaseReader  # noqa: E402
from llama_index.core.schema import Document, MetadataMode, NodeRelationship, TextNode  # noqa: E402

from notechunk.integrations.llamaindex import NotechunkReader, to_nodes  # noqa: E402


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("out")
    notechunk.run(SAMPLE_DIR, folder)
    return folder


def test_nodes_embed_exactly_embed_text(out: Path) -> None:
    chunks = list(notechunk.load(out))
    nodes = to_nodes(chunks)
    assert all(isinstance(n, TextNode) for n in nodes)
    assert [n.node_id for n in nodes] == [c.id for c in chunks]
    assert [n.get_content(MetadataMode.EMBED) for n in nodes] == [c.embed_text for c in chunks]
    for node, chunk in zip(nodes, chunks, strict=True):
        llm = node.get_content(MetadataMode.LLM)
        assert llm.startswith(f"source: {chunk.source}") and llm.endswith(chunk.embed_text)
        assert "quality:" not in llm and "flags:" not in llm
    as_text = to_nodes(chunks, content="text")
    md = next(n for n, c in zip(as_text, chunks, strict=True) if c.section_path)
    assert md.get_content(MetadataMode.EMBED).startswith("title: ")
    assert "section_path: " in md.get_content(MetadataMode.EMBED)


def test_relationships_link_a_file_in_order(out: Path) -> None:
    chunks = list(notechunk.load(out))
    nodes = to_nodes(chunks)
    by_id = {n.node_id: n for n in nodes}
    for node, chunk in zip(nodes, chunks, strict=True):
        assert node.source_node is not None and node.source_node.node_id == chunk.source
    for source in {c.source for c in chunks}:
        ids = [c.id for c in chunks if c.source == source]
        first, last = by_id[ids[0]], by_id[ids[-1]]
        assert NodeRelationship.PREVIOUS not in first.relationships
        assert NodeRelationship.NEXT not in last.relationships
        for a, b in zip(ids, ids[1:], strict=False):
            assert by_id[a].next_node.node_id == b  # type: ignore[union-attr]
            assert by_id[b].prev_node.node_id == a  # type: ignore[union-attr]


def test_interleaved_files_link_within_each_file() -> None:
    long = " ".join(["word"] * 25) + "."  # two tiny sibling sections would be one chunk
    a1, a2 = notechunk.chunk_markdown_text(f"# A\n\nOne.\n\n# B\n\n{long}", source="a.md")
    [b1] = notechunk.chunk_markdown_text("Three.", source="b.md")
    n_a1, n_b1, n_a2 = to_nodes([a1, b1, a2])
    assert n_a1.next_node.node_id == n_a2.node_id  # type: ignore[union-attr]
    assert n_b1.prev_node is None and n_b1.next_node is None


def test_reader_on_notes_out_and_as_a_file_extractor(out: Path, tmp_path: Path) -> None:
    reader = NotechunkReader()
    assert isinstance(reader, BaseReader)
    from_out = reader.load_data(out)
    from_notes = reader.load_data(SAMPLE_DIR)
    assert all(isinstance(d, Document) for d in from_out)
    assert [(d.id_, d.text) for d in from_out] == [(d.id_, d.text) for d in from_notes]
    notes = tmp_path / "notes"
    shutil.copytree(SAMPLE_DIR / "polity", notes)
    docs = SimpleDirectoryReader(str(notes), file_extractor={".md": reader}).load_data()
    expected = [c for p in sorted(notes.glob("*.md")) for c in notechunk.chunk_file(p)]
    assert [d.text for d in docs] == [c.embed_text for c in expected]
    doc = docs[0]
    assert doc.metadata["file_name"] == doc.metadata["source"]  # SimpleDirectoryReader's too
    assert doc.get_content(MetadataMode.EMBED) == expected[0].embed_text
    assert "file_path" not in doc.get_content(MetadataMode.LLM)


def test_missing_llamaindex_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("llama_index", "llama_index.core", "llama_index.core.schema"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "llama_index.core.readers.base", None)
    monkeypatch.delitem(sys.modules, "notechunk.integrations.llamaindex")
    with pytest.raises(MissingExtra, match=r"pip install 'notechunk\[llamaindex\]'"):
        importlib.import_module("notechunk.integrations.llamaindex")
