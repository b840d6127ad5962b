"""LangChain: chunks as `langchain_core.documents.Document`s, and a document loader.

`to_documents(chunks)` maps finished chunks (from `notechunk.load`, `chunk_file`, ...);
`NotechunkLoader(path)` is a `BaseLoader`: given an OUT folder it loads what the run
shipped, given notes (a folder or one file) it chunks them in memory, file by file.
`page_content` is the chunk's `embed_text` (its context, then its text) unless
`content="text"`; metadata holds plain values only (`integrations.chunk_metadata`), so
any vector store takes it. Needs `pip install 'notechunk[langchain]'`.

>>> from notechunk import chunk_markdown_text
>>> from notechunk.integrations.langchain import to_documents
>>> [doc] = to_documents(chunk_markdown_text("# Writs\\n\\nMandamus commands a public official."))
>>> doc.page_content, doc.metadata["section_path"]
('Writs\\nMandamus commands a public official.', 'Writs')
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from notechunk.api import ConfigLike, chunks_from
from notechunk.chunk import Chunk
from notechunk.errors import MissingExtra
from notechunk.integrations import Content, chunk_metadata, content_of

try:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
except ImportError as exc:
    raise MissingExtra("notechunk.integrations.langchain", "langchain-core", "langchain") from exc

__all__ = ["NotechunkLoader", "to_document", "to_documents"]


def to_document(chunk: Chunk, *, content: Content = "embed_text") -> Document:
    """One chunk as a `Document` whose `id` is the chunk's stable id."""
    return Document(
        page_content=content_of(chunk, content), metadata=chunk_metadata(chunk), id=chunk.id
    )


def to_documents(chunks: Iterable[Chunk], *, content: Content = "embed_text") -> list[Document]:
    """Chunks as `Document`s, in order."""
    return [to_document(c, content=content) for c in chunks]


class NotechunkLoader(BaseLoader):
    """Documents from an OUT folder (its chunks) or from notes chunked in memory.

    >>> from notechunk.data import SAMPLE_DIR
    >>> docs = NotechunkLoader(SAMPLE_DIR / "polity" / "writs.md").load()
    >>> docs[0].metadata["source"], docs[0].metadata["title"]
    ('writs.md', 'Writs')
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        config: ConfigLike = None,
        content: Content = "embed_text",
    ) -> None:
        self.path = path
        self.config = config
        self.content: Content = content

    def lazy_load(self) -> Iterator[Document]:
        for chunk in chunks_from(self.path, self.config):
            yield to_document(chunk, content=self.content)
