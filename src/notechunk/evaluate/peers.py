"""Peer chunkers (LangChain, Chonkie) as eval strategies, over the same documents.

Imported lazily: `peer_strategies` returns a note instead of a strategy when a library
is not installed. Every peer reads the same documents (Markdown files and spreadsheet
rows, `documents.py`). `langchain-headers` is how a LangChain user would chunk notes with
context: `MarkdownHeaderTextSplitter` (headers `#` to `######` into metadata) and then
`RecursiveCharacterTextSplitter`, the header metadata prepended to each chunk's indexed
text (`H1 > H2\\ntext`), as notechunk prepends its heading path in `embed_text`; a
spreadsheet row has no headers and is split as it is.
"""

from __future__ import annotations

import importlib.util

from notechunk.evaluate.strategies import Inputs, Params, Strategy, Unit, Units, plain

_HEADERS = [("#" * n, f"h{n}") for n in range(1, 7)]


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def langchain_recursive(size: int, overlap: int) -> Strategy:
    """LangChain's RecursiveCharacterTextSplitter (`pip install langchain-text-splitters`)."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    params: Params = (("chunk_size", size), ("chunk_overlap", overlap))
    return plain(
        f"langchain-recursive {size}/{overlap}",
        params,
        lambda t: [str(s) for s in splitter.split_text(t)],
    )


def langchain_headers(size: int, overlap: int) -> Strategy:
    """MarkdownHeaderTextSplitter + RecursiveCharacterTextSplitter, headers prepended."""
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    by_header = MarkdownHeaderTextSplitter(headers_to_split_on=_HEADERS)
    splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)

    def make(inputs: Inputs) -> Units:
        out: list[Unit] = []
        for doc in inputs.docs():
            if doc.kind == "row":
                pieces = [("", str(t)) for t in splitter.split_text(doc.text)]
            else:
                sections = splitter.split_documents(by_header.split_text(doc.text))
                pieces = [(_context(s.metadata), str(s.page_content)) for s in sections]
            for context, text in pieces:
                if text.strip():
                    index_text = f"{context}\n{text}" if context else text
                    out.append(Unit(source=doc.source, text=text, index_text=index_text))
        return Units(units=tuple(out))

    params: Params = (("chunk_size", size), ("chunk_overlap", overlap), ("headers", "prepended"))
    return Strategy(name=f"langchain-headers {size}/{overlap}", params=params, make=make)


def _context(metadata: dict[str, object]) -> str:
    return " > ".join(str(metadata[key]) for _, key in _HEADERS if metadata.get(key))


def chonkie_recursive(size: int) -> Strategy:
    """Chonkie's RecursiveChunker, character tokenizer (`pip install chonkie`)."""
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer="character", chunk_size=size)
    params: Params = (("chunk_size", size), ("tokenizer", "character"))
    return plain(
        f"chonkie-recursive {size}", params, lambda t: [str(c.text) for c in chunker.chunk(t)]
    )


def chonkie_sentence(size: int, overlap: int) -> Strategy:
    """Chonkie's SentenceChunker, character tokenizer (`pip install chonkie`)."""
    from chonkie import SentenceChunker

    chunker = SentenceChunker(tokenizer="character", chunk_size=size, chunk_overlap=overlap)
    params: Params = (("chunk_size", size), ("chunk_overlap", overlap), ("tokenizer", "character"))
    return plain(
        f"chonkie-sentence {size}/{overlap}",
        params,
        lambda t: [str(c.text) for c in chunker.chunk(t)],
    )


def peer_strategies(target_chars: int) -> tuple[list[Strategy], list[str]]:
    """LangChain and Chonkie rows when installed; notes name what was skipped and why.

    Chonkie runs at 512 characters and at `target_chars` (matched to notechunk's average
    chunk size on this corpus).
    """
    out: list[Strategy] = []
    notes: list[str] = []
    if installed("langchain_text_splitters"):
        out += [langchain_recursive(1000, 200), langchain_recursive(2000, 400)]
        out += [langchain_headers(1000, 200)]
    else:
        notes.append(
            "LangChain rows skipped: `pip install langchain-text-splitters` to include them"
        )
    if installed("chonkie"):
        sizes = sorted({512, max(64, target_chars)})
        out += [chonkie_recursive(s) for s in sizes]
        out += [chonkie_sentence(s, s // 5) for s in sizes]
    else:
        notes.append("Chonkie rows skipped: `pip install chonkie` to include them")
    return out, notes
