"""Strategies: notechunk runs the product's own path (sheet rows included, embed_text
indexed, omitted chunks left out); baselines keep their slicing invariants."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notechunk.config import Config
from notechunk.evaluate.documents import Document
from notechunk.evaluate.strategies import (
    Inputs,
    char_slices,
    fixed_chars,
    fixed_words,
    notechunk_strategy,
    notechunk_sweep,
    with_markdown,
    word_slices,
)
from notechunk.job import collect

NOTE = "# Rivers\n\n## Ganga\n\nThe Ganga rises at Gangotri in the Himalaya and flows east.\n"


def _folder(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "rivers.md").write_text(NOTE, encoding="utf-8")
    twice = "## Yamuna\n\nThe Yamuna rises at Yamunotri and joins the Ganga at Prayagraj.\n\n"
    (src / "twice.md").write_text("# Yamuna\n\n" + twice * 2, encoding="utf-8")
    with open(src / "passes.csv", "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["Pass", "State", "Altitude"])
        w.writerow(["Zoji La", "Ladakh", "3528 m"])
        w.writerow(["Nathu La", "Sikkim", "4310 m"])
    return src


def test_notechunk_units_are_what_run_ships(tmp_path: Path) -> None:
    src = _folder(tmp_path)
    cfg = Config()
    made = notechunk_strategy("nc", cfg).make(Inputs(src=src))
    shipped = [c for c in collect(src, cfg).corpus.chunks if not c.omit]
    assert [(u.source, u.text, u.index_text) for u in made.units] == [
        (c.source, c.text, c.embed_text) for c in shipped
    ]
    sources = [u.source for u in made.units]
    assert sources.count("passes.csv") == 2  # each sheet row is a unit
    row = next(u for u in made.units if "Zoji La" in u.text)
    assert row.index_text.endswith("\n" + row.text) and row.index_text != row.text


def test_omitted_chunks_are_not_indexed(tmp_path: Path) -> None:
    src = _folder(tmp_path)
    got = collect(src, Config()).corpus.chunks
    assert any(c.omit for c in got)  # twice.md says the same in the same context
    made = notechunk_strategy("nc", Config()).make(Inputs(src=src))
    assert len(made.units) == sum(not c.omit for c in got)


def test_cp1252_note_is_chunked_and_noted(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "café.md").write_bytes(
        "# Café\n\nThe café serves crème brûlée daily.\n".encode("cp1252")
    )
    made = notechunk_strategy("nc", Config()).make(Inputs(src=src))
    assert "crème brûlée" in made.units[0].text
    assert made.notes == ("café.md: decoded as cp1252 (not UTF-8)",)


def test_sweep_rows_are_distinct_and_start_with_the_config() -> None:
    sweep = notechunk_sweep(Config())
    assert sweep[0].name == "notechunk (config)"
    assert len({s.params for s in sweep}) == len(sweep) == 16
    assert not any(s.uses_documents for s in sweep)


def test_with_markdown_changes_only_what_it_names() -> None:
    cfg = with_markdown(Config(), overlap=0.0)
    assert cfg.markdown.overlap == 0.0
    assert cfg.markdown.window_sentences == Config().markdown.window_sentences


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
    if slices:
        assert slices[-1].split()[-1] == words[-1]
        assert slices[0].split()[0] == words[0]


def test_char_slices_overlap_and_stop() -> None:
    assert char_slices("abcdefghij", 4, 2) == ["abcd", "cdef", "efgh", "ghij"]
    with pytest.raises(ValueError):
        char_slices("abc", 3, 3)


def test_baselines_slice_every_document_rows_included() -> None:
    docs = (
        Document(source="a.md", text="one two three four five"),
        Document(source="s.csv#s:2", text="Pass: Zoji La\nState: Ladakh", kind="row"),
    )
    units = fixed_words(2, 0).make(Inputs(src=Path("."), documents=docs)).units
    assert [u.text for u in units] == [
        "one two",
        "three four",
        "five",
        "Pass: Zoji",
        "La State:",
        "Ladakh",
    ]
    assert all(u.index_text == u.text for u in units)
    assert dict(fixed_chars(1000, 300).params) == {"chunk_chars": 1000, "overlap_chars": 300}
    with pytest.raises(ValueError, match="documents"):
        fixed_words(2, 0).make(Inputs(src=Path(".")))
