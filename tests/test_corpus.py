"""corpus: gather in output order; dedupe by context (v2) or by text (the seed's rule)."""

from __future__ import annotations

from notechunk.chunk import Chunk, FileError, FileResult, Piece, Pieces
from notechunk.config import Config, DedupeConfig
from notechunk.corpus import dedupe, gather, score
from notechunk.finish import finish_file

CFG = Config()


def chunk(text: str, source: str, path: tuple[str, ...], line: int = 1) -> Chunk:
    piece = Piece(text=text, section_path=path, lines=(line, line))
    (c,) = finish_file(Pieces(source=source, source_type="markdown", pieces=(piece,)), CFG)
    return c


def test_same_fact_under_three_diseases_is_three_facts() -> None:
    chunks = [
        chunk("Doxycycline", "med/notes.md", ("Brucellosis", "Treatment"), 1),
        chunk("Doxycycline", "med/notes.md", ("Q fever", "Treatment"), 5),
        chunk("Doxycycline", "med/notes.md", ("Brucellosis", "Treatment"), 9),
    ]
    out = dedupe(chunks, DedupeConfig())
    assert [c.omit for c in out] == [False, False, True]
    assert out[2].duplicate_of == out[0].id and "duplicate" in out[2].flags
    seed = dedupe(chunks, DedupeConfig(scope="text"))
    assert [c.duplicate_of for c in seed] == [None, seed[0].id, seed[0].id]


def test_an_omitted_chunk_is_never_the_original() -> None:
    a = chunk("same words", "a.md", ("A",), 1)
    b = chunk("same words", "a.md", ("A",), 2)
    from dataclasses import replace

    out = dedupe([replace(a, omit=True), b], DedupeConfig())
    assert out[1].duplicate_of is None and not out[1].omit


def test_gather_puts_markdown_first_and_sorts_errors() -> None:
    row = Chunk(text="r", source="a.csv", source_type="spreadsheet", row=2)
    md = chunk("m", "b.md", ())
    results = [
        FileResult(source="a.csv", chunks=(row,)),
        FileResult(
            source="b.md", chunks=(md,), errors=(FileError(source="b.md", stage="x", reason="y"),)
        ),
    ]
    corpus = gather(results, [FileError(source="a.md", stage="discover", reason="z")])
    assert [c.source for c in corpus.chunks] == ["b.md", "a.csv"]
    assert [e.source for e in corpus.errors] == ["a.md", "b.md"]
    assert corpus.markdown == [md] and corpus.sheets == [row]


def test_score_sets_every_score() -> None:
    out = score([chunk("Lok Sabha has 543 elected seats.", "p.md", ("Parliament",))])
    assert out[0].retrieval_score == 1.0
