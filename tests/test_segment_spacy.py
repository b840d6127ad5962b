"""The spaCy backend, with the blank English pipeline + sentencizer (no model download)."""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from notechunk.errors import ConfigError
from notechunk.segment import get_segmenter, split
from notechunk.segment.spacy_backend import SpacySegmenter


def test_missing_spacy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_spacy(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "spacy" or name.startswith("spacy."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_spacy)
    with pytest.raises(ConfigError, match=r"pip install 'notechunk\[spacy\]'"):
        SpacySegmenter("blank_en").spans("Hello. World.")


def test_blank_pipeline_splits() -> None:
    pytest.importorskip("spacy")
    seg = get_segmenter("spacy:blank_en")
    assert seg.name == "spacy:blank_en"
    assert split(seg, "Hello World. My name is Jonas.") == ["Hello World.", "My name is Jonas."]


def test_offsets_are_trimmed() -> None:
    pytest.importorskip("spacy")
    text = "  First one.   Second one.  \n\n Third. "
    spans = get_segmenter("spacy:blank_en").spans(text)
    assert [text[s:e] for s, e in spans] == ["First one.", "Second one.", "Third."]
    assert spans[0] == (2, 12)


def test_missing_model_names_the_model() -> None:
    pytest.importorskip("spacy")
    with pytest.raises(ConfigError, match="'xx_no_such_model' is not installed"):
        get_segmenter("spacy:xx_no_such_model").spans("Hello.")


def test_long_text_beyond_max_length() -> None:
    pytest.importorskip("spacy")
    seg = SpacySegmenter("blank_en")
    seg.load()
    seg._nlp.max_length = 50
    text = "A short sentence here. " * 10
    assert len(seg.spans(text)) == 10


def test_installed_pipeline_is_loaded_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    spacy = pytest.importorskip("spacy")
    loaded: list[str] = []

    def fake_load(name: str, **kwargs: Any) -> Any:
        loaded.append(name)
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
        return nlp

    monkeypatch.setattr(spacy, "load", fake_load)
    seg = get_segmenter("spacy:en_core_web_trf")
    assert loaded == []  # nothing loads before the first text
    assert split(seg, "One. Two.") == ["One.", "Two."]
    assert loaded == ["en_core_web_trf"]


def test_pipeline_without_sentence_boundaries(monkeypatch: pytest.MonkeyPatch) -> None:
    spacy = pytest.importorskip("spacy")
    monkeypatch.setattr(spacy, "load", lambda name, **kwargs: spacy.blank("en"))
    with pytest.raises(ConfigError, match="has no senter, parser or sentencizer"):
        get_segmenter("spacy:bare").spans("One. Two.")
