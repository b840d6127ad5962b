"""The one BM25 tokeniser: case-folded word runs minus Lucene's English stop words."""

from __future__ import annotations

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


def test_stopwords_are_lucenes_english_list() -> None:
    import bm25s.stopwords

    assert frozenset(bm25s.stopwords.STOPWORDS_EN) == STOPWORDS


def test_qa_and_eval_share_it() -> None:
    from notechunk.qa import retrievability

    assert retrievability.tokenize is terms
