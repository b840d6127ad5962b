"""integrations.langchain: Documents from chunks, and a BaseLoader for OUT or notes."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

import notechunk
from notechunk.data import SAMPLE_DIR
from notechunk.errors import MissingExtra, UsageError

pytest.importorskip("langchain_core")
from langchain_core.document_loaders import BaseLoader  # noqa: E402
from langchain_core.documents import Document  # noqa: E402

from notechunk.integrations.langchain import NotechunkLoader, to_documents  # noqa: E402


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("out")
    notechunk.run(SAMPLE_DIR, folder)
    return folder


def test_documents_carry_the_chunk(out: Path) -> None:
    chunks = list(notechunk.load(out))
    docs = to_documents(chunks)
    assert all(isinstance(d, Document) for d in docs)
    assert [d.page_content for d in docs] == [c.embed_text for c in chunks]
    assert [d.id for d in docs] == [c.id for c in chunks]
    assert [d.page_content for d in to_documents(chunks, content="text")] == [
        c.text for c in chunks
    ]
    md = next(d for d, c in zip(docs, chunks, strict=True) if c.section_path and c.lines)
    chunk = next(c for c in chunks if c.id == md.id)
    assert md.metadata["section_path"] == " > ".join(chunk.section_path)
    assert md.metadata["lines"] == f"{chunk.lines[0]}-{chunk.lines[1]}"  # type: ignore[index]
    row = next(d for d in docs if d.metadata["source_type"] == "spreadsheet")
    assert isinstance(row.metadata["row"], int) and row.metadata["sheet"]
    assert "lines" not in row.metadata and "section_path" not in row.metadata
    for doc in docs:  # what every vector store accepts: plain scalars, no None, no lists
        assert {"id", "source", "title", "quality"} <= set(doc.metadata)
        assert all(isinstance(v, str | int | float | bool) for v in doc.metadata.values())
    flagged = next(d for d, c in zip(docs, chunks, strict=True) if c.flags)
    assert isinstance(flagged.metadata["flags"], str)


def test_loader_on_out_and_on_notes_gives_the_same_documents(out: Path) -> None:
    from_out = NotechunkLoader(out)
    assert isinstance(from_out, BaseLoader)
    docs = from_out.load()
    in_memory = NotechunkLoader(SAMPLE_DIR).load()
    assert [(d.id, d.page_content, d.metadata) for d in docs] == [
        (d.id, d.page_content, d.metadata) for d in in_memory
    ]
    one = list(NotechunkLoader(SAMPLE_DIR / "polity" / "writs.md", content="text").lazy_load())
    assert one and all(d.metadata["source"] == "writs.md" for d in one)
    assert one[0].page_content == notechunk.chunk_file(SAMPLE_DIR / "polity" / "writs.md")[0].text


def test_bad_content_is_a_usage_error(out: Path) -> None:
    with pytest.raises(UsageError, match="content must be"):
        to_documents(notechunk.load(out), content="html")  # type: ignore[arg-type]


def test_missing_langchain_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("langchain_core", "langchain_core.documents", "langchain_core.document_loaders"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "notechunk.integrations.langchain")
    with pytest.raises(ImportError, match=r"pip install 'notechunk\[langchain\]'") as err:
        importlib.import_module("notechunk.integrations.langchain")
    assert isinstance(err.value, MissingExtra)
