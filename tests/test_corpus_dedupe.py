"""corpus.dedupe: a duplicate is the same text in the same context (or anywhere, with
scope = "text"); the hashed originals agree with a plain first-wins dict."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from notechunk.chunk import Chunk, Piece, Pieces
from notechunk.config import Config, DedupeConfig
from notechunk.corpus.dedupe import dedupe, originals
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
    out = dedupe([replace(a, omit=True), b], DedupeConfig())
    assert out[1].duplicate_of is None and not out[1].omit


def test_originals_match_dedupe_on_random_keys() -> None:
    rng = np.random.default_rng(7)
    hi = rng.integers(0, 4, size=300).astype(np.uint64)
    lo = rng.integers(0, 3, size=300).astype(np.uint64)
    omit = rng.random(300) < 0.2
    got = originals(np.stack([hi, lo], axis=1), omit)
    first: dict[tuple[int, int], int] = {}
    for i in range(300):
        key = (int(hi[i]), int(lo[i]))
        if omit[i]:
            assert got[i] == -1
        elif key in first:
            assert got[i] == first[key]
        else:
            first[key] = i
            assert got[i] == -1
