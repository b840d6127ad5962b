"""Chunking strategies compared by `notechunk eval`: a name, its params, and a maker.

A strategy turns the eval's inputs into `Unit`s: `text` is what a reader gets (a hit is
judged on it), `index_text` what the retriever indexes. notechunk strategies run the
product's own path, `job.collect` (discovery, decoding, per-file processing,
finishing, dedupe: exactly the chunks `run` ships) with a changed `Config`, and index each
surviving chunk's `embed_text`; omitted chunks (duplicates, tables of contents) are not
indexed, as a user would not index them. Baselines slice the peers' documents
(`documents.Document`: Markdown files and spreadsheet rows) and index the slice itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from notechunk.config import Config
from notechunk.evaluate.documents import Document

Param = int | float | str
Params = tuple[tuple[str, Param], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Unit:
    """One retrieval unit of a strategy."""

    source: str
    text: str
    index_text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Units:
    """A strategy's units and what a person should know about making them."""

    units: tuple[Unit, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Inputs:
    """What strategies read: the corpus folder (notechunk) or its documents (everyone else).

    `documents` is None when no strategy of the run needs them (they are not loaded)."""

    src: Path
    exclude: tuple[Path, ...] = ()
    workers: int = 1
    documents: tuple[Document, ...] | None = None

    def docs(self) -> tuple[Document, ...]:
        if self.documents is None:
            raise ValueError("this strategy needs the peers' documents; none were loaded")
        return self.documents


@dataclass(frozen=True, slots=True, kw_only=True)
class Strategy:
    """A named chunking strategy; `params` go into results.json."""

    name: str
    params: Params
    make: Callable[[Inputs], Units]
    uses_documents: bool = True


def notechunk_strategy(name: str, cfg: Config) -> Strategy:
    """notechunk with `cfg` on the product's own path; indexes `embed_text`."""

    def make(inputs: Inputs) -> Units:
        from notechunk.job import collect

        got = collect(inputs.src, cfg, workers=inputs.workers, exclude=list(inputs.exclude))
        units = tuple(
            Unit(source=c.source, text=c.text, index_text=c.embed_text)
            for c in got.corpus.chunks
            if not c.omit
        )
        notes = [e.message() for e in got.corpus.errors]
        fell_back = sorted({c.source for c in got.corpus.chunks if _fell_back(c.flags)})
        notes += [f"{s}: decoded as cp1252 (not UTF-8)" for s in fell_back]
        return Units(units=units, notes=tuple(notes))

    m = cfg.markdown
    params: Params = (
        ("window_sentences", m.window_sentences),
        ("overlap", m.overlap),
        ("window_max_words", m.window_max_words),
    )
    return Strategy(name=name, params=params, make=make, uses_documents=False)


def _fell_back(flags: Sequence[str]) -> bool:
    from notechunk.textio import FALLBACK_FLAG

    return FALLBACK_FLAG in flags


def with_markdown(
    cfg: Config,
    *,
    window_sentences: int | None = None,
    overlap: float | None = None,
    window_max_words: int | None = None,
) -> Config:
    """`cfg` with some `[markdown]` keys changed (validated by MarkdownConfig)."""
    m = cfg.markdown
    return replace(
        cfg,
        markdown=replace(
            m,
            window_sentences=m.window_sentences if window_sentences is None else window_sentences,
            overlap=m.overlap if overlap is None else overlap,
            window_max_words=m.window_max_words if window_max_words is None else window_max_words,
        ),
    )


def notechunk_sweep(cfg: Config) -> list[Strategy]:
    """The config, then overlaps, window sizes and word caps around it (each row once)."""
    out = [notechunk_strategy("notechunk (config)", cfg)]
    for ov in (0.0, 0.15, 0.3, 0.5):
        out.append(notechunk_strategy(f"notechunk overlap {ov}", with_markdown(cfg, overlap=ov)))
    for w in (5, 10, 20, 100):
        c = with_markdown(cfg, window_sentences=w, window_max_words=0)
        out.append(notechunk_strategy(f"notechunk window {w} no cap", c))
    for cap in (100, 120, 150, 200, 300):
        for ov in (0.0, 0.3):
            c = with_markdown(cfg, window_sentences=100, window_max_words=cap, overlap=ov)
            out.append(notechunk_strategy(f"notechunk cap {cap}w ov {ov}", c))
    seen: set[Params] = set()
    unique: list[Strategy] = []
    for s in out:  # a row equal to an earlier one (the config's own overlap) runs once
        if s.params not in seen:
            seen.add(s.params)
            unique.append(s)
    return unique


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


def plain(name: str, params: Params, split: Callable[[str], list[str]]) -> Strategy:
    """A strategy that splits each document's text and indexes each piece as it is."""

    def make(inputs: Inputs) -> Units:
        return Units(
            units=tuple(
                Unit(source=d.source, text=t, index_text=t)
                for d in inputs.docs()
                for t in split(d.text)
                if t.strip()
            )
        )

    return Strategy(name=name, params=params, make=make)


def fixed_chars(size: int, overlap: int) -> Strategy:
    params: Params = (("chunk_chars", size), ("overlap_chars", overlap))
    return plain(f"fixed-chars {size}/{overlap}", params, lambda t: char_slices(t, size, overlap))


def fixed_words(size: int, overlap: int) -> Strategy:
    params: Params = (("chunk_words", size), ("overlap_words", overlap))
    return plain(f"fixed-words {size}/{overlap}", params, lambda t: word_slices(t, size, overlap))


def baseline_strategies() -> list[Strategy]:
    return [fixed_chars(1000, 0), fixed_chars(1000, 300), fixed_words(200, 0), fixed_words(200, 50)]
