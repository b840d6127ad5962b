"""finish: normalise -> label -> semantic type -> context/embed_text -> id, per file."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from notechunk.chunk import Piece, Pieces, count_words
from notechunk.config import Config
from notechunk.finish import (
    chunk_id,
    context_parts,
    embed_text,
    finish_file,
    hierarchy_title,
    normalize_text,
    title_from_name,
)
from notechunk.finish.quality import classify

CFG = Config()


def doc(*pieces: Piece, source: str = "polity/fundamental-rights.md", **kw: object) -> Pieces:
    return Pieces(source=source, source_type="markdown", pieces=pieces, **kw)  # type: ignore[arg-type]


def test_normalize_text() -> None:
    assert normalize_text("Cafe\u0301  x\u00a0y [w]{.underline}\r\n\n\n\nz ") == "Café x y [w]\n\nz"


def test_normalize_keeps_nested_list_depth() -> None:
    text = "- a\n  - b  c\n    1. d\n   plain  text \n\u00a0x"
    assert normalize_text(text) == "- a\n  - b c\n    1. d\nplain text\nx"


def test_hierarchy_title() -> None:
    """A Dendron name is the title path; the front matter title names the last part."""
    assert hierarchy_title("n/economics.MIT.Microeconomics.md", None) == (
        "economics > MIT > Microeconomics"
    )
    assert hierarchy_title("n/cs.data_structures.md", "Data Structures") == ("cs > Data Structures")
    assert hierarchy_title("root.md", "Root") == "Root"


def test_title_from_name() -> None:
    assert title_from_name("history/bhakti-movement.md") == "bhakti movement"
    assert title_from_name("a/B_C  d.csv") == "B C d"
    assert title_from_name("x/-.md") == "-"  # nothing left: the stem itself
    assert title_from_name("law/torts/README.md") == "torts"
    assert title_from_name("README.md") == "README"


def test_context_said_once_and_embed_text() -> None:
    ctx = context_parts("fundamental rights", ("Fundamental Rights", "Article 32"), None, None)
    assert ctx == ("fundamental rights", "Article 32")
    assert context_parts("passes", (), "passes", None) == ("passes",)
    assert context_parts("rivers", (), "Peninsular", "Jhelum  River") == (
        "rivers",
        "Peninsular",
        "Jhelum River",
    )
    assert embed_text(ctx, "Text.") == "fundamental rights > Article 32\nText."
    assert embed_text((), "Text.") == "Text."


def test_finished_chunk_is_complete() -> None:
    piece = Piece(
        text="Art.  32 lets a person move the Supreme Court.", section_path=("Writs",), lines=(1, 1)
    )
    (c,) = finish_file(doc(piece), CFG)
    assert c.text == "Art. 32 lets a person move the Supreme Court."
    assert c.word_count == 9 and c.quality == "fragment" and not c.omit
    assert c.title == "fundamental rights"
    assert c.embed_text == "fundamental rights > Writs\n" + c.text
    assert c.semantic_type and len(c.id) == 16
    assert c.id == chunk_id(c.source, "markdown", (1, 1), None, None, c.text)


def test_document_title_wins_over_file_name() -> None:
    (c,) = finish_file(
        doc(Piece(text="x y", lines=(1, 1)), title="The Constitution", created="2024-06-03"), CFG
    )
    assert c.title == "The Constitution" and c.created == "2024-06-03"
    assert c.embed_text.startswith("The Constitution\n")


def test_same_place_same_text_gets_unique_ids() -> None:
    p = Piece(text="same words here", lines=(3, 4))
    ids = [c.id for c in finish_file(doc(p, p, p), CFG)]
    assert ids[1] == ids[0] + "-1" and ids[2] == ids[0] + "-2"


def test_runner_omission_and_file_flags() -> None:
    toc = Piece(text="Contents 1 Intro 2 Rights", omit_reason="toc", lines=(1, 1))
    (c,) = finish_file(doc(toc, flags=("encoding_fallback:cp1252",)), CFG)
    assert c.omit and c.flags == ("encoding_fallback:cp1252", "toc")


def test_blank_piece_yields_no_chunk() -> None:
    assert finish_file(doc(Piece(text=" \u00a0\n\u2003", lines=(1, 1))), CFG) == ()


def test_zero_width_space_counts_the_same_when_labelled_and_shipped() -> None:
    (c,) = finish_file(doc(Piece(text="word \u200b word", lines=(1, 1))), CFG)
    assert c.word_count == count_words(c.text) == 2


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab .\n\t\u00a0\u200b\u2003-•"), max_size=300))
def test_quality_always_agrees_with_the_final_word_count(text: str) -> None:
    for c in finish_file(doc(Piece(text=text, lines=(1, 1))), CFG):
        assert c.word_count == count_words(c.text)
        assert c.quality == classify(c.text, c.word_count, "markdown", CFG)[0]
