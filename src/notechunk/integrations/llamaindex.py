"""LlamaIndex: chunks as `TextNode`s linked to their file and neighbours, and a reader.

`to_nodes(chunks)` gives one `TextNode` per chunk (`id_` = the chunk's id) with its
relationships: SOURCE (the file, by its path), PREVIOUS and NEXT (the chunks before and
after it in the same file). Metadata (`integrations.chunk_metadata`) is kept out of what
is embedded, so it never eats the embedder's budget (LlamaIndex prepends every
non-excluded key to the embedded text; "Metadata length is longer than chunk size" is the
result): with the default `content="embed_text"` the node's text already carries the
context (title, heading path), and the embedder sees exactly `embed_text`; with
`content="text"` it sees the title and section path as metadata, then the text. The LLM
also sees where a chunk comes from (source, lines, sheet, row) for citations.

`NotechunkReader().load_data(path)` is a `BaseReader`: an OUT folder gives what the run
shipped, notes (a folder or one file) are chunked in memory; one `Document` per chunk. It
also works as a `SimpleDirectoryReader` file extractor for `.md`, `.csv`, `.xlsx`, ....
Needs `pip install 'notechunk[llamaindex]'`.

>>> from llama_index.core.schema import MetadataMode
>>> from notechunk import chunk_markdown_text
>>> from notechunk.integrations.llamaindex import to_nodes
>>> bill = ("A money bill starts only in the Lok Sabha; the Rajya Sabha can delay it"
...         " for fourteen days but cannot stop it.")
>>> note = "# Writs\\n\\nMandamus.\\n\\n# Bills\\n\\n" + bill  # tiny siblings would merge
>>> first, second = to_nodes(chunk_markdown_text(note))
>>> first.get_content(MetadataMode.EMBED)
'Writs\\nMandamus.'
>>> first.next_node.node_id == second.node_id, second.prev_node.node_id == first.node_id
(True, True)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from notechunk.api import ConfigLike, chunks_from
from notechunk.chunk import Chunk
from notechunk.errors import MissingExtra, UsageError
from notechunk.integrations import (
    CITATION_KEYS,
    CONTEXT_KEYS,
    Content,
    chunk_metadata,
    content_of,
)

try:
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import (
        Document,
        NodeRelationship,
        ObjectType,
        RelatedNodeInfo,
        TextNode,
    )
except ImportError as exc:
    raise MissingExtra(
        "notechunk.integrations.llamaindex", "llama-index-core", "llamaindex"
    ) from exc

__all__ = ["NotechunkReader", "to_nodes"]


def to_nodes(chunks: Iterable[Chunk], *, content: Content = "embed_text") -> list[TextNode]:
    """Chunks as linked `TextNode`s, in order (neighbours: consecutive chunks of a file)."""
    chunks = list(chunks)
    nodes = [
        TextNode(text=content_of(c, content), id_=c.id, **_metadata_fields(c, content))
        for c in chunks
    ]
    last: dict[str, TextNode] = {}
    for chunk, node in zip(chunks, nodes, strict=True):
        node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(
            node_id=chunk.source, node_type=ObjectType.DOCUMENT
        )
        before = last.get(chunk.source)
        if before is not None:
            node.relationships[NodeRelationship.PREVIOUS] = _ref(before)
            before.relationships[NodeRelationship.NEXT] = _ref(node)
        last[chunk.source] = node
    return nodes


class NotechunkReader(BaseReader):
    """Reads notes (or an OUT folder) into one `Document` per chunk.

    >>> from notechunk.data import SAMPLE_DIR
    >>> docs = NotechunkReader().load_data(SAMPLE_DIR / "polity" / "writs.md")
    >>> docs[0].metadata["source"], docs[0].id_ == docs[0].metadata["id"]
    ('writs.md', True)
    """

    def __init__(self, *, config: ConfigLike = None, content: Content = "embed_text") -> None:
        self.config = config
        self.content: Content = content

    def lazy_load_data(
        self,
        file: str | os.PathLike[str],
        extra_info: Mapping[str, Any] | None = None,
        fs: object | None = None,
    ) -> Iterator[Document]:
        """`file` is a notes folder, one file or an OUT folder; `extra_info` (what
        SimpleDirectoryReader passes) joins every document's metadata, kept out of the
        embedded and the LLM's text."""
        if fs is not None:
            raise UsageError("NotechunkReader reads the local file system only (fs=None)")
        extra = dict(extra_info or {})
        for chunk in chunks_from(Path(file), self.config):
            fields = _metadata_fields(chunk, self.content)
            fields["metadata"] = {**extra, **fields["metadata"]}
            for key in ("excluded_embed_metadata_keys", "excluded_llm_metadata_keys"):
                fields[key] = [*fields[key], *(k for k in extra if k not in fields[key])]
            yield Document(text=content_of(chunk, self.content), id_=chunk.id, **fields)


def _metadata_fields(chunk: Chunk, content: Content) -> dict[str, Any]:
    """Metadata, and the keys kept out of the embedded and the LLM's text."""
    meta = chunk_metadata(chunk)
    embed_visible = CONTEXT_KEYS if content == "text" else ()
    llm_visible = (*CITATION_KEYS, *embed_visible)
    return {
        "metadata": meta,
        "excluded_embed_metadata_keys": [k for k in meta if k not in embed_visible],
        "excluded_llm_metadata_keys": [k for k in meta if k not in llm_visible],
    }


def _ref(node: TextNode) -> RelatedNodeInfo:
    return RelatedNodeInfo(node_id=node.node_id, node_type=ObjectType.TEXT)
