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
    id_prefix,
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


def test_normalize_keeps_code_indentation_inside_fences() -> None:
    """Python's indentation is meaning: inside a fence a line keeps its leading and inner
    spaces (trailing ones go); the fence lines and the text around are normalised."""
    text = "- Idea:  x\n  ```python\nfor t in r:\n    dw = f(L,  w)  \n\tw -= dw\n  ```\n  a  b"
    assert normalize_text(text) == (
        "- Idea: x\n```python\nfor t in r:\n    dw = f(L,  w)\n\tw -= dw\n```\na b"
    )
    # a longer fence is closed only by as long a run of its marker; unclosed: to the end
    assert normalize_text("~~~~\n  a\n~~~\n  b\n~~~~\n  c  d") == "~~~~\n  a\n~~~\n  b\n~~~~\nc d"
    assert normalize_text("```\n  a  b") == "```\n  a  b"
    # three backticks that open and close on one line are a code span, not a fence
    assert normalize_text("```x``` y\n  z") == "```x``` y\nz"


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
    assert title_from_name("Fr-Ru/deck.csv") == "Fr Ru"  # a deck, a data file: its folder


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
    assert c.id == chunk_id(id_prefix(c.source), "markdown", (1, 1), None, None, c.text)


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


def test_titles_lose_exporter_extensions_and_notion_ids() -> None:
    """SPEC v3: a title never keeps the exporter's extension or Notion's 32-hex id."""
    assert title_from_name("law/Torts.docx.md") == "Torts"
    assert title_from_name("law/Crim Policy Notes.docx.md") == "Crim Policy Notes"
    for ext in ("pdf", "html", "htm", "pptx", "odt", "DOCX"):
        assert title_from_name(f"x/Contracts outline.{ext}.md") == "Contracts outline"
    notion = "notion/Cell biology 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d.md"
    assert title_from_name(notion) == "Cell biology"
    assert title_from_name("notion/Exam 0123456789abcdef0123456789abcdef.docx.md") == "Exam"
    assert title_from_name("notion/Index 0123456789abcdef0123456789abcdef/README.md") == "Index"
    assert title_from_name("x/Version 2.1 notes.md") == "Version 2.1 notes"  # not an extension
    assert title_from_name("x/.docx.md") == ".docx"  # nothing would be left: kept


POINTER = "For more, see here: [[Macrophage]]"


def test_a_context_dead_pointer_is_trimmed_and_the_rest_labelled() -> None:
    """SPEC v3: the pointer sentence is trimmed and what is left is labelled like any
    chunk (a 13-word list after the pointer is a kept fragment)."""
    rest = "- Activated by IFN-gamma\n- Kills intracellular microbes\n- Presents antigen to T cells"
    (c,) = finish_file(doc(Piece(text=f"{POINTER}\n{rest}", lines=(1, 4))), CFG)
    assert (c.quality, c.omit, c.text) == ("fragment", False, rest)
    assert "context_dead_trimmed:for more" in c.flags
    assert POINTER not in c.embed_text and c.lines == (1, 4)


def test_a_pointer_sentence_inside_a_line_is_trimmed_to_its_end() -> None:
    text = "See also the chapter on shock. " + " ".join(f"w{i}" for i in range(40))
    (c,) = finish_file(doc(Piece(text=text, lines=(1, 1))), CFG)
    assert c.text.startswith("w0 ") and (c.quality, c.omit) == ("ok", False)


def test_a_chunk_of_nothing_but_pointers_is_omitted_whole() -> None:
    (c,) = finish_file(doc(Piece(text=f"{POINTER}\nSee also [[Neutrophil]]", lines=(1, 2))), CFG)
    assert (c.quality, c.omit) == ("context_dead", True)
    assert c.text == f"{POINTER}\nSee also [[Neutrophil]]"
    assert "context_dead:for more" in c.flags
