from __future__ import annotations

import pytest

from chunks import label, make_chunk
from notechunk.config import DEFAULT_CONTEXT_DEAD_PHRASES, Config
from notechunk.finish.quality import classify, context_dead_phrase

CFG = Config()


def words(n: int) -> str:
    return " ".join(f"w{i}" for i in range(n))


@pytest.mark.parametrize(
    ("source_type", "n", "quality", "omit"),
    [
        ("markdown", 14, "fragment", False),
        ("markdown", 15, "short", False),
        ("markdown", 29, "short", False),
        ("markdown", 30, "ok", False),
        ("markdown", 500, "ok", False),
        ("markdown", 501, "too_long", False),
        ("spreadsheet", 7, "fragment", False),
        ("spreadsheet", 8, "short", False),
        ("spreadsheet", 11, "short", False),
        ("spreadsheet", 12, "ok", False),
        ("spreadsheet", 200, "ok", False),
        ("spreadsheet", 201, "too_long", False),
    ],
)
def test_bands(source_type: str, n: int, quality: str, omit: bool) -> None:
    c = label(make_chunk(text=words(n), source="x", source_type=source_type), CFG)  # type: ignore[arg-type]
    assert (c.word_count, c.quality, c.omit) == (n, quality, omit)


@pytest.mark.parametrize("phrase", DEFAULT_CONTEXT_DEAD_PHRASES)
def test_every_context_dead_phrase(phrase: str) -> None:
    text = f"- **{phrase.upper()}**, the details of the scheme " + words(40)
    c = label(make_chunk(text=text, source="x", source_type="markdown"), CFG)
    assert (c.quality, c.omit) == ("context_dead", True)
    assert f"context_dead:{phrase}" in c.flags


def test_context_dead_beats_too_long_and_needs_word_boundary() -> None:
    c = label(make_chunk(text="See above. " + words(600), source="x", source_type="markdown"), CFG)
    assert c.quality == "context_dead"
    assert context_dead_phrase("For moreover the river floods", CFG.context_dead) is None
    assert context_dead_phrase("Contd.", CFG.context_dead) == "contd"
    assert context_dead_phrase("The river, see above", CFG.context_dead) is None


def test_cjk_words_are_counted_by_characters() -> None:
    """Two CJK characters count as a word: a long Chinese paragraph is not a fragment."""
    from notechunk.chunk import count_words

    assert count_words("光合作用需要阳光") == 4
    assert count_words("水 is H2O") == 3
    assert count_words("DNA复制") == 2
    assert count_words("東京は日本の首都です") == 5
    assert count_words("한국어는 띄어쓰기를 합니다") == 3  # Korean: words between spaces
    paragraph = "植物利用阳光把二氧化碳和水变成糖。" * 24  # 384 CJK characters and 24 stops
    assert count_words(paragraph) == 192
    chunk = label(make_chunk(text=paragraph, source="x.md", source_type="markdown"), CFG)
    assert (chunk.word_count, chunk.quality) == (192, "ok")


def test_runner_omission_is_kept() -> None:
    c = label(make_chunk(text=words(40), source="x", source_type="markdown", omit=True), CFG)
    assert c.omit and c.quality == "ok"


def test_full_row_skips_only_the_short_band() -> None:
    """`full` (a sheet row with every column filled) is never `short`; a fragment stays a
    fragment, and a Markdown chunk ignores it."""
    assert classify(words(10), 10, "spreadsheet", CFG, full=True)[0] == "ok"
    assert classify(words(10), 10, "spreadsheet", CFG)[0] == "short"
    assert classify(words(5), 5, "spreadsheet", CFG, full=True)[0] == "fragment"
    assert classify(words(20), 20, "markdown", CFG, full=True)[0] == "short"
