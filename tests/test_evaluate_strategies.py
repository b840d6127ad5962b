"""Strategies: slicing invariants, heading context, notechunk chunks, lazy peers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notechunk.chunk import Chunk
from notechunk.config import Config
from notechunk.evaluate.corpora import Document
from notechunk.evaluate.run import InterimSegmenter, build_strategies
from notechunk.evaluate.strategies import (
    char_slices,
    contextualize,
    fixed_chars,
    fixed_words,
    notechunk_strategy,
    with_markdown,
    word_slices,
)


def test_contextualize_prefixes_the_heading_path() -> None:
    c = Chunk(text="Body.", source="a.md", source_type="markdown", section_path=("A", "B"))
    assert contextualize(c) == "A > B\nBody."
    assert contextualize(Chunk(text="Body.", source="a.md", source_type="markdown")) == "Body."


@given(st.text(max_size=300), st.integers(1, 50))
def test_char_slices_without_overlap_keep_the_text(text: str, size: int) -> None:
    slices = char_slices(text, size, 0)
    assert all(len(s) <= size for s in slices)
    # blank slices are dropped, so the non-whitespace text is kept exactly, in order
    assert "".join("".join(slices).split()) == "".join(text.split())


@given(st.lists(st.sampled_from(["a", "bb", "c"]), max_size=60), st.integers(2, 12))
def test_word_slices_cover_every_word(words: list[str], size: int) -> None:
    overlap = size // 3
    slices = word_slices(" ".join(words), size, overlap)
    assert all(len(s.split()) <= size for s in slices)
    covered = sum(len(s.split()) for s in slices) - overlap * max(0, len(slices) - 1)
    assert covered == len(words) or (len(slices) > 1 and covered >= len(words))
    if slices:
        assert slices[-1].split()[-1] == words[-1]


def test_char_slices_overlap_and_stop() -> None:
    assert char_slices("abcdefghij", 4, 2) == ["abcd", "cdef", "efgh", "ghij"]
    with pytest.raises(ValueError):
        char_slices("abc", 3, 3)


def test_fixed_strategies_params() -> None:
    doc = Document(source="a.md", text="one two three four five")
    units = fixed_words(2, 0).split(doc)
    assert [u.text for u in units] == ["one two", "three four", "five"]
    assert fixed_chars(1000, 300).params == {"chunk_chars": 1000, "overlap_chars": 300}


def test_notechunk_strategy_indexes_heading_context() -> None:
    doc = Document(
        source="polity/writs.md",
        text="# Writs\n\n## Mandamus\n\nMandamus means we command. It lies against officials "
        "who fail a public duty that the law imposes on them, and it is issued by courts.\n",
    )
    cfg = with_markdown(Config(), window_max_words=200)
    s = notechunk_strategy("nc", cfg, InterimSegmenter())
    units = s.split(doc)
    assert len(units) == 1
    assert units[0].index_text.startswith("Writs > Mandamus\nMandamus means we command.")
    assert not units[0].text.startswith("Writs")
    assert s.params == {"window_sentences": 100, "overlap": 0.3, "window_max_words": 200}


def test_strategy_specs_parse() -> None:
    strategies, notes, peers = build_strategies(
        "nc:10/0.2/150,chars:500/100,words:100/0", Config(), InterimSegmenter()
    )
    assert [s.name for s in strategies] == [
        "notechunk 10/0.2/150w",
        "fixed-chars 500/100",
        "fixed-words 100/0",
    ]
    assert notes == [] and peers is False


def test_interim_segmenter_keeps_abbreviations() -> None:
    text = "Dr. B.R. Ambedkar chaired it. Art. 32 is a right. It was 1950."
    spans = InterimSegmenter().spans(text)
    assert [text[a:b] for a, b in spans] == [
        "Dr. B.R. Ambedkar chaired it.",
        "Art. 32 is a right.",
        "It was 1950.",
    ]


def test_peers_when_installed() -> None:
    pytest.importorskip("langchain_text_splitters")
    pytest.importorskip("chonkie")
    from notechunk.evaluate.strategies import peer_strategies

    strategies, notes = peer_strategies(700)
    names = [s.name for s in strategies]
    assert "langchain-recursive 1000/200" in names and "chonkie-recursive 700" in names
    assert notes == []
    doc = Document(source="a.md", text="Sentence one here. " * 200)
    for s in strategies:
        assert s.split(doc), s.name


def test_sweep_measures_each_setting_once() -> None:
    from notechunk.evaluate.strategies import notechunk_sweep

    sweep = notechunk_sweep(Config(), InterimSegmenter())
    keys = [repr(sorted(s.params.items())) for s in sweep]
    assert len(keys) == len(set(keys))
    assert sweep[0].name == "notechunk (config)"
    assert "notechunk overlap 0.3" not in [s.name for s in sweep]  # same as the config
