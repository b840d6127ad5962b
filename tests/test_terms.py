"""The one BM25 tokeniser: case-folded word runs minus Lucene's English stop words."""

from __future__ import annotations

from chunks import make_chunk
from notechunk.terms import STOPWORDS, terms


def test_terms() -> None:
    assert terms("The Zoji-La pass, at 3528 m, is in a valley.") == [
        "zoji",
        "la",
        "pass",
        "3528",
        "m",
        "valley",
    ]


def test_case_folding_and_unicode_words() -> None:
    assert terms("STRASSE Straße Ambedkar’s café") == [
        "strasse",
        "strasse",
        "ambedkar",
        "s",
        "café",
    ]


def test_cjk_runs_are_character_bigrams() -> None:
    """Lucene's CJK analyzer: overlapping bigrams within a run, a lone character stays."""
    assert terms("光合作用") == ["光合", "合作", "作用"]
    assert terms("水 is H2O") == ["水", "h2o"]
    assert terms("한국어 テスト") == ["한국", "국어", "テス", "スト"]


def test_cjk_beside_latin_splits_at_the_script_change() -> None:
    assert terms("DNA复制ok") == ["dna", "复制", "ok"]
    assert terms("カタ・カナ") == ["カタ", "カナ"]  # the middle dot is punctuation


def test_stopwords_are_lucenes_english_list() -> None:
    import bm25s.stopwords

    assert frozenset(bm25s.stopwords.STOPWORDS_EN) == STOPWORDS


def test_qa_and_eval_share_it() -> None:
    """QA's token blocks (one regex pass per block) hold exactly the terms `terms` gives."""
    from notechunk.corpus.scores.termblock import hash_terms, term_block

    texts = [
        "The Zoji-La pass, at 3528 m, is in a valley.\nQQSEGQQ qqdocqq; Then: ÉTÉ!",
        "STRASSE Straße Ambedkar’s café. A second sentence? Yes! No; maybe.",
    ]
    for text in texts:
        usual = make_chunk(
            text=text,
            source="x.md",
            source_type="markdown",
            title="Passes of Ladakh",
            section_path=("Zanskar Range",),
            embed_text="Passes of Ladakh > Zanskar Range\n" + text,
        )
        other = make_chunk(
            text=text, source="y.md", source_type="markdown", embed_text="Other the X"
        )
        block = term_block([usual, other])
        first = block.doc_terms[block.doc_of == 0].tolist()
        second = block.doc_terms[block.doc_of == 1].tolist()
        assert first == hash_terms(terms(usual.embed_text)).tolist()
        assert second == hash_terms(terms(other.embed_text)).tolist()
