"""Chunking strategies compared by `notechunk eval`, each a name, its params and a splitter.

A strategy turns one corpus document into `Unit`s: `text` is what a reader gets (and what a
hit is judged on), `index_text` what the retriever indexes. For notechunk chunks the index
text carries the heading context (`contextualize`); the baselines index their text as is.
Peer libraries (LangChain, Chonkie) are imported lazily: `peer_strategies` returns a note
instead of a strategy when one is not installed.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from notechunk.chunk import Chunk
from notechunk.config import Config
from notechunk.evaluate.corpora import Document
from notechunk.segment.base import Segmenter


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit:
    """One retrieval unit of a strategy."""

    source: str
    text: str
    index_text: str


Splitter = Callable[[Document], list[Unit]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Strategy:
    """A named chunking strategy; `params` is JSON-ready and goes into results.json."""

    name: str
    params: dict[str, Any]
    split: Splitter

    def run(self, docs: Sequence[Document]) -> list[Unit]:
        return [u for d in docs for u in self.split(d)]


def contextualize(chunk: Chunk) -> str:
    """The text to index for a chunk: its heading path, then its text (docling's idea)."""
    if not chunk.section_path:
        return chunk.text
    return " > ".join(chunk.section_path) + "\n" + chunk.text


def notechunk_strategy(name: str, cfg: Config, segmenter: Segmenter) -> Strategy:
    """notechunk's own Markdown chunker with `cfg`; omitted chunks are not indexed."""
    from notechunk.markdown import chunk_markdown

    def split(doc: Document) -> list[Unit]:
        return [
            Unit(source=doc.source, text=c.text, index_text=contextualize(c))
            for c in chunk_markdown(doc.text, doc.source, cfg, segmenter)
            if not c.omit
        ]

    m = cfg.markdown
    params = {
        "window_sentences": m.window_sentences,
        "overlap": m.overlap,
        "window_max_words": m.window_max_words,
    }
    return Strategy(name=name, params=params, split=split)


def with_markdown(cfg: Config, **changes: Any) -> Config:
    """`cfg` with some `[markdown]` keys changed (validated by MarkdownConfig)."""
    return replace(cfg, markdown=replace(cfg.markdown, **changes))


def char_slices(text: str, size: int, overlap: int) -> list[str]:
    """Fixed character slices of `size`, each starting `size - overlap` after the last.

    Slices stop once one reaches the end; blank slices are dropped. Invariant: without
    overlap, joining the slices gives `text` back.
    """
    if size < 1 or not 0 <= overlap < size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    step = size - overlap
    out: list[str] = []
    start = 0
    while start < len(text):
        out.append(text[start : start + size])
        if start + size >= len(text):
            break
        start += step
    return [s for s in out if s.strip()]


def word_slices(text: str, size: int, overlap: int) -> list[str]:
    """Slices of `size` whitespace-separated words (joined by one space), same stepping."""
    if size < 1 or not 0 <= overlap < size:
        raise ValueError("need size >= 1 and 0 <= overlap < size")
    words = text.split()
    step = size - overlap
    out: list[str] = []
    start = 0
    while start < len(words):
        out.append(" ".join(words[start : start + size]))
        if start + size >= len(words):
            break
        start += step
    return out


def _plain(name: str, params: dict[str, Any], fn: Callable[[str], list[str]]) -> Strategy:
    def split(doc: Document) -> list[Unit]:
        return [Unit(source=doc.source, text=t, index_text=t) for t in fn(doc.text) if t.strip()]

    return Strategy(name=name, params=params, split=split)


def fixed_chars(size: int, overlap: int) -> Strategy:
    return _plain(
        f"fixed-chars {size}/{overlap}",
        {"chunk_chars": size, "overlap_chars": overlap},
        lambda t: char_slices(t, size, overlap),
    )


def fixed_words(size: int, overlap: int) -> Strategy:
    return _plain(
        f"fixed-words {size}/{overlap}",
        {"chunk_words": size, "overlap_words": overlap},
        lambda t: word_slices(t, size, overlap),
    )


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def langchain_recursive(size: int, overlap: int) -> Strategy:
    """LangChain's RecursiveCharacterTextSplitter (`pip install langchain-text-splitters`)."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    return _plain(
        f"langchain-recursive {size}/{overlap}",
        {"chunk_size": size, "chunk_overlap": overlap},
        lambda t: [str(s) for s in splitter.split_text(t)],
    )


def chonkie_recursive(size: int) -> Strategy:
    """Chonkie's RecursiveChunker, character tokenizer (`pip install chonkie`)."""
    from chonkie import RecursiveChunker

    chunker = RecursiveChunker(tokenizer="character", chunk_size=size)
    return _plain(
        f"chonkie-recursive {size}",
        {"chunk_size": size, "tokenizer": "character"},
        lambda t: [str(c.text) for c in chunker.chunk(t)],
    )


def chonkie_sentence(size: int, overlap: int) -> Strategy:
    """Chonkie's SentenceChunker, character tokenizer (`pip install chonkie`)."""
    from chonkie import SentenceChunker

    chunker = SentenceChunker(tokenizer="character", chunk_size=size, chunk_overlap=overlap)
    return _plain(
        f"chonkie-sentence {size}/{overlap}",
        {"chunk_size": size, "chunk_overlap": overlap, "tokenizer": "character"},
        lambda t: [str(c.text) for c in chunker.chunk(t)],
    )


def notechunk_sweep(cfg: Config, segmenter: Segmenter) -> list[Strategy]:
    """The notechunk rows of the issue: its config, overlaps, window sizes, word caps."""
    out = [notechunk_strategy("notechunk (config)", cfg, segmenter)]
    for ov in (0.0, 0.15, 0.3, 0.5):
        c = with_markdown(cfg, overlap=ov)
        out.append(notechunk_strategy(f"notechunk overlap {ov}", c, segmenter))
    for w in (5, 10, 20, 100):
        c = with_markdown(cfg, window_sentences=w, window_max_words=0)
        out.append(notechunk_strategy(f"notechunk window {w} no cap", c, segmenter))
    for cap in (100, 120, 150, 200, 300):
        for ov in (0.0, 0.3):
            c = with_markdown(cfg, window_sentences=100, window_max_words=cap, overlap=ov)
            out.append(notechunk_strategy(f"notechunk cap {cap}w ov {ov}", c, segmenter))
    # a row equal to an earlier one (e.g. the config's own overlap) is measured once
    seen: set[str] = set()
    unique: list[Strategy] = []
    for s in out:
        key = repr(sorted(s.params.items()))
        if key not in seen:
            seen.add(key)
            unique.append(s)
    return unique


def baseline_strategies() -> list[Strategy]:
    return [
        fixed_chars(1000, 0),
        fixed_chars(1000, 300),
        fixed_words(200, 0),
        fixed_words(200, 50),
    ]


def peer_strategies(target_chars: int) -> tuple[list[Strategy], list[str]]:
    """LangChain and Chonkie rows when installed; notes name what was skipped and why.

    Chonkie runs at 512 characters and at `target_chars` (matched to notechunk's average
    chunk size on this corpus).
    """
    out: list[Strategy] = []
    notes: list[str] = []
    if installed("langchain_text_splitters"):
        out += [langchain_recursive(1000, 200), langchain_recursive(2000, 400)]
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
